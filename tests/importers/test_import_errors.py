"""Bad sessions write nothing and say file:line; repeats and forks are refused; warnings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from importer_helpers import calls_by_id, check_stored_copy, manifest, new_run, records, snapshot, write_lines

from pytest_coldstart.importers.pipeline import import_session
from pytest_coldstart.record.seal import seal
from pytest_coldstart.run.errors import ColdstartError, UsageError, VersionError
from pytest_coldstart.validate.run import validate_run


def _refused(run: Path, fmt: str, session: Path, exc_type=ColdstartError) -> ColdstartError:
    before = snapshot(run)
    with pytest.raises(exc_type) as info:
        import_session(run, fmt, session)
    assert snapshot(run) == before, "a refused import must write nothing"
    assert not any((run / "imports").iterdir())
    return info.value


@pytest.mark.parametrize(
    "name,fmt", [("pi-v3-basic", "pi"), ("claude-code-basic", "claude-code"), ("codex-rollout-basic", "codex")]
)
def test_malformed_line_in_the_middle_names_the_line(samples: Path, tmp_path: Path, name: str, fmt: str) -> None:
    lines = (samples / f"{name}.jsonl").read_bytes().split(b"\n")
    lines[6] = lines[6][: len(lines[6]) // 2]  # line 7 loses its second half
    session = tmp_path / "broken.jsonl"
    session.write_bytes(b"\n".join(lines))
    run = new_run(tmp_path / "run")
    error = _refused(run, fmt, session)
    assert error.path == str(session) and error.line == 7
    assert f"{session}:7: malformed JSON" in error.one_line() and "nothing was imported" in error.one_line()


@pytest.mark.parametrize("name,fmt", [("pi-v1-legacy", "pi"), ("codex-rollout-basic", "codex")])
def test_truncated_file_is_refused(samples: Path, tmp_path: Path, name: str, fmt: str) -> None:
    raw = (samples / f"{name}.jsonl").read_bytes()
    session = tmp_path / "cut.jsonl"
    session.write_bytes(raw[: len(raw) - 40])  # the writer died mid-line
    run = new_run(tmp_path / "run")
    error = _refused(run, fmt, session)
    assert error.line == raw.count(b"\n") and "torn final line" in error.problem


def test_empty_file_is_refused(tmp_path: Path) -> None:
    session = tmp_path / "empty.jsonl"
    session.write_bytes(b"")
    error = _refused(new_run(tmp_path / "run"), "pi", session)
    assert "empty" in error.problem


@pytest.mark.parametrize(
    "fmt,first",
    [
        ("pi", {"type": "session", "version": 4, "id": "x", "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/"}),
        ("pi", {"type": "session", "version": "3", "id": "x", "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/"}),
        (
            "claude-code",
            {
                "type": "user",
                "uuid": "u",
                "parentUuid": None,
                "sessionId": "s",
                "version": "3.0.1",
                "timestamp": "2026-01-01T00:00:00.000Z",
                "message": {"role": "user", "content": "hi"},
            },
        ),
        (
            "codex",
            {
                "timestamp": "2026-01-01T00:00:00.000Z",
                "type": "session_meta",
                "payload": {"id": "x", "cli_version": "1.0.0"},
            },
        ),
        ("codex", {"id": "x", "timestamp": "2025-06-01T00:00:00Z", "instructions": "", "git": None}),
    ],
)
def test_unknown_format_version_is_refused(tmp_path: Path, fmt: str, first: dict) -> None:
    session = write_lines(tmp_path / "s.jsonl", [first])
    error = _refused(new_run(tmp_path / "run"), fmt, session, VersionError)
    assert (error.line == 1 and "refus" in error.problem) or "not supported" in error.problem


def test_wrong_format_is_a_clear_error(samples: Path, tmp_path: Path) -> None:
    error = _refused(new_run(tmp_path / "run"), "pi", samples / "codex-rollout-basic.jsonl")
    assert error.line == 1 and "not a pi session" in error.problem


def test_unknown_format_name_is_a_usage_error(samples: Path, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="registered: .*claude-code.*codex.*pi"):
        import_session(new_run(tmp_path / "run"), "gemini", samples / "pi-v3-basic.jsonl")


def test_auto_format_sniffs_the_first_line(samples: Path, tmp_path: Path) -> None:
    for name, fmt in (("pi-v1-legacy", "pi"), ("claude-code-basic", "claude-code"), ("codex-rollout-basic", "codex")):
        run = new_run(tmp_path / name)
        import_session(run, "auto", samples / f"{name}.jsonl")
        assert manifest(run)["imports"][0]["importer"] == fmt


def test_reimporting_the_same_session_is_refused(samples: Path, tmp_path: Path) -> None:
    run = new_run(tmp_path / "run")
    session = samples / "pi-v3-basic.jsonl"
    import_session(run, "pi", session)
    before = snapshot(run)
    copy = tmp_path / "renamed.jsonl"
    copy.write_bytes(session.read_bytes())  # same bytes under another name
    with pytest.raises(ColdstartError, match="already imported as imports/pi-v3-basic.jsonl"):
        import_session(run, "pi", copy)
    assert snapshot(run) == before
    assert len(manifest(run)["imports"]) == 1


def test_same_file_name_never_overwrites_a_copy(samples: Path, tmp_path: Path) -> None:
    run = new_run(tmp_path / "run")
    first = tmp_path / "a" / "session.jsonl"
    second = tmp_path / "b" / "session.jsonl"
    first.parent.mkdir()
    second.parent.mkdir()
    first.write_bytes((samples / "codex-rollout-basic.jsonl").read_bytes())  # March 2026
    second.write_bytes((samples / "pi-v3-basic.jsonl").read_bytes())  # October 2026
    import_session(run, "codex", first)
    import_session(run, "pi", second)
    entries = manifest(run)["imports"]
    assert [e["path"] for e in entries] == ["imports/session.jsonl", "imports/session-2.jsonl"]
    check_stored_copy(run, entries[0], first.read_bytes())
    check_stored_copy(run, entries[1], second.read_bytes())
    assert validate_run(run).valid


def test_fork_with_the_same_call_ids_is_refused(samples: Path, tmp_path: Path) -> None:
    """pi /fork copies entries (same call ids) into a new file: importing both double-counts."""
    run = new_run(tmp_path / "run")
    import_session(run, "pi", samples / "pi-v3-basic.jsonl")
    fork = tmp_path / "fork.jsonl"
    fork.write_text(
        (samples / "pi-v3-basic.jsonl").read_text("utf-8").replace('"id":"019a3c71-5e2b', '"id":"0fffffff-5e2b')
    )
    error = _refused_after(run, "pi", fork)
    assert "already in the trajectory" in error.problem


def _refused_after(run: Path, fmt: str, session: Path) -> ColdstartError:
    before = snapshot(run)
    with pytest.raises(ColdstartError) as info:
        import_session(run, fmt, session)
    assert snapshot(run) == before
    return info.value


def test_sealed_run_is_refused(samples: Path, tmp_path: Path) -> None:
    run = new_run(tmp_path / "run")
    seal(run)
    with pytest.raises(ColdstartError, match="sealed"):
        import_session(run, "pi", samples / "pi-v3-basic.jsonl")
    assert manifest(run)["imports"] == []


def test_missing_session_file(tmp_path: Path) -> None:
    with pytest.raises(ColdstartError, match="missing or not a regular file"):
        import_session(new_run(tmp_path / "run"), "pi", tmp_path / "nope.jsonl")


def test_session_older_than_the_run_is_imported_and_reported(samples: Path, tmp_path: Path) -> None:
    run = new_run(tmp_path / "run", created_at="2026-10-20T10:00:00.000Z")  # after the session
    summary = import_session(run, "pi", samples / "pi-v3-basic.jsonl")
    assert "warning: the session started at 2026-10-20T08:30:00.250Z, before the run was created" in summary
    assert manifest(run)["imports"][0]["session_started_at"] == "2026-10-20T08:30:00.250Z"
    report = validate_run(run)
    assert not report.valid
    assert "imports.before_run" in {f.code for f in report.findings}


def test_records_later_than_the_session_are_warned_about(samples: Path, tmp_path: Path) -> None:
    from pytest_coldstart.record.recorder import Recorder

    run = new_run(tmp_path / "run")
    Recorder(run).mark("operator-note", {"x": 1})  # now: long after the 2026 session
    summary = import_session(run, "pi", samples / "pi-v3-basic.jsonl")
    assert "already held records up to" in summary


def test_parse_failure_late_in_a_valid_looking_file(samples: Path, tmp_path: Path) -> None:
    """A structural problem (a toolCall without a name) found after many good lines."""
    lines = [json.loads(x) for x in (samples / "pi-v3-basic.jsonl").read_text("utf-8").splitlines()]
    del lines[13]["message"]["content"][0]["name"]  # line 14: the failing pytest call
    session = write_lines(tmp_path / "s.jsonl", lines)
    error = _refused(new_run(tmp_path / "run"), "pi", session)
    assert error.line == 14 and "toolCall name" in error.problem


def test_pi_aborted_message_calls_never_executed(tmp_path: Path) -> None:
    t = "2026-02-01T10:00:0{}.000Z"
    session = write_lines(
        tmp_path / "s.jsonl",
        [
            {"type": "session", "version": 3, "id": "s", "timestamp": t.format(0), "cwd": "/"},
            {
                "type": "message",
                "id": "a1",
                "parentId": None,
                "timestamp": t.format(1),
                "message": {
                    "role": "assistant",
                    "stopReason": "aborted",
                    "content": [
                        {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "rm -rf build"}}
                    ],
                },
            },
            {
                "type": "message",
                "id": "u1",
                "parentId": "a1",
                "timestamp": t.format(2),
                "message": {"role": "user", "content": "stop"},
            },
        ],
    )
    run = new_run(tmp_path / "run")
    import_session(run, "pi", session)
    got = calls_by_id(run)["c1"]
    assert got["call"]["executed"] is False
    assert got["result"]["status"] == "open" and got["result"]["executed"] is False
    assert "never executed" in got["result"]["note"]
    assert manifest(run)["imports"][0]["counts"]["not_executed"] == 1
    assert validate_run(run).valid


def test_pi_orphan_result_duplicate_and_empty_ids(tmp_path: Path) -> None:
    t = "2026-02-01T10:00:{:02d}.000Z"

    def assistant(n: int, parent: str | None, call_id: str) -> dict:
        return {
            "type": "message",
            "id": f"a{n}",
            "parentId": parent,
            "timestamp": t.format(n),
            "message": {
                "role": "assistant",
                "content": [{"type": "toolCall", "id": call_id, "name": "read", "arguments": {"path": "x"}}],
            },
        }

    def result(n: int, parent: str, call_id: str) -> dict:
        return {
            "type": "message",
            "id": f"r{n}",
            "parentId": parent,
            "timestamp": t.format(n),
            "message": {
                "role": "toolResult",
                "toolCallId": call_id,
                "content": [{"type": "text", "text": f"r{n}"}],
                "isError": False,
            },
        }

    session = write_lines(
        tmp_path / "s.jsonl",
        [
            {"type": "session", "version": 3, "id": "s", "timestamp": t.format(0), "cwd": "/"},
            assistant(1, None, "dup"),
            result(2, "a1", "dup"),
            assistant(3, "r2", "dup"),
            result(4, "a3", "dup"),
            assistant(5, "r4", ""),
            result(6, "a5", ""),
            result(7, "r6", "nobody"),
        ],
    )
    run = new_run(tmp_path / "run")
    import_session(run, "pi", session)
    got = calls_by_id(run)
    assert set(got) == {"dup", "dup#2", "import-6-3"}
    assert got["dup"]["result"]["result"]["text"] == "r2" and got["dup#2"]["result"]["result"]["text"] == "r4"
    assert got["dup#2"]["call"]["source_call_id"] == "dup" and got["import-6-3"]["call"]["source_call_id"] == ""
    orphans = [r for r in records(run) if r["record"] == "mark" and r["name"] == "import.orphan_result"]
    assert [o["data"]["source_call_id"] for o in orphans] == ["nobody"]
    assert validate_run(run).valid


def test_large_results_go_to_the_payload_store_and_secrets_are_redacted(tmp_path: Path) -> None:
    t = "2026-02-01T10:00:0{}.000Z"
    big = "line of output\n" * 5000
    session = write_lines(
        tmp_path / "s.jsonl",
        [
            {"type": "session", "version": 3, "id": "s", "timestamp": t.format(0), "cwd": "/"},
            {
                "type": "message",
                "id": "a1",
                "parentId": None,
                "timestamp": t.format(1),
                "message": {
                    "role": "assistant",
                    "content": [
                        {
                            "type": "toolCall",
                            "id": "c1",
                            "name": "bash",
                            "arguments": {"command": "cat log", "api_key": "sk-live-123"},
                        }
                    ],
                },
            },
            {
                "type": "message",
                "id": "r1",
                "parentId": "a1",
                "timestamp": t.format(2),
                "message": {
                    "role": "toolResult",
                    "toolCallId": "c1",
                    "content": [{"type": "text", "text": big}],
                    "isError": False,
                },
            },
        ],
    )
    run = new_run(tmp_path / "run")
    import_session(run, "pi", session)
    got = calls_by_id(run)["c1"]
    assert got["call"]["arguments"]["api_key"].startswith("<redacted sha256:")
    assert "sk-live-123" not in (run / "trajectory.jsonl").read_text("utf-8")
    ref = got["result"]["result_payload"]
    assert got["result"]["result"] is None and ref["stored"] is True and ref["size"] > len(big)
    assert (run / "payloads" / ref["sha256"]).is_file()
    # the stored copy is redacted with the same rules; run.json keeps the source's hash
    (entry,) = manifest(run)["imports"]
    assert b"sk-live-123" not in (run / "imports/s.jsonl").read_bytes() and entry["redacted"] == 1
    check_stored_copy(run, entry, session.read_bytes())
    assert validate_run(run).valid


def test_times_out_of_file_order_are_raised_and_kept(tmp_path: Path) -> None:
    session = write_lines(
        tmp_path / "s.jsonl",
        [
            {"type": "session", "version": 3, "id": "s", "timestamp": "2026-02-01T10:00:00.000Z", "cwd": "/"},
            {
                "type": "message",
                "id": "a1",
                "parentId": None,
                "timestamp": "2026-02-01T10:00:05.000Z",
                "message": {
                    "role": "assistant",
                    "content": [{"type": "toolCall", "id": "c1", "name": "ls", "arguments": {}}],
                },
            },
            {
                "type": "message",
                "id": "r1",
                "parentId": "a1",
                "timestamp": "2026-02-01T10:00:04.500Z",
                "message": {"role": "toolResult", "toolCallId": "c1", "content": [], "isError": False},
            },
        ],
    )
    run = new_run(tmp_path / "run")
    import_session(run, "pi", session)
    result = calls_by_id(run)["c1"]["result"]
    assert result["at"] == "2026-02-01T10:00:05.000Z" and result["source_at"] == "2026-02-01T10:00:04.500Z"
    assert "duration_ms" not in result  # negative durations are not invented
    assert manifest(run)["imports"][0]["counts"]["times_raised"] == 1
    assert validate_run(run).valid


def test_symlinked_imports_folder_is_refused(samples: Path, tmp_path: Path) -> None:
    run = new_run(tmp_path / "run")
    outside = tmp_path / "outside"
    outside.mkdir()
    (run / "imports").rmdir()
    (run / "imports").symlink_to(outside)
    with pytest.raises(ColdstartError, match="symlink"):
        import_session(run, "pi", samples / "pi-v3-basic.jsonl")
    assert list(outside.iterdir()) == [] and manifest(run)["imports"] == []


def test_concurrent_imports_each_land_whole(samples: Path, tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    run = new_run(tmp_path / "run")
    jobs = [
        ("pi", samples / "pi-v3-basic.jsonl"),
        ("codex", samples / "codex-rollout-basic.jsonl"),
        ("claude-code", samples / "claude-code-basic.jsonl"),
        ("pi", samples / "pi-v1-legacy.jsonl"),
    ]
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda job: import_session(run, *job), jobs))
    entries = manifest(run)["imports"]
    assert sorted(e["importer"] for e in entries) == ["claude-code", "codex", "pi", "pi"]
    written = records(run)
    assert len(written) == 2 + sum(e["records"] for e in entries)
    for entry in entries:  # each import is one contiguous block between its session records
        start, end = [
            i for i, r in enumerate(written) if r["record"] == "session" and r["source_path"] == entry["path"]
        ]
        assert end - start + 1 == entry["records"]
        inside = written[start : end + 1]
        assert all(r["source_path"] == entry["path"] for r in inside if r["record"] != "result")
    codes = {f.code for f in validate_run(run).findings}
    assert codes <= {"trajectory.at"}  # sessions from different months, appended in any order
