"""Writers never write through a symlink inside a run (issue 16.2).

A planted symlink (``.coldstart/`` itself, the lock, the call index and its journals,
``payloads/``, ``artifacts/``, ``imports/``, ``reviews.jsonl``, ``trajectory.jsonl``) is refused
with a one-line error naming it; a sentinel directory outside the run, where every link points,
is compared before and after: nothing is ever created or changed there.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from core_helpers import cli, new_run, recorder

from pytest_coldstart.run.errors import ContainmentError
from pytest_coldstart.run.paths import ensure_folder, open_for_write


def snapshot(folder: Path) -> dict[str, tuple[int, bytes]]:
    """Every entry below ``folder`` (links not followed) with its mode and bytes."""
    seen: dict[str, tuple[int, bytes]] = {}
    for current, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(current) / name
            info = os.lstat(path)
            data = path.read_bytes() if path.is_file() and not path.is_symlink() else b""
            seen[str(path.relative_to(folder))] = (info.st_mode, data)
    return seen


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    sentinel = tmp_path / "outside"
    sentinel.mkdir()
    (sentinel / "keep.txt").write_text("untouched\n")
    return sentinel


def _run(tmp_path: Path) -> Path:
    run = new_run(tmp_path / "run", calls=1)
    return run


def _replace_with_link(path: Path, target: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        for child in sorted(path.rglob("*"), reverse=True):
            child.rmdir() if child.is_dir() else child.unlink()
        path.rmdir()
    elif path.exists() or path.is_symlink():
        path.unlink()
    path.symlink_to(target, target_is_directory=target.is_dir())


def test_symlinked_state_folder_is_refused_by_the_cli(tmp_path: Path, outside: Path) -> None:
    run = _run(tmp_path)
    _replace_with_link(run / ".coldstart", outside)
    before = snapshot(outside)
    trajectory = (run / "trajectory.jsonl").read_bytes()
    done = cli("trace", "call", "--run-dir", str(run), "--call-id", "c9", "--tool", "bash")
    assert done.returncode == 1, done.stderr
    assert ".coldstart" in done.stderr and "symlink" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert snapshot(outside) == before  # no lock, no index.sqlite written where the link points
    assert (run / "trajectory.jsonl").read_bytes() == trajectory


def test_dangling_lock_symlink_never_creates_its_target(tmp_path: Path, outside: Path) -> None:
    run = _run(tmp_path)
    target = outside / "created-by-lock"
    _replace_with_link(run / ".coldstart" / "lock", target)
    before = snapshot(outside)
    done = cli("trace", "mark", "--run-dir", str(run), "--name", "m")
    assert done.returncode == 1
    assert "lock" in done.stderr and "symlink" in done.stderr and "Traceback" not in done.stderr
    assert not target.exists() and not os.path.lexists(target)
    assert snapshot(outside) == before


@pytest.mark.parametrize("name", ["index.sqlite", "index.sqlite-wal", "index.sqlite-shm", "index.sqlite-journal"])
def test_symlinked_call_index_files_are_refused(tmp_path: Path, outside: Path, name: str) -> None:
    run = _run(tmp_path)
    for stale in (run / ".coldstart").glob("index.sqlite*"):
        stale.unlink()
    target = outside / f"planted-{name}"
    (run / ".coldstart" / name).symlink_to(target)
    before = snapshot(outside)
    with pytest.raises(ContainmentError, match="symlink"):
        recorder(run).call("c9", "bash", {"command": "true"})
    assert not os.path.lexists(target)
    assert snapshot(outside) == before


@pytest.mark.parametrize("name", ["trajectory.jsonl", "reviews.jsonl"])
def test_symlinked_append_targets_are_refused(tmp_path: Path, outside: Path, name: str) -> None:
    run = _run(tmp_path)
    target = outside / f"planted-{name}"
    _replace_with_link(run / name, target)  # dangling: an O_CREAT append would create it
    before = snapshot(outside)
    if name == "trajectory.jsonl":
        done = cli("trace", "mark", "--run-dir", str(run), "--name", "m")
    else:
        done = cli(
            "trace", "review", "--run-dir", str(run), "--id", "r", "--status", "pending", "--by", "me", "--note", "n"
        )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "symlink" in done.stderr and "Traceback" not in done.stderr
    assert not os.path.lexists(target)
    assert snapshot(outside) == before


def test_symlinked_payloads_folder_is_refused(tmp_path: Path, outside: Path) -> None:
    run = new_run(tmp_path / "run", calls=0, logging={"payload_mode": "full", "inline_max_bytes": 64})
    (run / "payloads").symlink_to(outside, target_is_directory=True)
    before = snapshot(outside)
    done = cli(
        "trace", "call", "--run-dir", str(run), "--call-id", "big", "--tool", "bash",
        "--arguments", json.dumps({"command": "x" * 5000}),
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert "payloads" in done.stderr and "symlink" in done.stderr
    assert snapshot(outside) == before


def test_symlinked_artifacts_folder_is_refused(tmp_path: Path, outside: Path) -> None:
    run = _run(tmp_path)
    _replace_with_link(run / "artifacts", outside)
    source = tmp_path / "report.txt"
    source.write_text("agent output\n")
    before = snapshot(outside)
    done = cli("trace", "artifact", "--run-dir", str(run), "--path", str(source), "--label", "report")
    assert done.returncode == 1
    assert "artifacts" in done.stderr and "symlink" in done.stderr
    assert snapshot(outside) == before


def test_symlinked_artifact_file_is_not_written_through(tmp_path: Path, outside: Path) -> None:
    run = _run(tmp_path)
    target = outside / "planted-artifact"
    (run / "artifacts" / "001-report.txt").symlink_to(target)
    source = tmp_path / "report.txt"
    source.write_text("agent output\n")
    with pytest.raises(ContainmentError, match="symlink"):
        recorder(run).artifact(source, "report")
    assert not os.path.lexists(target)


def test_symlinked_imports_folder_is_refused(tmp_path: Path, outside: Path) -> None:
    run = _run(tmp_path)
    _replace_with_link(run / "imports", outside)
    session = tmp_path / "session.jsonl"
    session.write_text(
        json.dumps({"type": "session", "version": 3, "id": "s", "timestamp": "2026-01-01T00:00:00Z"}) + "\n"
    )
    before = snapshot(outside)
    done = cli("trace", "import", "--run-dir", str(run), "--format", "pi", "--session", str(session))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "imports" in done.stderr and "symlink" in done.stderr and "Traceback" not in done.stderr
    assert snapshot(outside) == before


def test_ensure_folder_refuses_a_symlinked_component(tmp_path: Path, outside: Path) -> None:
    (tmp_path / "a").symlink_to(outside, target_is_directory=True)
    with pytest.raises(ContainmentError, match="symlink"):
        ensure_folder(tmp_path, "a/b")
    assert not (outside / "b").exists()
    (tmp_path / "file").write_text("x")
    with pytest.raises(ContainmentError, match="not a directory"):
        ensure_folder(tmp_path, "file")
    assert ensure_folder(tmp_path, "c/d").is_dir()


def test_open_for_write_refuses_links_and_creates_plain_files(tmp_path: Path, outside: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to(outside / "keep.txt")
    with pytest.raises(ContainmentError, match="symlink"):
        open_for_write(link, os.O_WRONLY | os.O_APPEND)
    assert (outside / "keep.txt").read_text() == "untouched\n"
    os.close(open_for_write(tmp_path / "plain", os.O_WRONLY | os.O_CREAT))
    assert (tmp_path / "plain").is_file()


def test_a_self_looping_state_folder_is_one_line_not_a_crash(tmp_path: Path) -> None:
    run = _run(tmp_path)
    _replace_with_link(run / ".coldstart", run / ".coldstart")
    done = cli("trace", "mark", "--run-dir", str(run), "--name", "m")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and ".coldstart" in done.stderr
