"""Fixtures for contributors writing failure-mode tests (thin: the work is in ``scenarios``).

    def test_attempt_alone_is_not_operation(coldstart_run, audit):
        report = audit(coldstart_run().mutate_testmod(lambda ev: [e for e in ev if e["event"] != "input_processed"]))
        assert flag_status(report, "machine_operated") == "FAIL"

``coldstart_run()`` is a ``RunBuilder`` already holding the valid, reviewed run;
``coldstart_run("late_logger")`` starts from a named scenario instead. Break it with one
``mutate_*``/``tamper``/``edit_json``/``drop_call`` call; ``audit`` builds it under
``tmp_path`` and returns the report. ``coldstart_scenarios`` is the catalogue of named runs
with the outcome the protocol demands for each. Imports are lazy: loading the plugin stays cheap.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # pragma: no cover
    from pytest_coldstart.audit.audit_report import AuditReport
    from pytest_coldstart.demo.scenarios import RunBuilder, Scenario


class RunFactory:
    """``coldstart_run``: builders for fresh run directories under one base folder."""

    def __init__(self, base: Path):
        self.base = base
        self._numbers = itertools.count(1)

    def __call__(self, scenario: str = "passing", *, run_id: str | None = None) -> RunBuilder:
        """A builder holding scenario ``scenario`` (default: the valid run), not yet written."""
        from pytest_coldstart.demo.scenarios import SCENARIOS, RunBuilder

        if scenario not in SCENARIOS:
            raise KeyError(f"unknown scenario {scenario!r}; known: {', '.join(sorted(SCENARIOS))}")
        chosen = SCENARIOS[scenario]
        folder = self.base / f"{next(self._numbers):03d}-{scenario}"
        return chosen.configure(RunBuilder(folder, run_id=run_id or chosen.run_id))

    def build(self, scenario: str = "passing") -> Path:
        """Write scenario ``scenario`` as is and return its run directory."""
        return self(scenario).build()


def as_run_dir(run: Path | str | RunBuilder) -> Path:
    """A run directory from a path or a (not yet built) RunBuilder."""
    if isinstance(run, (str, Path)):
        return Path(run)
    if not (run.root / "run.json").exists():
        return run.build()
    return run.root


def flag_status(report: AuditReport | dict[str, Any], flag: str) -> str | None:
    """The status of one flag in an audit report (None when the report lacks it)."""
    return _typed(report).flag_status(flag)


def mismatches(report: AuditReport | dict[str, Any], scenario: Scenario) -> list[str]:
    """How a report differs from the outcome the catalogue demands for ``scenario``."""
    typed = _typed(report)
    found = []
    if typed.overall != scenario.overall:
        found.append(f"overall {typed.overall} != {scenario.overall}")
    if typed.failure_class != scenario.failure_class:
        found.append(f"failure_class {typed.failure_class} != {scenario.failure_class}")
    for flag, expected in scenario.flags.items():
        if typed.flag_status(flag) != expected:
            found.append(f"{flag} {typed.flag_status(flag)} != {expected}")
    return found


def _typed(report: AuditReport | dict[str, Any]) -> AuditReport:
    from pytest_coldstart.audit.audit_report import AuditReport

    return report if isinstance(report, AuditReport) else AuditReport.from_json(report)


@pytest.fixture
def coldstart_run(tmp_path: Path) -> RunFactory:
    """Builders of valid (or named broken) runs written under ``tmp_path``."""
    return RunFactory(tmp_path / "coldstart-runs")


@pytest.fixture
def coldstart_scenarios() -> dict[str, Scenario]:
    """The catalogue of named scenarios: description, expected overall/class/flag statuses."""
    from pytest_coldstart.demo.scenarios import SCENARIOS

    return dict(SCENARIOS)


@pytest.fixture
def audit() -> Callable[[Path | str | RunBuilder], dict[str, Any]]:
    """``audit(run)`` -> the audit report of a run directory or builder (nothing written into the run)."""
    from pytest_coldstart.audit import audit_run

    def run_audit(run: Path | str | RunBuilder) -> dict[str, Any]:
        return audit_run(as_run_dir(run), write=False)

    return run_audit
