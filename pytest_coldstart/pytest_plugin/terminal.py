"""Terminal summary: one row per run (overall verdict, failure class, item outcomes).

Built from ``terminalreporter.stats`` (which holds every report on the xdist controller),
never from module state: in-process pytester sessions share this module.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import pytest

from pytest_coldstart.pytest_plugin import junit
from pytest_coldstart.pytest_plugin.outcomes import one_line
from pytest_coldstart.run.vocabulary import Status

HEADER = ("run", "run_id", "overall", "failure class", "items")


@dataclass
class RunRow:
    node: str
    run_id: str = ""
    overall: str = ""
    failure_class: str = ""
    outcomes: dict[str, str] = field(default_factory=dict)

    def cells(self) -> tuple[str, ...]:
        counts = Counter(self.outcomes.values())
        items = ", ".join(
            f"{counts[o]} {o}" for o in ("failed", "passed", "xfailed", "skipped", "xpassed") if counts[o]
        )
        return (self.node, self.run_id, self.overall or "?", self.failure_class or "-", items)


def _outcome(report: pytest.TestReport) -> str | None:
    if report.failed:
        return "failed"
    if report.skipped:
        return "xfailed" if hasattr(report, "wasxfail") else "skipped"
    if report.when == "call":
        return "xpassed" if hasattr(report, "wasxfail") else "passed"
    return None


def collect_rows(stats: dict[str, list[object]]) -> list[RunRow]:
    rows: dict[str, RunRow] = {}
    for reports in stats.values():
        for report in reports:
            props = getattr(report, "user_properties", None)
            nodeid = getattr(report, "nodeid", "")
            if not isinstance(report, pytest.TestReport) or not props or junit.lookup(props, "run_id") is None:
                continue
            node = nodeid.split("::", 1)[0]
            row = rows.setdefault(node, RunRow(node))
            row.run_id = one_line(junit.lookup(props, "run_id"), 60)
            row.overall = junit.lookup(props, "overall") or ""
            row.failure_class = junit.lookup(props, "failure_class") or ""
            outcome = _outcome(report)
            if outcome is not None and row.outcomes.get(nodeid) != "failed":
                row.outcomes[nodeid] = outcome
    return [rows[key] for key in sorted(rows)]


def write(terminalreporter: pytest.TerminalReporter) -> None:
    rows = collect_rows(terminalreporter.stats)
    if not rows:
        return
    table = [HEADER, *(row.cells() for row in rows)]
    widths = [max(len(line[i]) for line in table) for i in range(len(HEADER) - 1)]
    verdicts = Counter(row.overall for row in rows)
    title = f"coldstart: {len(rows)} run{'s' if len(rows) != 1 else ''} " + ", ".join(
        f"{verdicts[v]} {v}" for v in (Status.PASS, Status.FAIL, Status.PENDING) if verdicts[v]
    )
    terminalreporter.write_sep("=", title)
    for line in table:
        text = "  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=False)) + "  " + line[-1]
        markup = {"red": True} if line[2] == Status.FAIL else {"yellow": True} if line[2] == Status.PENDING else {}
        terminalreporter.write_line(text.rstrip(), **markup)
