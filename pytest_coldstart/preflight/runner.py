"""Running checks: selection (``--checks``/``--skip``), crash isolation and the overall verdict.

Rules (seed 000 §2): SKIP never counts as PASS; a check that raises is a FAIL, not a crashed
preflight; overall is PASS iff at least one check ran (was not skipped) and every check that
ran passed.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pytest_coldstart.preflight.checks.base import FAIL, PASS, SKIP, STATUSES, Check, CheckResult
from pytest_coldstart.preflight.context import Context
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.clock import Clock, format_at
from pytest_coldstart.run.errors import UsageError

SKIPPED_BY_REQUEST = "skipped by request (--skip)"


@dataclass
class Selection:
    checks: list[Check]
    skip: set[str]

    @property
    def ids(self) -> list[str]:
        return [check.id for check in self.checks]


def parse_ids(values: Iterable[str] | None) -> list[str]:
    """``["a,b", "c"]`` -> ``["a", "b", "c"]`` (order kept, duplicates dropped)."""
    out: list[str] = []
    for value in values or []:
        for part in value.split(","):
            part = part.strip()
            if part and part not in out:
                out.append(part)
    return out


def select(available: list[Check], wanted: Iterable[str] | None = None, skip: Iterable[str] | None = None) -> Selection:
    """The checks to run, in the order asked (default: all, in registration order)."""
    by_id = {check.id: check for check in available}
    wanted_ids = parse_ids(wanted)
    skip_ids = parse_ids(skip)
    for option, ids in (("--checks", wanted_ids), ("--skip", skip_ids)):
        unknown = [i for i in ids if i not in by_id]
        if unknown:
            raise UsageError(f"{option}: unknown check {', '.join(map(repr, unknown))} (known: {', '.join(by_id)})")
    chosen = [by_id[i] for i in wanted_ids] if wanted_ids else list(available)
    if not chosen:
        raise UsageError("no preflight checks are registered")
    return Selection(chosen, set(skip_ids))


def run_one(check: Check, context: Context, clock: Clock | None = None) -> dict[str, Any]:
    """Run one check and return its report entry; nothing the check does escapes as an exception."""
    clock = clock or Clock()
    started_at = format_at(clock.now())
    started = time.monotonic()
    try:
        result = check.run(context)
        problem = _invalid(result)
        if problem:
            result = CheckResult.failed(f"check returned an invalid result: {problem}")
    except Exception as exc:
        frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
        where = f" at {frame.filename.rsplit('/', 1)[-1]}:{frame.lineno}" if frame else ""
        result = CheckResult.failed(f"probe raised {type(exc).__name__}: {exc}{where}")
    return entry(check, result, started_at, time.monotonic() - started)


def skipped(check: Check, reason: str = SKIPPED_BY_REQUEST, clock: Clock | None = None) -> dict[str, Any]:
    return entry(check, CheckResult.skipped(reason), format_at((clock or Clock()).now()), 0.0)


def entry(check: Check, result: CheckResult, started_at: str, seconds: float) -> dict[str, Any]:
    return {
        "id": check.id,
        "proves": check.proves,
        "status": result.status,
        "detail": result.detail,
        "evidence": result.evidence,
        "versions": result.versions,
        "started_at": started_at,
        "duration_ms": round(seconds * 1000, 1),
    }


def _invalid(result: Any) -> str | None:
    if not isinstance(result, CheckResult):
        return f"expected a CheckResult, got {type(result).__name__}"
    if result.status not in STATUSES:
        return f"status {result.status!r} is not one of {', '.join(STATUSES)}"
    if not isinstance(result.detail, str):
        return "detail is not a string"
    if not isinstance(result.evidence, list) or not all(isinstance(e, dict) for e in result.evidence):
        return "evidence is not a list of objects"
    if not isinstance(result.versions, dict):
        return "versions is not an object"
    try:
        jsonio.dumps_line({"evidence": result.evidence, "versions": result.versions})
    except (TypeError, ValueError) as exc:
        return f"evidence/versions are not JSON ({exc})"
    return None


def run_selection(selection: Selection, context: Context, clock: Clock | None = None) -> list[dict[str, Any]]:
    entries = []
    for check in selection.checks:
        if check.id in selection.skip:
            entries.append(skipped(check, clock=clock))
        else:
            entries.append(run_one(check, context, clock))
    return entries


def overall(statuses: Iterable[str]) -> str:
    ran = [status for status in statuses if status != SKIP]
    return PASS if ran and all(status == PASS for status in ran) else FAIL


__all__ = ["FAIL", "PASS", "SKIP", "Selection", "overall", "parse_ids", "run_one", "run_selection", "select", "skipped"]
