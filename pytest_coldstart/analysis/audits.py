"""``audit_of``: a run's audit report for the cross-run views (worklist, dashboard, exports).

The one seam between those views and the audit: ``audit.verdict.current_report`` (the run's
stored report while it is current, else the shared audit cache, else an audit stored there),
so a view over a thousand runs audits each of them at most once across commands and sessions.
``fresh=True`` re-audits every run, trusting nothing on disk.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_coldstart.audit.verdict import Source, current_report


@dataclass(frozen=True)
class AuditedRun:
    """A run directory with its audit report and where the report came from."""

    path: Path
    report: dict[str, Any]
    source: Source


def audit_of(run_dir: str | Path, *, fresh: bool = False) -> AuditedRun:
    """The run's current audit report (never raises: a broken run is an INFRA_ERROR report)."""
    root = Path(run_dir)
    report, source = current_report(root, fresh=fresh)
    return AuditedRun(root, report, source)
