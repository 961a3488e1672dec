"""Building, checking and protecting trajectory records of the taxonomy (``taxonomy.py``).

``finish(fields, redactor, store)`` is what the recorder applies to every record before it is
appended: ``normalize`` (documented fields present, types and enums checked, unknown values
null), then ``protect`` (recursive redaction of every non-envelope field, the state hash,
large values to the payload store, ``redacted`` pointers). The builders (``decision``,
``state`` ...) return field dicts for ``Recorder.append``; ``StateTracker`` links consecutive
state observations (previous hash and diff).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from pytest_coldstart.record.redaction import Redactor
from pytest_coldstart.record.taxonomy import CLOSING_ACTION_EVENTS, FAMILIES, Field, payload_keys
from pytest_coldstart.run.errors import UsageError
from pytest_coldstart.run.hashing import is_sha256, sha256_bytes
from pytest_coldstart.run.numbers import finite
from pytest_coldstart.run.payloads import PayloadStore, encode

#: Envelope keys: never redacted (ids link records; times and hashes are ours).
ENVELOPE_KEYS = ("record", "run_id", "call_id", "parent_id", "at")
DIFF_LIMIT = 50

_CHECKS: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: finite(v) is not None,
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "sha256": is_sha256,
    "any": lambda v: True,
}


def state_hash(value: Any) -> str:
    """The normalized hash of a state: sha256 of its canonical JSON (or of its UTF-8 text)."""
    return sha256_bytes(encode(value)[0])


def _check(kind: str | None, f: Field, value: Any) -> None:
    if value is None:
        if f.required:
            raise UsageError(f"a {kind} record needs a non-null {f.name!r} ({f.doc})")
        return
    if not any(_CHECKS[t](value) for t in f.types):
        raise UsageError(f"{kind}.{f.name} must be {' or '.join(f.types)} or null, got {type(value).__name__}")
    if f.enum and value not in f.enum:
        raise UsageError(f"{kind}.{f.name} {value!r} is not one of {', '.join(f.enum)}")
    if f.bounds and not (f.bounds[0] <= value <= f.bounds[1]):
        raise UsageError(f"{kind}.{f.name} {value!r} is outside [{f.bounds[0]}, {f.bounds[1]}]")
    if f.required and isinstance(value, str) and not value.strip():
        raise UsageError(f"{kind}.{f.name} must not be blank")
    if f.name == "tags" and not all(isinstance(t, str) for t in value):
        raise UsageError(f"{kind}.tags must be a list of strings")


def normalize(fields: dict[str, Any]) -> dict[str, Any]:
    """Every documented field present (defaults / null), checked; protocol records pass through."""
    kind = fields.get("record")
    family = FAMILIES.get(kind) if isinstance(kind, str) else None
    if family is None or not isinstance(kind, str):
        return dict(fields)
    if "redacted" in fields:
        raise UsageError("'redacted' is assigned by the recorder and cannot be supplied")
    out: dict[str, Any] = {"record": kind}
    for key in ("call_id", "parent_id", "at"):
        if key in fields:
            out[key] = fields[key]
    for f in family.fields:
        value = fields[f.name] if f.name in fields else copy.deepcopy(f.default)
        _check(kind, f, value)
        out[f.name] = value
    if kind == "action" and out["event"] in CLOSING_ACTION_EVENTS and out["outcome"] is None:
        raise UsageError(f"an action {out['event']!r} event needs an outcome")
    reasons = fields.get("missing_reason")
    if reasons is not None:
        documented = {f.name for f in family.fields} | {"call_id", "parent_id"}
        if not isinstance(reasons, dict) or not all(isinstance(v, str) and v.strip() for v in reasons.values()):
            raise UsageError(f"{kind}.missing_reason must be an object of non-blank strings")
        for name in reasons:
            if name not in documented:
                raise UsageError(f"{kind}.missing_reason names {name!r}, which is not a field of a {kind} record")
            if out.get(name, fields.get(name)) is not None:
                raise UsageError(f"{kind}.missing_reason explains {name!r}, but {name!r} has a value")
    for key, value in fields.items():
        if key not in out:
            out[key] = value
    return out


def protect(fields: dict[str, Any], redactor: Redactor, store: PayloadStore) -> dict[str, Any]:
    """Redact every non-envelope field, hash the state, move large values to the store."""
    kind = fields.get("record")
    out, paths = redactor.apply_record(fields, skip=ENVELOPE_KEYS)
    if kind == "state" and out.get("state") is not None:
        computed = state_hash(out["state"])
        if fields.get("state_hash") not in (None, computed):
            raise UsageError(
                "state.state_hash does not match the recorded state (omit it: the recorder computes it after redaction)"
            )
        out["state_hash"] = computed
    for key in payload_keys(str(kind)):
        if out.get(key) is None:
            continue
        _inline, ref = store.shrink(out[key])
        if ref is not None:
            out[key] = None
            out[f"{key}_payload"] = ref
    if paths:
        out["redacted"] = paths
    return out


# -- builders (Python API: ``recorder.append(records.decision(...))``) ---------------------------


def _fields(kind: str, values: dict[str, Any]) -> dict[str, Any]:
    return {"record": kind, **{k: v for k, v in values.items() if v is not None}}


def decision(summary: str, **fields: Any) -> dict[str, Any]:
    return _fields("decision", {"summary": summary, "actor": "agent", **fields})


def note(text: str, **fields: Any) -> dict[str, Any]:
    return _fields("note", {"text": text, **fields})


def session(event: str, **fields: Any) -> dict[str, Any]:
    return _fields("session", {"event": event, **fields})


def state(event: str, value: Any = None, **fields: Any) -> dict[str, Any]:
    return _fields("state", {"event": event, "state": value, **fields})


def action(event: str, action_id: str, **fields: Any) -> dict[str, Any]:
    return _fields("action", {"event": event, "action_id": action_id, **fields})


def error(kind: str, message: str, **fields: Any) -> dict[str, Any]:
    return _fields("error", {"kind": kind, "message": message, **fields})


# -- state linkage --------------------------------------------------------------------------------


def diff(old: Any, new: Any, limit: int = DIFF_LIMIT) -> dict[str, Any]:
    """JSON pointers of changed, added and removed leaves between two states (capped at ``limit``)."""
    out: dict[str, Any] = {"changed": [], "added": [], "removed": [], "truncated": False}

    def add(bucket: str, pointer: str) -> None:
        if sum(len(out[k]) for k in ("changed", "added", "removed")) >= limit:
            out["truncated"] = True
        else:
            out[bucket].append(pointer or "/")

    def walk(a: Any, b: Any, pointer: str) -> None:
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b), key=str):
                child = f"{pointer}/{str(key).replace('~', '~0').replace('/', '~1')}"
                if key not in b:
                    add("removed", child)
                elif key not in a:
                    add("added", child)
                else:
                    walk(a[key], b[key], child)
        elif isinstance(a, list) and isinstance(b, list):
            for i in range(max(len(a), len(b))):
                if i >= len(b):
                    add("removed", f"{pointer}/{i}")
                elif i >= len(a):
                    add("added", f"{pointer}/{i}")
                else:
                    walk(a[i], b[i], f"{pointer}/{i}")
        elif a != b or type(a) is not type(b):
            add("changed", pointer)

    walk(old, new, "")
    return out


class StateTracker:
    """Keeps the last observed state so each new observation carries previous_hash, the event
    (observed / changed / repeated) and a diff. One tracker per observed stream."""

    def __init__(self) -> None:
        self.last: Any = None
        self.last_hash: str | None = None

    def observe(self, value: Any, *, redactor: Redactor | None = None, **fields: Any) -> dict[str, Any]:
        """State record fields for ``value``. Pass the run's redactor so the hashes match the
        recorded (redacted) state."""
        shown = redactor.apply(value) if redactor is not None else value
        current = state_hash(shown)
        if self.last_hash is None:
            event, changes = "observed", None
        elif current == self.last_hash:
            event, changes = "repeated", None
        else:
            event, changes = "changed", diff(self.last, shown)
        record = state(fields.pop("event", event), value, previous_hash=self.last_hash, diff=changes, **fields)
        if self.last_hash is None:
            record["missing_reason"] = {"previous_hash": "first observation of this stream"}
        self.last, self.last_hash = shown, current
        return record
