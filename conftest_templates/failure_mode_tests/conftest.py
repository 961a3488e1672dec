"""Failure-mode tests: each test breaks a valid run in one line and asserts the audit's verdict.

How to use: copy this file into the folder of your failure-mode tests (e.g.
``tests/failure_modes/``) in a project that has ``pytest-coldstart`` installed. The plugin
already provides the fixtures ``coldstart_run`` (builders of valid runs under ``tmp_path``),
``audit`` (the audit report of a run) and ``coldstart_scenarios`` (the catalogue of named
broken runs); this conftest adds ``expect`` and a ``scenario`` parameter over the catalogue.

A new failure mode in a few lines (``test_late_logger.py``)::

    def test_logger_armed_after_the_machine_moved_fails(coldstart_run, audit, expect):
        run = coldstart_run().mutate_logger(
            lambda events: events[0].update(at="2026-01-01T12:00:11.000Z", tick=320))
        expect(audit(run), "FAIL", "AGENT_FAIL", logger_armed_before_activation="FAIL")

    def test_every_catalogued_scenario_keeps_its_verdict(scenario, coldstart_run, audit, expect):
        expect(audit(coldstart_run(scenario.name)), scenario.overall, scenario.failure_class, **scenario.flags)

Breaking a run: ``mutate_testmod``/``mutate_logger``/``mutate_trajectory``/``mutate_reviews``
edit the streams before they are hashed; ``mutate_answer``/``mutate_oracle``/
``mutate_fixture``/``mutate_restore`` the documents; ``drop_call``, ``undeclare``, ``review``,
``raw_review``; ``tamper``/``edit_json`` change bytes after the declarations were hashed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "scenario" in metafunc.fixturenames:
        from pytest_coldstart.demo.scenarios import SCENARIOS

        names = sorted(SCENARIOS)
        metafunc.parametrize("scenario", [SCENARIOS[name] for name in names], ids=names)


@pytest.fixture
def expect() -> Callable[..., None]:
    """expect(report, overall, failure_class=None, **flag_statuses): one readable assertion."""

    def check(report: dict[str, Any], overall: str, failure_class: str | None = None, **flags: str) -> None:
        statuses = {flag["flag"]: flag["status"] for flag in report["flags"]}
        wrong = [f"overall {report['overall']} (expected {overall})"] if report["overall"] != overall else []
        if report["failure_class"] != failure_class:
            wrong.append(f"failure_class {report['failure_class']} (expected {failure_class})")
        wrong += [
            f"{name} {statuses.get(name)} (expected {status})"
            for name, status in flags.items()
            if statuses.get(name) != status
        ]
        if wrong:
            reasons = (
                [f"{f['flag']}: {f['summary']}" for f in report["flags"]]
                + report["infra_errors"]
                + report["fixture_errors"]
            )
            raise AssertionError("; ".join(wrong) + "\naudit says:\n  " + "\n  ".join(reasons))

    return check
