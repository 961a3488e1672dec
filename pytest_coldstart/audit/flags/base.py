"""What every audit flag shares: the ``Flag`` Protocol, the ``Context`` a flag reads, and the
helpers that fail a flag for missing evidence or add a required review.

A flag computes its *mechanical* outcome and the reviews it requires; ``audit.reviews`` then
decides the final status from reviews.jsonl. The questions, names and review ids live in
``run.vocabulary`` (defined once); each flag module in this package defines one ``Flag``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, final

from pytest_coldstart.audit.evidence.load import Evidence
from pytest_coldstart.audit.model import Call, Event, Findings, FlagResult
from pytest_coldstart.audit.ordering import Ordered
from pytest_coldstart.audit.refs import RefIndex
from pytest_coldstart.run.vocabulary import FLAG_REVIEWS, QUESTIONS, FlagName, ReviewId

__all__ = ["QUESTIONS", "Context", "Flag", "FlagDefinition", "logger_missing", "require", "testmod_missing"]


@dataclass
class Context:
    """What a flag reads: the loaded evidence, the agent's calls, the ref index; where it
    reports: run-level findings and the pairs of records it could not order."""

    evidence: Evidence
    calls: list[Call]
    index: RefIndex
    findings: Findings
    #: (call id, why it does not count) of agent calls outside the agent phase or on an
    #: abandoned branch that read the oracle (``Trajectory.oracle_reads_elsewhere``)
    oracle_reads_elsewhere: list[tuple[str, str]] = field(default_factory=list)
    unordered: list[list[str]] = field(default_factory=list)
    _unordered_seen: set[tuple[str, str]] = field(default_factory=set, repr=False)

    def cannot_order(self, a: Ordered, b: Ordered) -> None:
        # a set beside the list: a run with 10,000 captures reports 10,000 pairs, and a scan of
        # the list per pair made that quadratic
        if (a.ref, b.ref) not in self._unordered_seen:
            self._unordered_seen.add((a.ref, b.ref))
            self.unordered.append([a.ref, b.ref])

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


class Flag(Protocol):
    """One audit flag: its name, the reviews it may require, and how it is decided."""

    @property
    def name(self) -> FlagName: ...

    @property
    def review_ids(self) -> tuple[ReviewId, ...]: ...

    def evaluate(self, ctx: Context) -> FlagResult: ...


@final
@dataclass(frozen=True, slots=True)
class FlagDefinition:
    """A ``Flag`` made of a name and its decision function (``review_ids`` from the vocabulary)."""

    name: FlagName
    decide: Callable[[Context], FlagResult]

    @property
    def review_ids(self) -> tuple[ReviewId, ...]:
        return FLAG_REVIEWS[self.name]

    def evaluate(self, ctx: Context) -> FlagResult:
        result = self.decide(ctx)
        if result.flag != self.name:
            raise ValueError(f"flag {self.name} returned the result of {result.flag}")
        return result


def require(flag: FlagResult, review_id: ReviewId, detail: str | None = None) -> None:
    """Ask for a required review of ``flag`` (only one of its own review ids)."""
    if review_id.flag != flag.flag:
        raise ValueError(f"review {review_id} does not belong to flag {flag.flag}")
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
