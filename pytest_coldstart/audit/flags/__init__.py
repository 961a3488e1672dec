"""The five flags, in protocol order. Each computes its mechanical outcome and the required
reviews it needs; ``reviews.apply_reviews`` then decides the final status."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pytest_coldstart.audit.evidence.load import Evidence
from pytest_coldstart.audit.model import LOGGER, TESTMOD, Call, Event, Findings, FlagResult
from pytest_coldstart.audit.refs import RefIndex

QUESTIONS = {
    "machine_operated.causality": "confirm the traced call is what the test mod processed, not a coincidental call in the same window",
    "machine_operated.ordering": "no shared clock orders the agent call and the first input_processed event (same time and tick, different streams): confirm the call came first",
    "logger_armed_before_activation.running": "confirm from game-side load/restart evidence that the armed logger was actually running, not only written",
    "logger_armed_before_activation.ordering": "logger_armed (or the call that armed it) and the first input_processed event cannot be ordered mechanically (different streams share a time and tick, or one lacks both): confirm the logger was armed first",
    "transient_outputs_captured.window": "confirm each capture happened while its cart existed (after ejection, before removal)",
    "transient_outputs_captured.inventory": "a capture carries no items list: confirm the captured inventory",
    "agent_read_log.linkage": "confirm the agent read its own logger output",
    "answer_correct.oracle_independence": "confirm the oracle's evidence chain (fixture plus test mod) is independent of the agent answer",
}


@dataclass
class Context:
    evidence: Evidence
    calls: list[Call]
    index: RefIndex
    findings: Findings
    unordered: list[list[str]] = field(default_factory=list)

    def cannot_order(self, a: Any, b: Any) -> None:
        pair = [a.ref, b.ref]
        if pair not in self.unordered:
            self.unordered.append(pair)

    def events(self, stream: str, name: str) -> list[Event]:
        return [e for e in self.evidence.stream(stream) if e.name == name]

    @property
    def testmod_usable(self) -> bool:
        return "test_mod" in self.evidence.usable

    @property
    def logger_usable(self) -> bool:
        return "agent_logger" in self.evidence.usable

    def document(self, name: str) -> Any:
        return self.evidence.documents.get(name)


def require(flag: FlagResult, review_id: str, detail: str | None = None) -> None:
    question = QUESTIONS[review_id] + (f": {detail}" if detail else "")
    flag.require(review_id, question)


def testmod_missing(ctx: Context, flag: FlagResult, what: str) -> FlagResult | None:
    if ctx.testmod_usable:
        return None
    reason = (
        "no test-mod evidence is declared"
        if not ctx.evidence.declared("test_mod")
        else "the test-mod evidence is unusable (see infra_errors)"
    )
    return flag.fail(f"{reason}; {what} cannot be shown", [f"testmod:{what}"])


def logger_missing(ctx: Context, flag: FlagResult, what: str) -> FlagResult | None:
    if ctx.logger_usable:
        return None
    if not ctx.evidence.declared("agent_logger"):
        return flag.fail(
            f"no agent logger is declared, so {what} cannot be shown (the agent produced no usable logger output)",
            [f"logger:{what}"],
        )
    return flag.fail("the agent logger evidence is unusable (see infra_errors)", [f"logger:{what}"])


def compute_flags(ctx: Context) -> list[FlagResult]:
    from pytest_coldstart.audit.flags import agent_read_log as read_log
    from pytest_coldstart.audit.flags import answer_correct as answer
    from pytest_coldstart.audit.flags import logger_armed_before_activation as logger_armed
    from pytest_coldstart.audit.flags import machine_operated as machine
    from pytest_coldstart.audit.flags import transient_outputs_captured as capture

    flags = [
        machine.evaluate(ctx),
        logger_armed.evaluate(ctx),
        capture.evaluate(ctx),
        read_log.evaluate(ctx),
        answer.evaluate(ctx),
    ]
    for flag in flags:
        flag.mechanical_status = flag.status
        flag.mechanical_summary = flag.summary
    return flags


__all__ = ["LOGGER", "TESTMOD", "Context", "compute_flags", "require"]
