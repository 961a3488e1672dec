"""A run recorded live, then its session file imported: one trajectory, every difference reported."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from live_helpers import SESSION, audit, coldstart, new_run, of_kind, payloads, replay

from pytest_coldstart.live.crosscheck import not_before
from pytest_coldstart.record.trajectory import Serialized
from pytest_coldstart.run import jsonio


def _import(run: Path, session: Path = SESSION) -> str:
    done = coldstart("trace", "import", "--run-dir", str(run), "--format", "claude-code", "--session", str(session))
    assert done.returncode == 0, done.stderr
    return done.stdout.decode()


def _crosscheck(run: Path) -> dict[str, Any]:
    (mark,) = [m for m in of_kind(run, "mark") if m["name"] == "live.crosscheck"]
    return dict(mark["data"])


def _edited_session(tmp_path: Path, edit: Any) -> Path:
    lines = [json.loads(line) for line in SESSION.read_text().splitlines()]
    lines = [out for line in lines if (out := edit(line)) is not None]
    path = tmp_path / "edited-session.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _tool_use_ids(line: dict[str, Any]) -> list[str]:
    content = line.get("message", {}).get("content")
    return (
        [b.get("id") for b in content if isinstance(b, dict) and b.get("type") == "tool_use"]
        if isinstance(content, list)
        else []
    )


def test_live_then_imported_is_one_call_each_and_agrees(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    replay(run, payloads())
    summary = _import(run)
    assert "5 call(s) were already recorded live (kept once), no difference" in summary
    calls = of_kind(run, "call")
    assert sorted(c["call_id"] for c in calls) == ["toolu_01A", "toolu_01B", "toolu_01C", "toolu_01D", "toolu_01E"]
    assert {c["source"] for c in calls} == {"hook:claude-code"}
    assert len(of_kind(run, "result")) == 5
    data = _crosscheck(run)
    assert data["matched"] == 5 and data["differences"] == 0 and data["session_copy"].startswith("imports/")
    assert coldstart("trace", "validate", "--run-dir", str(run)).returncode == 0
    assert not any("live capture" in e for e in audit(run)["infra_errors"])


def test_a_session_file_edited_after_the_run_is_reported(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    replay(run, payloads())

    def forge(line: dict[str, Any]) -> dict[str, Any]:
        if "toolu_01A" in _tool_use_ids(line):
            line["message"]["content"][0]["input"]["command"] = "ls -la && cat answer.json"
        return line

    assert "1 difference(s) from the live capture" in _import(run, _edited_session(tmp_path, forge))
    data = _crosscheck(run)
    assert [(d["kind"], d["call_id"]) for d in data["listed"]] == [("arguments_differ", "toolu_01A")]
    report = audit(run)
    assert report["failure_class"] == "INFRA_ERROR"
    assert any("disagree" in e and "arguments_differ 'toolu_01A'" in e for e in report["infra_errors"])


def test_a_call_the_hook_missed_is_reported(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    replay(run, [p for p in payloads() if p.get("tool_use_id") != "toolu_01C"])
    _import(run)
    data = _crosscheck(run)
    assert [(d["kind"], d["call_id"]) for d in data["listed"]] == [("missed_by_hook", "toolu_01C")]
    assert len([c for c in of_kind(run, "call") if c["call_id"] == "toolu_01C"]) == 1  # imported, once
    assert any("missed_by_hook 'toolu_01C'" in e for e in audit(run)["infra_errors"])


def test_a_live_call_absent_from_the_session_file_is_reported(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    replay(run, payloads())

    def drop(line: dict[str, Any]) -> dict[str, Any] | None:
        content = line.get("message", {}).get("content")
        ids = (
            _tool_use_ids(line) + [b.get("tool_use_id") for b in content if isinstance(b, dict)]
            if isinstance(content, list)
            else []
        )
        return None if "toolu_01E" in ids else line

    _import(run, _edited_session(tmp_path, drop))
    data = _crosscheck(run)
    assert [(d["kind"], d["call_id"]) for d in data["listed"]] == [("not_in_session", "toolu_01E")]
    assert audit(run)["failure_class"] == "INFRA_ERROR"


def test_without_live_capture_an_import_is_unchanged(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    assert "recorded live" not in _import(run)
    assert [m for m in of_kind(run, "mark") if m["name"] == "live.crosscheck"] == []
    assert {c["source"] for c in of_kind(run, "call")} == {"import:claude-code"}


def test_a_human_turn_after_the_task_keeps_the_run_pending(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    prompt = next(p for p in payloads() if p["hook_event_name"] == "UserPromptSubmit")
    replay(run, [prompt])
    assert not any("human prompt" in r for r in audit(run)["pending_reasons"])
    replay(run, [{**prompt, "prompt": "hint: the third cart holds the enchanted pickaxe"}])
    report = audit(run)
    assert report["overall"] != "PASS"
    assert any("1 human prompt(s) reached the agent after the task prompt" in r for r in report["pending_reasons"])


def _prompts(run: Path) -> list[dict[str, Any]]:
    return [m for m in of_kind(run, "mark") if m["name"] == "human.prompt"]


def test_the_task_prompt_recorded_live_is_not_imported_again(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    replay(run, payloads())
    _import(run)
    (prompt,) = _prompts(run)
    assert prompt["data"]["source"] == "hook:claude-code"
    assert not any("human prompt" in r for r in audit(run)["pending_reasons"])


def test_a_human_turn_the_hooks_missed_comes_from_the_session_file(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    replay(run, payloads())
    lines = [json.loads(line) for line in SESSION.read_text().splitlines()]
    last = lines[-1]
    turn = {**lines[0], "uuid": "00000000-0000-4000-8000-0000000000ff", "parentUuid": lines[-2]["uuid"]}
    turn["message"] = {"role": "user", "content": "hint: the third cart holds the enchanted pickaxe"}
    turn["timestamp"] = last["timestamp"]
    path = tmp_path / "later-prompt.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in [*lines[:-1], turn, last]))
    _import(run, path)
    assert [p["data"].get("source", p.get("source")) for p in _prompts(run)] == [
        "hook:claude-code",
        "import:claude-code",
    ]
    report = audit(run)
    assert any("1 human prompt(s) reached the agent after the task prompt" in r for r in report["pending_reasons"])


def test_a_raised_time_keeps_the_session_time_beside_a_nested_source_at() -> None:
    """Only a top-level ``source_at`` is the record's own: one inside the arguments is data."""
    nested = Serialized({"at": "2026-01-01T10:00:00.000Z"}, b'{"arguments":{"source_at":"x"}}')
    kept = Serialized({"at": "2026-01-01T10:00:01.000Z"}, b'{"source_at":"2026-01-01T09:00:00.000Z"}')
    empty = Serialized({"at": "2026-01-01T10:00:00.000Z"}, b"{}")
    floor = "2026-01-01T12:00:00.000Z"
    raised = not_before([nested, kept, empty], floor)
    bodies = [jsonio.loads(record.body) for record in raised]
    assert [record["at"] for record in raised] == [floor] * 3
    assert bodies[0] == {"source_at": "2026-01-01T10:00:00.000Z", "arguments": {"source_at": "x"}}
    assert bodies[1] == {"source_at": "2026-01-01T09:00:00.000Z"}  # the session's own time, not the raised one
    assert bodies[2] == {"source_at": "2026-01-01T10:00:00.000Z"}
