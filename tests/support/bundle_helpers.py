"""Helpers for the research-bundle tests: the real CLI in a subprocess, and small runs."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pytest_coldstart.demo.facts import fixed
from pytest_coldstart.record.recorder import Recorder, init_run
from pytest_coldstart.run.clock import FixedClock

HARNESS = {"name": "pi", "version": "1.0", "model": "model-x", "provider": "prov"}


def run_cli(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``coldstart ARGS`` as a user runs it (a fresh process), never raising on a non-zero exit."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "pytest_coldstart", *args],
        capture_output=True,
        text=True,
        env=full_env,
        cwd=cwd,
        timeout=120,
    )


def new_run(
    path: Path,
    *,
    run_id: str | None = None,
    harness: dict[str, str] | None = None,
    logging: dict | None = None,
    start: int = 0,
) -> Recorder:
    """A fresh run with a deterministic clock and fixed machine facts."""
    clock = FixedClock(datetime(2026, 1, 1, 10, start, 0, tzinfo=UTC))
    return init_run(
        path,
        run_id=run_id or path.name,
        task_bytes=b"task",
        task_source="inline",
        harness=harness or dict(HARNESS),
        logging=logging,
        clock=clock,
        **fixed(),
    )


def all_bytes(root: Path) -> dict[str, bytes]:
    """Every regular file below ``root`` (hidden ones included), by relative path."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def cli():
    """``run_cli`` as a fixture, for tests that take the CLI as an argument."""
    return run_cli
