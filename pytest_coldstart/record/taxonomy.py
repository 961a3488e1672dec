"""The versioned record taxonomy: every trajectory record type and its documented fields.

The record type enum is ``vocabulary.RECORD_TYPES`` (part of the schema: a new type or a new enum
value is a version event; a new optional field is additive). The protocol's records (header,
call, result, phase, mark) are defined by ``schemas/trajectory-record.schema.json``; the seed-004
families below (session, state, action, decision, error, note) are defined HERE, and their
``schemas/records/<type>.schema.json`` files are generated from these definitions
(``python -m pytest_coldstart.record.taxonomy --write``; a test keeps them equal).

Every documented field of a family is always present in a written record: an unknown value is
``null``, optionally explained in ``missing_reason: {field: reason}``, never an empty string.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_coldstart.run.vocabulary import ACTION_EVENTS, ACTION_OUTCOMES, ERROR_KINDS, SESSION_EVENTS, STATE_EVENTS

#: Sub-enums of the families defined here (versioned with the taxonomy).
DECISION_EVENTS = ("decision", "reflection", "plan_update")
FAULTS = ("agent", "tool", "environment", "harness", "logger")
RECOVERY_ACTIONS = ("retry", "poll_timeout", "manual_action_required", "desync_suspected", "fallback", "abort")
STATE_FORMATS = ("json", "markdown", "text")
#: Action events that close an action and so must carry an outcome.
CLOSING_ACTION_EVENTS = ("rejected", "resolved", "timeout")

SCHEMA_BASE = "https://pytest-coldstart.dev/schemas/records/"
SCHEMA_DIR = Path(__file__).resolve().parents[1] / "run" / "schemas" / "records"


@dataclass(frozen=True)
class Field:
    name: str
    #: JSON types: "string", "integer", "number", "boolean", "object", "array", "any", "sha256".
    types: tuple[str, ...]
    doc: str
    required: bool = False  # must be non-null
    enum: tuple[str, ...] | None = None
    default: Any = None  # value written when the caller omits the field
    payload: bool = False  # may move to the payload store (<name>: null + <name>_payload)
    bounds: tuple[float, float] | None = None


@dataclass(frozen=True)
class Family:
    name: str
    doc: str
    fields: tuple[Field, ...]
    events: tuple[str, ...] = field(default=())

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)

    @property
    def payload_keys(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields if f.payload)


def _s(name: str, doc: str, **kw: Any) -> Field:
    return Field(name, ("string",), doc, **kw)


_HASH = ("sha256",)

FAMILIES: dict[str, Family] = {
    "session": Family(
        "session",
        "Harness/logger session lifecycle (seed 004: session_start, session_end, logger_flush, logger_error).",
        (
            _s("event", "start | end | flush | logger_error", required=True, enum=SESSION_EVENTS),
            _s("session_id", "the harness's own session id"),
            _s("source", "where the records come from: 'live' or 'import:<format>'"),
            _s("model", "model of this session when it differs from run.json (e.g. a sub-agent)"),
            _s("reason", "why the session ended, or the logger error message"),
            Field("records", ("integer",), "flush: records written so far", bounds=(0, float("inf"))),
        ),
        SESSION_EVENTS,
    ),
    "state": Family(
        "state",
        "Agent-visible state: what exactly the agent knew before each action "
        "(seed 004: state_observed, state_poll [observed + returned_to_agent false], state_changed, state_repeated, state_unavailable).",
        (
            _s("event", "observed | changed | repeated | unavailable", required=True, enum=STATE_EVENTS),
            _s("state_type", "kind of state (screen, inventory, combat, map, ...)"),
            _s("mode", "environment / game mode"),
            Field(
                "where", ("object",), "location in the environment (floor, act, room, dimension, instance, tick ...)"
            ),
            Field(
                "state", ("any",), "the full agent-visible state (JSON, or text when the agent saw text)", payload=True
            ),
            _s("format", "json | markdown | text: what the agent saw", enum=STATE_FORMATS),
            Field(
                "state_hash",
                _HASH,
                "sha256 of the normalized state (canonical JSON, or UTF-8 text); computed by the recorder",
            ),
            Field("previous_hash", _HASH, "state_hash of the previous observation"),
            Field(
                "diff",
                ("object",),
                "when changed: {changed, added, removed} JSON-pointer lists (capped, with 'truncated')",
            ),
            Field(
                "returned_to_agent", ("boolean",), "true when returned to the agent, false when only polled internally"
            ),
            Field(
                "response_hash", _HASH, "sha256 of the exact markdown/text response when the agent saw text, not JSON"
            ),
            _s("reason", "unavailable: why no state could be read"),
        ),
        STATE_EVENTS,
    ),
    "action": Family(
        "action",
        "A state-mutating action and its normalized outcome (seed 004: action_requested/accepted/rejected/resolved/timeout). "
        "All events of one action share action_id; the envelope call_id links the tool call.",
        (
            _s("event", "requested | accepted | rejected | resolved | timeout", required=True, enum=ACTION_EVENTS),
            _s("action_id", "groups the events of one action", required=True),
            _s("tool", "the tool that carries the action"),
            Field("arguments", ("any",), "tool arguments after redaction", payload=True),
            Field("pre_state_hash", _HASH, "state_hash observed before the action"),
            Field("post_state_hash", _HASH, "state_hash observed after the action, if polled"),
            Field("request", ("any",), "raw request body (e.g. HTTP) after redaction", payload=True),
            Field("response", ("any",), "raw response/result payload after redaction", payload=True),
            Field("http_status", ("integer",), "HTTP status when the action went over HTTP", bounds=(100, 599)),
            Field("elapsed_ms", ("number",), "time from request to this event", bounds=(0, float("inf"))),
            Field("changed_state", ("boolean",), "whether the action changed the state"),
            _s("outcome", "normalized outcome; required on rejected/resolved/timeout", enum=ACTION_OUTCOMES),
            _s("error", "error message when the action failed"),
            _s("recovery", "recovery suggestion when available"),
        ),
        ACTION_EVENTS,
    ),
    "decision": Family(
        "decision",
        "An agent-authored decision annotation (seed 004: agent_decision, agent_reflection, agent_plan_update). "
        "A short rationale or policy note is enough; hidden chain-of-thought is never required.",
        (
            _s("event", "decision | reflection | plan_update", required=True, enum=DECISION_EVENTS, default="decision"),
            _s("summary", "concise summary", required=True),
            _s("intended_tool", "the next action/tool the agent intends to use"),
            Field("target", ("string", "object"), "target entity/card/node/file when applicable"),
            Field(
                "alternatives", ("array",), "alternatives considered (strings or objects)", required=True, default=[]
            ),
            Field("confidence", ("number",), "confidence in [0, 1] if the agent supplies one", bounds=(0, 1)),
            Field("score", ("number",), "any agent-supplied score (its scale is the agent's)"),
            Field(
                "tags",
                ("array",),
                "tags such as combat, map, reward, risk, lethal, defensive",
                required=True,
                default=[],
            ),
            Field("related_state_hash", _HASH, "state_hash of the state the decision was made on"),
            _s("related_call_id", "the tool call the decision concerns"),
            _s("related_action_id", "the action the decision led to"),
            _s("rationale", "optional free-form rationale (omit freely)"),
        ),
        DECISION_EVENTS,
    ),
    "error": Family(
        "error",
        "An exception, tool/HTTP failure, invalid action, timeout, or a recovery step (seed 004: errors and recovery: "
        "retry, poll_timeout, manual_action_required, desync_suspected). The envelope call_id links the failing call.",
        (
            _s(
                "kind",
                "exception | tool_error | http_error | invalid_action | timeout | recovery | other",
                required=True,
                enum=ERROR_KINDS,
            ),
            _s("message", "what went wrong (or what the recovery did)", required=True),
            _s("fault", "who is at fault: agent | tool | environment | harness | logger (null: unknown)", enum=FAULTS),
            _s("action_id", "the action concerned"),
            Field("recoverable", ("boolean",), "whether the run can continue"),
            _s("recovery", "what was done or is suggested"),
            _s(
                "recovery_action",
                "retry | poll_timeout | manual_action_required | desync_suspected | fallback | abort",
                enum=RECOVERY_ACTIONS,
            ),
            Field("attempt", ("integer",), "retry number, 1 for the first retry", bounds=(0, float("inf"))),
            _s("exception", "exception type name"),
            Field("detail", ("any",), "traceback or raw error payload after redaction", payload=True),
        ),
        (),
    ),
    "note": Family(
        "note",
        "A free-form operator or agent note.",
        (_s("text", "the note", required=True),),
        (),
    ),
}

#: Payload-capable keys of the protocol records (their schema is trajectory-record.schema.json).
PROTOCOL_PAYLOAD_KEYS: dict[str, tuple[str, ...]] = {"call": ("arguments",), "result": ("result",), "mark": ("data",)}

#: Optional fields any family may carry.
COMMON_FIELDS = (
    Field("actor", ("string",), "operator | test | agent | restore | harness | reviewer"),
    Field("phase", ("string",), "prepare | restore | agent | audit"),
    Field("missing_reason", ("object",), "{field: reason} for documented fields whose value is null"),
    Field("redacted", ("array",), "JSON pointers of the values the recorder redacted in this record"),
    Field("data", ("any",), "free structured extension data (redacted like everything else)"),
)


def payload_keys(kind: str) -> tuple[str, ...]:
    family = FAMILIES.get(kind)
    return family.payload_keys if family else PROTOCOL_PAYLOAD_KEYS.get(kind, ())


# -- schema generation -------------------------------------------------------------------------

_JSON_TYPES = {
    "string": "string",
    "integer": "integer",
    "number": "number",
    "boolean": "boolean",
    "object": "object",
    "array": "array",
}


def _field_schema(f: Field) -> dict[str, Any]:
    if f.types == ("any",):
        out: dict[str, Any] = {}
    elif f.types == ("sha256",):
        out = {"anyOf": [{"$ref": "../common.schema.json#/$defs/sha256"}]}
    else:
        out = {"type": [_JSON_TYPES[t] for t in f.types]}
    if f.enum:
        out["enum"] = list(f.enum)
    if f.bounds:
        low, high = f.bounds
        out["minimum"] = low
        if high != float("inf"):
            out["maximum"] = high
    if f.name in ("tags",):
        out["items"] = {"type": "string"}
    if f.name == "alternatives":
        out["items"] = {"type": ["string", "object"]}
    if f.name in ("summary", "message", "text", "action_id") and f.required:
        out["pattern"] = "\\S"
    if not f.required and f.types != ("any",):
        if "anyOf" in out:
            out["anyOf"].append({"type": "null"})
        else:
            out["type"] = out["type"] + ["null"]
            if "enum" in out:
                out["enum"] = out["enum"] + [None]
    out["description"] = f.doc
    return out


def record_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one family's own fields (the envelope is separate)."""
    family = FAMILIES[kind]
    properties: dict[str, Any] = {"record": {"const": kind}}
    for f in family.fields:
        properties[f.name] = _field_schema(f)
        if f.payload:
            properties[f"{f.name}_payload"] = {
                "$ref": "../common.schema.json#/$defs/payloadRef",
                "description": f"{f.name} moved to the payload store ({f.name} is then null)",
            }
    properties["actor"] = {"anyOf": [{"$ref": "../common.schema.json#/$defs/actor"}, {"type": "null"}]}
    properties["phase"] = {"anyOf": [{"$ref": "../common.schema.json#/$defs/phase"}, {"type": "null"}]}
    properties["missing_reason"] = {
        "type": "object",
        "additionalProperties": {"type": "string", "pattern": "\\S"},
        "description": "{field: reason} for documented fields whose value is null",
    }
    properties["redacted"] = {
        "type": "array",
        "items": {"type": "string"},
        "description": "JSON pointers of redacted values",
    }
    schema: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{SCHEMA_BASE}{kind}.schema.json",
        "title": f"{kind} record (trajectory schemaVersion 2)",
        "description": family.doc
        + " Every documented field is present (null when unknown). Extra fields are additive data.",
        "type": "object",
        "required": ["record"] + [f.name for f in family.fields],
        "properties": properties,
    }
    if kind == "action":
        schema["if"] = {"properties": {"event": {"enum": list(CLOSING_ACTION_EVENTS)}}}
        schema["then"] = {"properties": {"outcome": {"enum": list(ACTION_OUTCOMES)}}}
    return schema


def schema_text(kind: str) -> str:
    return json.dumps(record_schema(kind), indent=2, ensure_ascii=False) + "\n"


def write_schemas(directory: Path = SCHEMA_DIR) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for kind in FAMILIES:
        target = directory / f"{kind}.schema.json"
        target.write_text(schema_text(kind), encoding="utf-8")
        written.append(target)
    return written


if __name__ == "__main__":  # pragma: no cover - maintenance entry point
    if sys.argv[1:] == ["--write"]:
        for path in write_schemas():
            print(path)
    else:
        print("usage: python -m pytest_coldstart.record.taxonomy --write", file=sys.stderr)
        raise SystemExit(64)
