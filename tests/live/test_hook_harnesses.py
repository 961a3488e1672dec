"""pi (extension events and --mode json stream), Codex notify, and a third-party adapter."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from live_helpers import EXAMPLES, coldstart, new_run, of_kind, replay

from pytest_coldstart.ext import manager
from pytest_coldstart.ext.hookspecs import hookimpl
from pytest_coldstart.live.adapter import HookContext
from pytest_coldstart.live.capture import run_hook

SID = "01a139ae-db2e-7d41-9e2a-6c0f4b8d2e15"


def test_the_pi_extension_events_become_records(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    events = [
        {"type": "session_start", "sessionId": SID, "cwd": "/home/dev/lab"},
        {"type": "input", "sessionId": SID, "text": "Read task.md and do what it says."},
        {"type": "tool_call", "sessionId": SID, "toolCallId": "call_1", "toolName": "bash", "input": {"command": "ls"}},
        {"type": "tool_call", "sessionId": SID, "toolCallId": "call_2", "toolName": "read", "input": {"path": "a.md"}},
        {"type": "tool_result", "sessionId": SID, "toolCallId": "call_2", "toolName": "read", "content": [{"type": "text", "text": "# a"}], "isError": False},
        {"type": "tool_result", "sessionId": SID, "toolCallId": "call_1", "toolName": "bash", "content": [{"type": "text", "text": "ls: boom"}], "isError": True},
        {"type": "tool_call", "sessionId": SID, "toolCallId": "call_3", "toolName": "bash", "input": {"command": "sleep 99"}},
        {"type": "session_shutdown", "sessionId": SID},
    ]  # fmt: skip
    replay(run, events, harness="pi")
    results = {r["call_id"]: r["status"] for r in of_kind(run, "result")}
    assert results == {"call_2": "ok", "call_1": "error", "call_3": "open"}
    assert [c["call_id"] for c in of_kind(run, "call")] == ["call_1", "call_2", "call_3"]
    assert [m["name"] for m in of_kind(run, "mark")] == ["human.prompt", "session.end"]
    assert coldstart("trace", "validate", "--run-dir", str(run)).returncode == 0


def test_pi_mode_json_streams_in_through_one_process(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    stream = [
        {"type": "session", "version": 3, "id": SID, "timestamp": "2026-12-03T10:00:00.000Z", "cwd": "/home/dev/lab"},
        {"type": "agent_start"},
        {"type": "tool_execution_start", "toolCallId": "call_9", "toolName": "bash", "args": {"command": "ls"}},
        {"type": "tool_execution_update", "toolCallId": "call_9", "partialResult": "a"},
        {
            "type": "tool_execution_end",
            "toolCallId": "call_9",
            "toolName": "bash",
            "result": {"content": []},
            "isError": False,
        },
        {"type": "agent_end", "messages": []},
    ]
    text = "".join(json.dumps(e) + "\n" for e in stream) + "not json\n"
    done = coldstart("hook", "pi", "--stream", "--run-dir", str(run), input=text.encode())
    assert done.returncode == 0 and done.stdout == b"" and done.stderr.count(b"\n") == 1
    assert [(c["call_id"], c["arguments"]) for c in of_kind(run, "call")] == [("call_9", {"command": "ls"})]
    assert [r["status"] for r in of_kind(run, "result")] == ["ok"]
    phases = [p for p in of_kind(run, "phase") if p.get("source") == "hook:pi"]
    assert phases[0]["session_id"] == SID


def test_codex_notify_records_turns_and_the_humans_messages(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    notify = {
        "type": "agent-turn-complete",
        "thread-id": "b5f3",
        "turn-id": "12345",
        "input-messages": ["Rename `foo` to `bar` and update the callsites."],
        "last-assistant-message": "Rename complete.",
    }
    done = coldstart("hook", "codex", "--run-dir", str(run), json.dumps(notify))
    assert done.returncode == 0 and done.stdout == b""
    marks = [(m["name"], m["actor"], m["data"]["session_id"]) for m in of_kind(run, "mark")]
    assert marks == [("human.prompt", "operator", "b5f3"), ("agent.turn_complete", "harness", "b5f3")]


class EchoAdapter:
    name = "echo-harness"
    description = "a third-party harness"

    def translate(self, payload: dict[str, Any], context: HookContext) -> list[dict[str, Any]]:
        return [
            {
                "record": "mark",
                "name": "echo",
                "actor": "harness",
                "data": {"said": payload.get("say"), "source": context.source},
            }
        ]


class EchoPlugin:
    @hookimpl
    def coldstart_register_live_adapters(self) -> list[Any]:
        return [EchoAdapter()]


def test_a_third_party_adapter_is_a_small_plugin(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    manager.reset()
    manager.manager().register(EchoPlugin(), name="echo-plugin")
    try:
        outcome = run_hook("echo-harness", b'{"say": "hi"}', run, budget_s=30)
    finally:
        manager.reset()
    assert outcome.failure is None and outcome.appended == 1
    (mark,) = of_kind(run, "mark")
    assert mark["name"] == "echo" and mark["data"] == {"said": "hi", "source": "hook:echo-harness"}
    unknown = run_hook("no-such-harness", b"{}", run, budget_s=30)
    assert unknown.failure is not None and "unknown harness 'no-such-harness'" in unknown.failure


def test_the_shipped_pi_extension_calls_the_hook_for_every_event() -> None:
    source = (EXAMPLES.parent / "pi-coldstart-extension.ts").read_text()
    for event in ("session_start", "input", "tool_call", "tool_result", "session_shutdown"):
        assert f'pi.on("{event}"' in source
    assert '"hook", "pi"' in source and "COLDSTART_RUN_DIR" in source
