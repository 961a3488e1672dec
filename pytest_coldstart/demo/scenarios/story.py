"""The default story of a valid run: an agent writes, builds and starts its own logger, actuates
the machine, its logger captures three ejected carts before they fall into the void, it reads
the log back and answers; an independent test mod records every step (DESIGN §5-7).

Everything is plain data (lists of dicts) so a test can break any part of it in one line.
"""

from __future__ import annotations

from copy import deepcopy
from datetime import UTC, datetime, timedelta
from typing import Any

from pytest_coldstart.run.clock import format_at

T0 = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)
INSTANCE = "lab-a"
DIMENSION = "minecraft:overworld"
LOGGER_PATH = "agent/romlog.jsonl"
TESTMOD_PATH = "test/testmod.jsonl"
READ_LOGGER = "<the logger's captured lines, filled in at build time>"

CARTS: list[dict[str, Any]] = [
    {
        "uuid": "0b7e7c1a-5d2e-4c3b-9a41-6f0d2c8e1a01",
        "items": [
            {"slot": 7, "id": "minecraft:iron_ingot", "count": 5},
            {"slot": 15, "id": "minecraft:sand", "count": 1},
        ],
    },
    {
        "uuid": "1c8f8d2b-6e3f-4d4c-8b52-7a1e3d9f2b02",
        "items": [
            {"slot": 0, "id": "minecraft:stone", "count": 4},
            {"slot": 7, "id": "minecraft:glass", "count": 4},
            {"slot": 22, "id": "minecraft:redstone", "count": 2},
        ],
    },
    {"uuid": "2d9a9e3c-7f4a-4e5d-9c63-8b2f4e0a3c03", "items": [{"slot": 26, "id": "minecraft:coal", "count": 2}]},
]


def at(seconds: float) -> str:
    return format_at(T0 + timedelta(seconds=seconds))


def _event(name: str, seconds: float, tick: int, seq: int, run_id: str, **fields: Any) -> dict[str, Any]:
    return {
        "event": name,
        "at": at(seconds),
        "tick": tick,
        "seq": seq,
        "instance": INSTANCE,
        "dimension": DIMENSION,
        "run_id": run_id,
        **deepcopy(fields),  # CARTS' item lists are shared: an edit of one run must not leak into the next
    }


def testmod_events(run_id: str) -> list[dict[str, Any]]:
    events = [
        _event("instance_ready", 1.5, 100, 1, run_id),
        _event("restore_started", 2.0, 110, 2, run_id),
        _event("restore_finished", 2.5, 120, 3, run_id),
        _event("input_attempt", 10.4, 300, 4, run_id, actor="Romuser"),
        _event("input_processed", 10.5, 301, 5, run_id, actor="Romuser"),
    ]
    seq = 6
    for number, cart in enumerate(CARTS):
        base = 11 + 2 * number
        events.append(_event("cart_ejected", base, 310 + 40 * number, seq, run_id, uuid=cart["uuid"]))
        events.append(
            _event(
                "cart_removed",
                base + 0.8,
                330 + 40 * number,
                seq + 1,
                run_id,
                uuid=cart["uuid"],
                reason="void",
                items=cart["items"],
            )
        )
        seq += 2
    events.append(_event("end", 24, 600, seq, run_id))
    return events


def logger_events(run_id: str) -> list[dict[str, Any]]:
    events = [_event("logger_armed", 8.5, 200, 1, run_id, mod="romlogger")]
    for number, cart in enumerate(CARTS):
        events.append(
            _event(
                "cart_observed",
                11.3 + 2 * number,
                312 + 40 * number,
                2 + number,
                run_id,
                uuid=cart["uuid"],
                items=cart["items"],
                position=[16.6, -46.5, -21.5],
            )
        )
    events.append({"event": "logger_flushed", "at": at(17.5), "seq": 2 + len(CARTS), "run_id": run_id})
    return events


def trajectory_records() -> list[dict[str, Any]]:
    """Records appended after init, in order (explicit times keep them in the story's clock)."""

    def call(call_id: str, seconds: float, tool: str, arguments: Any) -> dict[str, Any]:
        return {
            "record": "call",
            "call_id": call_id,
            "tool": tool,
            "arguments": arguments,
            "phase": "agent",
            "actor": "agent",
            "at": at(seconds),
        }

    def result(call_id: str, seconds: float, value: Any, status: str = "ok") -> dict[str, Any]:
        return {
            "record": "result",
            "call_id": call_id,
            "status": status,
            "result": value,
            "actor": "agent",
            "phase": "agent",
            "at": at(seconds),
        }

    return [
        {
            "record": "phase",
            "phase": "restore",
            "actor": "restore",
            "instance": INSTANCE,
            "note": "restore the ready snapshot",
            "evidence": [],
            "at": at(1.0),
        },
        {
            "record": "phase",
            "phase": "agent",
            "actor": "harness",
            "instance": INSTANCE,
            "note": "fresh agent session",
            "evidence": [],
            "at": at(4.0),
        },
        call(
            "c-write-logger",
            5.0,
            "write",
            {
                "path": "workspace/logger/RomLogger.java",
                "content": "final class RomLogger { /* appends romlog.jsonl */ }",
            },
        ),
        result("c-write-logger", 5.2, {"text": "wrote 52 bytes"}),
        call(
            "c-build-logger",
            6.0,
            "bash",
            {"command": "javac -d build workspace/logger/RomLogger.java && jar cf romlogger.jar -C build ."},
        ),
        result("c-build-logger", 6.5, {"text": "built romlogger.jar"}),
        call("c-start-logger", 7.0, "bash", {"command": f"lab start --mod romlogger.jar --log {LOGGER_PATH}"}),
        result("c-start-logger", 8.0, {"text": "server started with romlogger"}),
        call("c-actuate", 10.0, "bridge", {"command": "player Romuser use once", "target": "note_block 11,-54,-23"}),
        result("c-actuate", 12.0, {"text": "used note block"}),
        call("c-read-log", 20.0, "read", {"path": LOGGER_PATH}),
        result("c-read-log", 20.3, {"text": READ_LOGGER}),
        call("c-write-answer", 22.0, "write", {"path": "answer.json"}),
        result("c-write-answer", 22.2, {"text": "wrote answer.json"}),
        {
            "record": "phase",
            "phase": "audit",
            "actor": "operator",
            "note": "evidence collected",
            "evidence": [],
            "at": at(25.0),
        },
    ]


def answer(run_id: str) -> dict[str, Any]:
    return {"run_id": run_id, "carts": [{"uuid": c["uuid"], "items": [dict(i) for i in c["items"]]} for c in CARTS]}


def oracle(run_id: str) -> dict[str, Any]:
    return {
        "run_id": run_id,
        "status": "verified",
        "source": "independent test mod: cart_removed inventories captured before destruction",
        "evidence_refs": ["testmod:seq7", "testmod:seq9", "testmod:seq11", "fixture:ready"],
        "carts": [
            {
                "uuid": c["uuid"],
                "items": [{"slot": i["slot"], "item": i["id"], "count": i["count"]} for i in c["items"]],
            }
            for c in CARTS
        ],
    }


def fixture() -> dict[str, Any]:
    return {"status": "ready", "ready": True, "instance": INSTANCE, "snapshot": "ready-snapshot"}


def restore() -> dict[str, Any]:
    return {"status": "ok", "entities_issued": 3, "entities_failed": 0, "order_hash": "545a11e87afce73b"}


def reviews() -> list[dict[str, Any]]:
    by = "reviewer A (independent)"
    return [
        {
            "id": "machine_operated.causality",
            "status": "resolved",
            "by": by,
            "at": at(40),
            "note": "the bridge call is the processed input",
            "evidence": ["trajectory:c-actuate", "testmod:seq5"],
        },
        {
            "id": "logger_armed_before_activation.running",
            "status": "resolved",
            "by": by,
            "at": at(41),
            "note": "server log shows the mod loaded",
            "evidence": ["trajectory:c-start-logger", "logger:seq1"],
        },
        {
            "id": "answer_correct.oracle_independence",
            "status": "resolved",
            "by": by,
            "at": at(42),
            "note": "oracle from the test mod only",
            "evidence": ["testmod:seq7", "fixture:ready", "restore:status"],
        },
    ]
