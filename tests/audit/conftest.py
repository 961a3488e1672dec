"""Fixtures of the audit tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from audit_helpers import DECLARED_FILES, HOME_RUN, oracle_and_testmod_model

from pytest_coldstart.audit.evidence import provenance
from pytest_coldstart.audit.evidence.identity import Workspace


@pytest.fixture
def declared_ws(tmp_path: Path) -> Workspace:
    """A run holding the declared files of ``DECLARED_FILES`` and a workspace of the agent's."""
    for relative in [*DECLARED_FILES, "workspace/notes.txt", "workspace/build/x.o"]:
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text("x", "utf-8")
    return Workspace(tmp_path, HOME_RUN)


@pytest.fixture
def model(tmp_path: Path) -> provenance.Provenance:
    """The provenance model of a run that declares an oracle and a test mod."""
    return oracle_and_testmod_model(tmp_path)
