"""Fixtures of the importer tests (helpers live in importer_helpers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus import SESSIONS


@pytest.fixture(scope="session")
def samples() -> Path:
    """Our own session samples, one per harness format (tests/data/sessions)."""
    return SESSIONS
