"""Deterministic example runs: the ``RunBuilder`` and the catalogue of named scenarios."""

from pytest_coldstart.demo.scenarios.builder import RunBuilder
from pytest_coldstart.demo.scenarios.catalogue import SCENARIOS, Scenario, build_run

__all__ = ["SCENARIOS", "RunBuilder", "Scenario", "build_run"]
