"""Ruling R11: INFRA_ERROR > FIXTURE_INVALID > AGENT_FAIL > PENDING > PASS."""

from __future__ import annotations

from pytest_coldstart.audit.model import Findings, FlagResult
from pytest_coldstart.run.vocabulary import FailureClass, Status


def classify(flags: list[FlagResult], findings: Findings) -> tuple[Status, FailureClass | None]:
    if findings.infra_errors:
        return Status.FAIL, FailureClass.INFRA_ERROR
    if findings.fixture_errors:
        return Status.FAIL, FailureClass.FIXTURE_INVALID
    if any(flag.status == Status.FAIL for flag in flags):
        return Status.FAIL, FailureClass.AGENT_FAIL
    if any(flag.status != Status.PASS for flag in flags) or findings.pending_reasons:
        return Status.PENDING, None
    return Status.PASS, None


#: The exit code of ``coldstart audit run`` for each overall status.
EXIT_CODES: dict[Status, int] = {Status.PASS: 0, Status.FAIL: 1, Status.PENDING: 2}


def exit_code(overall: str) -> int:
    return EXIT_CODES[Status(overall)]
