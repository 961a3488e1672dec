"""The audit's working data: events from the external streams, agent calls from the
trajectory, per-flag results and the run-level findings."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pytest_coldstart.run.vocabulary import Status

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
    arm: bool = False  # arguments show the logger being written, built or started
    names_logger: bool = False
    names_testmod: bool = False
    status: str | None = None  # of its result
    content: str | None = None  # "items" / "uuid" / None: what its result returned
    content_uuid: str | None = None

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


class Findings:
    """Run-level findings, de-duplicated, in the order found (the report is deterministic).

    ``covered`` holds what the audit's own infra errors are about (``integrity`` keys), so a
    validate finding about the same thing is not reported a second time."""

    def __init__(self) -> None:
        self.infra_errors: list[str] = []
        self.fixture_errors: list[str] = []
        self.pending_reasons: list[str] = []
        self.review_problems: list[str] = []
        self.information: list[str] = []
        self.covered: set[tuple[Any, ...]] = set()
        #: review id -> the infra errors about its unusable reviews-file lines / the review
        #: problems that keep its resolution from counting (the report carries both per review)
        self.malformed_reviews: dict[str, list[str]] = {}
        self.review_issues: dict[str, list[str]] = {}

    @staticmethod
    def _add(target: list[str], text: str) -> None:
        if text not in target:
            target.append(text)

    def infra(self, text: str, *about: tuple[Any, ...], review: str | None = None) -> None:
        """An infra error; ``review``: the review id an unusable reviews-file line names."""
        self._add(self.infra_errors, text)
        self.covered.update(about)
        if review is not None:
            self._add(self.malformed_reviews.setdefault(review, []), text)

    def fixture(self, text: str) -> None:
        self._add(self.fixture_errors, text)

    def pending(self, text: str) -> None:
        self._add(self.pending_reasons, text)

    def review(self, text: str, review: str | None = None) -> None:
        """A review problem; ``review``: the required review it keeps from counting."""
        self._add(self.review_problems, text)
        if review is not None:
            self._add(self.review_issues.setdefault(review, []), text)

    def info(self, text: str) -> None:
        self._add(self.information, text)
