"""Explicit translators from version 1 (the reference implementation's files) to version 2.

Each function takes a parsed v1 document or record and returns a new object in the current
in-memory shape; nothing is reinterpreted in place. Unknown v1 keys are kept (they are data).
Documents (run.json, evidence.json, visibility.json: one each) are copied deeply. Records and
review lines, translated one by one on the audit's single read of a file that may hold
millions of them, are not: the new record's values are the parsed line's own, and callers
hand over a line they parsed for the translation and no longer change.
"""

from __future__ import annotations

import copy
from typing import Any

from pytest_coldstart.run.versioning import CURRENT

_RUN_DEFAULTS: dict[str, Any] = {
    "experiment_id": None,
    "created_at_explicit": False,
    "tool": {"name": "mc-agent run_trace.py", "version": None, "commit": None},
    "environment": None,
    "clock": None,
    "logging": None,
    "artifacts": [],
    "imports": [],
    "notes": [],
    "status": "open",
    "ended_at": None,
    "duration_ms": None,
    "seal": None,
}


def manifest_to_current(document: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(document)
    out.pop("schema", None)
    out = {"schemaVersion": CURRENT, "translated_from": 1, **out}
    for key, default in _RUN_DEFAULTS.items():
        out.setdefault(key, copy.deepcopy(default))
    out.setdefault("trajectory", {"path": "trajectory.jsonl"})
    out.setdefault("visibility", {"path": "visibility.json"})
    return out


def evidence_to_current(document: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"schemaVersion": CURRENT, "translated_from": 1}
    for key, value in document.items():
        if key == "schema":
            continue
        out[key] = copy.deepcopy(value)
    return out


def visibility_to_current(document: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(document)
    out.pop("schema", None)
    return {"schemaVersion": CURRENT, "translated_from": 1, **out}


def trajectory_record_to_current(record: dict[str, Any]) -> dict[str, Any]:
    """A v1 trajectory line in the v2 envelope. ``prev``/``monotonic_ms`` did not exist in v1."""
    out: dict[str, Any] = {
        "schemaVersion": CURRENT,
        "translated_from": 1,
        "run_id": record.get("run_id"),
        "seq": record.get("seq"),
        "at": record.get("at", record.get("created_at") if record.get("record") == "header" else None),
        "monotonic_ms": None,
        "record": record.get("record"),
        "call_id": record.get("call_id"),
        "parent_id": record.get("parent_id"),
        "prev": None,
    }
    for key, value in record.items():
        if key != "schema" and key not in out:
            out[key] = value
    return out


def review_to_current(entry: dict[str, Any]) -> dict[str, Any]:
    out = {"schemaVersion": CURRENT, "translated_from": 1}
    out.update((k, v) for k, v in entry.items() if k != "schema")
    return out
