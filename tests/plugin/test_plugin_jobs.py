"""--coldstart-jobs: the collected runs are audited in a process pool before collection, once
each, through the shared cache; outcomes are those of a serial session."""

from __future__ import annotations

from pathlib import Path

import pytest
from plugin_helpers import LAB, outcomes
from test_plugin_xdist_cache import COUNTING_CONFTEST, _audited


def test_jobs_audit_each_run_once_with_the_serial_outcomes(pytester: pytest.Pytester, lab) -> None:
    lab()
    log = pytester.path / "audits.log"
    pytester.makeconftest(COUNTING_CONFTEST.format(log=str(log)))
    serial = outcomes(pytester.runpytest("--coldstart-runs=runs", "-rA", "--coldstart-cache-dir=serial-cache"))
    log.unlink()
    pooled = pytester.runpytest(
        "--coldstart-runs=runs", "-rA", "--coldstart-cache-dir=pool-cache", "--coldstart-jobs=2"
    )
    assert outcomes(pooled) == serial
    audited = _audited(log)
    assert audited == sorted(LAB)  # once per run, in the pool's processes
    assert len({line.split()[0] for line in log.read_text().splitlines()}) == 2  # two worker processes
    log.unlink()
    again = pytester.runpytest("--coldstart-runs=runs", "-rA", "--coldstart-cache-dir=pool-cache", "--coldstart-jobs=2")
    assert outcomes(again) == serial and _audited(log) == []  # all from the cache


def test_bad_jobs_values_are_usage_errors(pytester: pytest.Pytester, lab) -> None:
    lab()
    result = pytester.runpytest("--coldstart-runs=runs", "--coldstart-jobs=-1")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    pytester.makeini("[pytest]\ncoldstart_jobs = many\n")
    result = pytester.runpytest("--coldstart-runs=runs")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "coldstart_jobs" in result.stderr.str()


def test_jobs_without_a_disk_cache_audit_at_collection(pytester: pytest.Pytester, lab, tmp_path: Path) -> None:
    lab()
    result = pytester.runpytest("--coldstart-runs=runs", "--coldstart-no-cache", "--coldstart-jobs=2", "-rA")
    assert outcomes(result) == outcomes(pytester.runpytest("--coldstart-runs=runs", "--coldstart-no-cache", "-rA"))


def test_xdist_over_small_runs_says_it_cannot_pay_with_the_figures(pytester: pytest.Pytester, lab) -> None:
    lab()
    result = pytester.runpytest("--coldstart-runs=runs", "-n", "2", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(["coldstart: -n 2 cannot pay for itself here: about * ms of audit per run*"])
    assert "--coldstart-jobs 2 instead" in result.stdout.str()
    serial = pytester.runpytest("--coldstart-runs=runs", "-p", "no:cacheprovider")
    assert "cannot pay" not in serial.stdout.str()


def test_the_note_stays_silent_when_the_audit_dominates(tmp_path: Path) -> None:
    from pytest_coldstart.pytest_plugin.parallel import xdist_note

    big = tmp_path / "big"
    big.mkdir()
    (big / "trajectory.jsonl").write_bytes(b"x" * 5_000_000)
    assert xdist_note([big], items=7, workers=2) is None
    note = xdist_note([tmp_path / "missing"], items=7, workers=2)
    assert note is not None and "7.0 items x 1.6 ms" in note


def test_a_session_over_runs_freezes_its_objects_and_the_next_session_thaws_them(
    pytester: pytest.Pytester, lab
) -> None:
    """After collection the items and reports live to the end: frozen, the collector skips them
    (a fifth of a 2,000-run session). Another session in the same process thaws them first,
    so an inline pytester session never keeps the previous one's garbage alive."""
    import gc

    lab()
    pytester.runpytest_inprocess("--coldstart-runs=runs")
    assert gc.get_freeze_count() > 0
    pytester.makepyfile(test_plain="def test_plain():\n    pass\n")
    result = pytester.runpytest_inprocess("test_plain.py")
    assert result.ret == 0
    assert gc.get_freeze_count() == 0


def test_a_cache_dir_that_cannot_be_one_is_a_usage_error_not_a_failed_run(pytester: pytest.Pytester, lab) -> None:
    lab()
    (pytester.path / "not-a-folder").write_text("x")
    result = pytester.runpytest("--coldstart-runs=runs", "--coldstart-cache-dir=not-a-folder")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*audit cache directory*not-a-folder cannot be used (it is not a directory)*"])
