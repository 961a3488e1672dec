"""The real rom20 cold start, rebuilt from the public evidence package, audits as the original
tooling judged it (verification/audit-task-time-pending.json and audit.json)."""

from __future__ import annotations

import json

from audit_helpers import flag, required, statuses
from rom20_rebuild import RAW_LOGGER_SHA, original_evidence, rebuild, source

from pytest_coldstart.audit import audit_run

REVIEWED = {
    "machine_operated": "machine_operated.causality",
    "logger_armed_before_activation": "logger_armed_before_activation.running",
    "answer_correct": "answer_correct.oracle_independence",
}


def test_before_reviews_three_flags_wait_on_their_review(shared_dir, tmp_path):
    report = audit_run(rebuild(shared_dir, tmp_path / "rom20", reviews=False), write=False)
    assert report["run_id"] == "rom20-20260926T063100Z"
    assert report["infra_errors"] == [] and report["fixture_errors"] == [] and report["review_problems"] == []
    assert statuses(report) == {
        "machine_operated": "PENDING",
        "logger_armed_before_activation": "PENDING",
        "transient_outputs_captured": "PASS",
        "agent_read_log": "PASS",
        "answer_correct": "PENDING",
    }
    for name, review_id in REVIEWED.items():
        assert required(report, name) == [review_id]
        assert flag(report, name)["mechanical_status"] == "PASS"
        assert review_id in flag(report, name)["missing"]
    assert report["overall"] == "PENDING" and report["failure_class"] is None
    # the same evidence the original task-time audit cited
    original = json.loads((source(shared_dir) / "verification" / "audit-task-time-pending.json").read_text())
    theirs = {f["flag"]: f for f in original["flags"]}
    assert flag(report, "machine_operated")["evidence"] == theirs["machine_operated"]["evidence"]
    assert flag(report, "transient_outputs_captured")["evidence"] == theirs["transient_outputs_captured"]["evidence"]
    assert set(theirs["answer_correct"]["evidence"]) <= set(flag(report, "answer_correct")["evidence"])
    assert (
        flag(report, "logger_armed_before_activation")["evidence"][:2]
        == theirs["logger_armed_before_activation"]["evidence"][:2]
    )
    assert flag(report, "agent_read_log")["evidence"] == ["trajectory:call_00_hjdNlRHJlnwjYpsOpZRy1938", "logger:seq15"]


def test_with_the_published_reviews_all_five_pass_and_the_run_stays_pending(shared_dir, tmp_path):
    report = audit_run(rebuild(shared_dir, tmp_path / "rom20", reviews=True), write=False)
    assert set(statuses(report).values()) == {"PASS"}
    assert report["review_problems"] == [] and report["infra_errors"] == []
    for name, review_id in REVIEWED.items():
        resolution = flag(report, name)["review_resolutions"][0]
        assert resolution["id"] == review_id and resolution["refs_resolved"] is True
        assert resolution["by"].startswith("independent pi reviewer")
    assert report["overall"] == "PENDING"
    assert any("no fixture evidence is declared" in reason for reason in report["pending_reasons"])
    assert any(RAW_LOGGER_SHA[:12] in text and "not in the run" in text for text in report["information"])


def test_the_normalized_view_must_name_the_raw_hash(shared_dir, tmp_path):
    run = rebuild(shared_dir, tmp_path / "rom20", reviews=True)
    evidence = json.loads((run / "evidence.json").read_text())
    evidence["agent_logger"]["raw_sha256"] = "0" * 64
    (run / "evidence.json").write_text(json.dumps(evidence))
    report = audit_run(run, write=False)
    assert report["failure_class"] == "INFRA_ERROR"
    assert any("source bytes other than the declared raw_sha256" in text for text in report["infra_errors"])
    del evidence["agent_logger"]["raw_sha256"]
    (run / "evidence.json").write_text(json.dumps(evidence))
    report = audit_run(run, write=False)
    assert any("declaration names no raw logger" in text for text in report["infra_errors"])


def test_the_original_absolute_paths_are_a_clear_infra_error(shared_dir, tmp_path):
    run = rebuild(shared_dir, tmp_path / "rom20", reviews=True)
    original_evidence(shared_dir, run)
    report = audit_run(run, write=False)
    assert report["overall"] == "FAIL" and report["failure_class"] == "INFRA_ERROR"
    for name in ("test_mod", "agent_logger", "answer", "oracle", "fixture", "restore", "preflight"):
        assert any(
            text.startswith(f"evidence {name}: path 'F:") and "is absolute" in text for text in report["infra_errors"]
        ), name
