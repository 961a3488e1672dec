"""The run item (DESIGN §3, #15): one per run, its overall status as passed / failed / strict xfail."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from plugin_helpers import junit_cases, outcomes

from pytest_coldstart.audit import audit_run
from pytest_coldstart.demo.scenarios import RunBuilder
from pytest_coldstart.pytest_plugin.outcomes import FAILED, PASSED, XFAILED
from pytest_coldstart.pytest_plugin.run_item import run_verdict
from pytest_coldstart.pytest_plugin.session import RunInfo

Lab = Callable[..., Path]  # the lab fixture: copies scenario runs into pytester's runs/
Builder = Callable[..., RunBuilder]  # the coldstart_run fixture

OVERALL = {"PASS": "passed", "FAIL": "failed", "PENDING": "xfailed"}
PENDING_RUNS = ("pending_reviews", "cross_stream_tie", "pending_oracle")


def _no_restore(pytester: pytest.Pytester, coldstart_run: Builder) -> Path:
    """A run PENDING for a run-level reason: no restore-verification evidence is declared."""
    builder = coldstart_run().undeclare("restore")
    builder.root = pytester.path / "runs" / "no_restore"
    return Path(builder.build())


def test_every_run_has_one_run_item_with_its_overall_status(
    pytester: pytest.Pytester, lab: Lab, coldstart_run: Builder
) -> None:
    runs = lab("passing", "late_logger", "invalid_fixture", "tampered_hashes", *PENDING_RUNS)
    _no_restore(pytester, coldstart_run)
    result = pytester.runpytest("--coldstart-runs=runs", "-rA")
    got = outcomes(result)
    names = sorted(p.name for p in runs.iterdir())
    assert sorted(k.split("/")[1] for k in got if k.endswith("::run")) == names  # exactly one per run
    for name in names:
        overall = audit_run(runs / name, write=False)["overall"]
        assert got[f"runs/{name}/run.json::run"] == OVERALL[overall], name
        assert list(k for k in got if k.startswith(f"runs/{name}/"))[-1].endswith("::run")  # always last
    result.stdout.fnmatch_lines(
        [
            "XFAIL runs/no_restore/run.json::run - run scenario-passing PENDING: pending: no restore-verification evidence is declared*",
            "XFAIL runs/pending_oracle/run.json::run - run scenario-pending-oracle PENDING: flag answer_correct PENDING: *",
        ]
    )


def test_a_failed_run_item_names_the_failure_class_and_every_reason(pytester: pytest.Pytester, lab: Lab) -> None:
    lab("tampered_hashes", "rejected_review")
    result = pytester.runpytest("--coldstart-runs=runs", "runs/tampered_hashes/run.json::run")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "run scenario-tampered-hashes FAIL (INFRA_ERROR): infra: evidence test_mod: sha256 mismatch * (+* more)",
            "reasons:",
            "  - infra: evidence test_mod: sha256 mismatch*",
            "  - flag machine_operated FAIL: *",
        ]
    )
    rejected = pytester.runpytest("runs/rejected_review/run.json::run")
    rejected.stdout.fnmatch_lines(["  - review machine_operated.causality rejected*"])


def test_runxfail_fails_every_pending_run_and_exits_nonzero(
    pytester: pytest.Pytester, lab: Lab, coldstart_run: Builder
) -> None:
    lab(*PENDING_RUNS)
    _no_restore(pytester, coldstart_run)
    only_runs = ("--coldstart-runs=runs", "-rA", "-m", "coldstart(kind='run')")
    normal = pytester.runpytest(*only_runs)
    assert normal.ret == pytest.ExitCode.OK
    normal.assert_outcomes(xfailed=4)
    forced = pytester.runpytest(*only_runs, "--runxfail")
    assert forced.ret == pytest.ExitCode.TESTS_FAILED
    assert outcomes(forced) == {f"runs/{name}/run.json::run": "failed" for name in (*PENDING_RUNS, "no_restore")}
    lab("passing")
    passing = pytester.runpytest("runs/passing", "--runxfail")
    assert passing.ret == pytest.ExitCode.OK
    passing.assert_outcomes(passed=10)


def test_markers_select_run_items(pytester: pytest.Pytester, lab: Lab) -> None:
    lab("passing", "late_logger", "pending_reviews", "tampered_hashes")
    everything = outcomes(pytester.runpytest("--coldstart-runs=runs", "-rA"))
    runs_only = outcomes(
        pytester.runpytest("--coldstart-runs=runs", "-rA", "--strict-markers", "-m", "coldstart(kind='run')")
    )
    assert runs_only == {k: v for k, v in everything.items() if k.endswith("::run")} and len(runs_only) == 4
    pending = outcomes(pytester.runpytest("--coldstart-runs=runs", "-rA", "-m", "pending and coldstart(kind='run')"))
    assert pending == {"runs/pending_reviews/run.json::run": "xfailed"}
    for marker, run in (("agent_fail", "late_logger"), ("infra_error", "tampered_hashes")):
        selected = outcomes(
            pytester.runpytest("--coldstart-runs=runs", "-rA", "-m", f"{marker} and coldstart(kind='run')")
        )
        assert selected == {f"runs/{run}/run.json::run": "failed"}
    failing = outcomes(pytester.runpytest("--coldstart-runs=runs", "-rA", "-m", "coldstart(kind='run', status='FAIL')"))
    assert set(failing) == {"runs/late_logger/run.json::run", "runs/tampered_hashes/run.json::run"}


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_junit_counts_one_run_case_per_run_with_properties_and_time(
    pytester: pytest.Pytester, lab: Lab, coldstart_run: Builder, workers: list[str]
) -> None:
    lab("passing", "late_logger", "pending_reviews")
    _no_restore(pytester, coldstart_run)
    result = pytester.runpytest("--coldstart-runs=runs", "-rA", "--junitxml=report.xml", *workers)
    got = outcomes(result)
    cases = junit_cases(pytester.path / "report.xml")
    assert len(cases) == len(got) == 10 + 10 + 9 + 10  # the JUnit case count is the item count
    run_cases = {key: case for key, case in cases.items() if key.endswith("::run")}
    assert sorted(c.properties["coldstart.run"] for c in run_cases.values()) == ["run"] * 4
    late = run_cases["runs.late_logger.run.json::run"]
    assert late.outcome == "failed" and late.properties["coldstart.status"] == "FAIL"
    assert late.properties["coldstart.failure_class"] == "AGENT_FAIL"
    assert late.properties["coldstart.overall"] == "FAIL"
    assert json.loads(late.properties["coldstart.reasons"])[0].startswith("flag logger_armed_before_activation FAIL")
    pending = run_cases["runs.no_restore.run.json::run"]
    assert pending.outcome == "xfailed" and pending.properties["coldstart.status"] == "PENDING"
    assert (
        json.loads(pending.properties["coldstart.reasons"])[0]
        == "pending: no restore-verification evidence is declared"
    )
    assert "no restore-verification evidence is declared" in pending.message
    assert run_cases["runs.passing.run.json::run"].outcome == "passed"
    assert json.loads(run_cases["runs.passing.run.json::run"].properties["coldstart.reasons"]) == []
    times = {key: case.time for key, case in cases.items()}
    if not workers:  # serial: each item carries its share of its run's audit (0.000 before)
        assert all(t > 0 for t in times.values()), times
    else:  # a worker that read another's audit from the cache reports that (much shorter) read
        assert sum(times.values()) > 0


def _report(**fields: object) -> dict[str, object]:
    flag = {"flag": "machine_operated", "status": "PASS", "summary": "ok"}
    return {"run_id": "r", "overall": "PASS", "failure_class": None, "flags": [flag], "required_reviews": [], **fields}


def test_run_verdict_maps_every_overall_status(tmp_path: Path) -> None:
    def verdict(report: dict[str, object] | None, error: str | None = None) -> tuple[str, str, list[str]]:
        found, reasons = run_verdict(RunInfo(tmp_path / "r1", report, error, None))
        return found.outcome, found.reason, reasons

    assert verdict(_report())[0] == PASSED
    # Every check item passes, yet the run is PENDING (classify's run-level reasons): the run item xfails.
    outcome, reason, reasons = verdict(_report(overall="PENDING", pending_reasons=["no fixture evidence is declared"]))
    assert outcome == XFAILED and reason == "run r PENDING: pending: no fixture evidence is declared"
    assert reasons == ["pending: no fixture evidence is declared"]
    outcome, reason, _ = verdict(_report(overall="FAIL", failure_class="INFRA_ERROR", infra_errors=["run.json: bad"]))
    assert outcome == FAILED and reason == "run r FAIL (INFRA_ERROR): infra: run.json: bad"
    outcome, reason, reasons = verdict(_report(overall="FAIL", failure_class="AGENT_FAIL"))
    assert outcome == FAILED and reasons == ["the audit reports FAIL without naming a reason"]
    assert verdict(_report(overall="MAYBE"))[0] == FAILED
    outcome, reason, _ = verdict(None, "the audit could not run: boom")
    assert outcome == FAILED and reason == "run r1 (no usable run_id) FAIL (INFRA_ERROR): the audit could not run: boom"
    assert "null" not in verdict(_report(run_id=None, overall="FAIL", infra_errors=["x"]))[1]
