"""Bounded-memory imports: one walk (two for a branched session), a spool, chunked appends
under one lock hold, and what a failure in the middle leaves behind."""

from __future__ import annotations

import fcntl
import os
import tracemalloc
from datetime import UTC, datetime
from pathlib import Path

import pytest
from importer_helpers import CREATED, HARNESS, SAMPLES, manifest, records, snapshot, write_lines

from pytest_coldstart.ext import manager as plugins
from pytest_coldstart.ext.hookspecs import hookimpl
from pytest_coldstart.importers import pi as pi_module
from pytest_coldstart.importers import pipeline as run_module
from pytest_coldstart.importers import registry, scrub, spool
from pytest_coldstart.importers.pipeline import import_session
from pytest_coldstart.record.recorder import init_run
from pytest_coldstart.record.trajectory import Appender
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.clock import FixedClock
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.layout import RunDir
from pytest_coldstart.validate.run import validate_run

START = datetime(2025, 12, 1, tzinfo=UTC)


def _fixed_run(path: Path) -> Path:
    init_run(
        path,
        run_id="r",
        task_bytes=b"t",
        task_source="inline",
        harness=HARNESS,
        created_at=CREATED,
        clock=FixedClock(START),
        machine={},
        repo={},
        tool={"name": "t", "version": "0", "commit": None},
    )
    return path


def _pi_session(path: Path, calls: int, *, text: str = "ok") -> Path:
    t = "2026-02-01T10:{:02d}:{:02d}.{:03d}Z"

    def at(step: int) -> str:
        return t.format(step // 60000 % 60, step // 1000 % 60, step % 1000)

    lines: list[object] = [{"type": "session", "version": 3, "id": "s", "timestamp": at(0), "cwd": "/"}]
    parent = None
    for n in range(calls):
        lines.append(
            {
                "type": "message",
                "id": f"a{n}",
                "parentId": parent,
                "timestamp": at(2 * n + 1),
                "message": {
                    "role": "assistant",
                    "content": [{"type": "toolCall", "id": f"c{n}", "name": "bash", "arguments": {"n": n}}],
                },
            }
        )
        lines.append(
            {
                "type": "message",
                "id": f"r{n}",
                "parentId": f"a{n}",
                "timestamp": at(2 * n + 2),
                "message": {
                    "role": "toolResult",
                    "toolCallId": f"c{n}",
                    "isError": False,
                    "content": [{"type": "text", "text": f"{text} {n}"}],
                },
            }
        )
        parent = f"r{n}"
    return write_lines(path, lines)


def test_chunked_appends_write_the_same_bytes(monkeypatch, samples: Path, tmp_path: Path) -> None:
    for name, fmt in SAMPLES.items():
        one = _fixed_run(tmp_path / f"one-{name}")
        import_session(one, fmt, samples / f"{name}.jsonl", clock=FixedClock(START))
        with monkeypatch.context() as patch:
            patch.setattr(spool, "CHUNK_RECORDS", 3)
            many = _fixed_run(tmp_path / f"many-{name}")
            import_session(many, fmt, samples / f"{name}.jsonl", clock=FixedClock(START))
        assert (many / "trajectory.jsonl").read_bytes() == (one / "trajectory.jsonl").read_bytes()
        assert manifest(many)["imports"] == manifest(one)["imports"]


ODD = 'qu"ote \\ back\u00e9 \u2028 \x01 \U0001f600'


def test_spliced_lines_are_the_lines_of_plain_records(tmp_path: Path) -> None:
    """append_many writes a spool's Serialized records exactly as it writes the plain dicts."""
    records = [
        {
            "record": "call",
            "call_id": f"c1{ODD}",
            "tool": ODD,
            "arguments": {ODD: [1, 2.5, None, True]},
            "at": "2026-05-01T09:00:00.020Z",
        },
        {
            "record": "result",
            "call_id": f"c1{ODD}",
            "status": "ok",
            "result": {"text": ODD},
            "at": "2026-05-31T23:59:59.999Z",
        },
        {"record": "mark", "name": "m", "parent_id": "p1", "data": {}, "at": "2026-05-01T09:00:01Z"},
        {"record": "note", "at": "2028-02-29T10:00:00.000Z"},
        {"record": "note"},  # no time: the clock's
        {"record": "mark", "name": "n", "call_id": None, "at": "2026-05-01T09:00:02.000Z", "big": 2**70, "neg": -0.0},
    ]
    plain, spliced = _fixed_run(tmp_path / "plain"), _fixed_run(tmp_path / "spliced")
    Appender(RunDir(plain), "r", clock=FixedClock(START)).append_many([dict(r) for r in records], check_calls=False)
    items = [spool.deserialize(spool.serialize(r)) for r in records]
    Appender(RunDir(spliced), "r", clock=FixedClock(START)).append_many(items, check_calls=False)
    assert (spliced / "trajectory.jsonl").read_bytes() == (plain / "trajectory.jsonl").read_bytes()


def test_the_run_lock_is_held_from_the_first_chunk_to_the_last(monkeypatch, tmp_path: Path) -> None:
    run = _fixed_run(tmp_path / "run")
    seen: list[bool] = []
    original = Appender.append_many

    def watched(self, chunk, **kwargs):
        written = original(self, chunk, **kwargs)
        fd = os.open(self.rundir.lock_path, os.O_RDWR)
        try:  # another writer (its own open file) cannot take the lock between two chunks
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            seen.append(False)
            fcntl.flock(fd, fcntl.LOCK_UN)
        except BlockingIOError:
            seen.append(True)
        finally:
            os.close(fd)
        return written

    monkeypatch.setattr(spool, "CHUNK_RECORDS", 4)
    monkeypatch.setattr(Appender, "append_many", watched)
    import_session(run, "pi", _pi_session(tmp_path / "s.jsonl", 10))
    assert len(seen) == 6 and all(seen)  # 22 records in chunks of 4 (+ the start record in the first)
    assert manifest(run)["imports"][0]["complete"] is True


def _failing_append(monkeypatch, fail_on: int) -> None:
    original = Appender.append_many
    calls = {"n": 0}

    def flaky(self, chunk, **kwargs):
        calls["n"] += 1
        if calls["n"] == fail_on:
            raise OSError(28, "No space left on device")
        return original(self, chunk, **kwargs)

    monkeypatch.setattr(Appender, "append_many", flaky)


def test_a_failure_before_the_first_chunk_writes_nothing(monkeypatch, tmp_path: Path) -> None:
    run = _fixed_run(tmp_path / "run")
    before = snapshot(run)
    monkeypatch.setattr(spool, "CHUNK_RECORDS", 4)
    _failing_append(monkeypatch, fail_on=1)
    with pytest.raises(OSError):
        import_session(run, "pi", _pi_session(tmp_path / "s.jsonl", 10))
    assert snapshot(run) == before
    assert not list((run / ".coldstart").glob("*.spool"))


def test_a_failure_after_the_first_chunk_is_reported_and_refused_again(monkeypatch, tmp_path: Path) -> None:
    run = _fixed_run(tmp_path / "run")
    session = _pi_session(tmp_path / "s.jsonl", 10)
    monkeypatch.setattr(spool, "CHUNK_RECORDS", 4)
    with monkeypatch.context() as patch:
        _failing_append(patch, fail_on=3)
        with pytest.raises(ColdstartError) as info:
            import_session(run, "pi", session)
    assert "stopped after 9 of 22 records" in info.value.problem and "imports.incomplete" in info.value.problem
    (entry,) = manifest(run)["imports"]
    assert entry["complete"] is False and (run / entry["path"]).is_file()
    assert len(records(run)) == 2 + 9  # the chunks that were written stay (append-only)
    report = validate_run(run)
    assert "imports.incomplete" in {f.code for f in report.findings} and not report.valid
    with pytest.raises(ColdstartError, match="interrupted"):
        import_session(run, "pi", session)
    assert not list((run / ".coldstart").glob("*.spool"))


class _RobotImporter:
    """Parses like pi but says its calls were made by an actor the recorder does not know."""

    name, version, format, description = "robot", "0", "pi-session", "test only"

    def parse(self, path: Path):
        session = registry.get("pi").parse(path)
        session.calls[-1].fields["actor"] = "robot"
        return session


class _RobotPlugin:
    @hookimpl
    def coldstart_register_importers(self):
        return [_RobotImporter()]


def test_a_record_the_recorder_refuses_writes_nothing(tmp_path: Path) -> None:
    run = _fixed_run(tmp_path / "run")
    before = snapshot(run)
    plugins.reset()
    plugins.manager().register(_RobotPlugin(), name="robot-plugin")
    try:
        with pytest.raises(ColdstartError, match="could not be prepared .*unknown actor 'robot'.*nothing was imported"):
            import_session(run, "robot", _pi_session(tmp_path / "s.jsonl", 3))
    finally:
        plugins.reset()
    assert snapshot(run) == before and not list((run / ".coldstart").glob("*.spool"))


def test_imports_holds_only_the_redacted_copy(monkeypatch, tmp_path: Path) -> None:
    """While the session is parsed and redacted, its bytes wait in .coldstart/: the name in
    imports/ is reserved (empty) and gets the copy only once the rules have been applied."""
    run = _fixed_run(tmp_path / "run")
    session = _pi_session(tmp_path / "s.jsonl", 3, text="password=hunter2-long")
    seen = []
    original = scrub.scrub_copy

    def watched(copy, redactor, temp_dir):
        seen.append(((run / "imports" / "s.jsonl").read_bytes(), copy.parent.name, copy.read_bytes()))
        return original(copy, redactor, temp_dir)

    monkeypatch.setattr(run_module, "scrub_copy", watched)
    import_session(run, "pi", session)
    ((reserved, folder, private),) = seen
    assert reserved == b"" and folder == ".coldstart" and private == session.read_bytes()
    stored = (run / "imports" / "s.jsonl").read_bytes()
    assert b"hunter2-long" not in stored and manifest(run)["imports"][0]["redacted"] == 3
    assert not [p.name for p in (run / ".coldstart").iterdir() if p.suffix in (".tmp", ".spool")]


def test_a_linear_session_is_read_once_a_branched_one_twice(monkeypatch, samples: Path, tmp_path: Path) -> None:
    reads: list[str] = []
    original = pi_module.read_lines

    def counted(path):
        reads.append(Path(path).name)
        return original(path)

    monkeypatch.setattr(pi_module, "read_lines", counted)
    for name in ("pi-v3-basic", "pi-v3-branched", "pi-v1-legacy"):
        reads.clear()
        registry.get("pi").parse(samples / f"{name}.jsonl")
        assert len(reads) == (2 if name == "pi-v3-branched" else 1), name


def _peak(tmp_path: Path, calls: int) -> int:
    tmp_path.mkdir(exist_ok=True)
    run = _fixed_run(tmp_path / f"run-{calls}")
    session = _pi_session(tmp_path / f"s-{calls}.jsonl", calls, text="x" * 300)
    tracemalloc.start()
    try:
        import_session(run, "pi", session)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_holds_ids_not_records(monkeypatch, tmp_path: Path) -> None:
    """Records and results never all sit in memory: 1,500 more calls add only the id
    bookkeeping (entry and call ids for the branch tree and uniqueness, a few hundred bytes
    a call), not the records (several KB a call in memory; the import held them all before)."""
    monkeypatch.setattr(spool, "CHUNK_RECORDS", 300)
    monkeypatch.setattr(scrub, "BLOCK", 1 << 16)  # both sessions span several blocks and chunks
    # read_json reserves a buffer of its size limit (64 MiB, never touched, so not resident):
    # a small limit keeps it from hiding what the import itself holds
    monkeypatch.setattr(jsonio, "MAX_DOCUMENT_BYTES", 1 << 20)
    _peak(tmp_path / "warm", 10)
    small, big = _peak(tmp_path, 500), _peak(tmp_path, 2000)
    assert big - small < 1500 * 700, (small, big)
