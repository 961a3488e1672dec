"""Shared test configuration: where the shared corpus lives (``../shared`` beside the checkout)."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.fail(f"the shared corpus is expected beside the checkout at {SHARED}")
    return SHARED
