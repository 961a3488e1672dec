"""Checks run at most once per session, shared between processes on one host.

The pytest integration asks for single checks, from items and from gate marks, possibly in
several xdist workers at once. Results live in memory and in ``<out>/results/<id>.json``;
a file lock makes sure a check runs once, and that two checks never probe the same reserved
ports at the same time.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from filelock import FileLock

from pytest_coldstart.preflight import report
from pytest_coldstart.preflight.checks.base import Check
from pytest_coldstart.preflight.config import HarnessConfig
from pytest_coldstart.preflight.context import Context
from pytest_coldstart.preflight.runner import run_one
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.clock import format_at, parse_at
from pytest_coldstart.run.errors import UsageError

RESULTS = "results"


class SharedResults:
    def __init__(self, config: HarnessConfig, out: Path, checks: list[Check], *, cwd: Path | None = None):
        self.config, self.out, self.checks, self.cwd = config, Path(out), checks, cwd or Path.cwd()
        self.by_id = {check.id: check for check in checks}
        self.memory: dict[str, dict[str, Any]] = {}
        self.ran_here = False
        self.out.mkdir(parents=True, exist_ok=True)
        self.lock = FileLock(str(self.out / ".lock"))

    def result(self, check_id: str) -> dict[str, Any]:
        """The report entry of ``check_id``, running the check if no process has yet."""
        if check_id in self.memory:
            return self.memory[check_id]
        check = self.by_id.get(check_id)
        if check is None:
            raise UsageError(f"unknown preflight check {check_id!r} (known: {', '.join(self.by_id)})")
        stored = self.out / RESULTS / f"{check_id}.json"
        with self.lock:
            if stored.is_file():
                entry = jsonio.read_json_object(stored)
            else:
                entry = run_one(check, Context.create(self.config, self.out, cwd=self.cwd))
                jsonio.write_json_atomic(stored, entry)
                self.ran_here = True
        self.memory[check_id] = entry
        return entry

    def write_report(self) -> Path | None:
        """preflight.json over every result any process stored (in registration order)."""
        with self.lock:
            entries = [
                jsonio.read_json_object(self.out / RESULTS / f"{c.id}.json")
                for c in self.checks
                if (self.out / RESULTS / f"{c.id}.json").is_file()
            ]
            if not entries:
                return None
            document = report.build(
                self.config,
                entries,
                started_at=min(e["started_at"] for e in entries),
                ended_at=max(_ended(e) for e in entries),
                duration_ms=sum(e["duration_ms"] for e in entries),
                cwd=self.cwd,
                selected=[e["id"] for e in entries],
                skipped=[],
            )
            path, _ = report.write(self.out, document)
        return path


def _ended(entry: dict[str, Any]) -> str:
    started = parse_at(entry["started_at"])
    return format_at(started + timedelta(milliseconds=entry["duration_ms"])) if started else entry["started_at"]
