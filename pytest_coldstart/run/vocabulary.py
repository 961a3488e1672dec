"""The protocol's closed vocabularies (part of the schema: extending one is a version event)."""

from __future__ import annotations

PHASES = ("prepare", "restore", "agent", "audit")
ACTORS = ("operator", "test", "agent", "restore", "harness", "reviewer")
RESULT_STATUSES = ("ok", "error", "open")
REVIEW_STATUSES = ("resolved", "rejected", "pending")

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

#: The five audit flags, in protocol order.
FLAGS = (
    "machine_operated",
    "logger_armed_before_activation",
    "transient_outputs_captured",
    "agent_read_log",
    "answer_correct",
)

#: Required-review ids of this protocol revision.
REVIEW_IDS = (
    "machine_operated.causality",
    "machine_operated.ordering",
    "logger_armed_before_activation.running",
    "logger_armed_before_activation.ordering",
    "transient_outputs_captured.window",
    "transient_outputs_captured.inventory",
    "agent_read_log.linkage",
    "answer_correct.oracle_independence",
)

FAILURE_CLASSES = ("INFRA_ERROR", "FIXTURE_INVALID", "AGENT_FAIL")
OVERALL = ("PASS", "FAIL", "PENDING")

#: Marks written by live capture (``coldstart hook``): a human turn reaching the agent, and
#: the reconciliation of a later session import with what the hooks recorded.
HUMAN_PROMPT_MARK = "human.prompt"
LIVE_CROSSCHECK_MARK = "live.crosscheck"
