"""From audit statuses to pytest outcomes, and the text a reader sees for each item.

Pure functions over the typed ``AuditReport``: no pytest import, so the mapping can be
tested on its own. Every string that comes from a run is passed through ``clean`` before it
reaches a terminal: control and format characters (ANSI escapes, bidi overrides) are shown
escaped, never interpreted.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field

from pytest_coldstart.audit.audit_report import AuditReport, FlagReport, RequiredReview, ReviewResolution
from pytest_coldstart.run.textsafe import clean as clean  # the one escaping helper, re-exported
from pytest_coldstart.run.textsafe import one_line as one_line
from pytest_coldstart.run.vocabulary import ReviewState, Status

PASSED, FAILED, XFAILED = "passed", "failed", "xfailed"
FLAG_OUTCOMES = {Status.PASS: PASSED, Status.FAIL: FAILED, Status.PENDING: XFAILED}
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

    def __post_init__(self) -> None:
        # a plain str, never an enum member: it crosses the xdist channel in user_properties
        object.__setattr__(self, "status", str(self.status))

    def text(self) -> str:
        return "\n".join([self.reason, *self.details])


def record_lines(report: AuditReport, refs: Iterable[str], indent: str = "  ") -> list[str]:
    """For each evidence ref: where it points and the record itself (from ``report.refs``)."""
    lines = []
    for ref in refs:
        target = report.refs.get(ref)
        if target is None:
            lines.append(f"{indent}{one_line(ref)}  (not resolved in this run)")
            continue
        lines.append(f"{indent}{one_line(ref)}  -> {one_line(target.where)} [{one_line(target.stream or '')}]")
        lines.append(f"{indent}    {clean(json.dumps(target.record, ensure_ascii=False), RECORD_PREVIEW)}")
    return lines


def run_line(report: AuditReport) -> str:
    klass = report.failure_class or "none"
    name = one_line(report.run_id) if report.run_id else "(no usable run_id in run.json)"
    return f"run {name}: overall {report.overall}, failure class {klass}"


def flag_verdict(report: AuditReport, flag: FlagReport) -> Verdict:
    status = flag.status
    outcome = FLAG_OUTCOMES[status]
    name = one_line(flag.flag.value)
    summary = one_line(flag.summary, 600)
    if outcome == XFAILED:
        reason = f"{name} PENDING: {summary or 'cannot be decided yet'}"
    else:
        reason = f"{name} {status}: {summary}" if summary else f"{name} {status}"
    if outcome == PASSED:
        return Verdict(status, outcome, reason)  # details are only ever shown for failures and xfails
    details: list[str] = [f"summary: {summary}"] if summary else []
    if flag.missing:
        details.append("missing: " + ", ".join(one_line(m) for m in flag.missing))
    if flag.required_review:
        states = [f"{one_line(r.id.value)} ({_entry_status(flag.resolution(r.id))})" for r in flag.required_review]
        details.append("required reviews: " + ", ".join(states))
    if flag.evidence:
        details.append("evidence:")
        details.extend(record_lines(report, flag.evidence))
    if status is Status.PENDING:
        details.extend(f"pending: {one_line(p)}" for p in report.pending_reasons)
    details.append(run_line(report))
    return Verdict(status, outcome, reason, details)


def _entry_status(entry: ReviewResolution | None) -> str:
    return "absent" if entry is None else entry.status.value


def review_verdict(report: AuditReport, flag: FlagReport, review: RequiredReview) -> Verdict:
    """resolved -> passed, rejected/malformed -> failed, pending/absent/unusable -> xfailed.

    The audit ignores a malformed reviews.jsonl line and reports it as an infra error; the
    report lists it under the review it names (``review.malformed``), which makes the item
    fail even when an earlier well-formed entry exists.
    """
    rid = one_line(review.id.value)
    question = one_line(review.question, 400)
    entry = flag.resolution(review.id)
    malformed = [one_line(e) for e in review.malformed]
    status = review.status
    if status is ReviewState.RESOLVED and not malformed:
        return Verdict(status, PASSED, f"review {rid} resolved by {one_line(entry.by if entry else None)}")
    problems = [one_line(p) for p in review.problems]
    details = [f"question: {question}"] if question else []
    details.append(f"flag: {one_line(flag.flag.value)} ({flag.status})")
    if entry is not None:
        details.append(
            f"latest entry (line {entry.line}): status={entry.status} by={one_line(entry.by)} at={one_line(entry.at)}"
        )
        if entry.note:
            details.append(f"note: {one_line(entry.note, 600)}")
        if entry.evidence:
            details.append("evidence:")
            details.extend(record_lines(report, entry.evidence))
    details.extend(f"malformed: {m}" for m in malformed)
    details.extend(f"problem: {p}" for p in problems)
    details.append(run_line(report))
    if malformed:
        return Verdict("malformed", FAILED, f"review {rid} has a malformed entry: {malformed[0]}", details)
    if status is ReviewState.REJECTED:
        who = one_line(entry.by if entry else None)
        return Verdict(status, FAILED, f"review {rid} rejected by {who}", details)
    if status is ReviewState.UNRESOLVED_REFS:
        why = problems[0] if problems else "its evidence refs do not resolve"
        return Verdict(status, XFAILED, f"review {rid} resolved but not usable yet: {why}", details)
    return Verdict("pending", XFAILED, f"review {rid} awaits a reviewer: {question or 'no entry yet'}", details)


def validate_verdict(report: AuditReport | None) -> Verdict:
    """The run's integrity as the audit established it.

    The audit runs ``validate_run`` itself (R12) and reports each of its findings as an infra
    error prefixed ``validate:``; the item shows those, the audit's other integrity errors and
    its fixture errors. Running validate_run a second time would double the cost per run.
    """
    if report is None:
        return Verdict(Status.FAIL, FAILED, "run is not valid: the audit produced no report", [])
    infra = [one_line(e) for e in report.infra_errors]
    infra = [p if p.startswith("validate: ") else f"audit: {p}" for p in infra]
    fixture = [f"fixture: {one_line(e)}" for e in report.fixture_errors]
    context = [run_line(report)]
    if infra:
        reason = f"run is not valid ({_count(len(infra), 'integrity problem')}"
        reason += f", {_count(len(fixture), 'fixture problem')})" if fixture else ")"
        return Verdict(Status.FAIL, FAILED, reason, infra + fixture + context)
    if fixture:
        # Structurally sound, but initialisation or restore was not faithful (FIXTURE_INVALID).
        return Verdict(
            Status.FAIL,
            FAILED,
            f"fixture or restore not faithful ({_count(len(fixture), 'problem')})",
            fixture + context,
        )
    return Verdict(Status.PASS, PASSED, "run is valid", context)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' if number != 1 else ''}"
