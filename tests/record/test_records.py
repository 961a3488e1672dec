"""The record taxonomy: every family is written complete, schema-valid, and refused when malformed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bundle_helpers import new_run

from pytest_coldstart.record import records, taxonomy
from pytest_coldstart.run import jsonio, schemas
from pytest_coldstart.run.errors import UsageError
from pytest_coldstart.run.vocabulary import RECORD_TYPES

SAMPLES = {
    "session": records.session("start", session_id="s-1", source="live"),
    "state": records.state(
        "observed",
        {"hp": 10, "floor": 2},
        state_type="combat",
        where={"floor": 2},
        returned_to_agent=True,
        format="json",
    ),
    "action": records.action(
        "resolved",
        "a-1",
        tool="play_card",
        arguments={"card": 3},
        outcome="invalid",
        http_status=400,
        elapsed_ms=12.5,
        changed_state=False,
        error="bad index",
    ),
    "decision": records.decision(
        "play the block card",
        intended_tool="play_card",
        target={"card": 2},
        alternatives=["end turn", {"option": "potion", "why": "low hp"}],
        confidence=0.6,
        score=3.5,
        tags=["combat", "defensive"],
        rationale="incoming damage 12",
    ),
    "error": records.error(
        "timeout",
        "poll timed out",
        fault="environment",
        recoverable=True,
        recovery="poll again",
        recovery_action="poll_timeout",
        attempt=2,
        exception="TimeoutError",
        detail={"after_ms": 2000},
    ),
    "note": records.note("operator note"),
}


def written(tmp_path: Path) -> list[dict]:
    recorder = new_run(tmp_path / "run")
    recorder.call("c1", "bash", {"command": "ls"})
    recorder.result("c1", "ok", {"text": "a b"}, duration_ms=3)
    for fields in SAMPLES.values():
        recorder.append(fields)
    return [line.value for line in jsonio.iter_jsonl(recorder.rundir.trajectory)]


def test_every_record_type_is_written_schema_valid(tmp_path: Path) -> None:
    lines = written(tmp_path)
    seen = {line["record"] for line in lines}
    assert seen == set(RECORD_TYPES) - {"mark"}  # mark is covered by the demo bundle test
    for line in lines:
        assert schemas.errors("trajectory-record", line) == [], line
        if line["record"] in taxonomy.FAMILIES:
            assert schemas.errors(f"records/{line['record']}", line) == [], line


def test_families_are_written_complete_with_nulls(tmp_path: Path) -> None:
    by_type = {line["record"]: line for line in written(tmp_path)}
    for kind, family in taxonomy.FAMILIES.items():
        record = by_type[kind]
        for f in family.fields:
            assert f.name in record, (kind, f.name)
    assert by_type["note"]["text"] == "operator note"
    session = by_type["session"]
    assert session["model"] is None and session["reason"] is None and session["records"] is None
    assert by_type["decision"]["related_call_id"] is None and by_type["decision"]["event"] == "decision"


def test_state_hash_is_computed_after_redaction(tmp_path: Path) -> None:
    recorder = new_run(tmp_path / "run")
    state = {"hp": 3, "api_key": "sk-should-not-stay-here-0123456789"}
    written_record = recorder.append(records.state("observed", state))
    assert written_record["state"]["api_key"].startswith("<redacted sha256:")
    assert written_record["state_hash"] == records.state_hash(written_record["state"])
    with pytest.raises(UsageError, match="state_hash does not match"):
        recorder.append(records.state("observed", {"hp": 1}, state_hash="0" * 64))


def test_state_tracker_links_observations() -> None:
    tracker = records.StateTracker()
    first = tracker.observe({"a": 1, "b": [1, 2]})
    again = tracker.observe({"a": 1, "b": [1, 2]})
    changed = tracker.observe({"a": 2, "b": [1], "c": True})
    assert first["event"] == "observed" and first["missing_reason"] == {
        "previous_hash": "first observation of this stream"
    }
    assert again["event"] == "repeated" and again["previous_hash"] == records.state_hash({"a": 1, "b": [1, 2]})
    assert changed["event"] == "changed"
    assert changed["diff"] == {"changed": ["/a"], "added": ["/c"], "removed": ["/b/1"], "truncated": False}
    capped = records.diff({str(i): i for i in range(80)}, {str(i): -i for i in range(1, 80)}, limit=10)
    assert capped["truncated"] is True and len(capped["changed"]) + len(capped["removed"]) == 10


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (records.decision(" "), "must not be blank"),
        ({"record": "decision"}, "non-null 'summary'"),
        (records.decision("x", confidence=1.5), "outside"),
        (records.decision("x", confidence=True), "must be number"),
        (records.decision("x", tags=["ok", 3]), "list of strings"),
        (records.decision("x", event="musing"), "not one of"),
        (records.action("resolved", "a1"), "needs an outcome"),
        (records.action("requested", "a1", outcome="great"), "not one of"),
        (records.action("requested", "a1", http_status=700), "outside"),
        (records.state("seen"), "not one of"),
        (records.state("observed", related="x", previous_hash="abc"), "must be sha256"),
        (records.error("oops", "m"), "not one of"),
        (records.error("timeout", "m", fault="cosmic rays"), "not one of"),
        (records.session("start", records=-1), "outside"),
        ({"record": "note", "text": "x", "missing_reason": {"text": "why"}}, "has a value"),
        ({"record": "note", "text": "x", "missing_reason": {"nonsense": "why"}}, "not a field"),
        ({"record": "note", "text": "x", "missing_reason": {"text": ""}}, "non-blank"),
        ({"record": "note", "text": "x", "redacted": ["/x"]}, "assigned by the recorder"),
    ],
)
def test_malformed_records_are_refused(tmp_path: Path, fields: dict, message: str) -> None:
    recorder = new_run(tmp_path / "run")
    before = recorder.rundir.trajectory.read_bytes()
    with pytest.raises(UsageError, match=message):
        recorder.append(fields)
    assert recorder.rundir.trajectory.read_bytes() == before  # nothing written


def test_missing_reason_is_kept_for_null_fields(tmp_path: Path) -> None:
    recorder = new_run(tmp_path / "run")
    record = recorder.append(
        records.action(
            "timeout",
            "a9",
            outcome="timeout",
            missing_reason={"post_state_hash": "not polled", "call_id": "no tool call"},
        )
    )
    assert record["post_state_hash"] is None and record["missing_reason"]["post_state_hash"] == "not polled"
    assert schemas.errors("trajectory-record", record) == []


def test_shipped_schemas_equal_the_taxonomy() -> None:
    for kind in taxonomy.FAMILIES:
        shipped = json.loads((taxonomy.SCHEMA_DIR / f"{kind}.schema.json").read_text(encoding="utf-8"))
        assert shipped == taxonomy.record_schema(kind), (
            f"regenerate: python -m pytest_coldstart.record.taxonomy --write ({kind})"
        )
    assert set(taxonomy.FAMILIES) | {"header", "call", "result", "phase", "mark"} == set(RECORD_TYPES)


def test_schemas_reject_what_normalize_rejects() -> None:
    """The schema is the contract for readers: a record the recorder refuses is invalid there too."""
    base = {
        "schemaVersion": 2,
        "run_id": "r",
        "seq": 3,
        "at": "2026-01-01T00:00:00.000Z",
        "monotonic_ms": 1.0,
        "call_id": None,
        "parent_id": None,
        "prev": "0" * 64,
    }
    good = {**base, **records.normalize(records.decision("ok"))}
    assert schemas.errors("trajectory-record", good) == []
    for broken in (
        {**good, "confidence": 2},
        {**good, "tags": [1]},
        {k: v for k, v in good.items() if k != "rationale"},
        {**good, "event": "x"},
    ):
        assert schemas.errors("trajectory-record", broken), broken
    action = {**base, **records.normalize(records.action("requested", "a1"))}
    assert schemas.errors("trajectory-record", action) == []
    assert schemas.errors("trajectory-record", {**action, "event": "resolved"})  # closing event without an outcome


def test_decision_cli_records_structured_fields(tmp_path: Path, cli) -> None:
    run = tmp_path / "run"
    assert (
        cli(
            "trace",
            "init",
            "--run-dir",
            str(run),
            "--run-id",
            "r1",
            "--task-text",
            "t",
            "--harness",
            "pi",
            "--model",
            "m",
            "--provider",
            "p",
            "--harness-version",
            "1",
        ).returncode
        == 0
    )
    assert cli("trace", "call", "--run-dir", str(run), "--call-id", "c1", "--tool", "bash").returncode == 0
    done = cli(
        "trace",
        "decision",
        "--run-dir",
        str(run),
        "--summary",
        "retry the build",
        "--call-id",
        "c1",
        "--tag",
        "build",
        "--tag",
        "risk",
        "--event",
        "reflection",
        "--intended-tool",
        "bash",
        "--target",
        "Logger.java",
        "--alternative",
        "give up",
        "--confidence",
        "0.25",
        "--score",
        "7",
        "--state-hash",
        "a" * 64,
        "--action-id",
        "a1",
        "--rationale",
        "the import was missing",
        "--data",
        '{"tags": ["first"], "extra": 1}',
    )
    assert done.returncode == 0, done.stderr
    last = [line.value for line in jsonio.iter_jsonl(run / "trajectory.jsonl")][-1]
    assert last["record"] == "decision" and last["event"] == "reflection" and last["summary"] == "retry the build"
    assert last["tags"] == ["first", "build", "risk"] and last["alternatives"] == ["give up"]
    assert (
        last["related_call_id"] == "c1" and last["related_state_hash"] == "a" * 64 and last["related_action_id"] == "a1"
    )
    assert last["confidence"] == 0.25 and last["score"] == 7 and last["target"] == "Logger.java" and last["extra"] == 1
    assert schemas.errors("trajectory-record", last) == []
    bad = cli("trace", "decision", "--run-dir", str(run), "--summary", "x", "--confidence", "3")
    assert bad.returncode == 64 and "outside" in bad.stderr and "Traceback" not in bad.stderr
    bad = cli(
        "trace",
        "record",
        "--run-dir",
        str(run),
        "--json-text",
        '{"record": "action", "event": "resolved", "action_id": "a"}',
    )
    assert bad.returncode == 64 and "needs an outcome" in bad.stderr
