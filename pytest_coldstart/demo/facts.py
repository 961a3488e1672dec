"""The fixed facts every demo run is recorded with (machine, repository, tool, clocks), so
nothing of the machine that generates the demo reaches its bytes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from pytest_coldstart._version import __version__
from pytest_coldstart.run.clock import FixedClock

START = datetime(2026, 5, 10, 9, 0, 0, tzinfo=UTC)
MACHINE = {
    "platform": "demo-platform",
    "os": "Linux",
    "os_release": "demo",
    "machine": "x86_64",
    "python": "3.11",
    "implementation": "CPython",
    "executable_name": "python3",
}
REPO = {"root": ".", "commit": "0" * 40, "branch": "demo", "dirty_entries": 0}
TOOL = {"name": "pytest-coldstart", "version": __version__, "commit": None}


def fixed(**extra: Any) -> dict[str, Any]:
    """The fixed facts to pass to ``recorder.init_run`` (machine, repo, tool)."""
    return {"machine": dict(MACHINE), "repo": dict(REPO), "tool": dict(TOOL), **extra}


def clock_for(index: int) -> FixedClock:
    """One deterministic clock per run (runs start an hour apart, 250 ms per reading)."""
    return FixedClock(START + timedelta(hours=index))
