"""Issue 16.5: summary/compare believe a stored audit/audit.json only when it is the current
verdict of that very run (run_id, inputs digest, integer version); otherwise they re-audit."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hostile_runs import coldstart, copy_run, no_traceback

from pytest_coldstart.analysis import summary
from pytest_coldstart.audit.currency import CURRENCY_JSON, stored_report


def _outcome(run: Path) -> dict:
    done = coldstart("compare", "--json", str(run))
    no_traceback(done.stderr)
    (row,) = json.loads(done.stdout)["runs"]
    return row


def _tamper_answer(run: Path) -> None:
    answer = json.loads((run / "answer.json").read_text("utf-8"))
    answer["note"] = "edited after the audit"
    (run / "answer.json").write_text(json.dumps(answer), "utf-8")


def test_a_tampered_run_with_a_stored_pass_is_re_audited(tmp_path: Path) -> None:
    run = copy_run("passing", tmp_path / "run")
    assert json.loads((run / "audit" / "audit.json").read_text("utf-8"))["overall"] == "PASS"
    _tamper_answer(run)
    doc = summary.build(run)
    assert doc["outcome"]["overall"] == "FAIL" and doc["outcome"]["source"] is None
    assert "inputs are not recorded" in doc["outcome"]["recomputed_because"]
    row = _outcome(run)
    assert (row["outcome"], row["failure_class"]) == ("FAIL", "INFRA_ERROR")


def test_a_current_stamped_report_is_reused_and_a_later_change_makes_it_stale(tmp_path: Path) -> None:
    run = copy_run("passing", tmp_path / "run", keep_audit=False)
    assert coldstart("audit", "run", "--run-dir", str(run)).returncode == 0
    stored = json.loads((run / CURRENCY_JSON).read_text("utf-8"))
    assert stored["run_id"] == "scenario-passing" and len(stored["inputs_digest"]) == 64
    doc = summary.build(run)
    assert doc["outcome"]["source"]["path"] == "audit/audit.json" and "recomputed_because" not in doc["outcome"]
    assert coldstart("trace", "summary", "--run-dir", str(run)).returncode == 0  # summary.json is no input
    assert stored_report(run, "scenario-passing")[0] is not None
    _tamper_answer(run)
    report, why = stored_report(run, "scenario-passing")
    assert report is None and "stale" in why
    assert _outcome(run)["outcome"] == "FAIL"


def test_a_report_copied_from_another_run_is_foreign(tmp_path: Path) -> None:
    run = copy_run("rejected_review", tmp_path / "run", keep_audit=False)
    donor = copy_run("passing", tmp_path / "donor", keep_audit=False)
    assert coldstart("audit", "run", "--run-dir", str(donor)).returncode == 0
    shutil.copytree(donor / "audit", run / "audit")
    report, why = stored_report(run, "scenario-rejected-review")
    assert report is None and "another run" in why
    assert _outcome(run)["outcome"] == "FAIL"


@pytest.mark.parametrize("version", [2.0, "2", True, 3, None])
def test_a_stored_report_of_a_non_integer_or_unknown_version_is_not_believed(version: object, tmp_path: Path) -> None:
    run = copy_run("rejected_review", tmp_path / "run", keep_audit=False)
    assert coldstart("audit", "run", "--run-dir", str(run)).returncode == 1
    path = run / "audit" / "audit.json"
    forged = json.loads(path.read_text("utf-8"))
    forged.update(schemaVersion=version, overall="PASS", failure_class=None)
    path.write_text(json.dumps(forged), "utf-8")
    assert stored_report(run, "scenario-rejected-review")[0] is None
    assert _outcome(run)["outcome"] == "FAIL"


def test_summary_refuses_a_trajectory_record_of_version_2_point_0(tmp_path: Path) -> None:
    run = copy_run("passing", tmp_path / "run")
    lines = (run / "trajectory.jsonl").read_bytes().splitlines(keepends=True)
    lines[4] = lines[4].replace(b'"schemaVersion":2,', b'"schemaVersion":2.0,', 1)
    (run / "trajectory.jsonl").write_bytes(b"".join(lines))
    done = coldstart("trace", "summary", "--run-dir", str(run))
    no_traceback(done.stderr)
    assert done.returncode == 1 and "schemaVersion 2.0" in done.stderr, done.stderr
    row = _outcome(run)
    assert row["error"] is not None and "trajectory.jsonl:5" in row["error"]
