"""The dashboard's data: one JSON document embedded once in the page.

- ``runs``: one compact row per run (columns in ``columns``), flags as a string of one letter per
  flag in protocol order (P pass, F fail, W pending, ? anything else);
- ``groups`` (model x harness), ``tasks`` and ``days`` (only when the runs span two days or more):
  PASS/FAIL/PENDING counts with Wilson intervals; ``classes``: failure classes overall and per group;
  ``flag_counts``: flag x status;
- ``details``: per run index, its timeline, flags with evidence refs and the records they cite,
  and its audit.md; embedded for at most ``details_limit`` runs (open reviews first, then FAIL,
  PENDING, PASS), so the page stays bounded for 10,000 runs;
- ``worklist``: the reviewer's worklist (``worklist.worklist_of``), items as run indexes.

Every step is one pass over the runs (dict grouping): nothing grows with runs x groups.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from typing import Any

from pytest_coldstart._version import __version__
from pytest_coldstart.analysis.dashboard.collect import RunView
from pytest_coldstart.analysis.dashboard.stats import rates
from pytest_coldstart.analysis.worklist import group_items, open_reviews
from pytest_coldstart.audit.audit_report import AuditReport, ReportFormatError
from pytest_coldstart.audit.report import render_markdown
from pytest_coldstart.run.numbers import finite
from pytest_coldstart.run.textsafe import path_text
from pytest_coldstart.run.vocabulary import FLAGS

COLUMNS = (
    "run_id",
    "path",
    "model",
    "harness",
    "task",
    "status",
    "class",
    "duration_s",
    "calls",
    "error_rate",
    "day",
    "flags",
    "open_reviews",
    "report",
)
LETTER = {"PASS": "P", "FAIL": "F", "PENDING": "W"}
DETAILS_LIMIT = 500
RECORD_CHARS = 300
MARKDOWN_CHARS = 40_000
WORKLIST_ITEMS = 200
PROBLEMS_SHOWN = 50
_PRIORITY = {"FAIL": 1, "PENDING": 2, "PASS": 3}


def _status(report: dict[str, Any]) -> str:
    overall = report.get("overall")
    return overall if isinstance(overall, str) else "UNKNOWN"


def _flags(report: dict[str, Any]) -> str:
    by_name = {f.get("flag"): f.get("status") for f in report.get("flags") or [] if isinstance(f, dict)}
    return "".join(LETTER.get(str(by_name.get(name)), "?") for name in FLAGS)


def _duration(row: dict[str, Any]) -> float | None:
    """run.json's duration, else the span of the calls (their durations plus the waits between them)."""
    stated = finite(row.get("duration_s"))
    if stated is not None:
        return stated
    mean, calls, waits = finite(row.get("call_ms_mean")), finite(row.get("calls")), finite(row.get("wait_ms_total"))
    if mean is not None and calls:
        span = finite((mean * calls + (waits or 0.0)) / 1000.0)  # huge finite parts may sum past float's range
        return round(span, 3) if span is not None else None
    return None


def _record_text(record: object) -> str:
    text = json.dumps(record, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= RECORD_CHARS else text[: RECORD_CHARS - 3] + "..."


def detail_of(report: dict[str, Any]) -> dict[str, Any]:
    """What opening a run shows: timeline, flags with their cited records, audit.md."""
    table = report.get("refs")
    refs_table: dict[str, Any] = table if isinstance(table, dict) else {}
    flags: list[dict[str, Any]] = []
    cited: dict[str, list[Any]] = {}
    for flag in report.get("flags") or []:
        if not isinstance(flag, dict):
            continue
        evidence = [r for r in flag.get("evidence") or [] if isinstance(r, str)]
        for ref in evidence:
            entry = refs_table.get(ref)
            if isinstance(entry, dict) and ref not in cited:
                cited[ref] = [entry.get("file"), entry.get("line"), _record_text(entry.get("record"))]
        flags.append(
            {
                "flag": flag.get("flag"),
                "status": flag.get("status"),
                "summary": flag.get("summary"),
                "evidence": evidence,
                "missing": [m for m in flag.get("missing") or [] if isinstance(m, str)],
            }
        )
    timeline = [
        [e.get("stream"), e.get("ref"), e.get("label"), e.get("at"), e.get("tick"), e.get("seq")]
        for e in report.get("timeline") or []
        if isinstance(e, dict)
    ]
    try:
        markdown = render_markdown(AuditReport.from_json(report))
    except ReportFormatError as exc:
        markdown = f"(audit.md cannot be rendered: {exc.one_line()})"
    if len(markdown) > MARKDOWN_CHARS:
        markdown = markdown[:MARKDOWN_CHARS] + "\n... (cut: see audit/audit.md)"
    problems = {
        key: [str(p) for p in (report.get(key) or [])[:PROBLEMS_SHOWN]]
        for key in ("infra_errors", "fixture_errors", "pending_reasons", "review_problems")
    }
    return {
        "timeline": timeline,
        "unknown": [p for p in report.get("unknown_orderings") or [] if isinstance(p, list)],
        "flags": flags,
        "refs": cited,
        "reviews": [r for r in report.get("required_reviews") or [] if isinstance(r, dict)],
        "problems": problems,
        "md": markdown,
    }


def _detail_order(views: list[RunView], opened: list[int]) -> list[int]:
    def key(index: int) -> tuple[int, int]:
        if opened[index]:
            return (0, index)
        return (_PRIORITY.get(_status(views[index].audited.report), 0), index)

    return sorted(range(len(views)), key=key)


def page_data(views: list[RunView], *, details_limit: int = DETAILS_LIMIT) -> dict[str, Any]:
    tasks: dict[str, int] = {}
    task_labels: list[str] = []
    rows: list[list[Any]] = []
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    group_classes: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    by_task: dict[int, list[str]] = defaultdict(list)
    by_day: dict[str, list[str]] = defaultdict(list)
    classes: Counter[str] = Counter()
    flag_counts: dict[str, Counter[str]] = {name: Counter() for name in FLAGS}
    reviews_open: list[list[dict[str, Any]]] = []
    for view in views:
        report, row = view.audited.report, view.row
        status = _status(report)
        klass = report.get("failure_class") if isinstance(report.get("failure_class"), str) else None
        label = view.task_label or "(unknown task)"
        key = view.task_key or label
        if key not in tasks:
            tasks[key] = len(task_labels)
            task_labels.append(label)
        task = tasks[key]
        model, harness = str(row.get("model") or "?"), str(row.get("harness") or "?")
        day = view.created_at[:10] if view.created_at else None
        flags = _flags(report)
        items = open_reviews(view.audited)
        reviews_open.append(items)
        rows.append(
            [
                report.get("run_id") if isinstance(report.get("run_id"), str) else row.get("run_id"),
                path_text(view.audited.path),
                model,
                harness,
                task,
                status,
                klass,
                _duration(row),
                row.get("calls"),
                row.get("error_rate"),
                day,
                flags,
                len(items),
                view.audited.source,
            ]
        )
        groups[(model, harness)].append(status)
        group_classes[(model, harness)][klass or "-"] += 1
        by_task[task].append(status)
        if day:
            by_day[day].append(status)
        classes[klass or "-"] += 1
        for name, letter in zip(FLAGS, flags, strict=True):
            flag_counts[name][letter] += 1
    chosen = _detail_order(views, [len(items) for items in reviews_open])[: max(0, details_limit)]
    worklist = [
        {"run": index, **{k: item[k] for k in ("review", "flag", "question", "status")}}
        for index, items in enumerate(reviews_open)
        for item in items
    ]
    return {
        "schemaVersion": 1,
        "tool": {"name": "pytest-coldstart", "version": __version__},
        "flags": list(FLAGS),
        "columns": list(COLUMNS),
        "runs": rows,
        "tasks": task_labels,
        "groups": [
            {"model": m, "harness": h, "rates": rates(statuses), "classes": dict(group_classes[(m, h)])}
            for (m, h), statuses in sorted(groups.items())
        ],
        "by_task": [{"task": t, "rates": rates(s)} for t, s in sorted(by_task.items())],
        "days": [{"day": d, "rates": rates(s)} for d, s in sorted(by_day.items())] if len(by_day) >= 2 else [],
        "classes": dict(sorted(classes.items())),
        "flag_counts": {name: dict(counter) for name, counter in flag_counts.items()},
        "details": {str(index): detail_of(views[index].audited.report) for index in sorted(chosen)},
        "details_limit": details_limit,
        "worklist": _worklist_groups(worklist),
    }


def _worklist_groups(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The worklist grouped as ``review todo`` groups it; each group keeps its count and lists
    at most WORKLIST_ITEMS items as [run index, review status]."""
    grouped = group_items(items)
    for group in grouped:
        group["items"] = [[item["run"], item["status"]] for item in group["items"][:WORKLIST_ITEMS]]
    return grouped
