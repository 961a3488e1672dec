"""Projection of the external streams (test-mod events, the agent's logger).

Those files are not ours: the projection knows the field aliases of the protocol
(reference-notes §1), keeps only canonical fields (unknown keys are dropped), leaves unknown
event names to the caller (reported as information) and validates known fields strictly:
a wrong type is a problem naming the line, never a guess.
"""

from __future__ import annotations

from typing import Any

from pytest_coldstart.run.clock import parse_at, resolution, zoneless
from pytest_coldstart.run.numbers import finite
from pytest_coldstart.run.versioning import READABLE, V1_SCHEMAS

#: canonical field -> accepted keys, in order; the first key present wins (null = absent).
ALIASES: dict[str, tuple[str, ...]] = {
    "event": ("event", "type", "kind", "name"),
    "instance": ("instance", "instance_id", "lab", "instanceId"),
    "dimension": ("dimension", "dim", "dimension_id"),
    "tick": ("tick", "server_tick", "serverTick", "game_tick"),
    "seq": ("seq", "sequence", "sequence_in_tick", "index", "order"),
    "uuid": ("uuid", "cart_uuid", "entity_uuid", "entity_id"),
    "at": ("at", "time", "timestamp", "wall_time", "captured_at"),
    "actor": ("actor", "actor_uuid", "player", "player_uuid", "operator"),
    "run_id": ("run_id", "runId"),
    "items": ("items", "inventory"),
    "reason": ("reason",),
    "position": ("position", "pos"),
    "source_sha256": ("source_sha256",),
}

TESTMOD_EVENTS = (
    "instance_ready",
    "restore_started",
    "restore_finished",
    "input_attempt",
    "input_processed",
    "cart_ejected",
    "cart_removed",
    "end",
)
LOGGER_EVENTS = ("logger_armed", "cart_observed", "logger_flushed", "logger_error")

_STRING_FIELDS = ("event", "dimension", "uuid", "run_id", "source_sha256")


class ProjectionError(ValueError):
    """A known field has the wrong type or value."""


def first_present(record: dict[str, Any], canonical: str) -> tuple[str | None, Any]:
    for key in ALIASES[canonical]:
        if key in record and record[key] is not None:
            return key, record[key]
    return None, None


def check_version(record: dict[str, Any], kind: str) -> str | None:
    """A version marker on an external record must be one we read (fail closed)."""
    if "schemaVersion" in record:
        found = record["schemaVersion"]
        if isinstance(found, bool) or not isinstance(found, int) or found not in READABLE:
            return f"schemaVersion {found!r} is not a version this build reads ({', '.join(map(str, READABLE))})"
    schema = record.get("schema")
    if schema is not None and schema != V1_SCHEMAS[kind]:
        return f"schema {schema!r} is not {V1_SCHEMAS[kind]!r} (refusing to guess its meaning)"
    return None


#: fields whose spellings are synonyms that name the record's identity: two spellings with
#: different values leave it ambiguous which lab, dimension, run, cart or inventory is meant
#: (the event name, time and tick spellings may carry other meanings and are not compared)
UNAMBIGUOUS = ("instance", "dimension", "run_id", "uuid", "items")


def project(record: dict[str, Any]) -> dict[str, Any]:
    """Canonical fields of one record; raises ProjectionError on a wrong type or on two
    spellings of an identity field that disagree."""
    out: dict[str, Any] = {}
    for canonical in ALIASES:
        key, value = first_present(record, canonical)
        if key is None:
            continue
        out[canonical] = _checked(canonical, key, value)
        if canonical == "at":
            out["at_span"] = resolution(value)
            out["at_zoneless"] = zoneless(value)
        if canonical in UNAMBIGUOUS:
            _agree(record, canonical, key, value)
    return out


def _agree(record: dict[str, Any], canonical: str, key: str, value: Any) -> None:
    for other in ALIASES[canonical]:
        if other == key or record.get(other) is None:
            continue
        second = record[other]
        if canonical == "uuid":
            if isinstance(second, str) and second.strip().lower() != value.strip().lower():
                raise ProjectionError(f"{key} {value[:40]!r} and {other} {second[:40]!r} name different carts")
        elif canonical == "instance" and not isinstance(second, bool) and isinstance(second, (str, int)):
            if str(second) != str(value):
                raise ProjectionError(f"{key} {str(value)[:40]!r} and {other} {str(second)[:40]!r} disagree")
        elif canonical == "dimension" and isinstance(second, str) and isinstance(value, str):
            if dimension_id(second) != dimension_id(value):
                raise ProjectionError(f"{key} {value[:40]!r} and {other} {second[:40]!r} disagree")
        elif second != value:
            raise ProjectionError(f"{key} and {other} disagree ({str(value)[:40]!r} vs {str(second)[:40]!r})")


def dimension_id(value: str) -> str:
    """A dimension as a namespaced id: ``overworld`` and ``minecraft:overworld`` are one
    dimension (the default namespace, as item ids get it), so two honest writers agree."""
    return value if ":" in value else f"minecraft:{value}"


def _millis_hint(value: Any) -> str:
    # 1790404574569 is epoch milliseconds (year 58706 as seconds): say so rather than guess
    number = finite(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    return " (epoch milliseconds? times are epoch seconds or ISO-8601)" if number and abs(number) >= 1e11 else ""


def _checked(canonical: str, key: str, value: Any) -> Any:
    if canonical in _STRING_FIELDS:
        if not isinstance(value, str):
            raise ProjectionError(f"{key} must be a string, got {_type(value)}")
        return dimension_id(value) if canonical == "dimension" else value
    if canonical == "instance":
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise ProjectionError(f"{key} must be a string, got {_type(value)}")
        return str(value)
    if canonical in ("tick", "seq"):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ProjectionError(f"{key} must be an integer, got {_type(value)}")
        return value
    if canonical == "at":
        moment = parse_at(value)
        if moment is None:
            raise ProjectionError(f"{key} {str(value)[:40]!r} is not a timestamp{_millis_hint(value)}")
        return moment
    if canonical == "items":
        if not isinstance(value, (list, dict)):
            raise ProjectionError(f"{key} must be a list or a slot map, got {_type(value)}")
        return value
    return value


def _type(value: Any) -> str:
    from pytest_coldstart.run.jsonio import type_name

    return type_name(value)


#: the spellings of a record's scope (seed §5: instance/instance_id, dimension/dim)
SCOPE_SPELLINGS = {"instance": ("instance", "instance_id"), "dimension": ("dimension", "dim")}


def scope_values(record: dict[str, Any], which: str) -> list[str]:
    """The distinct values a record gives its instance or dimension (``which``), every spelling."""
    spellings = SCOPE_SPELLINGS[which]
    if record.keys().isdisjoint(spellings):
        return []  # most calls name no scope: no walk
    texts = (_text(record.get(s)) for s in spellings)
    if which == "dimension":
        texts = (None if text is None else dimension_id(text) for text in texts)
    return [value for value in dict.fromkeys(texts) if value is not None]


def call_scope(record: dict[str, Any], which: str) -> str | None:
    """A call's instance or dimension; two spellings that disagree name no single one (their
    values joined, which matches no experiment: fail closed)."""
    return " / ".join(scope_values(record, which)) or None


def _text(value: Any) -> str | None:
    if isinstance(value, bool) or value is None:
        return None
    return str(value) if isinstance(value, (str, int)) else None
