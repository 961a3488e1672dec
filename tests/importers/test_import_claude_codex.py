"""Claude Code and Codex specifics: sidechains, rewinds, compaction, progress, exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest
from importer_helpers import calls_by_id, manifest, new_run, records, write_lines

from pytest_coldstart.importers.codex import exit_code
from pytest_coldstart.importers.pipeline import import_session
from pytest_coldstart.validate.run import validate_run

T = "2026-04-02T08:00:{:02d}.000Z"


def cc(n: int, kind: str, uuid: str, parent: str | None, content, **extra) -> dict:
    line = {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/w",
        "sessionId": "sess",
        "version": "2.1.90",
        "type": kind,
        "uuid": uuid,
        "timestamp": T.format(n),
        "message": {"role": kind, "content": content},
    }
    line.update(extra)
    return line


def use(call_id: str, name: str = "Bash", **args) -> list:
    return [{"type": "tool_use", "id": call_id, "name": name, "input": args or {"command": "ls"}}]


def res(call_id: str, text, is_error: bool = False) -> list:
    return [{"type": "tool_result", "tool_use_id": call_id, "content": text, "is_error": is_error}]


def test_claude_sidechain_rewind_compaction_duplicates(tmp_path: Path) -> None:
    lines = [
        {"type": "summary", "summary": "title", "leafUuid": "u9"},
        cc(1, "user", "u1", None, "do it"),
        cc(2, "assistant", "a1", "u1", use("c1")),
        cc(3, "user", "r1", "a1", res("c1", "ok")),
        # a rewind: this branch is abandoned (the active chain continues from r1 below)
        cc(4, "assistant", "a2", "r1", use("c2")),
        cc(
            5,
            "user",
            "r2",
            "a2",
            res("c2", [{"type": "text", "text": "Exit code 1\n"}, {"type": "text", "text": "boom"}], True),
        ),
        # a subagent's own chain
        cc(6, "assistant", "s1", None, use("c3", "Read", file_path="/w/x"), isSidechain=True, agentId="ag1"),
        cc(7, "user", "s2", "s1", res("c3", "text"), isSidechain=True, agentId="ag1"),
        # compaction: a new root that points back logically
        {
            "parentUuid": None,
            "logicalParentUuid": "r1",
            "isSidechain": False,
            "type": "system",
            "subtype": "compact_boundary",
            "uuid": "b1",
            "timestamp": T.format(8),
            "sessionId": "sess",
            "version": "2.1.90",
            "compactMetadata": {"trigger": "auto", "preTokens": 9},
        },
        cc(9, "user", "u2", "b1", "[Request interrupted by user]"),
        cc(10, "assistant", "a3", "u2", use("c4")),
        cc(10, "assistant", "a3", "u2", use("c4")),  # a resumed session repeats a line (same uuid)
        {
            "parentUuid": "a3",
            "isSidechain": False,
            "type": "progress",
            "uuid": "p1",
            "timestamp": T.format(12),
            "toolUseID": "c4",
            "data": {"type": "bash_progress"},
            "sessionId": "sess",
            "version": "2.1.90",
        },
    ]
    session = write_lines(tmp_path / "cc.jsonl", lines)
    run = new_run(tmp_path / "run")
    import_session(run, "claude-code", session)
    got = calls_by_id(run)
    assert set(got) == {"c1", "c2", "c3", "c4"}
    assert got["c1"]["call"].get("branch") is None  # before the compaction, still on the active chain
    assert got["c2"]["call"]["branch"] == "abandoned" and got["c2"]["result"]["branch"] == "abandoned"
    assert got["c2"]["result"]["status"] == "error" and got["c2"]["result"]["result"]["text"] == "Exit code 1\nboom"
    assert got["c3"]["call"]["sidechain"] is True and got["c3"]["call"]["agentId"] == "ag1"
    assert got["c3"]["call"].get("branch") is None
    assert got["c4"]["result"]["status"] == "open" and got["c4"]["result"]["last_progress_at"] == T.format(12)
    names = [r["name"] for r in records(run) if r["record"] == "mark"]
    assert names == ["human.prompt", "claude.compaction", "claude.interrupt"]  # the first prompt: the task
    counts = manifest(run)["imports"][0]["counts"]
    assert counts["duplicate_lines"] == 1 and counts["sidechain_calls"] == 1 and counts["abandoned"] == 1
    assert validate_run(run).valid


def test_claude_line_without_a_uuid_is_refused(tmp_path: Path) -> None:
    bad = cc(1, "user", "u1", None, "hi")
    del bad["uuid"]
    from pytest_coldstart.run.errors import ColdstartError

    with pytest.raises(ColdstartError, match=r":1: user line has no uuid"):
        import_session(new_run(tmp_path / "run"), "claude-code", write_lines(tmp_path / "s.jsonl", [bad]))


@pytest.mark.parametrize(
    "output,code,timed_out",
    [
        ("Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\nhi\n", 0, False),
        ("Chunk ID: 1\nProcess exited with code 2\nOutput:\n", 2, False),
        ("Exit code: 1\nWall time: 3 seconds\nOutput:\nfail\n", 1, False),
        ('{"output":"done","metadata":{"exit_code":3,"duration_seconds":0.1}}', 3, False),
        ("Chunk ID: 1\nWall time: 1 seconds\nProcess running with session ID 7\nOutput:\n", None, False),
        ("Exit code: 0\nOutput:\nProcess exited with code 9\nExit code: 9\n", 0, False),  # the command's own text
        ("Output:\nExit code: 5\n", None, False),
        ("command timed out after 10000 milliseconds\nExit code: 124\nOutput:\n", 124, True),
        ("Plan updated", None, False),
        ("{not json", None, False),
    ],
)
def test_codex_exit_codes_come_from_the_header_only(output: str, code: int | None, timed_out: bool) -> None:
    assert exit_code(output) == (code, timed_out)


def env(n: int, kind: str, payload: dict) -> dict:
    return {"timestamp": T.format(n), "type": kind, "payload": payload}


def test_codex_shell_raw_arguments_aborted_turn_and_replayed_meta(tmp_path: Path) -> None:
    meta = {"id": "r1", "cwd": "/w", "cli_version": "0.120.0", "model_provider": "openai"}
    lines = [
        env(0, "session_meta", meta),
        env(1, "session_meta", {**meta, "id": "parent"}),  # a forked file replays its parent's meta
        env(2, "turn_context", {"model": "gpt-5"}),
        env(
            3,
            "response_item",
            {
                "type": "local_shell_call",
                "call_id": "s1",
                "status": "completed",
                "action": {"type": "exec", "command": ["ls", "-la"]},
            },
        ),
        env(
            4,
            "response_item",
            {"type": "function_call_output", "call_id": "s1", "output": "Exit code: 0\nOutput:\nx\n"},
        ),
        env(5, "response_item", {"type": "function_call", "name": "shell", "arguments": "{not json", "call_id": "f1"}),
        env(
            6,
            "response_item",
            {
                "type": "function_call_output",
                "call_id": "f1",
                "output": [{"type": "input_text", "text": "failed to parse"}],
            },
        ),
        env(
            7,
            "response_item",
            {"type": "function_call", "name": "exec_command", "arguments": '{"cmd":"sleep 9"}', "call_id": "f2"},
        ),
        env(8, "event_msg", {"type": "turn_aborted", "reason": "interrupted"}),
        env(9, "mystery", {}),
    ]
    run = new_run(tmp_path / "run")
    import_session(run, "codex", write_lines(tmp_path / "rollout.jsonl", lines))
    got = calls_by_id(run)
    assert got["s1"]["call"]["tool"] == "local_shell" and got["s1"]["call"]["arguments"]["command"] == ["ls", "-la"]
    assert got["s1"]["result"]["exit_code"] == 0 and got["s1"]["result"]["status"] == "ok"
    assert got["f1"]["call"]["arguments"] == "{not json"
    assert got["f1"]["result"]["result"]["text"] == "failed to parse"
    assert got["f2"]["result"]["status"] == "open" and "aborted (interrupted)" in got["f2"]["result"]["note"]
    start = records(run)[2]
    assert start["model"] == "gpt-5" and start["session_id"] == "r1"
    counts = manifest(run)["imports"][0]["counts"]
    assert counts["session_meta_replays"] == 1 and counts["unknown_lines"] == 1
    assert validate_run(run).valid


def test_codex_first_line_must_be_session_meta(tmp_path: Path) -> None:
    from pytest_coldstart.run.errors import ColdstartError

    session = write_lines(tmp_path / "r.jsonl", [env(0, "turn_context", {"model": "x"})])
    with pytest.raises(ColdstartError, match=":1: not a Codex rollout"):
        import_session(new_run(tmp_path / "run"), "codex", session)
