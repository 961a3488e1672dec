"""The corpus location for module-level use (hypothesis strategies are built at import time)."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def corpus_dir() -> Path:
    return REPO.parent / "shared" / "corpus" / "harness-sessions"
