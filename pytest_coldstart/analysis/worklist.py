"""The reviewer's worklist: every required review still open across many runs.

For each run (found as ``coldstart compare`` finds them) the audit report (``audits.audit_of``)
lists the flag's required reviews; one that is not ``resolved`` or ``rejected`` is open. Each
open review is listed with the protocol's question, the flag's status, the evidence refs to look
at with the records they cite (from the report's ``refs``), and the run's review problems (why a
recorded resolution did not count). Items are grouped by review id, largest group first.
Strings from runs are data: the table shows them with control characters escaped.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pytest_coldstart.analysis.audits import AuditedRun, audit_of
from pytest_coldstart.analysis.compare import find_runs
from pytest_coldstart.run.textsafe import path_text
from pytest_coldstart.run.versioning import CURRENT

#: Review states that close a required review; every other state (unresolved, unresolved-refs, pending) is open.
CLOSED = frozenset({"resolved", "rejected"})
RECORD_CHARS = 160


def plain(value: object, limit: int | None = None) -> str:
    """One printable line: control, bidi and other unprintable characters shown escaped."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(value))
    if limit is not None and len(text) > limit:
        text = text[: limit - 3] + "..."
    return text


def is_problem_of(problem: str, review_id: str) -> bool:
    """Whether a report's review problem ("review ID: ..." or "review ID (line N): ...") is about ``review_id``."""
    return problem.startswith((f"review {review_id}:", f"review {review_id} ("))


def _cited(report: dict[str, Any], ref: str) -> dict[str, Any]:
    table = report.get("refs")
    entry = table.get(ref) if isinstance(table, dict) else None
    if not isinstance(entry, dict):
        return {"ref": ref, "file": None, "line": None, "record": None}
    return {"ref": ref, "file": entry.get("file"), "line": entry.get("line"), "record": entry.get("record")}


def open_reviews(run: AuditedRun) -> list[dict[str, Any]]:
    """The run's open required reviews, each with its question and cited evidence."""
    report = run.report
    flags = {f.get("flag"): f for f in report.get("flags") or [] if isinstance(f, dict)}
    problems = [p for p in report.get("review_problems") or [] if isinstance(p, str)]
    items = []
    for review in report.get("required_reviews") or []:
        if not isinstance(review, dict) or review.get("status") in CLOSED:
            continue
        flag = flags.get(review.get("flag")) or {}
        refs = [r for r in flag.get("evidence") or [] if isinstance(r, str)]
        review_id = str(review.get("id"))
        items.append(
            {
                "run_id": report.get("run_id"),
                "path": path_text(run.path),
                "review": review_id,
                "flag": review.get("flag"),
                "flag_status": flag.get("status"),
                "question": review.get("question"),
                "status": review.get("status"),
                "overall": report.get("overall"),
                "report": run.source,
                "evidence": [_cited(report, ref) for ref in refs],
                "problems": [p for p in problems if is_problem_of(p, review_id)],
            }
        )
    return items


def group_items(items: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Items grouped by review id (largest group first, then by id), each group counted."""
    groups: dict[str, dict[str, Any]] = {}
    for item in items:
        group = groups.setdefault(
            item["review"],
            {"review": item["review"], "flag": item["flag"], "question": item["question"], "count": 0, "items": []},
        )
        group["count"] += 1
        group["items"].append(item)
    return sorted(groups.values(), key=lambda g: (-g["count"], g["review"]))


def worklist(paths: list[str | Path], *, fresh: bool = False) -> dict[str, Any]:
    """The worklist document (what ``coldstart review todo --json`` prints)."""
    runs = [audit_of(run, fresh=fresh) for run in find_runs(paths)]
    return worklist_of(runs)


def worklist_of(runs: list[AuditedRun]) -> dict[str, Any]:
    items = [item for run in runs for item in open_reviews(run)]
    return {
        "schemaVersion": CURRENT,
        "runs": len(runs),
        "runs_with_open_reviews": len({item["path"] for item in items}),
        "open": len(items),
        "groups": group_items(items),
    }


def _record_text(record: object) -> str:
    if record is None:
        return "(not in the report's refs: the ref does not resolve)"
    return plain(json.dumps(record, ensure_ascii=False, sort_keys=True), RECORD_CHARS)


def to_table(doc: dict[str, Any]) -> str:
    """The worklist as text: one block per review id, one entry per run, its refs indented."""
    lines = [f"{doc['open']} open review(s) in {doc['runs_with_open_reviews']} of {doc['runs']} run(s)"]
    for group in doc["groups"]:
        lines += ["", f"{plain(group['review'])} ({group['count']} open): {plain(group['question'])}"]
        for item in group["items"]:
            lines.append(
                f"  {plain(item['run_id'])}  [{plain(item['status'])}; flag {plain(item['flag_status'])}; "
                f"run {plain(item['overall'])}]  {plain(item['path'])}"
            )
            for cited in item["evidence"]:
                where = cited["file"] if cited["line"] is None else f"{cited['file']}:{cited['line']}"
                lines.append(f"      {plain(cited['ref'])}  {plain(where or '-')}  {_record_text(cited['record'])}")
            for problem in item["problems"]:
                lines.append(f"      problem: {plain(problem, 300)}")
    return "\n".join(lines) + "\n"
