"""Shared test configuration: where the shared corpus lives (``../shared`` beside the checkout)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# Helpers shared by several test folders (imported by name, like each folder's own helpers).
sys.path.insert(0, str(Path(__file__).resolve().parent / "support"))

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.fail(f"the shared corpus is expected beside the checkout at {SHARED}")
    return SHARED
