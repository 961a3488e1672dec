"""Fixtures of the research-bundle tests (helpers live in bundle_helpers.py)."""

from __future__ import annotations

import pytest
from bundle_helpers import run_cli


@pytest.fixture
def cli():
    return run_cli
