"""From audit statuses to pytest outcomes, and the text a reader sees for each item.

Pure functions over the audit report (plain dicts): no pytest import, so the mapping can be
tested on its own. Every string that comes from a run is passed through ``clean`` before it
reaches a terminal: control and format characters (ANSI escapes, bidi overrides) are shown
escaped, never interpreted.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from pytest_coldstart.run.textsafe import clean, one_line  # the one escaping helper (re-exported)

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
    if outcome == XFAILED:
        reason = f"{name} PENDING: {summary or 'cannot be decided yet'}"
    elif status in FLAG_OUTCOMES:
        reason = f"{name} {status}: {summary}" if summary else f"{name} {status}"
    else:
        reason = f"{name}: the audit gave no usable status ({one_line(flag.get('status'))})"
    if outcome == PASSED:
        return Verdict(status, outcome, reason)  # details are only ever shown for failures and xfails
    details: list[str] = [f"summary: {summary}"] if summary else []
    missing = _strings(flag.get("missing"))
    if missing:
        details.append("missing: " + ", ".join(one_line(m) for m in missing))
    reviews = [r for r in flag.get("required_review") or [] if isinstance(r, dict)]
    if reviews:
        resolutions = latest_resolutions(flag)
        states = [
            f"{one_line(r.get('id'))} ({one_line((resolutions.get(r.get('id')) or {}).get('status', 'absent'))})"
            for r in reviews
        ]
        details.append("required reviews: " + ", ".join(states))
    evidence = flag.get("evidence") if isinstance(flag.get("evidence"), list) else []
    if evidence:
        details.append("evidence:")
        details.extend(record_lines(report, evidence))
    if status == "PENDING":
        details.extend(f"pending: {one_line(p)}" for p in report.get("pending_reasons") or [])
    details.append(run_line(report))
    return Verdict(status, outcome, reason, details)


def latest_resolutions(flag: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Review resolutions of one flag by id; the latest entry wins (the protocol's rule)."""
    latest: dict[str, dict[str, Any]] = {}
    for entry in flag.get("review_resolutions") or []:
        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
            latest[entry["id"]] = entry
    return latest


def _mentions(text: object, review_id: str) -> bool:
    """Does an audit finding name this review (``review <id>:`` / ``review <id> (line N)``)?"""
    return isinstance(text, str) and re.search(rf"\breview {re.escape(review_id)}(?=[: (])", text) is not None


def review_verdict(report: dict[str, Any], flag: dict[str, Any], review: dict[str, Any]) -> Verdict:
    """resolved -> passed, rejected/malformed -> failed, pending/absent/unusable -> xfailed.

    ``review`` is an entry of the report's ``required_reviews`` ({id, flag, question, status}).
    The audit ignores a malformed reviews.jsonl line and reports it as an infra error naming
    the review; that makes the item fail even when an earlier well-formed entry exists.
    """
    review_id = review.get("id") if isinstance(review.get("id"), str) else ""
    rid = one_line(review_id)
    question = one_line(review.get("question") or "", 400)
    entry = latest_resolutions(flag).get(review_id)
    malformed = [one_line(e) for e in report.get("infra_errors") or [] if _mentions(e, review_id)]
    status = review.get("status")
    if status == "resolved" and not malformed:
        return Verdict("resolved", PASSED, f"review {rid} resolved by {one_line((entry or {}).get('by'))}")
    problems = [one_line(p) for p in report.get("review_problems") or [] if _mentions(p, review_id)]
    details = [f"question: {question}"] if question else []
    details.append(f"flag: {one_line(flag.get('flag'))} ({one_line(flag.get('status'))})")
    if entry is not None:
        details.append(
            f"latest entry (line {one_line(entry.get('line'))}): status={one_line(entry.get('status'))} "
            f"by={one_line(entry.get('by'))} at={one_line(entry.get('at'))}"
        )
        if entry.get("note"):
            details.append(f"note: {one_line(entry.get('note'), 600)}")
        refs = entry.get("evidence") if isinstance(entry.get("evidence"), list) else []
        if refs:
            details.append("evidence:")
            details.extend(record_lines(report, refs))
    details.extend(f"malformed: {m}" for m in malformed)
    details.extend(f"problem: {p}" for p in problems)
    details.append(run_line(report))
    if malformed:
        return Verdict("malformed", FAILED, f"review {rid} has a malformed entry: {malformed[0]}", details)
    if status == "rejected":
        who = one_line((entry or {}).get("by"))
        return Verdict("rejected", FAILED, f"review {rid} rejected by {who}", details)
    if status == "unresolved-refs":
        why = problems[0] if problems else "its evidence refs do not resolve"
        return Verdict("unresolved-refs", XFAILED, f"review {rid} resolved but not usable yet: {why}", details)
    if status in ("unresolved", "pending", None):
        return Verdict("pending", XFAILED, f"review {rid} awaits a reviewer: {question or 'no entry yet'}", details)
    return Verdict(
        one_line(status, 40), FAILED, f"review {rid}: the audit gave an unknown status {one_line(status)}", details
    )


def validate_verdict(report: dict[str, Any] | None) -> Verdict:
    """The run's integrity as the audit established it.

    The audit runs ``validate_run`` itself (R12) and reports each of its findings as an infra
    error prefixed ``validate:``; the item shows those, the audit's other integrity errors and
    its fixture errors. Running validate_run a second time would double the cost per run.
    """
    if report is None:
        return Verdict("FAIL", FAILED, "run is not valid: the audit produced no report", [])
    infra = [describe(e) for e in report.get("infra_errors") or []]
    infra = [p if p.startswith("validate: ") else f"audit: {p}" for p in infra]
    fixture = [f"fixture: {describe(e)}" for e in report.get("fixture_errors") or []]
    context = [run_line(report)]
    if infra:
        reason = f"run is not valid ({_count(len(infra), 'integrity problem')}"
        reason += f", {_count(len(fixture), 'fixture problem')})" if fixture else ")"
        return Verdict("FAIL", FAILED, reason, infra + fixture + context)
    if fixture:
        # Structurally sound, but initialisation or restore was not faithful (FIXTURE_INVALID).
        return Verdict(
            "FAIL", FAILED, f"fixture or restore not faithful ({_count(len(fixture), 'problem')})", fixture + context
        )
    return Verdict("PASS", PASSED, "run is valid", context)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' if number != 1 else ''}"


def _strings(value: object) -> list[Any]:
    return list(value) if isinstance(value, list) else []
