"""Sparse files: a length nobody paid for is refused before any byte of it is read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_coldstart.run import holes, jsonio
from pytest_coldstart.run.hashing import sha256_file

BLOCK = 4096


def _holes_reported(folder: Path) -> bool:
    """Whether this file system reports holes (SEEK_DATA): ext4, xfs, btrfs, tmpfs, apfs do."""
    probe = folder / "probe.bin"
    with open(probe, "wb") as handle:
        handle.truncate(1 << 20)
    fd = os.open(probe, os.O_RDONLY)
    try:
        os.lseek(fd, 0, getattr(os, "SEEK_DATA", os.SEEK_SET))
        return False
    except OSError:
        return True
    finally:
        os.close(fd)
        probe.unlink()


def _require_holes(folder: Path) -> Path:
    """``folder``, where the file system reports holes; else the test does not apply here."""
    if not _holes_reported(folder):
        pytest.skip("this file system does not report holes (no SEEK_DATA)")
    return folder


@pytest.fixture
def sparse_folder(tmp_path: Path) -> Path:
    return _require_holes(tmp_path)


def _sparse(path: Path, size: int, head: bytes = b"") -> Path:
    with open(path, "wb") as handle:
        handle.write(head)
        handle.truncate(size)
    return path


def test_a_terabyte_hole_is_refused_at_open_and_named(sparse_folder):
    path = _sparse(sparse_folder / "trajectory.jsonl", 1 << 40, b'{"record":"call"}\n')
    with pytest.raises(jsonio.RefusedFile) as caught:
        jsonio.open_regular(path)
    assert "is a sparse file: 1024.0 GiB long" in str(caught.value)
    assert "refused unread" in str(caught.value)
    assert "sparse file" in (jsonio.irregular(path) or "")
    with pytest.raises(OSError, match="sparse file"):
        sha256_file(path)


def test_holes_up_to_the_limit_are_read_as_zeros(sparse_folder):
    path = _sparse(sparse_folder / "region.mca", holes.MAX_HOLE_BYTES, b"x" * BLOCK)
    assert jsonio.irregular(path) is None
    digest, size = sha256_file(path)
    assert size == holes.MAX_HOLE_BYTES and len(digest) == 64


def test_an_ordinary_file_is_never_probed(tmp_path, monkeypatch):
    path = tmp_path / "plain.json"
    path.write_bytes(b"{}" * 10_000)
    monkeypatch.setattr(holes, "_SEEK_DATA", None)  # a probe would now answer "cannot say"
    assert not holes.may_have_excess(path.stat().st_size, path.stat().st_blocks)
    with jsonio.open_regular(path) as handle:
        assert handle.read() == b"{}" * 10_000


def test_the_position_is_back_at_the_start_after_a_probe(sparse_folder, monkeypatch):
    monkeypatch.setattr(holes, "MAX_HOLE_BYTES", 4 * BLOCK)
    path = _sparse(sparse_folder / "x.jsonl", 4 * BLOCK, b"head\n")  # holes at the limit: probed, kept
    with jsonio.open_regular(path) as handle:
        assert handle.read(5) == b"head\n"


def test_a_file_cut_into_many_small_holes_is_refused_after_the_limit(sparse_folder, monkeypatch):
    """Probing stops once the holes pass the limit: it never walks every extent of the file."""
    monkeypatch.setattr(holes, "MAX_HOLE_BYTES", 8 * BLOCK)
    path = sparse_folder / "striped.bin"
    with open(path, "wb") as handle:
        for block in range(0, 4_000, 2):  # data, hole, data, hole ...
            handle.seek(block * BLOCK)
            handle.write(b"d" * BLOCK)
    calls = []
    real = os.lseek
    monkeypatch.setattr(os, "lseek", lambda *a: calls.append(a) or real(*a))
    with pytest.raises(jsonio.RefusedFile, match="sparse file"):
        jsonio.open_regular(path)
    assert len(calls) < 40, len(calls)  # about two seeks per hole until the ninth hole


@settings(max_examples=60, deadline=None)
@given(layout=st.lists(st.tuples(st.booleans(), st.integers(1, 12)), min_size=1, max_size=12))
def test_refused_exactly_when_the_holes_pass_the_limit(layout, tmp_path_factory):
    """A property over layouts of data and holes (whole blocks): refused iff holes > limit,
    and a file that is kept reads back byte for byte."""
    folder = _require_holes(tmp_path_factory.mktemp("layouts"))
    limit = 6 * BLOCK
    path = folder / "layout.bin"
    offset = hole_bytes = 0
    expected = bytearray()
    with open(path, "wb") as handle:
        for is_data, blocks in layout:
            length = blocks * BLOCK
            if is_data:
                handle.seek(offset)
                handle.write(b"d" * length)
                expected += b"d" * length
            else:
                hole_bytes += length
                expected += bytes(length)
            offset += length
        handle.truncate(offset)
    saved = holes.MAX_HOLE_BYTES
    holes.MAX_HOLE_BYTES = limit
    try:
        if hole_bytes > limit:
            with pytest.raises(jsonio.RefusedFile, match="sparse file"):
                jsonio.open_regular(path)
        else:
            with jsonio.open_regular(path) as handle:
                assert handle.read() == bytes(expected)
    finally:
        holes.MAX_HOLE_BYTES = saved


def test_an_unanswerable_probe_reads_the_file_as_before(sparse_folder, monkeypatch):
    """A file system that cannot say where the holes are (EINVAL) costs time, never a refusal."""
    path = _sparse(sparse_folder / "x.bin", holes.MAX_HOLE_BYTES + 10 * BLOCK, b"head")
    real = os.lseek

    def unanswerable(fd: int, offset: int, whence: int) -> int:
        if whence in (os.SEEK_SET, os.SEEK_CUR, os.SEEK_END):
            return real(fd, offset, whence)
        raise OSError(22, "Invalid argument")

    monkeypatch.setattr(os, "lseek", unanswerable)
    with jsonio.open_regular(path) as handle:
        assert handle.read(4) == b"head"


def test_describe_names_length_storage_and_limit():
    text = holes.describe(1 << 40, 8)
    assert text.startswith("is a sparse file: 1024.0 GiB long but 4.0 KiB stored")
    assert "64.0 MiB" in text
