"""The test items of one run: ``validate``, ``flag-<name>`` and ``review-<id>`` (``run`` is in run_item).

Names use only ``[A-Za-z0-9._-]``: brackets break ``--lf`` on pytest 9 (pytest#15045) and
``::`` would break pasted node ids. The raw id travels in the JUnit properties.
PENDING is a strict xfail raised through our own exception, so ``--runxfail`` turns it into
an honest failure instead of a pass.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from pytest_coldstart.pytest_plugin import junit, markers
from pytest_coldstart.pytest_plugin.outcomes import (
    FAILED,
    PASSED,
    XFAILED,
    CheckFailed,
    PendingStatus,
    Verdict,
    flag_verdict,
    latest_resolutions,
    one_line,
    review_verdict,
    validate_verdict,
)
from pytest_coldstart.pytest_plugin.session import RunInfo

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _refs(value: object) -> list[str]:
    return [ref for ref in value if isinstance(ref, str)] if isinstance(value, list) else []


def pasteable(config: pytest.Config, nodeid: str) -> str:
    """The node id as typed from the invocation directory (node ids are rootdir-relative)."""
    path, sep, rest = nodeid.partition("::")
    where = config.invocation_params.dir
    if where != config.rootpath:
        path = Path(os.path.relpath(config.rootpath / path, where)).as_posix()
    return path + sep + rest


def safe_name(prefix: str, raw: object) -> str:
    text = _UNSAFE.sub("_", str(raw)).strip("_") or "unnamed"
    return f"{prefix}-{text}"


class ColdstartItem(pytest.Item):
    """Base: holds the run, decides a Verdict, turns it into an outcome."""

    kind = "check"  # the JUnit property coldstart.<kind> and the coldstart marker's kind

    def __init__(self, *, run: RunInfo, check: str, **kwargs: Any):
        super().__init__(**kwargs)
        self.run = run
        self.check = check
        self.verdict: Verdict | None = None
        self.audit_seconds = 0.0  # this item's share of the run's audit time (JUnit time)

    def _label(self, verdict: Verdict, evidence: list[str]) -> None:
        """Markers and JUnit properties, fixed at collection (``-m`` only sees these)."""
        report = self.run.report or {}
        self.verdict = verdict
        self.add_marker(markers.item_marker(self.run.run_id, self.kind, self.check, verdict.status))
        if verdict.outcome == XFAILED:
            self.add_marker(pytest.mark.pending)
        self.user_properties.extend(
            junit.properties(
                run_id=self.run.run_id,
                kind=self.kind,
                check=self.check,
                status=verdict.status,
                failure_class=report.get("failure_class") if self.run.report else "INFRA_ERROR",
                overall=report.get("overall") if self.run.report else "FAIL",
                evidence=evidence,
            )
        )

    def runtest(self) -> None:
        """Decided at collection (the audit ran then); here the verdict becomes the outcome."""
        verdict = self.verdict
        assert verdict is not None
        if verdict.outcome == PASSED:
            # Shown by -rA / -rP (its PASSES section is otherwise a bare heading) and in the HTML log.
            self.add_report_section("call", "coldstart", verdict.text())
        elif verdict.outcome == FAILED:
            raise CheckFailed(verdict.text())
        if verdict.outcome == XFAILED:
            reason = one_line(verdict.reason, 500)
            self.add_marker(pytest.mark.xfail(reason=reason, raises=PendingStatus, strict=True))
            raise PendingStatus(verdict.text())

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, (CheckFailed, PendingStatus)):
            return str(excinfo.value)  # the whole report, without pytest-internal frames
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        """The failure heading is the node id as typed from the invocation directory (pasteable).

        The trailing space is deliberate: pytest's verbose line rewrites a domain that ends
        the node id (dots become ``::``), which would mangle ``run.json`` and dotted review ids.
        """
        return self.path, 0, f"{pasteable(self.config, self.nodeid)} "


class ValidateItem(ColdstartItem):
    """The run's integrity: validate_run's findings (the audit runs it) and fixture errors."""

    kind = "validate"

    def __init__(self, **kwargs: Any):
        super().__init__(check="validate", **kwargs)
        self._label(validate_verdict(self.run.report), [])


class FlagItem(ColdstartItem):
    kind = "flag"

    def __init__(self, *, flag: dict[str, Any], **kwargs: Any):
        super().__init__(check=str(flag.get("flag")), **kwargs)
        self.flag = flag
        self._label(flag_verdict(self.run.report or {}, flag), _refs(flag.get("evidence")))


class ReviewItem(ColdstartItem):
    kind = "review"

    def __init__(self, *, flag: dict[str, Any], review: dict[str, Any], **kwargs: Any):
        super().__init__(check=str(review.get("id")), **kwargs)
        self.flag = flag
        self.review = review
        entry = latest_resolutions(flag).get(self.check) or {}
        self._label(review_verdict(self.run.report or {}, flag, review), _refs(entry.get("evidence")))


def _required_reviews(
    report: dict[str, Any], flags: list[dict[str, Any]]
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(flag, review) pairs in the audit's order; ``required_reviews`` carries each status."""
    by_name = {flag.get("flag"): flag for flag in flags}
    listed = report.get("required_reviews")
    if isinstance(listed, list):
        return [(by_name.get(r.get("flag")) or {}, r) for r in listed if isinstance(r, dict)]
    return [(flag, r) for flag in flags for r in flag.get("required_review") or [] if isinstance(r, dict)]


def usable(run: RunInfo) -> RunInfo:
    """The run as items see it: a report without a list of flags counts as no report."""
    flags = run.report.get("flags") if run.report is not None else None
    if run.report is None or (isinstance(flags, list) and any(isinstance(f, dict) for f in flags)):
        return run
    return RunInfo(run.run_dir, None, "the audit report lists no flags", run.key)


def run_items(parent: pytest.File, run: RunInfo) -> list[ColdstartItem]:
    """The check items of one (``usable``) run, in a deterministic order: validate, flags, reviews.

    Without a report that is ``validate`` alone; the collector adds the ``run`` item last."""
    items: list[ColdstartItem] = [ValidateItem.from_parent(parent, name="validate", run=run)]
    report = run.report
    if report is None:
        return items
    flags = [f for f in report["flags"] if isinstance(f, dict)]
    seen = {"validate", "run"}
    for flag in flags:
        name = safe_name("flag", flag.get("flag"))
        if name not in seen:
            seen.add(name)
            items.append(FlagItem.from_parent(parent, name=name, run=run, flag=flag))
    for flag, review in _required_reviews(report, flags):
        name = safe_name("review", review.get("id"))
        if name not in seen:
            seen.add(name)
            items.append(ReviewItem.from_parent(parent, name=name, run=run, flag=flag, review=review))
    return items
