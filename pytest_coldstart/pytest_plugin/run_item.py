"""The ``run`` item: a run's overall status as an item of its own (one per run, always last).

Every other item judges one check; a run can be PENDING for a reason no check carries (no
fixture or restore evidence declared) or FAIL for one (an integrity error with every flag
PASS). Without this item such a run shows all green. So: overall PASS -> passed, FAIL ->
failed (failure class and every reason), PENDING -> strict xfail with the pending reasons,
which ``--runxfail`` turns into a failure. A run the audit could not process at all has this
item too (failing, marked ``infra_error``), so a JUnit consumer counts exactly one ``run`` case
per run directory. Why not the ``validate`` item: it answers "is the run intact?", a different
question (a pending run is intact); merging the two would hide which one failed.
"""

from __future__ import annotations

from typing import Any

from pytest_coldstart.pytest_plugin import junit
from pytest_coldstart.pytest_plugin.items import ColdstartItem
from pytest_coldstart.pytest_plugin.outcomes import FAILED, PASSED, XFAILED, Verdict, one_line
from pytest_coldstart.pytest_plugin.session import RunInfo

NAME = "run"
_REVIEW_PENDING = {"unresolved": "awaits a reviewer", "pending": "awaits a reviewer"}


def _field(record: Any, name: str) -> Any:
    """A report field, plain value: the report as a dict or as the typed AuditReport (enums too)."""
    value = record.get(name) if isinstance(record, dict) else getattr(record, name, None)
    return getattr(value, "value", value)


def _entries(record: Any, name: str) -> list[Any]:
    value = _field(record, name)
    return list(value) if isinstance(value, (list, tuple)) else []


def _flags(report: Any, status: str) -> list[str]:
    return [
        f"flag {one_line(_field(flag, 'flag'))} {status}: {one_line(_field(flag, 'summary') or '', 400)}".rstrip(": ")
        for flag in _entries(report, "flags")
        if _field(flag, "status") == status
    ]


def _reviews(report: Any, statuses: dict[str, str]) -> list[str]:
    lines = []
    for review in _entries(report, "required_reviews"):
        state = _field(review, "status")
        if isinstance(state, str) and state in statuses:
            question = one_line(_field(review, "question") or "", 300)
            lines.append(f"review {one_line(_field(review, 'id'))} {statuses[state]}: {question}".rstrip(": "))
    return lines


def _strings(report: Any, key: str, prefix: str) -> list[str]:
    return [f"{prefix}{one_line(entry)}" for entry in _entries(report, key)]


def failure_reasons(report: Any) -> list[str]:
    """Why the run FAILs: integrity, fixture, failing flags, rejected reviews (R11's order)."""
    return [
        *_strings(report, "infra_errors", "infra: "),
        *_strings(report, "fixture_errors", "fixture: "),
        *_flags(report, "FAIL"),
        *_reviews(report, {"rejected": "rejected"}),
    ]


def pending_reasons(report: Any) -> list[str]:
    """Why the run is PENDING: run-level reasons first, then pending flags and reviews."""
    return [
        *_strings(report, "pending_reasons", "pending: "),
        *_flags(report, "PENDING"),
        *_reviews(report, {**_REVIEW_PENDING, "unresolved-refs": "resolved with refs that do not resolve"}),
        *_strings(report, "review_problems", "review problem: "),
    ]


def _headline(run: str, status: str, reasons: list[str]) -> str:
    if not reasons:
        return f"run {run} {status}"
    more = f" (+{len(reasons) - 1} more)" if len(reasons) > 1 else ""
    return f"run {run} {status}: {reasons[0]}{more}"


def _listed(reasons: list[str]) -> list[str]:
    return ["reasons:", *(f"  - {reason}" for reason in reasons)]


def run_verdict(run: RunInfo) -> tuple[Verdict, list[str]]:
    """The run item's verdict and the reasons behind it (also a JUnit property)."""
    report = run.report
    given = _field(report, "run_id") if report is not None else None
    name = (
        one_line(given, 120)
        if isinstance(given, str) and given
        else f"{one_line(run.run_dir.name, 120)} (no usable run_id)"
    )
    if report is None:
        reason = run.error or "the audit could not run"
        details = [f"run directory: {one_line(run.run_dir.name)}"]
        return Verdict("FAIL", FAILED, f"run {name} FAIL (INFRA_ERROR): {reason}", details), [reason]
    overall = _field(report, "overall")
    klass = _field(report, "failure_class")
    if overall == "PASS":
        return Verdict("PASS", PASSED, f"run {name} PASS: every flag passed, nothing is pending"), []
    if overall == "PENDING":
        reasons = pending_reasons(report) or ["the audit reports PENDING without naming a reason"]
        return Verdict("PENDING", XFAILED, _headline(name, "PENDING", reasons), _listed(reasons)), reasons
    if overall == "FAIL":
        reasons = failure_reasons(report) or ["the audit reports FAIL without naming a reason"]
        status = f"FAIL ({one_line(klass)})" if isinstance(klass, str) and klass else "FAIL"
        return Verdict("FAIL", FAILED, _headline(name, status, reasons), _listed(reasons)), reasons
    reason = f"the audit gave no usable overall status ({one_line(overall)})"
    return Verdict("FAIL", FAILED, f"run {name}: {reason}", [reason]), [reason]


class RunItem(ColdstartItem):
    """``<run>/run.json::run``: the run's overall status (markers and properties like the rest)."""

    kind = "run"

    def __init__(self, **kwargs: Any):
        super().__init__(check=NAME, **kwargs)
        verdict, reasons = run_verdict(self.run)
        self._label(verdict, [])
        self.user_properties.append(junit.reasons(reasons))
