"""Runs of a chosen shape, in either format, for the benchmarks (not imported by the package).

``generate(target, carts=, calls=, result_bytes=, content_every=, fmt=)`` writes the passing
story with ``carts`` ejected carts, each captured by the logger (uuid + a few items), and
``calls`` ordinary agent calls *after* the last capture (so every one of their results is a
read the audit must judge for captured content; one in ``content_every`` quotes a cart back).
Version 2 is written by the recorder (hash chain, payload store); version 1 is the same run in
the reference layout (``schema`` strings, no chain, every result inline), what
``coldstart migrate`` reads.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

V1 = {
    "run.json": "mc-agent-coldstart-run/1",
    "evidence.json": "mc-agent-coldstart-evidence/1",
    "visibility.json": "mc-agent-coldstart-visibility/1",
    "trajectory": "mc-agent-coldstart-trajectory/1",
}
ITEMS = [
    "iron_ingot", "sand", "stone", "glass", "redstone", "coal", "dirt", "oak_log", "gold_ingot", "diamond",
    "emerald", "lapis_lazuli", "copper_ingot", "gravel", "cobblestone", "torch", "rail", "powered_rail",
]  # fmt: skip


def carts(count: int, seed: int = 7) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out = []
    for number in range(count):
        high, mid, low, node = rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(12), rng.getrandbits(12)
        uuid = f"{high:08x}-{mid:04x}-4{low:03x}-8{node:03x}-{number:012x}"
        picked = rng.sample(ITEMS, rng.randint(1, 4))
        items = [
            {"slot": slot, "id": f"minecraft:{name}", "count": rng.randint(1, 64)} for slot, name in enumerate(picked)
        ]
        out.append({"uuid": uuid, "items": items})
    return out


def generate(
    target: Path, *, carts_n: int, calls: int, result_bytes: int = 1024, content_every: int = 50, fmt: int = 2
) -> Path:
    from pytest_coldstart.demo.scenarios import RunBuilder, story

    chosen = carts(carts_n)
    builder = RunBuilder(target, run_id=f"shape-{carts_n}-{calls}").passing()
    span = 6.0 / max(1, carts_n)  # every capture between 11 s and 17 s of the story, in order
    logger = [builder.logger[0]]
    testmod = [e for e in builder.testmod if e["event"] not in ("cart_ejected", "cart_removed", "end")]
    for number, cart in enumerate(chosen):
        seconds = 11.0 + span * number
        common = {"instance": story.INSTANCE, "dimension": story.DIMENSION, "run_id": builder.run_id}
        testmod.append({"event": "cart_ejected", "at": story.at(seconds), "tick": 310 + 2 * number, "seq": 6 + 2 * number, "uuid": cart["uuid"], **common})  # fmt: skip
        testmod.append({"event": "cart_removed", "at": story.at(seconds + span / 2), "tick": 311 + 2 * number, "seq": 7 + 2 * number, "uuid": cart["uuid"], "reason": "void", "items": cart["items"], **common})  # fmt: skip
        logger.append({"event": "cart_observed", "at": story.at(seconds + span / 4), "tick": 310 + 2 * number, "seq": 2 + number, "uuid": cart["uuid"], "items": cart["items"], "position": [16.6, -46.5, -21.5], **common})  # fmt: skip
    testmod.append({**builder.testmod[-1], "seq": 6 + 2 * carts_n, "tick": 320 + 2 * carts_n})
    logger.append({**builder.logger[-1], "seq": 2 + carts_n})
    builder.logger, builder.testmod = logger, testmod
    answer = builder.documents["answer"]
    popped = [{"uuid": c["uuid"], "items": c["items"]} for c in chosen]
    _replace_carts(answer, popped)
    _replace_carts(builder.documents["oracle"], popped)
    builder.after_build(lambda root: _reads(root, chosen, calls, result_bytes, content_every))
    run = builder.build()
    if fmt == 1:
        to_version_1(run)
    return run


def _replace_carts(document: dict[str, Any], popped: list[dict[str, Any]]) -> None:
    for key, value in document.items():
        if isinstance(value, list) and value and isinstance(value[0], dict) and "uuid" in value[0]:
            document[key] = [dict(value[0], **cart) for cart in popped]


def _reads(root: Path, chosen: list[dict[str, Any]], calls: int, result_bytes: int, content_every: int) -> None:
    """Agent reads after the answer, each judged for captured content."""
    from pytest_coldstart.record.recorder import Recorder

    recorder = Recorder(root)
    body = ("x" * 63 + "\n") * max(1, result_bytes // 64)
    batch: list[Any] = []
    for number in range(calls):
        call_id = f"c-read-{number}"
        text = body
        if content_every and number % content_every == 0:
            cart = chosen[number % len(chosen)]
            text = cart["uuid"] + " " + ", ".join(f"{i['id']} x{i['count']}" for i in cart["items"]) + "\n" + body
        batch.append(recorder.prepare({"record": "call", "call_id": call_id, "tool": "read", "arguments": {"path": f"notes/{number}.txt"}, "phase": "agent", "actor": "agent"}))  # fmt: skip
        batch.append(recorder.prepare({"record": "result", "call_id": call_id, "status": "ok", "result": {"text": text}, "actor": "agent", "phase": "agent"}))  # fmt: skip
        if len(batch) >= 2000:
            recorder.appender.append_many(batch)
            batch = []
    if batch:
        recorder.appender.append_many(batch)


def to_version_1(run: Path) -> None:
    """Rewrite a version-2 run (no seal, no payload files) in the reference layout."""
    for name in ("run.json", "evidence.json", "visibility.json"):
        path = run / name
        document = json.loads(path.read_text())
        document.pop("schemaVersion", None)
        path.write_text(json.dumps({"schema": V1[name], **document}, ensure_ascii=False, indent=2) + "\n")
    for name, drop in (
        ("trajectory.jsonl", ("schemaVersion", "prev", "monotonic_ms")),
        ("reviews.jsonl", ("schemaVersion",)),
    ):
        path, temporary = run / name, run / (name + ".v1")
        with open(path, encoding="utf-8") as source, open(temporary, "w", encoding="utf-8") as out:
            for line in source:
                record = json.loads(line)
                for key in drop:
                    record.pop(key, None)
                if name == "trajectory.jsonl":
                    record = {"schema": V1["trajectory"], **record}
                out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
        temporary.replace(path)
