"""Where each imported call ran (``cwd`` on the call, ``cwds`` in run.json) and Claude Code
lines whose uuid repeats: read once when unchanged, refused when different; subagent
transcripts beside a Claude Code session are named in run.json and the summary."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from importer_helpers import calls_by_id, manifest, new_run, records, write_lines

from pytest_coldstart.importers.pipeline import import_session
from pytest_coldstart.run.errors import ColdstartError

T = "2026-03-01T10:00:{:02d}.000Z"


def cc(n: int, kind: str, uuid: str, parent: str | None, content: Any, cwd: str = "/w") -> dict[str, Any]:
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "cwd": cwd,
        "sessionId": "s1",
        "version": "2.1.90",
        "type": kind,
        "uuid": uuid,
        "timestamp": T.format(n),
        "message": {"role": kind, "content": content},
    }


def call(n: int, call_id: str, parent: str, cwd: str, command: str = "ls") -> list[dict[str, Any]]:
    use = [{"type": "tool_use", "id": call_id, "name": "Bash", "input": {"command": command}}]
    done = [{"type": "tool_result", "tool_use_id": call_id, "content": "ok"}]
    return [cc(n, "assistant", f"a{n}", parent, use, cwd), cc(n + 1, "user", f"r{n}", f"a{n}", done, cwd)]


def test_claude_code_each_call_keeps_the_folder_of_its_line(tmp_path: Path) -> None:
    lines = [cc(1, "user", "u1", None, "go", "/w"), *call(2, "t1", "u1", "/w"), *call(4, "t2", "r2", "/w/sub")]
    lines.append(cc(9, "assistant", "a9", "r4", [{"type": "text", "text": "done"}], "/elsewhere"))
    run = new_run(tmp_path / "run")
    import_session(run, "claude-code", write_lines(tmp_path / "s.jsonl", lines))
    got = calls_by_id(run)
    assert got["t1"]["call"]["cwd"] == "/w" and got["t2"]["call"]["cwd"] == "/w/sub"
    entry = manifest(run)["imports"][0]
    # the session's folder is where it started, not where its last line happened to be
    assert entry["cwd"] == "/w" and entry["cwds"] == ["/w", "/w/sub", "/elsewhere"]


def cx(n: int, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": T.format(n), "type": kind, "payload": payload}


def cx_call(n: int, call_id: str, arguments: dict[str, Any], name: str = "exec_command") -> dict[str, Any]:
    item = {"type": "function_call", "name": name, "arguments": json.dumps(arguments), "call_id": call_id}
    return cx(n, "response_item", item)


def test_codex_a_call_runs_in_its_workdir_else_the_turn_folder_else_the_session_one(tmp_path: Path) -> None:
    shell = {"type": "exec", "command": ["cat", "x"], "working_directory": "/run/test"}
    lines = [
        cx(1, "session_meta", {"id": "x1", "cwd": "/ws", "cli_version": "0.111.0"}),
        cx_call(2, "c-meta", {"cmd": "ls"}),
        cx(3, "turn_context", {"cwd": "/run", "model": "m"}),
        cx_call(4, "c-turn", {"cmd": "cat oracle.json"}),
        cx_call(5, "c-workdir", {"cmd": "ls", "workdir": "/elsewhere"}),
        cx_call(6, "c-relative", {"cmd": "ls", "workdir": "test/../agent"}),
        cx_call(7, "c-shell", {"command": ["ls"], "workdir": "/s"}, "shell"),
        cx(
            8,
            "response_item",
            {"type": "local_shell_call", "call_id": "c-local", "status": "completed", "action": shell},
        ),
    ]
    run = new_run(tmp_path / "run")
    import_session(run, "codex", write_lines(tmp_path / "s.jsonl", lines))
    folders = {call_id: got["call"].get("cwd") for call_id, got in calls_by_id(run).items()}
    assert folders == {
        "c-meta": "/ws",
        "c-turn": "/run",
        "c-workdir": "/elsewhere",
        "c-relative": "/run/agent",
        "c-shell": "/s",
        "c-local": "/run/test",
    }
    entry = manifest(run)["imports"][0]
    assert entry["cwd"] == "/ws" and entry["cwds"] == ["/ws", "/run", "/elsewhere", "/run/agent", "/s", "/run/test"]


def test_pi_calls_carry_the_session_folder(samples: Path, tmp_path: Path) -> None:
    run = new_run(tmp_path / "run")
    import_session(run, "pi", samples / "pi-v3-basic.jsonl")
    entry = manifest(run)["imports"][0]
    folders = {r.get("cwd") for r in records(run) if r["record"] == "call"}
    assert folders == {entry["cwd"]} and entry["cwds"] == [entry["cwd"]]


def test_claude_code_repeated_uuid_unchanged_or_reordered_is_read_once(tmp_path: Path) -> None:
    first = call(2, "t1", "u1", "/w")
    reordered = dict(reversed(list(first[0].items())))
    lines = [cc(1, "user", "u1", None, "go"), *first, first[0], reordered]
    run = new_run(tmp_path / "run")
    import_session(run, "claude-code", write_lines(tmp_path / "s.jsonl", lines))
    assert list(calls_by_id(run)) == ["t1"]
    assert manifest(run)["imports"][0]["counts"]["duplicate_lines"] == 2


@pytest.mark.parametrize(
    "change",
    [
        lambda line: line["message"]["content"][0]["input"].update(command="cat oracle.json"),
        lambda line: line.update(cwd="/run"),
        lambda line: line.update(timestamp=T.format(30)),
    ],
)
def test_claude_code_repeated_uuid_with_other_content_is_refused(tmp_path: Path, change: Any) -> None:
    first = call(2, "t1", "u1", "/w")
    again = json.loads(json.dumps(first[0]))
    change(again)
    lines = [cc(1, "user", "u1", None, "go"), *first, again]
    run = new_run(tmp_path / "run")
    before = (run / "trajectory.jsonl").read_bytes()
    with pytest.raises(ColdstartError) as caught:
        import_session(run, "claude-code", write_lines(tmp_path / "s.jsonl", lines))
    message = str(caught.value)
    assert "s.jsonl:4:" in message and "uuid 'a2' repeats line 2 with different content" in message
    assert "nothing was imported" in message
    assert (run / "trajectory.jsonl").read_bytes() == before and not manifest(run)["imports"]


def test_claude_code_subagent_transcripts_beside_the_session_are_read(tmp_path: Path) -> None:
    lines = [cc(1, "user", "u1", None, "go"), *call(2, "t1", "u1", "/w")]
    session = write_lines(tmp_path / "s1.jsonl", lines)  # sessionId s1
    subagents = tmp_path / "s1" / "subagents"
    subagents.mkdir(parents=True)
    write_lines(subagents / "agent-a1.jsonl", [cc(3, "user", "x1", None, "survey"), *call(4, "t9", "x1", "/w")])
    run = new_run(tmp_path / "run")
    summary = import_session(run, "claude-code", session)
    entry = manifest(run)["imports"][0]
    assert "unimported_subagents" not in entry
    assert [(item["path"], item["calls"]) for item in entry["subagents"]] == [("s1/subagents/agent-a1.jsonl", 1)]
    assert "read 1 sub-agent transcript(s)" in summary
    calls = [r for r in records(run) if r.get("record") == "call"]
    assert [c["call_id"] for c in calls][-1].endswith("t9")
    assert calls[-1]["sidechain"] is True and calls[-1]["agentId"] == "a1"
    assert calls[-1]["subagent_transcript"] == "s1/subagents/agent-a1.jsonl" and calls[-1]["subagent_line"] == 2
    other = new_run(tmp_path / "other")
    (tmp_path / "elsewhere").mkdir()
    import_session(other, "claude-code", write_lines(tmp_path / "elsewhere" / "s1.jsonl", lines))
    assert "subagents" not in manifest(other)["imports"][0]
