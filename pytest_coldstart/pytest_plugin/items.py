"""The test items of one run: ``validate``, ``flag-<name>`` and ``review-<id>`` (``run`` is in run_item).

Names use only ``[A-Za-z0-9._-]``: brackets break ``--lf`` on pytest 9 (pytest#15045) and
``::`` would break pasted node ids. The raw id travels in the JUnit properties.
PENDING is a strict xfail raised through our own exception, so ``--runxfail`` turns it into
an honest failure instead of a pass.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path
from typing import Any

import pytest

from pytest_coldstart.audit.audit_report import AuditReport, FlagReport, RequiredReview
from pytest_coldstart.pytest_plugin import junit, markers
from pytest_coldstart.pytest_plugin.outcomes import (
    FAILED,
    PASSED,
    XFAILED,
    CheckFailed,
    PendingStatus,
    Verdict,
    flag_verdict,
    one_line,
    review_verdict,
    validate_verdict,
)
from pytest_coldstart.pytest_plugin.session import RunInfo
from pytest_coldstart.run.textsafe import path_text
from pytest_coldstart.run.vocabulary import FailureClass, Status

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _refs(value: object) -> list[str]:
    return [ref for ref in value if isinstance(ref, str)] if isinstance(value, list) else []


def pasteable(config: pytest.Config, nodeid: str) -> str:
    """The node id as typed from the invocation directory (node ids are rootdir-relative)."""
    path, sep, rest = nodeid.partition("::")
    where = config.invocation_params.dir
    if where != config.rootpath:
        path = _relative(config.rootpath, where, path)
    return path + sep + rest


@functools.lru_cache(maxsize=1024)
def _relative(root: Path, where: Path, path: str) -> str:
    """Once per run file (a run's ten items share it), not once per item and report."""
    return Path(os.path.relpath(root / path, where)).as_posix()


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
        report = self.run.report
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
                failure_class=_plain(report.failure_class) if report else FailureClass.INFRA_ERROR.value,
                overall=report.overall.value if report else Status.FAIL.value,
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

    @functools.cached_property
    def location(self) -> tuple[str, int | None, str]:
        """pytest's, with the file part printable (JUnit's xunit1 ``file``, the terminal)."""
        path, line, domain = pytest.Item.location.func(self)  # type: ignore[attr-defined]
        return path_text(path), line, domain


class ValidateItem(ColdstartItem):
    """The run's integrity: validate_run's findings (the audit runs it) and fixture errors."""

    kind = "validate"

    def __init__(self, **kwargs: Any):
        super().__init__(check="validate", **kwargs)
        self._label(validate_verdict(self.run.report), [])


class FlagItem(ColdstartItem):
    kind = "flag"

    def __init__(self, *, report: AuditReport, flag: FlagReport, **kwargs: Any):
        super().__init__(check=flag.flag.value, **kwargs)
        self.flag = flag
        self._label(flag_verdict(report, flag), list(flag.evidence))


class ReviewItem(ColdstartItem):
    kind = "review"

    def __init__(self, *, report: AuditReport, flag: FlagReport, review: RequiredReview, **kwargs: Any):
        super().__init__(check=review.id.value, **kwargs)
        self.flag = flag
        self.review = review
        entry = flag.resolution(review.id)
        self._label(review_verdict(report, flag, review), list(entry.evidence or ()) if entry else [])


def _plain(value: str | None) -> str | None:
    return None if value is None else str(value)


def run_items(parent: pytest.File, run: RunInfo) -> list[ColdstartItem]:
    """The check items of one (``usable``) run, in a deterministic order: validate, flags, reviews.

    Without a report that is ``validate`` alone; the collector adds the ``run`` item last."""
    items: list[ColdstartItem] = [ValidateItem.from_parent(parent, name="validate", run=run)]
    report = run.report
    if report is None:
        return items
    seen = {"validate", "run"}
    flags = {flag.flag: flag for flag in report.flags}
    for flag in report.flags:
        name = safe_name("flag", flag.flag.value)
        if name not in seen:
            seen.add(name)
            items.append(FlagItem.from_parent(parent, name=name, run=run, report=report, flag=flag))
    for review in report.required_reviews:
        name = safe_name("review", review.id.value)
        owner = flags.get(review.flag)
        if name not in seen and owner is not None:
            seen.add(name)
            items.append(ReviewItem.from_parent(parent, name=name, run=run, report=report, flag=owner, review=review))
    return items
