"""Markers: registered at configure time, attached at collection so ``-m`` can select them.

Failure-class markers sit on the run's collector (every item of the run inherits them);
``pending`` sits on the items that will xfail; ``coldstart`` carries the item's facts as
keyword arguments, e.g. ``-m "coldstart(status='FAIL')"``.
"""

from __future__ import annotations

import pytest

from pytest_coldstart.run.vocabulary import FailureClass

CLASS_MARKERS = {
    FailureClass.AGENT_FAIL: "agent_fail",
    FailureClass.FIXTURE_INVALID: "fixture_invalid",
    FailureClass.INFRA_ERROR: "infra_error",
}

MARKERS = {
    "coldstart": "coldstart(run_id, kind, check, status): an item generated from a cold-start run directory",
    "agent_fail": "agent_fail: an item of a run whose failure class is AGENT_FAIL",
    "fixture_invalid": "fixture_invalid: an item of a run whose failure class is FIXTURE_INVALID",
    "infra_error": "infra_error: an item of a run whose failure class is INFRA_ERROR (or that could not be audited)",
    "pending": "pending: an item that cannot be decided yet (PENDING flag or unresolved review); reported as xfailed",
}


def register(config: pytest.Config) -> None:
    for line in MARKERS.values():
        config.addinivalue_line("markers", line)


def class_marker(failure_class: object) -> pytest.MarkDecorator | None:
    name = (
        CLASS_MARKERS.get(FailureClass(failure_class))
        if isinstance(failure_class, str) and failure_class in CLASS_MARKERS
        else None
    )
    return getattr(pytest.mark, name) if name else None


def item_marker(run_id: str, kind: str, check: str, status: str) -> pytest.MarkDecorator:
    return pytest.mark.coldstart(run_id=run_id, kind=kind, check=check, status=status)
