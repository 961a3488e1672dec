"""Fixtures of the importer tests (helpers live in importer_helpers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def corpus(shared_dir: Path) -> Path:
    return shared_dir / "corpus" / "harness-sessions"
