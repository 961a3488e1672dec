"""A run or a lab nested deeper than Python's recursion limit (an agent's ``mkdir -p a/a/a/...``):
every command still works and pytest still collects the runs. Python 3.11's os.walk and rglob
recurse once per level (RecursionError, exit 70); pytest's own walk does too, so collection
does not enter folders more than ``MAX_FOLDER_DEPTH`` below a --coldstart-runs root, and says so.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hostile_runs import copy_run, remove_tree

from pytest_coldstart.pytest_plugin.links import MAX_FOLDER_DEPTH

LEVELS = 1_200


def _nest(folder: Path, levels: int = LEVELS) -> Path:
    for _ in range(levels):
        folder = folder / "a"
        os.mkdir(folder)
    return folder


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("deep") / "labs"
    run = copy_run("passing", root / "run-01", keep_audit=False)
    (_nest(run / "agent") / "scratch.txt").write_text("agent output, far down")
    (root / "archive").mkdir()
    _nest(root / "archive")  # a lab folder as deep, with no run in it
    yield root
    remove_tree(root.parent)  # before pytest's own cleanup, which recurses


def coldstart(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest_coldstart", *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )


def test_every_command_works_on_a_deep_run_and_a_deep_lab(lab: Path, tmp_path: Path) -> None:
    run = lab / "run-01"
    for args in (
        ("compare", str(lab)),
        ("review", "todo", str(lab)),
        ("audit", "batch", str(lab), "--out", str(tmp_path / "audits"), "--jobs", "1"),
        ("report", "--html", str(tmp_path / "lab.html"), str(lab)),
        ("audit", "run", "--run-dir", str(run), "--out", str(tmp_path / "one")),
        ("trace", "validate", "--run-dir", str(run)),
        ("trace", "summary", "--run-dir", str(run)),
    ):
        done = coldstart(*args, cwd=tmp_path)
        assert done.returncode == 0, (args, done.stderr[-1500:])
        assert "RecursionError" not in done.stderr and "internal error" not in done.stderr, (args, done.stderr)


def test_pytest_collects_the_run_and_names_the_folder_it_did_not_enter(lab: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rA", f"--coldstart-runs={lab}"],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 0 and "INTERNALERROR" not in output, output[-3000:]
    assert "10 passed" in output
    assert f"nested more than {MAX_FOLDER_DEPTH} folders below" in output


def test_init_records_a_visible_file_it_cannot_open_and_artifacts_take_any_name(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "toolkit.md").write_text("readable")
    os.chdir(docs)
    for _ in range(21):  # one level at a time, as an agent's shell could: the full path is
        os.mkdir("d" * 200)  # longer than the kernel opens by name (ENAMETOOLONG)
        os.chdir("d" * 200)
    Path("far.md").write_text("too far to open by name")
    os.chdir(tmp_path)
    long_name = tmp_path / ("n" * 255)  # a full-length name: "001-" + name would not fit
    long_name.write_bytes(b"jar")
    run = tmp_path / "run"
    steps = [
        ("trace", "init", "--run-dir", str(run), "--run-id", "r1", "--task-text", "t", "--harness", "pi",
         "--model", "m", "--provider", "p", "--harness-version", "1", "--visible-root", "docs"),
        ("trace", "artifact", "--run-dir", str(run), "--path", str(long_name)),
        ("trace", "validate", "--run-dir", str(run)),
    ]  # fmt: skip
    try:
        for args in steps:
            done = coldstart(*args, cwd=tmp_path)
            assert done.returncode == 0, (args[:2], done.stderr[-800:])
        visible = json.loads((run / "visibility.json").read_text("utf-8"))
        assert [f["path"] for f in visible["files"]] == ["docs/toolkit.md"]
        assert [s["reason"] for s in visible["skipped"]] == ["unreadable (File name too long)"]
        artifact = json.loads((run / "run.json").read_text("utf-8"))["artifacts"][0]
        assert len(artifact["path"].rpartition("/")[2]) <= 255 and artifact["source"] == str(long_name)
    finally:
        remove_tree(docs)
