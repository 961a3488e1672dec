"""The trajectory appender: envelope, seq under the lock, hash chain, O(1) appends, call index."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import pytest
from core_helpers import lines, new_run, recorder

from pytest_coldstart.record.trajectory import ENVELOPE, Appender, iter_records, read_last_line
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.clock import FixedClock
from pytest_coldstart.run.errors import ColdstartError, TornLineError
from pytest_coldstart.run.layout import RunDir
from pytest_coldstart.validate.run import validate_run


@pytest.fixture
def run(tmp_path):
    return new_run(tmp_path / "run", calls=1)


def test_envelope_order_seq_and_chain(run):
    records = lines(run / "trajectory.jsonl")
    assert [tuple(r)[: len(ENVELOPE)] for r in records] == [ENVELOPE] * len(records)
    assert [r["seq"] for r in records] == [1, 2, 3, 4]
    raw = (run / "trajectory.jsonl").read_bytes().splitlines()
    assert records[0]["prev"] is None
    assert [r["prev"] for r in records[1:]] == [hashlib.sha256(line).hexdigest() for line in raw[:-1]]


def test_times_never_decrease_even_when_the_wall_clock_steps_back(run):
    back = FixedClock(datetime(2000, 1, 1, tzinfo=UTC), step=timedelta(seconds=-1))
    appender = Appender(RunDir(run), "run-01", clock=back)
    appender.append({"record": "mark", "name": "a"})
    appender.append({"record": "mark", "name": "b"})
    records = lines(run / "trajectory.jsonl")
    ats = [r["at"] for r in records]
    assert ats == sorted(ats) and records[-1]["at"] == records[-3]["at"]
    monos = [r["monotonic_ms"] for r in records]
    assert monos == sorted(monos)
    assert validate_run(run).valid


def test_appends_never_read_the_whole_file(run):
    # An earlier malformed line is not parsed by an append (only the tail is read).
    path = run / "trajectory.jsonl"
    data = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(data[0] + b"{this is not json}\n" + b"".join(data[1:]))
    record = recorder(run).mark("still appendable")
    assert record["seq"] == 5


def test_read_last_line(tmp_path):
    path = tmp_path / "t.jsonl"
    assert read_last_line(path) is None
    path.write_bytes(b"")
    assert read_last_line(path) is None
    long_line = b"x" * 20000
    path.write_bytes(b"first\n" + long_line + b"\n")
    assert read_last_line(path) == long_line
    path.write_bytes(b"only\n")
    assert read_last_line(path) == b"only"
    path.write_bytes(b"a\nb")
    with pytest.raises(TornLineError):
        read_last_line(path)


def test_torn_tail_refuses_appends_and_changes_nothing(run):
    path = run / "trajectory.jsonl"
    with open(path, "ab") as handle:
        handle.write(b'{"partial":')
    before = path.read_bytes()
    with pytest.raises(TornLineError, match="torn"):
        recorder(run).mark("x")
    assert path.read_bytes() == before


def test_last_line_without_seq_or_json_refuses_appends(run):
    path = run / "trajectory.jsonl"
    with open(path, "ab") as handle:
        handle.write(b"{broken}\n")
    with pytest.raises(ColdstartError, match="not valid JSON"):
        recorder(run).mark("x")
    path.write_bytes(path.read_bytes().replace(b"{broken}\n", b'{"seq": "7"}\n'))
    with pytest.raises(ColdstartError, match="no integer seq"):
        recorder(run).mark("x")


def test_call_ids_are_unique_and_results_need_their_call(run):
    rec = recorder(run)
    with pytest.raises(ColdstartError, match="already recorded"):
        rec.call("c0", "bash")
    with pytest.raises(ColdstartError, match="unknown call id 'ghost'"):
        rec.result("ghost", "ok")
    with pytest.raises(ColdstartError, match="already has a result"):
        rec.result("c0", "ok")
    rec.call("c1", "bash")
    rec.result("c1", "error", error="boom")
    assert validate_run(run).valid


def test_checks_apply_within_one_batch_and_a_refused_batch_writes_nothing(run):
    appender = recorder(run).appender
    before = (run / "trajectory.jsonl").read_bytes()
    with pytest.raises(ColdstartError, match="already recorded"):
        appender.append_many(
            [{"record": "call", "call_id": "n1", "tool": "t"}, {"record": "call", "call_id": "n1", "tool": "t"}]
        )
    with pytest.raises(ColdstartError, match="already has a result"):
        appender.append_many(
            [
                {"record": "call", "call_id": "n2", "tool": "t"},
                {"record": "result", "call_id": "n2", "status": "ok"},
                {"record": "result", "call_id": "n2", "status": "ok"},
            ]
        )
    assert (run / "trajectory.jsonl").read_bytes() == before


def test_call_index_catches_up_with_lines_it_did_not_write(run):
    appender = recorder(run).appender
    appender.append_many([{"record": "call", "call_id": "direct", "tool": "t"}], check_calls=False)
    with pytest.raises(ColdstartError, match="already recorded"):
        recorder(run).call("direct", "bash")


def test_call_index_rebuilds_after_the_file_shrinks(run):
    rec = recorder(run)
    rec.call("late", "bash")
    path = run / "trajectory.jsonl"
    path.write_bytes(b"".join(path.read_bytes().splitlines(keepends=True)[:-1]))  # "late" is gone
    rec.call("late", "bash")  # accepted: the index was rebuilt from the file
    assert [r["call_id"] for r in lines(path)].count("late") == 1


def test_broken_call_index_is_rebuilt(run):
    (run / ".coldstart/index.sqlite").write_bytes(b"this is not a database" * 100)
    for suffix in ("-wal", "-shm"):
        (run / f".coldstart/index.sqlite{suffix}").unlink(missing_ok=True)
    with pytest.raises(ColdstartError, match="already recorded"):
        recorder(run).call("c0", "bash")
    recorder(run).call("c9", "bash")
    assert [r["call_id"] for r in lines(run / "trajectory.jsonl")][-1] == "c9"


def test_explicit_time_is_normalised_and_checked(run):
    rec = recorder(run)
    record = rec.append({"record": "mark", "name": "m", "at": "2026-09-26T08:00:00+02:00"})
    assert record["at"] == "2026-09-26T06:00:00.000Z"
    with pytest.raises(ColdstartError, match="is not a timestamp"):
        rec.append({"record": "mark", "name": "m", "at": "soon"})


def test_iter_records_streams_raw_values(run):
    values = [item.value["record"] for item in iter_records(RunDir(run))]
    assert values == ["header", "phase", "call", "result"]
    assert all(isinstance(item, jsonio.Line) for item in iter_records(RunDir(run), strict=False))
