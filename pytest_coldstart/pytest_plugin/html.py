"""pytest-html integration, registered only when pytest-html is active.

pytest-html 4 inserts extras and table cells with innerHTML and escapes none of them (nor the
test-id cell), so everything from a run goes through ``html.escape`` here. Each item gets an
evidence table; the ``validate`` item of each run also carries the run's timeline picture.
Extras are plain dicts of strings, so they cross the xdist channel intact.
"""

from __future__ import annotations

import json
import re
from collections.abc import Generator, Iterable
from html import escape
from typing import Any

import pytest

from pytest_coldstart.audit.audit_report import AuditReport, ReviewResolution
from pytest_coldstart.pytest_plugin import junit, timeline
from pytest_coldstart.pytest_plugin.items import ColdstartItem, FlagItem, ReviewItem, ValidateItem
from pytest_coldstart.pytest_plugin.outcomes import clean
from pytest_coldstart.run.vocabulary import FailureClass, Status

RECORD_LIMIT = 2000
STYLE = (
    "<style>.coldstart-evidence td,.coldstart-evidence th,.coldstart-timeline-events td,"
    ".coldstart-timeline-events th{border:1px solid #ccc;padding:2px 6px;vertical-align:top;text-align:left}"
    ".coldstart-evidence pre{white-space:pre-wrap;margin:0;max-width:60em;max-height:20em;overflow:auto}</style>"
)


def _e(value: object, limit: int = 600) -> str:
    """Escaped for HTML; control and bidi characters are shown as escapes, never emitted."""
    return escape(clean("" if value is None else value, limit), quote=True)


def _rows(pairs: list[tuple[str, str]]) -> str:
    return "".join(f"<tr><th>{escape(k)}</th><td>{v}</td></tr>" for k, v in pairs)


def evidence_rows(report: AuditReport | None, refs: Iterable[str]) -> str:
    """ref | stream | where | record, for each evidence ref (records from ``report.refs``)."""
    rows = ["<tr><th>ref</th><th>stream</th><th>where</th><th>record</th></tr>"]
    for ref in refs:
        target = report.refs.get(ref) if report is not None else None
        if target is None:
            rows.append(f'<tr><td>{_e(ref)}</td><td colspan="3">not resolved in this run</td></tr>')
            continue
        record = json.dumps(target.record, ensure_ascii=False, indent=1)
        rows.append(
            f"<tr><td>{_e(ref)}</td><td>{_e(target.stream)}</td><td>{_e(target.where)}</td>"
            f"<td><pre>{_e(record, RECORD_LIMIT)}</pre></td></tr>"
        )
    return f'<table class="coldstart-evidence">{"".join(rows)}</table>'


def item_html(item: ColdstartItem) -> str:
    """The evidence table of one item (plus the timeline for the run's validate item)."""
    report = item.run.report
    verdict = item.verdict
    klass = report.failure_class if report is not None else FailureClass.INFRA_ERROR
    head = [
        ("run", _e(item.run.run_id)),
        ("overall", _e(report.overall if report is not None else Status.FAIL)),
        ("failure class", _e(klass or "-")),
        ("check", _e(item.name)),
        ("status", _e(verdict.status if verdict else "")),
        ("reason", _e(verdict.reason if verdict else "")),
    ]
    parts = [STYLE, f'<table class="coldstart-evidence">{_rows(head)}</table>']
    if isinstance(item, FlagItem):
        flag = item.flag
        required = "".join(
            f"<li>{_e(r.id)}: {_e(r.question)} <b>({_e(_entry_status(flag.resolution(r.id)))})</b></li>"
            for r in flag.required_review
        )
        facts = [("missing", _e(", ".join(flag.missing)) or "-")]
        if required:
            facts.append(("required reviews", f"<ul>{required}</ul>"))
        parts.append(f'<table class="coldstart-evidence">{_rows(facts)}</table>')
        parts.append(evidence_rows(report, flag.evidence))
    elif isinstance(item, ReviewItem):
        entry = item.flag.resolution(item.review.id)
        facts = [("question", _e(item.review.question, 2000))]
        facts += [
            (key, _e(getattr(entry, key) if entry is not None else None, 2000))
            for key in ("status", "by", "at", "note")
        ]
        parts.append(f'<table class="coldstart-evidence">{_rows(facts)}</table>')
        parts.append(evidence_rows(report, (entry.evidence or ()) if entry is not None else ()))
    if verdict is not None and verdict.outcome != "passed" and not isinstance(item, (FlagItem, ReviewItem)):
        parts.append("<ul>" + "".join(f"<li>{_e(line, 2000)}</li>" for line in verdict.details) + "</ul>")
    if isinstance(item, ValidateItem) and report is not None:
        parts.append(f'<div style="overflow-x:auto">{timeline.render_svg(report)}</div>')
        parts.append(timeline.render_table(report))
    return f'<div class="coldstart">{"".join(parts)}</div>'


def _entry_status(entry: ReviewResolution | None) -> str:
    return "absent" if entry is None else entry.status.value


_TEST_ID = re.compile(r'^(<td class="col-testId">)(.*)(</td>)$', re.S)


class HtmlReporting:
    """Hooks that exist only with pytest-html; an instance is registered per session."""

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
        """pytest_runtest_makereport: attach the evidence table to our call reports."""
        report = yield
        if isinstance(item, ColdstartItem) and report.when == "call":
            import pytest_html.extras

            report.extras = [*getattr(report, "extras", []), pytest_html.extras.html(item_html(item))]
        return report

    def pytest_html_results_table_header(self, cells: list[str]) -> None:
        """pytest_html_results_table_header: a coldstart status column."""
        cells.insert(2, '<th class="sortable" data-column-type="coldstart">coldstart</th>')

    def pytest_html_results_table_row(self, report: Any, cells: list[str]) -> None:
        """pytest_html_results_table_row: escape our test ids; fill the status column."""
        props = getattr(report, "user_properties", None) or []
        ours = junit.lookup(props, "run_id") is not None
        status = junit.lookup(props, "status") if ours else None
        if ours and len(cells) > 1:
            match = _TEST_ID.match(cells[1])
            if match:
                cells[1] = f"{match.group(1)}{escape(match.group(2), quote=True)}{match.group(3)}"
        cells.insert(2, f'<td class="col-coldstart">{_e(status or "")}</td>')
