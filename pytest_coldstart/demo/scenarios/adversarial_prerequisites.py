"""Adversarial scenarios: prerequisites whose top line looks fine while the rest says otherwise.

A restore or fixture report that says ``status: ok`` beside a failed check, a count of failed
entities or a nested failed verdict was not faithful (seed §7: a failure anywhere in the report
wins). The test mod's own bookkeeping must show the world ready and restored before the machine
input it processed: input processed before ``instance_ready`` or while a restore had not
finished ran on no faithful fixture. A ``logger_armed`` record that names no instance is not
shown to watch the experiment the test mod recorded (seed §5: logger_armed carries instance).
"""

from __future__ import annotations

from typing import Any

from pytest_coldstart.demo.scenarios import story
from pytest_coldstart.demo.scenarios.adversarial_edits import FIXTURE, SCOPE, F, S
from pytest_coldstart.demo.scenarios.builder import RunBuilder
from pytest_coldstart.demo.scenarios.catalogue import Scenario, _flags

LIFECYCLE = (
    "FIXTURE_INVALID: initialisation or restore was not faithful (seed §7); deterministic fixture + "
    "ready snapshot: instance_ready; restore_started / restore_finished: copy restoration bookkeeping (seed §5, §8)"
)
ARMED = "logger_armed: at, tick, instance ... same instance/dimension (seed §5, §6)"
PREFLIGHT = (
    "a declared preflight must match the run manifest ... a passing ports check and a passing live "
    "lab_management check that actually started a server; a SKIP or a different environment is INFRA_ERROR "
    "(seed §5); the configuration is fixed before the agent starts (seed §1)"
)


def _preflight(change: Any) -> Any:
    """The passing run with a preflight that matches it, then ``change`` applied to the report."""

    def configure(b: RunBuilder) -> RunBuilder:
        report: dict[str, Any] = {
            "schema": "mc-agent-harness-preflight/1",
            "overall": "PASS",
            "started_at": story.at(-60),
            "harness": {"name": "pi", "model": "deepseek/deepseek-flash", "provider": "deepseek"},
            "environment": {"repo": "0" * 40},
            "checks": [
                {"id": "terminal", "status": "PASS"},
                {"id": "ports", "status": "PASS"},
                {"id": "lab_management", "status": "PASS", "versions": {"serverPort": 27192, "rconPort": 27193}},
            ],
        }
        change(report)
        b.passing()
        b.documents["preflight"] = report
        b.declared["preflight"] = "preflight/preflight.json"
        return b

    return configure


def _event(events: list[dict[str, Any]], name: str) -> dict[str, Any]:
    return next(e for e in events if e.get("event") == name)


def _restore(change: dict[str, Any]) -> Any:
    return lambda b: b.passing().mutate_restore(lambda r: r.update(change))


def _processed_before(name: str) -> Any:
    """Move the test mod's ``name`` event after the machine input it processed."""

    def configure(b: RunBuilder) -> RunBuilder:
        def late(events: list[dict[str, Any]]) -> None:
            _event(events, name).update(at=story.at(10.6), tick=302)

        return b.passing().mutate_testmod(late)

    return configure


def _no_restore_finished(b: RunBuilder) -> RunBuilder:
    return b.passing().mutate_testmod(lambda events: events.remove(_event(events, "restore_finished")))


def _armed_without_instance(b: RunBuilder) -> RunBuilder:
    def strip(events: list[dict[str, Any]]) -> None:
        for event in events:
            event.pop("instance", None)

    return b.passing().mutate_logger(strip)


PREREQUISITES: list[Scenario] = [
    S(
        "preflight_lists_a_failed_check_twice",
        "the preflight lists the ports check twice: FAIL, then PASS (the last entry must not win)",
        _preflight(lambda r: r["checks"].insert(0, {"id": "ports", "status": "FAIL"})),
        F,
        "INFRA_ERROR",
        _flags(),
        "is listed twice",
        PREFLIGHT,
    ),
    S(
        "preflight_passes_over_a_failed_check",
        "the preflight says overall PASS while its terminal check failed",
        _preflight(lambda r: r["checks"][0].update(status="FAIL")),
        F,
        "INFRA_ERROR",
        _flags(),
        "under an overall PASS",
        PREFLIGHT,
    ),
    S(
        "preflight_lab_that_never_started",
        "lab_management passed with the server's ports but says the server was not started",
        _preflight(lambda r: r["checks"][2]["versions"].update(started=False)),
        F,
        "INFRA_ERROR",
        _flags(),
        "no server was started",
        PREFLIGHT,
    ),
    S(
        "preflight_run_after_the_agent_started",
        "the preflight ran after the agent's first call",
        _preflight(lambda r: r.update(started_at=story.at(30))),
        F,
        "INFRA_ERROR",
        _flags(),
        "after the agent's first call",
        PREFLIGHT,
    ),
    S(
        "preflight_without_a_start_time",
        "the preflight report carries no started_at: it cannot show it ran before the agent",
        _preflight(lambda r: r.pop("started_at")),
        F,
        "INFRA_ERROR",
        _flags(),
        "is no time",
        PREFLIGHT,
    ),
    S(
        "preflight_still_running_when_the_agent_started",
        "the preflight started before the agent but ended after its first call",
        _preflight(lambda r: r.update(ended_at=story.at(30))),
        F,
        "INFRA_ERROR",
        _flags(),
        "it ended at",
        PREFLIGHT,
    ),
    S(
        "preflight_counts_a_failure_under_its_pass",
        "the preflight's counts say one check failed, its overall says PASS",
        _preflight(lambda r: r.update(counts={"PASS": 3, "FAIL": 1, "SKIP": 0})),
        F,
        "INFRA_ERROR",
        _flags(),
        "counts.FAIL is 1 under an overall PASS",
        PREFLIGHT,
    ),
    S(
        "preflight_lab_check_flagged_skipped",
        "lab_management says PASS and skipped: true (no live lab ran)",
        _preflight(lambda r: r["checks"][2].update(skipped=True)),
        F,
        "INFRA_ERROR",
        _flags(),
        "not a live PASS",
        PREFLIGHT,
    ),
    S(
        "preflight_lab_on_port_zero",
        'lab_management recorded serverPort "0": no server listens there',
        _preflight(lambda r: r["checks"][2]["versions"].update(serverPort="0")),
        F,
        "INFRA_ERROR",
        _flags(),
        "no server was started",
        PREFLIGHT,
    ),
    S(
        "preflight_states_two_commits",
        "the preflight states the run's commit under environment.repo and another under repo.commit",
        _preflight(lambda r: r.update(repo={"commit": "1" * 40})),
        F,
        "INFRA_ERROR",
        _flags(),
        "stated twice and disagrees",
        PREFLIGHT,
    ),
    S(
        "restore_ok_beside_a_failed_verify",
        "the restore report says status ok, but its own verify step says ok: false",
        _restore({"verify": {"ok": False, "orderHashMatch": True}}),
        F,
        "FIXTURE_INVALID",
        _flags(),
        "it states a failure at verify.ok=False",
        FIXTURE,
    ),
    S(
        "restore_ok_with_failed_entities",
        "the restore report says status ok with one entity that failed to restore",
        _restore({"entities_failed": 1}),
        F,
        "FIXTURE_INVALID",
        _flags(),
        "entities_failed=1",
        FIXTURE,
    ),
    S(
        "restore_ok_with_an_order_hash_mismatch",
        "the restore report says status ok but its apply step's order hash does not match",
        _restore({"apply": {"ok": True, "orderHashMatch": False}}),
        F,
        "FIXTURE_INVALID",
        _flags(),
        "apply.orderHashMatch=False",
        FIXTURE,
    ),
    S(
        "fixture_ready_but_not_valid",
        "the fixture report says ready, and valid: false",
        lambda b: b.passing().mutate_fixture(lambda f: f.update(valid=False)),
        F,
        "FIXTURE_INVALID",
        _flags(),
        "it states a failure at valid=False",
        FIXTURE,
    ),
    S(
        "fixture_ready_with_a_failed_check",
        "the fixture report says ready, and one of its checks failed",
        lambda b: b.passing().mutate_fixture(lambda f: f.update(checks={"snapshot": "ok", "entities": "failed"})),
        F,
        "FIXTURE_INVALID",
        _flags(),
        "checks.entities='failed'",
        FIXTURE,
    ),
    S(
        "input_processed_before_the_instance_was_ready",
        "the test mod processed the machine input before instance_ready",
        _processed_before("instance_ready"),
        F,
        "FIXTURE_INVALID",
        _flags(),
        "before the instance was ready",
        LIFECYCLE,
    ),
    S(
        "input_processed_while_the_restore_ran",
        "the restore finished only after the test mod processed the machine input",
        _processed_before("restore_finished"),
        F,
        "FIXTURE_INVALID",
        _flags(),
        "had not finished when the test mod processed",
        LIFECYCLE,
    ),
    S(
        "restore_started_and_never_finished",
        "the test mod records a restore that started and never finished",
        _no_restore_finished,
        F,
        "FIXTURE_INVALID",
        _flags(),
        "no restore_finished follows it",
        LIFECYCLE,
    ),
    S(
        "logger_armed_names_no_instance",
        "no agent logger record names an instance, so logger_armed is not tied to the experiment",
        _armed_without_instance,
        F,
        "AGENT_FAIL",
        _flags(la=F),
        "names no instance",
        ARMED + "; " + SCOPE,
    ),
]
