"""A run is data: pytest imports no conftest.py inside it, and refuses to judge runs under an
ini file a run holds (its options are the agent's, not the lab's)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

Lab = Callable[..., Path]  # the lab fixture: copies scenario runs into pytester's runs/


def plant(folder: Path, marker: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "conftest.py").write_text(f"open({str(marker)!r}, 'a').write({folder.name!r} + '\\n')\n")


@pytest.mark.parametrize(
    "args",
    [("--coldstart-runs=runs",), ("runs",), ("runs/passing",), ("runs/passing/run.json::flag-machine_operated",)],
    ids=["option", "root", "one-run", "node-id"],
)
def test_no_conftest_inside_a_run_is_imported(pytester: pytest.Pytester, lab: Lab, args: tuple[str, ...]) -> None:
    runs = lab("passing", "late_logger")
    (runs / "late_logger").rename(runs / "test-late")  # a run pytest's initial test* look reaches
    marker = pytester.path / "imported.txt"
    for folder in (runs / "passing", runs / "passing" / "test", runs / "test-late", runs / "test-late" / "test"):
        plant(folder, marker)
    plant(runs, marker)  # the lab's own folder: its conftest is the lab's to run
    result = pytester.runpytest(*args)
    assert result.ret in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED), result.stdout.str()[-2000:]
    imported = marker.read_text().split() if marker.exists() else []
    assert set(imported) <= {"runs"}, imported


def test_an_ini_file_inside_a_run_is_refused(pytester: pytest.Pytester, lab: Lab) -> None:
    runs = lab("late_logger")
    (runs / "late_logger" / "pytest.ini").write_text('[pytest]\naddopts = -k "not transient"\n')
    result = pytester.runpytest("runs/late_logger")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*pytest read its configuration from *pytest.ini, inside the run *late_logger*"])
    safe = pytester.runpytest("--coldstart-runs=runs/late_logger", "-rA")  # the lab's configuration
    assert safe.ret == pytest.ExitCode.TESTS_FAILED and "transient_outputs_captured" in safe.stdout.str()


@pytest.mark.parametrize("manifest", ["fifo", "folder", "gone", "not-json"])
def test_a_run_whose_manifest_is_broken_is_still_claimed(pytester: pytest.Pytester, lab: Lab, manifest: str) -> None:
    """A run.json that is a FIFO, a folder, gone or not JSON: still a run (its other files say
    so), so its conftest.py and test_*.py stay data and its items say what is wrong."""
    runs = lab("passing")
    run = runs / "passing"
    (run / "run.json").unlink()
    if manifest == "fifo":
        os.mkfifo(run / "run.json")
    elif manifest == "folder":
        (run / "run.json").mkdir()
    elif manifest == "not-json":
        (run / "run.json").write_text("{oops")
    marker = pytester.path / "imported.txt"
    plant(run, marker)
    (run / "test_evil.py").write_text(f"open({str(marker)!r}, 'a').write('test_evil\\n')\ndef test_x():\n    pass\n")
    result = pytester.runpytest("--coldstart-runs=runs", "-rA")
    assert not marker.exists(), marker.read_text()
    assert result.ret == pytest.ExitCode.TESTS_FAILED and "runs/passing/run.json::run" in result.stdout.str()
