"""Contributor fixtures (work in progress)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def coldstart_scenarios() -> dict[str, Any]:
    from pytest_coldstart.scenarios import SCENARIOS

    return dict(SCENARIOS)


@pytest.fixture
def coldstart_run(tmp_path: Path) -> Any:
    from pytest_coldstart.scenarios import build_run

    counter = iter(range(1_000_000))

    def make(name: str = "passing") -> Path:
        return build_run(tmp_path / f"run-{next(counter)}-{name}", name)

    return make


@pytest.fixture
def audit() -> Any:
    from pytest_coldstart.audit import audit_run

    return lambda run_dir: audit_run(run_dir, write=False)
