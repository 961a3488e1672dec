"""Ruling R11: INFRA_ERROR > FIXTURE_INVALID > AGENT_FAIL > PENDING > PASS."""

from __future__ import annotations

from pytest_coldstart.audit.model import Findings, FlagResult


def classify(flags: list[FlagResult], findings: Findings) -> tuple[str, str | None]:
    if findings.infra_errors:
        return "FAIL", "INFRA_ERROR"
    if findings.fixture_errors:
        return "FAIL", "FIXTURE_INVALID"
    if any(flag.status == "FAIL" for flag in flags):
        return "FAIL", "AGENT_FAIL"
    if any(flag.status != "PASS" for flag in flags) or findings.pending_reasons:
        return "PENDING", None
    return "PASS", None


def exit_code(overall: str) -> int:
    return {"PASS": 0, "FAIL": 1, "PENDING": 2}[overall]
