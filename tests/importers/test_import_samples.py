"""Every session sample imports to exactly its expected-<name>.json: our own samples
(tests/data/sessions) always, the external corpus's samples with --coldstart-corpus."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from corpus import SESSIONS, corpus_root
from importer_helpers import SAMPLES, calls_by_id, check_stored_copy, manifest, new_run, records

from pytest_coldstart.importers.pipeline import import_session
from pytest_coldstart.validate.run import validate_run

SOURCES = [("ours", name) for name in sorted(SAMPLES)] + [
    pytest.param(("corpus", name), marks=pytest.mark.corpus, id=f"corpus-{name}") for name in sorted(SAMPLES)
]


@pytest.fixture(params=SOURCES, ids=lambda p: f"{p[0]}-{p[1]}" if isinstance(p, tuple) else str(p))
def imported(request, tmp_path: Path):
    source, name = request.param
    samples = SESSIONS if source == "ours" else corpus_root() / "harness-sessions"
    run = new_run(tmp_path / name)
    summary = import_session(run, SAMPLES[name], samples / f"{name}.jsonl")
    expected = json.loads((samples / f"expected-{name}.json").read_text("utf-8"))
    return name, run, expected, summary, samples


def _check_call(run_calls: dict, want: dict, session_end: str, *, abandoned: bool) -> None:
    got = run_calls[want["call_id"]]
    call, result = got["call"], got["result"]
    assert call["tool"] == want["tool"]
    assert call["arguments"] == want["arguments"]
    assert call["at"] == want["call_at"]
    assert call["source_line"] == want["source"]["call_line"]
    assert call["actor"] == "agent" and call["phase"] == "agent"
    assert result["status"] == want["status"]
    if want["result_at"] is None:
        assert result["at"] == session_end  # open: the session's last time
        assert "result" not in result and "duration_ms" not in result
    else:
        assert result["at"] == want["result_at"]
        assert result["duration_ms"] == want["duration_ms"]
        assert result["result"]["text"] == want["result_text"]
        assert result["source_line"] == want["source"]["result_line"]
    if "exit_code" in want:
        assert result["exit_code"] == want["exit_code"]
    for record in (call, result):
        assert record.get("branch") == ("abandoned" if abandoned else None)


def test_calls_match_expected(imported) -> None:
    _name, run, expected, _, _ = imported
    session = expected["session"]
    end = session["last_entry_at"]
    run_calls = calls_by_id(run)
    active = expected["calls"]
    abandoned = expected.get("abandoned_branch_calls", [])
    assert set(run_calls) == {c["call_id"] for c in active + abandoned}
    for want in active:
        _check_call(run_calls, want, end, abandoned=False)
    for want in abandoned:
        _check_call(run_calls, want, end, abandoned=True)
    # calls appear in the trajectory in the expected order
    order = [r["call_id"] for r in records(run) if r["record"] == "call" and r.get("branch") is None]
    assert order == [c["call_id"] for c in active]


def test_provenance_entry(imported) -> None:
    name, run, expected, summary, samples = imported
    raw = (samples / f"{name}.jsonl").read_bytes()
    (entry,) = manifest(run)["imports"]
    assert entry["path"] == f"imports/{name}.jsonl"
    check_stored_copy(run, entry, raw)
    # Codex rollouts report token usage under keys with the word "token": the default
    # denylist removes those values from the stored copy as from any record.
    assert (entry["redacted"] > 0) == name.startswith("codex") and entry["complete"] is True
    assert entry["importer"] == SAMPLES[name] and entry["importer_version"]
    assert entry["phase"] == "agent"
    session = expected["session"]
    assert entry["session_started_at"] == session.get("started_at", session.get("first_entry_at"))
    assert entry["session_ended_at"] == session["last_entry_at"]
    all_calls = expected["calls"] + expected.get("abandoned_branch_calls", [])
    counts = entry["counts"]
    assert counts["calls"] == len(all_calls)
    assert counts["open"] == sum(c["status"] == "open" for c in all_calls)
    assert counts["error"] == sum(c["status"] == "error" for c in all_calls)
    assert counts["abandoned"] == len(expected.get("abandoned_branch_calls", []))
    assert entry["records"] == len(records(run)) - 2  # header + "run created" phase
    assert f"{counts['calls']} calls" in summary and entry["path"] in summary


def test_session_records_bracket_the_import(imported) -> None:
    _, run, expected, _, _ = imported
    written = records(run)[2:]
    start, end = written[0], written[-1]
    assert (start["record"], start["event"], end["record"], end["event"]) == ("session", "start", "session", "end")
    assert start["session_id"] == expected["session"]["id"]
    assert start["source_path"] == end["source_path"]
    # results name their call; everything else names its source and (but the session) its line
    assert all(r["source"].startswith("import:") for r in written if r["record"] != "result")
    assert all(isinstance(r["source_line"], int) for r in written if r["record"] in ("call", "mark"))
    times = [r["at"] for r in written]
    assert times == sorted(times)


def test_imported_run_validates(imported) -> None:
    _, run, _, _, _ = imported
    report = validate_run(run)
    assert report.valid, [f.to_text() for f in report.findings]


def test_pi_operator_shell_is_a_mark_not_a_call(samples: Path, tmp_path: Path) -> None:
    run = new_run(tmp_path / "run")
    import_session(run, "pi", samples / "pi-v3-basic.jsonl")
    (shell,) = json.loads((samples / "expected-pi-v3-basic.json").read_text("utf-8"))["not_calls"]
    marks = [r for r in records(run) if r["record"] == "mark" and r["name"] == "pi.bash_execution"]
    assert len(marks) == 1
    assert marks[0]["actor"] == "operator" and marks[0]["source_line"] == shell["line"]
    assert marks[0]["data"]["command"] == shell["command"]


def test_pi_v1_skipped_call_is_marked_not_executed(samples: Path, tmp_path: Path) -> None:
    run = new_run(tmp_path / "run")
    import_session(run, "pi", samples / "pi-v1-legacy.jsonl")
    expected = json.loads((samples / "expected-pi-v1-legacy.json").read_text("utf-8"))
    (skipped,) = [c for c in expected["calls"] if c.get("executed") is False]
    result = calls_by_id(run)[skipped["call_id"]]["result"]
    assert result["status"] == "error" and result["executed"] is False
    (entry,) = manifest(run)["imports"]
    assert entry["format_version"] == 1 and entry["counts"]["not_executed"] == 1


def test_pi_version_2_reads_like_version_3(samples: Path, tmp_path: Path) -> None:
    """A v2 file differs from v3 only by the extension message role name (hookMessage)."""
    lines = (samples / "pi-v3-branched.jsonl").read_text("utf-8").splitlines()
    header = json.loads(lines[0])
    header["version"] = 2
    before_last = json.loads(lines[-2])
    hook = {
        "type": "custom_message",
        "id": "99aa88bb",
        "parentId": before_last["id"],
        "timestamp": before_last["timestamp"],
        "customType": "x",
        "content": "hi",
        "display": True,
    }
    session = tmp_path / "v2.jsonl"
    session.write_text(
        "\n".join(
            [
                json.dumps(header),
                *lines[1:-1],
                json.dumps(hook),
                lines[-1].replace(f'"parentId":"{before_last["id"]}"', '"parentId":"99aa88bb"'),
            ]
        )
        + "\n"
    )
    run = new_run(tmp_path / "run")
    import_session(run, "pi", session)
    expected = json.loads((samples / "expected-pi-v3-branched.json").read_text("utf-8"))
    got = calls_by_id(run)
    assert [c for c in got if got[c]["call"].get("branch") is None] == [c["call_id"] for c in expected["calls"]]
    assert manifest(run)["imports"][0]["format_version"] == 2


def test_the_samples_are_what_their_builder_writes(tmp_path: Path) -> None:
    """tests/data/sessions is regenerated by its build.py, byte for byte (edit the builder, not the files)."""
    done = subprocess.run([sys.executable, str(SESSIONS / "build.py"), str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(p.name for p in SESSIONS.iterdir() if p.name != "build.py" and p.is_file())
    for name in written:
        assert (tmp_path / name).read_bytes() == (SESSIONS / name).read_bytes(), name
