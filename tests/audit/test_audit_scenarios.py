"""Every named scenario audits to the outcome the protocol demands; builds are deterministic;
reports match the shipped schema."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from audit_helpers import audit, builder, statuses

from pytest_coldstart.audit import audit_run
from pytest_coldstart.audit.audit_report import AuditReport
from pytest_coldstart.demo.scenarios import SCENARIOS, RunBuilder, build_run
from pytest_coldstart.run import jsonio, schemas

REQUIRED_NAMES = {
    "passing",
    "pending_reviews",
    "attempts_without_processing",
    "late_logger",
    "capture_after_removal",
    "test_side_only_observation",
    "pending_oracle",
    "invalid_fixture",
    "failed_restore",
    "tampered_hashes",
    "answer_mismatch",
    "omitted_cart",
    "cross_stream_tie",
    "rejected_review",
    "unknown_version",
    "path_escape",
}


def test_catalogue_covers_the_required_scenarios():
    assert set(SCENARIOS) >= REQUIRED_NAMES
    for scenario in SCENARIOS.values():
        assert scenario.description and scenario.overall in ("PASS", "FAIL", "PENDING")


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_outcome(tmp_path, name):
    scenario = SCENARIOS[name]
    run = build_run(tmp_path / name, name)
    report = audit_run(run)
    assert (report["overall"], report["failure_class"]) == (scenario.overall, scenario.failure_class), report[
        "infra_errors"
    ]
    assert statuses(report) == scenario.flags
    texts = (
        [f["summary"] for f in report["flags"]]
        + report["infra_errors"]
        + report["fixture_errors"]
        + report["pending_reasons"]
    )
    texts += [r["id"] for r in report["required_reviews"]]
    assert any(scenario.because in text for text in texts), (scenario.because, texts)
    assert report["run_id"] == (None if name == "unknown_version" else scenario.run_id)
    written = jsonio.read_json(run / "audit" / "audit.json")
    assert written == report
    assert not list(schemas.validator("audit").iter_errors(written))
    assert AuditReport.from_json(written).to_json() == written  # the typed report round-trips
    assert (run / "audit" / "audit.md").read_text(encoding="utf-8").startswith("# Cold-start audit")


def _files(root):
    out = {}
    for current, _, files in os.walk(root):
        for name in files:
            path = os.path.join(current, name)
            if ".coldstart" not in path:
                out[os.path.relpath(path, root)] = Path(path).read_bytes()
    return out


def test_builds_are_byte_identical(tmp_path):
    first, second = build_run(tmp_path / "a", "passing"), build_run(tmp_path / "b", "passing")
    assert _files(first) == _files(second)
    one, two = audit_run(first), audit_run(second)
    assert one == two
    assert (first / "audit" / "audit.json").read_bytes() == (second / "audit" / "audit.json").read_bytes()


def test_passing_run_is_valid_for_validate(tmp_path):
    from pytest_coldstart.validate.run import validate_run

    report = validate_run(build_run(tmp_path / "run", "passing"))
    assert report.valid, [f.to_text() for f in report.findings]


def test_builder_breaks_a_run_in_one_line(tmp_path):
    report = audit(
        RunBuilder(tmp_path / "r").passing().mutate_testmod(lambda ev: [e for e in ev if e["event"] != "cart_ejected"])
    )
    assert statuses(report)["transient_outputs_captured"] == "FAIL"
    report = audit(builder(tmp_path, "s").passing().drop_call("c-read-log"))
    assert statuses(report)["agent_read_log"] == "FAIL"


def test_the_passing_story_cites_real_records(tmp_path):
    report = audit(builder(tmp_path).passing())
    assert report["refs"]["testmod:seq5"]["record"]["event"] == "input_processed"
    assert report["refs"]["testmod:seq5"]["file"] == "test/testmod.jsonl"
    assert report["refs"]["trajectory:c-actuate"]["record"]["tool"] == "bridge"
    assert report["refs"]["trajectory:c-actuate"]["stream"] == "trajectory"
    assert report["refs"]["logger:seq1"]["record"]["event"] == "logger_armed"
    assert report["unknown_orderings"] == []
    streams = {entry["stream"] for entry in report["timeline"]}
    assert streams == {"agent", "testmod", "logger"}
    ats = [entry["at"] for entry in report["timeline"]]
    assert ats == sorted(ats)
