"""Fixtures of the pytest-plugin tests: real scenario runs built once, copied into pytester."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import hypothesis  # noqa: F401 - imported once here: its pytest plugin would re-import it in every in-process pytester run (seconds each)
import pytest
from plugin_helpers import LAB, ScenarioRuns, copy_runs


@pytest.fixture(scope="session")
def scenario_runs(tmp_path_factory: pytest.TempPathFactory) -> ScenarioRuns:
    """Catalogue scenarios (and a hostile run), each built on first use (read-only)."""
    return ScenarioRuns(tmp_path_factory.mktemp("scenario-runs"))


@pytest.fixture
def lab(pytester: pytest.Pytester, scenario_runs: ScenarioRuns) -> Callable[..., Path]:
    """lab(*names) copies runs into pytester's runs/ (default: one per outcome family)."""

    def make(*names: str) -> Path:
        return copy_runs(scenario_runs, pytester.path / "runs", names or LAB)

    return make
