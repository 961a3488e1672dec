"""``audit_of``: a run's audit report for the cross-run views (worklist, dashboard, exports).

The one seam between those views and the audit: today it serves the run's stored
``audit/audit.json`` when that report is current and audits the run in memory otherwise; when
the audit cache moves into the core this function is what gets pointed at it.

A stored report is *current* when it is a report of this audit's schema version written by this
version of pytest-coldstart, and it was written after every file of the run last changed (the
newest mtime and ctime of every file outside ``audit/`` and ``.coldstart/``; ctime cannot be set
back by a user, so touching an input back in time still invalidates it). Anything else (missing,
unreadable, foreign, stale) is re-audited; ``fresh=True`` re-audits every run.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pytest_coldstart._version import __version__
from pytest_coldstart.audit import audit_run
from pytest_coldstart.audit.audit_report import SCHEMA_VERSION
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.layout import AUDIT_DIR, STATE_DIR

REPORT = "audit.json"
Source = Literal["stored", "audited"]


@dataclass(frozen=True)
class AuditedRun:
    """A run directory with its audit report and where the report came from."""

    path: Path
    report: dict[str, Any]
    source: Source


def _newest_input_ns(root: Path) -> int:
    newest = 0
    for current, dirs, files in os.walk(root):
        if Path(current) == root:
            dirs[:] = [d for d in dirs if d not in (AUDIT_DIR, STATE_DIR)]
        for name in files + [d for d in dirs if os.path.islink(os.path.join(current, d))]:
            try:
                stat = os.lstat(os.path.join(current, name))
            except OSError:
                continue
            newest = max(newest, stat.st_mtime_ns, stat.st_ctime_ns)
    return newest


def stored_report(run_dir: Path) -> dict[str, Any] | None:
    """The run's audit/audit.json when it is current (see the module doc), else None."""
    path = run_dir / AUDIT_DIR / REPORT
    try:
        written = os.lstat(path).st_mtime_ns
        report = jsonio.read_json_object(path, what=f"{AUDIT_DIR}/{REPORT}")
    except (OSError, ColdstartError):
        return None
    version = report.get("schemaVersion")
    tool = report.get("tool")
    if type(version) is not int or version != SCHEMA_VERSION:
        return None
    if not isinstance(tool, dict) or tool.get("version") != __version__:
        return None
    if not isinstance(report.get("flags"), list) or not isinstance(report.get("required_reviews"), list):
        return None
    if _newest_input_ns(run_dir) > written:
        return None
    return report


def audit_of(run_dir: str | Path, *, fresh: bool = False) -> AuditedRun:
    """The run's current audit report (never raises: a broken run is an INFRA_ERROR report)."""
    root = Path(run_dir)
    report = None if fresh else stored_report(root)
    if report is not None:
        return AuditedRun(root, report, "stored")
    return AuditedRun(root, audit_run(root, write=False), "audited")
