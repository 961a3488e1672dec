"""A full disk (or a quota, or a read-only folder) while recording: every append is all or
nothing - a write that fails part-way is cut back off, so no torn line is left - and the CLI
says "nothing was recorded" in one line (exit 1), never an internal error."""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

import pytest
from core_helpers import new_run, recorder

from pytest_coldstart.cli.main import main
from pytest_coldstart.record import trajectory
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.validate.run import validate_run


@pytest.fixture
def full_disk_after(monkeypatch):
    """os.write writes ``allowed`` bytes in all, then fails with ENOSPC (a disk filling up)."""

    def install(allowed: int) -> None:
        real = os.write
        left = [allowed]

        def write(fd: int, data) -> int:
            if left[0] <= 0:
                raise OSError(errno.ENOSPC, "No space left on device")
            count = real(fd, bytes(data[: left[0]]))
            left[0] -= count
            return count

        monkeypatch.setattr(os, "write", write)

    return install


@pytest.mark.parametrize("allowed", [0, 1, 40])
def test_a_record_that_does_not_fit_leaves_the_trajectory_as_it_was(tmp_path: Path, full_disk_after, allowed) -> None:
    run = new_run(tmp_path)
    before = (run / "trajectory.jsonl").read_bytes()
    full_disk_after(allowed)
    with pytest.raises(ColdstartError, match="nothing was recorded: No space left on device"):
        recorder(run).call("c-big", "bash", {"command": "x" * 500}, phase="agent", actor="agent")
    assert (run / "trajectory.jsonl").read_bytes() == before  # no torn line
    os.write = os.write


def test_after_a_full_disk_the_run_is_valid_and_the_next_append_works(tmp_path: Path, monkeypatch) -> None:
    run = new_run(tmp_path)
    real = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: real(fd, bytes(data[:3])) if len(data) > 3 else real(fd, data))
    calls = [0]

    def failing_fsync(fd: int) -> None:
        calls[0] += 1
        raise OSError(errno.EDQUOT, "Disk quota exceeded")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(ColdstartError, match="nothing was recorded: Disk quota exceeded"):
        recorder(run).call("c-1", "bash", {"command": "ls"}, phase="agent", actor="agent")
    monkeypatch.undo()
    assert not validate_run(run).findings
    recorder(run).call("c-1", "bash", {"command": "ls"}, phase="agent", actor="agent")  # the same id: never recorded
    assert "c-1" in (run / "trajectory.jsonl").read_text("utf-8")


def test_an_index_that_cannot_be_written_records_nothing_and_says_so(tmp_path: Path, monkeypatch, capsys) -> None:
    run = new_run(tmp_path)
    before = (run / "trajectory.jsonl").read_bytes()

    def full(*_args, **_kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(trajectory, "open_index", full)
    code = main(["trace", "call", "--run-dir", str(run), "--call-id", "c9", "--tool", "bash", "--arguments", "{}"])
    assert code == 1 and (run / "trajectory.jsonl").read_bytes() == before
    assert "nothing was recorded: the call index cannot be used (database or disk is full)" in capsys.readouterr().err


def test_append_whole_cuts_a_partial_write_back_off(tmp_path: Path, full_disk_after) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"a":1}\n')
    full_disk_after(5)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        with pytest.raises(ColdstartError, match="nothing was recorded"):
            jsonio.append_whole(fd, b'{"b":2222222}\n', path)
    finally:
        os.close(fd)
    assert path.read_bytes() == b'{"a":1}\n'
