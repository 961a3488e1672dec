"""A run or a lab nested deeper than Python's recursion limit (an agent's ``mkdir -p a/a/a/...``):
every command still works and pytest still collects the runs. Python 3.11's os.walk and rglob
recurse once per level (RecursionError, exit 70); pytest's own walk does too, so collection
does not enter folders more than ``MAX_FOLDER_DEPTH`` below a --coldstart-runs root, and says so.
"""

from __future__ import annotations

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
