"""From audit statuses to pytest outcomes, and the text a reader sees for each item.

Pure functions over the audit report (plain dicts): no pytest import, so the mapping can be
tested on its own. Every string that comes from a run is passed through ``clean`` before it
reaches a terminal: control and format characters (ANSI escapes, bidi overrides) are shown
escaped, never interpreted.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from pytest_coldstart.clock import parse_at

PASSED, FAILED, XFAILED = "passed", "failed", "xfailed"
FLAG_OUTCOMES = {"PASS": PASSED, "FAIL": FAILED, "PENDING": XFAILED}
RECORD_PREVIEW = 400


class CheckFailed(Exception):
    """Raised by an item whose check failed; its text is the whole failure report."""


class PendingStatus(Exception):
    """Raised by an item that cannot be decided yet; mapped to a strict xfail."""


@dataclass(frozen=True)
class Verdict:
    """One item's decision: the status we report, the pytest outcome, and why."""

    status: str
    outcome: str
    reason: str
    details: list[str] = field(default_factory=list)

    def text(self) -> str:
        return "\n".join([self.reason, *self.details])


def clean(value: object, limit: int | None = None) -> str:
    """A one-terminal-safe rendering of run-provided text (control characters escaped)."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    out = []
    for char in text:
        if char == "\n" or unicodedata.category(char) not in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp"):
            out.append(char)
        else:
            out.append(char.encode("unicode_escape", "backslashreplace").decode("ascii"))
    result = "".join(out)
    if limit is not None and len(result) > limit:
        result = result[: limit - 3] + "..."
    return result


def one_line(value: object, limit: int = 300) -> str:
    return clean(value, limit).replace("\n", " ")


def describe(entry: object) -> str:
    """An infra/fixture error or problem entry (string or object) as one line."""
    if isinstance(entry, dict):
        where = entry.get("file") or entry.get("path") or ""
        if where and entry.get("line") is not None:
            where = f"{where}:{entry['line']}"
        problem = entry.get("problem") or entry.get("message") or entry.get("reason") or entry.get("summary")
        if problem is None:
            return one_line(entry)
        prefix = f"[{entry['id']}] " if isinstance(entry.get("id"), str) else ""
        return one_line(f"{prefix}{where}: {problem}" if where else f"{prefix}{problem}")
    return one_line(entry)


def record_lines(report: dict[str, Any], refs: list[Any], indent: str = "  ") -> list[str]:
    """For each evidence ref: where it points and the record itself (from report['refs'])."""
    table = report.get("refs") if isinstance(report.get("refs"), dict) else {}
    lines = []
    for ref in refs:
        target = table.get(ref) if isinstance(ref, str) else None
        if not isinstance(target, dict):
            lines.append(f"{indent}{one_line(ref)}  (not resolved in this run)")
            continue
        where = str(target.get("file") or "")
        if target.get("line") is not None:
            where = f"{where}:{target['line']}"
        stream = target.get("stream") or ""
        lines.append(f"{indent}{one_line(ref)}  -> {one_line(where)} [{one_line(stream)}]")
        if "record" in target:
            lines.append(f"{indent}    {clean(json.dumps(target['record'], ensure_ascii=False), RECORD_PREVIEW)}")
    return lines


def run_line(report: dict[str, Any]) -> str:
    klass = report.get("failure_class") or "none"
    return f"run {one_line(report.get('run_id'))}: overall {one_line(report.get('overall'))}, failure class {klass}"


def flag_verdict(report: dict[str, Any], flag: dict[str, Any]) -> Verdict:
    status = flag.get("status") if isinstance(flag.get("status"), str) else "UNKNOWN"
    outcome = FLAG_OUTCOMES.get(status, FAILED)
    name = one_line(flag.get("flag"))
    summary = one_line(flag.get("summary") or "", 600)
    details: list[str] = []
    if summary:
        details.append(f"summary: {summary}")
    missing = _strings(flag.get("missing"))
    if missing:
        details.append("missing: " + ", ".join(one_line(m) for m in missing))
    reviews = [r for r in flag.get("required_review") or [] if isinstance(r, dict)]
    if reviews:
        resolutions = latest_resolutions(flag)
        states = [f"{one_line(r.get('id'))} ({one_line((resolutions.get(r.get('id')) or {}).get('status', 'absent'))})" for r in reviews]
        details.append("required reviews: " + ", ".join(states))
    evidence = flag.get("evidence") if isinstance(flag.get("evidence"), list) else []
    if evidence:
        details.append("evidence:")
        details.extend(record_lines(report, evidence))
    if status == "PENDING":
        pending = [one_line(p) for p in report.get("pending_reasons") or []]
        details.extend(f"pending: {p}" for p in pending)
    details.append(run_line(report))
    if outcome == XFAILED:
        reason = f"{name} PENDING: {summary or 'cannot be decided yet'}"
    elif status in FLAG_OUTCOMES:
        reason = f"{name} {status}"
    else:
        reason = f"{name}: the audit gave no usable status ({one_line(flag.get('status'))})"
    return Verdict(status, outcome, reason, details)


def latest_resolutions(flag: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Review resolutions of one flag by id; the latest entry wins (the protocol's rule)."""
    latest: dict[str, dict[str, Any]] = {}
    for entry in flag.get("review_resolutions") or []:
        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
            latest[entry["id"]] = entry
    return latest


def malformed_reason(entry: dict[str, Any]) -> str | None:
    """Why a review entry is malformed (R3), or None when it is well formed."""
    status = entry.get("status")
    if status not in ("resolved", "rejected", "pending"):
        return f"unknown review status {one_line(status)}"
    if status != "resolved":
        return None
    if not isinstance(entry.get("by"), str) or not entry["by"].strip():
        return "a resolved review needs a reviewer (by)"
    if parse_at(entry.get("at")) is None:
        return "a resolved review needs a parseable time (at)"
    evidence = entry.get("evidence")
    if not isinstance(evidence, list) or not evidence or not all(isinstance(e, str) and e.strip() for e in evidence):
        return "a resolved review needs a non-empty list of evidence refs"
    return None


def review_problems_for(report: dict[str, Any], review_id: str) -> list[str]:
    found = []
    for problem in report.get("review_problems") or []:
        if isinstance(problem, dict):
            if problem.get("id") == review_id:
                found.append(describe(problem))
        elif isinstance(problem, str) and review_id in problem:
            found.append(one_line(problem))
    return found


def review_verdict(report: dict[str, Any], flag: dict[str, Any], review: dict[str, Any]) -> Verdict:
    review_id = review.get("id") if isinstance(review.get("id"), str) else ""
    question = one_line(review.get("question") or "", 400)
    entry = latest_resolutions(flag).get(review_id)
    problems = review_problems_for(report, review_id)
    details = [f"question: {question}"] if question else []
    details.append(f"flag: {one_line(flag.get('flag'))} ({one_line(flag.get('status'))})")
    if entry is not None:
        details.append(
            f"latest entry: status={one_line(entry.get('status'))} by={one_line(entry.get('by'))} at={one_line(entry.get('at'))}"
        )
        if entry.get("note"):
            details.append(f"note: {one_line(entry.get('note'), 600)}")
        refs = entry.get("evidence") if isinstance(entry.get("evidence"), list) else []
        if refs:
            details.append("evidence:")
            details.extend(record_lines(report, refs))
    details.extend(f"problem: {p}" for p in problems)
    details.append(run_line(report))
    rid = one_line(review_id)
    if entry is None:
        return Verdict("absent", XFAILED, f"review {rid} has no entry: {question or 'awaiting a reviewer'}", details)
    malformed = malformed_reason(entry)
    if malformed:
        return Verdict("malformed", FAILED, f"review {rid} is malformed: {malformed}", details)
    status = entry["status"]
    if status == "rejected":
        return Verdict("rejected", FAILED, f"review {rid} rejected by {one_line(entry.get('by'))}", details)
    if status == "pending":
        return Verdict("pending", XFAILED, f"review {rid} is pending: {question or 'awaiting a reviewer'}", details)
    if problems:
        # Well formed but its refs do not resolve: the flag stays PENDING (R3), so does the item.
        return Verdict("unresolved", XFAILED, f"review {rid} resolved but not yet usable: {problems[0]}", details)
    return Verdict("resolved", PASSED, f"review {rid} resolved by {one_line(entry.get('by'))}", details)


def validate_verdict(report: dict[str, Any] | None, findings: list[str], available: bool = True) -> Verdict:
    """The run's integrity: trace validation findings plus the audit's infra/fixture errors."""
    problems = [f"validate: {f}" for f in findings]
    if not available:
        problems.append("validate: pytest_coldstart.validate is not available in this installation")
    if report is None:
        problems.append("the audit produced no report for this run")
    else:
        problems.extend(f"infra error: {describe(e)}" for e in report.get("infra_errors") or [])
        problems.extend(f"fixture error: {describe(e)}" for e in report.get("fixture_errors") or [])
    context = [run_line(report)] if report is not None else []
    if problems:
        count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
        return Verdict("FAIL", FAILED, f"run is not valid ({count})", problems + context)
    return Verdict("PASS", PASSED, "run is valid", context)


def _strings(value: object) -> list[Any]:
    return list(value) if isinstance(value, list) else []
