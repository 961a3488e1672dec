"""The audit's working data: events from the external streams, agent calls from the
trajectory, per-flag results; run-level findings are ``validate.findings.Findings`` (one
model for validate and the audit, re-exported here)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pytest_coldstart.run.vocabulary import Status
from pytest_coldstart.validate.findings import Findings

if TYPE_CHECKING:
    from pytest_coldstart.audit.audit_report import ReviewResolution

#: Streams, as used in refs and in the ordering tie-break (seq only within one stream).
TESTMOD, LOGGER, TRAJECTORY = "testmod", "logger", "trajectory"


@dataclass(slots=True)
class Event:
    """One projected record of an external stream (test mod or agent logger)."""

    stream: str
    name: str
    line: int
    offset: int
    ref: str
    at: datetime | None = None
    tick: int | None = None
    seq: int | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    span: float = 0.0  # seconds the time's precision leaves open (clock.resolution)
    zoneless: bool = False  # its time names no zone (clock.zoneless)

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)


@dataclass(slots=True)
class Call:
    """A trajectory call reduced to what the flags need (the full record stays on disk)."""

    call_id: str
    tool: str
    line: int
    offset: int
    seq: int | None
    at: datetime | None
    tick: int | None
    phase: str | None
    actor: str | None
    instance: str | None
    dimension: str | None
    agent: bool
    at_text: str | None = None
    span: float = 0.0  # seconds the time's precision leaves open (clock.resolution)
    zoneless: bool = False  # its time names no zone (clock.zoneless)
    arm: bool = False  # arguments show the logger being written, built or started
    names_logger: bool = False
    names_testmod: bool = False
    names_oracle: bool = False  # the standard answer within the agent's reach
    status: str | None = None  # of its result
    content: str | None = None  # "items" / "uuid" / None: what its result returned
    content_uuid: str | None = None
    doubt: str | None = None  # why it is no plausible read of the logger it names (read_plausibility)

    @property
    def stream(self) -> str:
        return TRAJECTORY

    @property
    def ref(self) -> str:
        return f"trajectory:{self.call_id}"


@dataclass
class FlagResult:
    flag: str
    status: Status = Status.FAIL
    summary: str = ""
    evidence: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    required_review: list[dict[str, str]] = field(default_factory=list)
    review_resolutions: list[ReviewResolution] = field(default_factory=list)
    mechanical_status: Status | None = None
    mechanical_summary: str | None = None

    def fail(self, summary: str, missing: list[str] | None = None, evidence: list[str] | None = None) -> FlagResult:
        self.status, self.summary = Status.FAIL, summary
        self.missing = list(missing or [])
        if evidence:
            self.evidence = list(evidence)
        return self

    def pending(self, summary: str, missing: list[str] | None = None) -> FlagResult:
        self.status, self.summary = Status.PENDING, summary
        self.missing = list(missing or [])
        return self

    def ok(self, summary: str, evidence: list[str]) -> FlagResult:
        self.status, self.summary, self.evidence = Status.PASS, summary, list(evidence)
        return self

    def require(self, review_id: str, question: str) -> None:
        if all(item["id"] != review_id for item in self.required_review):
            self.required_review.append({"id": review_id, "question": question})


__all__ = ["LOGGER", "TESTMOD", "TRAJECTORY", "Call", "Event", "Findings", "FlagResult"]
