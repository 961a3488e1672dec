"""Run files are read without waiting or following: FIFOs, directories and symlinks are refused
with a one-line error naming the file; operator inputs may opt in to symlinks; documents are
bounded; version gates accept integers only."""

from __future__ import annotations

import os

import pytest

from pytest_coldstart.run import jsonio
from pytest_coldstart.run.errors import ColdstartError, VersionError
from pytest_coldstart.run.hashing import sha256_bytes, sha256_file
from pytest_coldstart.run.versioning import require_current, version_of


def test_a_fifo_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "run.json"
    os.mkfifo(fifo)
    with pytest.raises(ColdstartError, match=r"run.json: is a FIFO, not a regular file"):
        jsonio.read_json(fifo, what="run.json")
    with pytest.raises(OSError, match="FIFO"):
        sha256_file(fifo)
    assert jsonio.irregular(fifo) == "is a FIFO, not a regular file"


def test_a_directory_is_refused(tmp_path):
    with pytest.raises(ColdstartError, match="reviews.jsonl: is a directory, not a regular file"):
        list(jsonio.iter_jsonl(tmp_path, what="reviews.jsonl"))


def test_symlinks_are_refused_unless_the_caller_opts_in(tmp_path):
    target = tmp_path / "outside.json"
    target.write_bytes(b'{"a": 1}\n')
    link = tmp_path / "evidence.json"
    link.symlink_to(target)
    with pytest.raises(ColdstartError, match="evidence.json: is a symlink"):
        jsonio.read_json(link, what="evidence.json")
    with pytest.raises(OSError, match="symlink"):
        sha256_file(link)
    assert jsonio.irregular(link) == jsonio.SYMLINK_REFUSED
    assert jsonio.read_json(link, follow_symlinks=True) == {"a": 1}  # operator inputs (--task-file ...)
    assert sha256_file(link, follow_symlinks=True) == (sha256_bytes(target.read_bytes()), 9)


def test_documents_are_bounded(tmp_path):
    path = tmp_path / "answer.json"
    path.write_bytes(b'{"x": "' + b"y" * 100 + b'"}')
    with pytest.raises(ColdstartError, match="answer.json: larger than 50 bytes"):
        jsonio.read_json(path, what="answer.json", max_bytes=50)
    assert jsonio.read_json(path)["x"] == "y" * 100


@pytest.mark.parametrize("value", [2.0, True, "2", None])
def test_version_gates_take_integers_only(value):
    with pytest.raises(VersionError):
        version_of({"schemaVersion": value}, "run", "run.json")
    with pytest.raises(VersionError, match="appends only after version 2"):
        require_current({"schemaVersion": value}, "trajectory record", "trajectory.jsonl")
    require_current({"schemaVersion": 2}, "trajectory record")


def test_the_appender_tail_read_refuses_a_fifo_without_waiting(tmp_path):
    from pytest_coldstart.record.trajectory import read_last_line

    fifo = tmp_path / "trajectory.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(ColdstartError, match="trajectory.jsonl: is a FIFO, not a regular file"):
        read_last_line(fifo)
    assert read_last_line(tmp_path / "missing.jsonl") is None
