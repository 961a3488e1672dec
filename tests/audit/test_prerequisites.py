"""The prerequisites beyond their top line: a failure anywhere in a fixture or restore report,
the test mod's own lifecycle bookkeeping, and a logger_armed that must name its instance."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from audit_helpers import audit, builder, flag
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_coldstart.audit.fixture import INVALID, PENDING, VERIFIED, failures, fixture_state, restore_state
from pytest_coldstart.audit.model import Findings
from pytest_coldstart.audit.preflight_contract import check_preflight
from pytest_coldstart.demo.scenarios import story


@pytest.mark.parametrize(
    "report, where",
    [
        ({"status": "ok", "verify": {"ok": False}}, "verify.ok=False"),
        ({"status": "ok", "apply": {"orderHashMatch": False}}, "apply.orderHashMatch=False"),
        ({"status": "ok", "entities_failed": 2}, "entities_failed=2"),
        ({"status": "ok", "apply": {"issued": 6, "failed": 1}}, "apply.failed=1"),
        ({"status": "ok", "nbtMismatchCount": 3}, "nbtMismatchCount=3"),
        ({"status": "ok", "steps": [{"name": "paste", "status": "error"}]}, "steps[0].status='error'"),
        ({"status": "ok", "checks": {"entities": "failed"}}, "checks.entities='failed'"),
        ({"status": "ok", "passed": False}, "passed=False"),
        # a failure named by its key, or a failure count that is no count
        ({"status": "ok", "failed": True}, "failed=True"),
        ({"status": "ok", "entities_failed": "1"}, "entities_failed='1'"),
        ({"status": "ok", "entities_failed": -1}, "entities_failed=-1"),
        ({"status": "ok", "errors": ["entity 3 was not placed"]}, "errors=['entity 3 was not placed']"),
        (
            {"status": "ok", "error": "cannot be restored: 1 blocking issue"},
            "error='cannot be restored: 1 blocking issue'",
        ),
        ({"status": "ok", "error": {"message": "boom"}}, "error={'message': 'boom'}"),
        ({"status": "ok", "verify": {"mismatches": ["uuid order"]}}, "verify.mismatches=['uuid order']"),
    ],
)
def test_a_failure_anywhere_in_a_restore_report_wins_over_its_status(report, where):
    assert restore_state(report) == INVALID
    assert failures(report, top=frozenset({"status"})) == [where]


@pytest.mark.parametrize(
    "report",
    [
        {"status": "ok", "entities_issued": 3, "entities_failed": 0, "order_hash": "545a11e87afce73b"},
        {"status": "ok", "apply": {"issued": 6, "failed": 0, "ok": True, "orderHashMatch": True}},
        {"status": "ok", "errors": [], "positionDeltaCount": 0, "note": "no entity failed"},
        {"status": "ok", "on_error": "fail", "retry": {"mode": "error"}},  # settings, not verdicts
        {
            "status": "ok",
            "max_failures": 3,
            "errorsAllowed": 1,
            "mismatchThreshold": 2,
            "retries": {"failed_retry_limit": 4},
        },
        {"status": "ok", "verify": {"ok": True, "log_level": "error"}},
        {"status": "ok", "error": None, "errors": [None, ""], "failures": {}, "failed": False, "mismatches": "none"},
        {"status": "ok", "error": {"code": 0, "message": ""}, "entities_failed": "0", "failClosed": True},
        {"status": "ok", "ignore_errors": True, "on_failure": "abort", "expected_errors": ["timeout"]},
        {"status": "ok", "result": "passed"},
    ],
)
def test_a_report_that_states_no_failure_keeps_its_status(report):
    assert failures(report, top=frozenset({"status"})) == []
    assert restore_state(report) == VERIFIED


@pytest.mark.parametrize(
    "report, state",
    [
        ({"status": "ready", "ready": True, "valid": False}, INVALID),
        ({"status": "ready", "ready": True, "checks": {"snapshot": "mismatch"}}, INVALID),
        # "not yet" is pending, never invalid (seed §6: a new or unverified fixture keeps the oracle pending)
        ({"status": "new", "verified": False}, PENDING),
        ({"status": "ready", "ready": False}, PENDING),
        ({"status": "ready", "ready": True, "verified": True}, VERIFIED),
    ],
)
def test_fixture_reports_keep_not_yet_apart_from_failed(report, state):
    assert fixture_state(report) == state


def test_the_real_rom20_restore_report_is_verified(shared_dir: Path):
    path = shared_dir / "corpus" / "real" / "rom20-coldstart" / "verification" / "restore-evidence.json"
    report = json.loads(path.read_text())
    assert failures(report, top=frozenset({"status"})) == [] and restore_state(report) == VERIFIED


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=12), _JSON, max_size=6))
def test_failures_never_raises_and_a_stated_failure_always_wins(report):
    state = restore_state(report)
    found = failures(report, top=frozenset({"status", "result", "ready"}))
    assert state in (VERIFIED, INVALID, PENDING)
    if found:
        assert state == INVALID


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=1, max_value=5000))
def test_a_deep_report_is_read_within_its_bounds(depth):
    report: dict = {"status": "ok"}
    node = report
    for _ in range(depth):
        node["inner"] = {}
        node = node["inner"]
    node["ok"] = False
    assert restore_state(report) == (INVALID if depth < 16 else VERIFIED)


def _late(name):
    def change(events):
        next(e for e in events if e["event"] == name).update(at=story.at(10.6), tick=302)

    return change


@pytest.mark.parametrize(
    "change, words",
    [
        (_late("instance_ready"), "before the instance was ready"),
        (_late("restore_finished"), "it finished only at testmod:seq3"),
        (
            lambda events: events.remove(next(e for e in events if e["event"] == "restore_finished")),
            "no restore_finished",
        ),
    ],
)
def test_input_processed_before_the_world_was_ready_is_fixture_invalid(tmp_path, change, words):
    report = audit(builder(tmp_path).passing().mutate_testmod(change))
    assert (report["overall"], report["failure_class"]) == ("FAIL", "FIXTURE_INVALID")
    assert any(words in problem for problem in report["fixture_errors"]), report["fixture_errors"]


def test_a_restore_that_starts_after_the_experiment_is_allowed(tmp_path):
    def change(events):
        end = next(e for e in events if e["event"] == "end")
        # the next run's restore began after this one ended
        events.append(dict(end, event="restore_started", at=story.at(30), tick=700, seq=end["seq"] + 1))

    report = audit(builder(tmp_path).passing().mutate_testmod(change))
    assert report["overall"] == "PASS", report["fixture_errors"]


def test_logger_armed_must_name_the_instance_the_test_mod_names(tmp_path):
    def strip(events):
        events[0].pop("instance")

    report = audit(builder(tmp_path).passing().mutate_logger(strip))
    assert flag(report, "logger_armed_before_activation")["status"] == "FAIL"
    assert "names no instance" in flag(report, "logger_armed_before_activation")["summary"]


def test_logger_armed_without_instance_is_fine_when_the_test_mod_names_none(tmp_path):
    def strip(events):
        for event in events:
            event.pop("instance", None)

    report = audit(builder(tmp_path).passing().mutate_logger(strip).mutate_testmod(strip))
    assert flag(report, "logger_armed_before_activation")["status"] == "PASS", report


GOOD_PREFLIGHT = {
    "overall": "PASS",
    "started_at": "2026-01-01T11:59:00Z",
    "harness": {"name": "pi", "model": "m", "provider": "p"},
    "checks": [
        {"id": "bridge_mcp", "status": "SKIP"},
        {"id": "ports", "status": "PASS"},
        {"id": "lab_management", "status": "PASS", "versions": {"serverPort": 1, "rconPort": 2, "started": True}},
    ],
}
MANIFEST = {"harness": {"name": "pi", "model": "m", "provider": "p"}}
AGENT_START = datetime(2026, 1, 1, 12, tzinfo=UTC)


def preflight_problems(change=None, agent_start=AGENT_START):
    report = copy.deepcopy(GOOD_PREFLIGHT)
    if change:
        change(report)
    findings = Findings()
    check_preflight(MANIFEST, report, findings, agent_start)
    return findings.texts("infra")


def test_a_matching_preflight_with_an_optional_skip_passes():
    assert preflight_problems() == []
    assert preflight_problems(agent_start=None) == []  # no timed agent call: nothing to compare
    assert preflight_problems(lambda r: r.update(counts={"PASS": 2, "FAIL": 0, "SKIP": 1}, failed=[])) == []
    assert preflight_problems(lambda r: r["checks"][2]["versions"].update(serverPort="27192")) == []


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda r: r.pop("started_at"), "started_at None is no time"),
        (lambda r: r.update(started_at="yesterday"), "started_at 'yesterday' is no time"),
        (lambda r: r.update(ended_at="2026-01-01T12:00:30Z"), "it ended at 2026-01-01T12:00:30.000Z, after"),
        (lambda r: r.update(counts={"PASS": 2, "FAIL": 1}), "counts.FAIL is 1 under an overall PASS"),
        (lambda r: r.update(counts={"fail": "1"}), "counts.fail is '1' under an overall PASS"),
        (lambda r: r.update(failed=["ports"]), "failed is ['ports'] under an overall PASS"),
        (lambda r: r.update(errors=2), "errors is 2 under an overall PASS"),
        (lambda r: r["checks"][1].update(skipped=True), "the ports check is 'PASS' (skipped=True), not PASS"),
        (lambda r: r["checks"][2].update(skip="no server"), "lab_management is 'PASS' (skip='no server')"),
        (lambda r: r["checks"][2]["versions"].update(serverPort="0"), "no server was started"),
        (lambda r: r["checks"][2]["versions"].update(rconPort=-1), "no server was started"),
        (lambda r: r["checks"][2]["versions"].update(rconPort=70000), "no server was started"),
        (lambda r: r["checks"][2]["versions"].update(serverPort=True), "no server was started"),
        (lambda r: r["checks"][2]["versions"].update(serverPort="²"), "no server was started"),
        (lambda r: r["checks"][2]["versions"].update(rconPort="9" * 5000), "no server was started"),
        (lambda r: r.update(ended_at="9999-12-31T23:59:59-05:00"), "ended_at '9999-12-31T23:59:59-05:00' is no time"),
        (lambda r: r.update(environment={"repo": []}, repo={"commit": {}}), "stated twice and disagrees"),
    ],
)
def test_a_preflight_that_cannot_show_it_ran_first_or_contradicts_its_pass(change, words):
    """Fail closed: no readable start, an end after the agent began, failures counted or named
    beside the PASS, a check flagged skipped, a port no server listens on (seed §1, §5)."""
    problems = preflight_problems(change)
    assert any(words in p for p in problems), problems


def test_a_commit_stated_twice_that_disagrees_is_no_commit():
    manifest = dict(MANIFEST, repo={"commit": "a" * 40})
    report = dict(copy.deepcopy(GOOD_PREFLIGHT), environment={"repo": "a" * 40}, repo={"commit": "b" * 40})
    findings = Findings()
    check_preflight(manifest, report, findings, AGENT_START)
    assert any("stated twice and disagrees" in p for p in findings.texts("infra")), findings.texts("infra")
    report["repo"] = {"commit": "a" * 40}  # the same commit twice is one fact
    findings = Findings()
    check_preflight(manifest, report, findings, AGENT_START)
    assert findings.texts("infra") == []


@pytest.mark.parametrize("first, second", [("FAIL", "PASS"), ("PASS", "FAIL"), ("SKIP", "PASS"), ("PASS", "SKIP")])
def test_a_check_listed_twice_keeps_its_worst_status(first, second):
    def twice(report):
        report["checks"][2]["status"] = first
        report["checks"].append(dict(report["checks"][2], status=second))

    problems = preflight_problems(twice)
    assert any("listed twice" in p for p in problems)
    assert any("lab_management is" in p and "not a live PASS" in p for p in problems), problems


def test_a_preflight_that_contradicts_itself_or_ran_late_is_named():
    assert preflight_problems(lambda r: r["checks"][0].update(status="ERROR")) == [
        "preflight: check 'bridge_mcp' is 'ERROR' under an overall PASS"
    ]
    late = preflight_problems(lambda r: r.update(started_at="2026-01-01T12:00:01Z"))
    assert len(late) == 1 and "after the agent's first call" in late[0]
    stopped = preflight_problems(lambda r: r["checks"][2]["versions"].update(started=False))
    assert stopped and "no server was started" in stopped[0]


@pytest.mark.parametrize(
    "report, state",
    [
        ({"status": "ok", "result": "failed"}, INVALID),  # both spellings are judged
        ({"status": "ok", "result": "pending"}, PENDING),
        ({"status": "ok", "verified": False}, PENDING),  # "not yet" beside ok
        ({"result": "ok"}, VERIFIED),
    ],
)
def test_a_restore_report_is_judged_by_every_status_it_gives(report, state):
    assert restore_state(report) == state


@pytest.mark.parametrize(
    "report, state",
    [
        ({"ready": True, "status": "ready", "verified": False}, PENDING),
        ({"ready": True, "status": "ready", "result": "invalid"}, INVALID),
        ({"ready": True, "result": "pending"}, PENDING),
        ({"ready": True}, VERIFIED),
    ],
)
def test_a_fixture_report_is_judged_by_every_status_it_gives(report, state):
    assert fixture_state(report) == state
