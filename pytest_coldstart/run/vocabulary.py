"""The protocol's closed vocabularies (part of the schema: extending one is a version event).

Each vocabulary is defined here once. The audit's verdict words are ``StrEnum`` classes (a
member is its string: it compares, formats and serialises as the bare value), and every module
that decides or reads a status uses them; the plain tuples beside them are for ``choices=``
and schema checks.
"""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    """The verdict of a flag and of the whole run (audit.json ``overall``)."""

    PASS = "PASS"
    FAIL = "FAIL"
    PENDING = "PENDING"


class FailureClass(StrEnum):
    """Why a run failed, by precedence INFRA_ERROR > FIXTURE_INVALID > AGENT_FAIL (DESIGN R11)."""

    INFRA_ERROR = "INFRA_ERROR"
    FIXTURE_INVALID = "FIXTURE_INVALID"
    AGENT_FAIL = "AGENT_FAIL"


class ReviewStatus(StrEnum):
    """The status of one reviews.jsonl entry (what a reviewer writes)."""

    RESOLVED = "resolved"
    REJECTED = "rejected"
    PENDING = "pending"


class ReviewState(StrEnum):
    """Where a required review stands in the report (audit.json ``required_reviews[].status``)."""

    RESOLVED = "resolved"  # a resolved entry whose every evidence ref resolves
    REJECTED = "rejected"
    UNRESOLVED = "unresolved"  # no entry yet, or a pending one
    UNRESOLVED_REFS = "unresolved-refs"  # resolved, but an evidence ref does not resolve


class FlagName(StrEnum):
    """The five audit flags, in protocol order."""

    MACHINE_OPERATED = "machine_operated"
    LOGGER_ARMED_BEFORE_ACTIVATION = "logger_armed_before_activation"
    TRANSIENT_OUTPUTS_CAPTURED = "transient_outputs_captured"
    AGENT_READ_LOG = "agent_read_log"
    ANSWER_CORRECT = "answer_correct"


class ReviewId(StrEnum):
    """Required-review ids of this protocol revision: ``<flag>.<aspect>``."""

    MACHINE_OPERATED_CAUSALITY = "machine_operated.causality"
    MACHINE_OPERATED_ORDERING = "machine_operated.ordering"
    LOGGER_ARMED_RUNNING = "logger_armed_before_activation.running"
    LOGGER_ARMED_ORDERING = "logger_armed_before_activation.ordering"
    TRANSIENT_OUTPUTS_WINDOW = "transient_outputs_captured.window"
    TRANSIENT_OUTPUTS_INVENTORY = "transient_outputs_captured.inventory"
    AGENT_READ_LOG_LINKAGE = "agent_read_log.linkage"
    ANSWER_CORRECT_ORACLE_INDEPENDENCE = "answer_correct.oracle_independence"

    @property
    def flag(self) -> FlagName:
        return FlagName(self.value.partition(".")[0])


#: The question a reviewer answers for each required review.
QUESTIONS: dict[ReviewId, str] = {
    ReviewId.MACHINE_OPERATED_CAUSALITY: "confirm the traced call is what the test mod processed, not a coincidental call in the same window",
    ReviewId.MACHINE_OPERATED_ORDERING: "no shared clock orders the agent call and the first input_processed event (same time and tick, different streams): confirm the call came first",
    ReviewId.LOGGER_ARMED_RUNNING: "confirm from game-side load/restart evidence that the armed logger was actually running, not only written",
    ReviewId.LOGGER_ARMED_ORDERING: "logger_armed (or the call that armed it) and the first input_processed event cannot be ordered mechanically (different streams share a time and tick, or one lacks both): confirm the logger was armed first",
    ReviewId.TRANSIENT_OUTPUTS_WINDOW: "confirm each capture happened while its cart existed (after ejection, before removal)",
    ReviewId.TRANSIENT_OUTPUTS_INVENTORY: "a capture carries no usable items list, or one the test mod's inventory of that cart contradicts: confirm the captured inventory",
    ReviewId.AGENT_READ_LOG_LINKAGE: "confirm the agent read its own logger output",
    ReviewId.ANSWER_CORRECT_ORACLE_INDEPENDENCE: "confirm the oracle's evidence chain (fixture plus test mod) is independent of the agent answer",
}

#: The review ids each flag may require, in protocol order.
FLAG_REVIEWS: dict[FlagName, tuple[ReviewId, ...]] = {
    name: tuple(review for review in ReviewId if review.flag is name) for name in FlagName
}

PHASES = ("prepare", "restore", "agent", "audit")
ACTORS = ("operator", "test", "agent", "restore", "harness", "reviewer")
RESULT_STATUSES = ("ok", "error", "open")
REVIEW_STATUSES: tuple[str, ...] = tuple(member.value for member in ReviewStatus)

#: Trajectory record types. The protocol's five plus seed 004's families that fit an agent run.
RECORD_TYPES = (
    "header",  # first line, written by init
    "call",  # one tool invocation
    "result",  # its return or error
    "phase",  # lifecycle transition
    "mark",  # annotating fact (preflight, artifact, review, fixture ...)
    "note",  # free-form operator note
    "decision",  # agent-authored decision annotation (structured)
    "error",  # exception / failure / timeout with recovery notes
    "session",  # harness session lifecycle: start / end / flush
    "state",  # agent-visible state observed / changed
    "action",  # a mutating action requested / resolved with a normalized outcome
)

SESSION_EVENTS = ("start", "end", "flush", "logger_error")
STATE_EVENTS = ("observed", "changed", "repeated", "unavailable")
ACTION_EVENTS = ("requested", "accepted", "rejected", "resolved", "timeout")
ACTION_OUTCOMES = ("success", "invalid", "rejected", "no-op", "timeout", "unknown")
ERROR_KINDS = ("exception", "tool_error", "http_error", "invalid_action", "timeout", "recovery", "other")

#: Evidence declaration names (evidence.json keys).
EVIDENCE_NAMES = ("agent_logger", "test_mod", "answer", "oracle", "fixture", "restore", "preflight", "review")

#: The five audit flags, in protocol order (their string values).
FLAGS: tuple[str, ...] = tuple(member.value for member in FlagName)

#: Required-review ids of this protocol revision.
REVIEW_IDS: tuple[str, ...] = tuple(member.value for member in ReviewId)

FAILURE_CLASSES: tuple[str, ...] = tuple(member.value for member in FailureClass)
OVERALL: tuple[str, ...] = tuple(member.value for member in Status)
#: Every state a required review can be in, in the report.
REVIEW_STATES: tuple[str, ...] = tuple(member.value for member in ReviewState)

#: Marks written by live capture (``coldstart hook``): a human turn reaching the agent, and
#: the reconciliation of a later session import with what the hooks recorded.
HUMAN_PROMPT_MARK = "human.prompt"
LIVE_CROSSCHECK_MARK = "live.crosscheck"
