"""A normalized logger view is the raw output spelled anew, never new facts."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_coldstart.audit.evidence import view_check
from pytest_coldstart.audit.model import LOGGER, Event
from pytest_coldstart.run.clock import parse_at

CART = "0b7e7c1a-5d2e-4c3b-9a41-6f0d2c8e1a01"
ITEMS = [{"slot": 7, "id": "minecraft:iron_ingot", "count": 5}]


def view(*records: dict) -> list[Event]:
    return [
        Event(LOGGER, r["event"], n, 0, f"logger:seq{n}", parse_at(r.get("at")), r.get("tick"), None, r)
        for n, r in enumerate(records, 1)
    ]


def contradictions(records: list[Event], source: Path) -> list[str] | None:
    """The view records the raw output does not hold (the raw side is checked below)."""
    check = view_check.contradictions(records, source)
    return None if check is None else check.invented


def left_out(records: list[Event], source: Path) -> list[str]:
    check = view_check.contradictions(records, source)
    assert check is not None
    return check.left_out


def raw(tmp_path: Path, *lines: object) -> Path:
    path = tmp_path / "raw.jsonl"
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
    return path


ARMED = {"event": "logger_armed", "at": "2026-01-01T12:00:05.000Z", "tick": 200}
SEEN = {"event": "cart_observed", "uuid": CART, "items": ITEMS, "at": "2026-01-01T12:00:12.000Z", "tick": 340}


def test_a_view_that_respells_the_raw_records_holds(tmp_path):
    source = raw(
        tmp_path,
        {"type": "logger_armed", "timestamp": "2026-01-01T12:00:05Z", "server_tick": 200},
        {
            "kind": "cart_observed",
            "cart_uuid": CART.upper(),
            "inventory": {"7": ITEMS[0]},
            "time": "2026-01-01T12:00:12Z",
            "tick": 340,
        },
        {"event": "logger_flushed", "at": "2026-01-01T12:00:30Z"},
    )
    flushed = {"event": "logger_flushed", "at": "2026-01-01T12:00:30Z"}
    assert contradictions(view(ARMED, SEEN, flushed), source) == []
    assert left_out(view(ARMED, SEEN, flushed), source) == []
    tick_only = raw(tmp_path, ARMED, {**SEEN, "at": None})
    assert contradictions(view(ARMED, SEEN), tick_only) == []  # the raw states the tick alone


def test_a_view_that_moves_invents_or_changes_a_record_contradicts_its_source(tmp_path):
    source = raw(tmp_path, ARMED, {**SEEN, "at": "2026-01-01T12:00:40.000Z", "tick": 900})
    assert contradictions(view(ARMED, SEEN), source) == ["logger:seq2 (cart_observed)"]  # moved into the window
    assert contradictions(view(ARMED, SEEN), raw(tmp_path, ARMED)) == ["logger:seq2 (cart_observed)"]  # invented
    other = {**SEEN, "items": [{"slot": 7, "id": "minecraft:iron_ingot", "count": 6}]}
    assert contradictions(view(ARMED, other), raw(tmp_path, ARMED, SEEN)) == ["logger:seq2 (cart_observed)"]
    late = raw(tmp_path, ARMED, {**SEEN, "at": "2026-01-01T12:00:40.000Z"})  # the same tick, a later time
    assert contradictions(view(ARMED, SEEN), late) == ["logger:seq2 (cart_observed)"]
    offset = raw(tmp_path, ARMED, {**SEEN, "at": "2026-01-01T14:00:12+02:00"})  # the same moment, respelled
    assert contradictions(view(ARMED, SEEN), offset) == []
    untimed = raw(tmp_path, ARMED, {**SEEN, "at": None, "tick": None})
    assert contradictions(view(ARMED, SEEN), untimed) == ["logger:seq2 (cart_observed)"]  # a time the raw never gave


def test_raw_output_in_a_form_of_its_own_cannot_be_compared(tmp_path):
    assert contradictions(view(ARMED), raw(tmp_path, "armed at 12:00:05", "cart 0b7e... seen")) is None
    assert contradictions(view(ARMED), raw(tmp_path, {"note": "no logger event"})) is None
    assert contradictions(view(ARMED), tmp_path / "absent.jsonl") is None


def test_a_raw_line_the_projection_cannot_read_supports_nothing_and_switches_nothing_off(tmp_path):
    late = {**SEEN, "at": "2026-01-01T12:00:40.000Z", "tick": 900}
    unreadable = {"event": "note", "tick": [1]}
    source = raw(tmp_path, ARMED, late, unreadable, [1, 2])
    assert contradictions(view(ARMED, SEEN), source) == ["logger:seq2 (cart_observed)"]
    named_only = raw(tmp_path, {"event": "cart_observed", "uuid": CART, "tick": "late"})
    assert contradictions(view(SEEN), named_only) == ["logger:seq1 (cart_observed)"]


def test_a_view_that_leaves_out_or_changes_a_raw_record_does_not_carry_its_source(tmp_path):
    error = {"event": "logger_error", "at": "2026-01-01T12:00:09Z", "error": "crashed"}
    source = raw(tmp_path, ARMED, error, SEEN)
    assert left_out(view(ARMED, SEEN), source) == ["raw line 2 (logger_error)"]  # the error dropped
    assert left_out(view(ARMED, error, SEEN), source) == []
    other_lab = raw(tmp_path, {**ARMED, "instance": "lab-b"}, {**SEEN, "instance": "lab-b"})
    respelled = view({**ARMED, "instance": "lab-a"}, {**SEEN, "instance": "lab-a"})
    assert left_out(respelled, other_lab) == ["raw line 1 (logger_armed)", "raw line 2 (cart_observed)"]
    assert contradictions(respelled, other_lab) == ["logger:seq1 (logger_armed)", "logger:seq2 (cart_observed)"]
    other_run = raw(tmp_path, ARMED, {**SEEN, "run_id": "another-run"})
    assert left_out(view(ARMED, {**SEEN, "run_id": "probe"}), other_run) == ["raw line 2 (cart_observed)"]
    twice = raw(tmp_path, ARMED, SEEN, SEEN)
    assert left_out(view(ARMED, SEEN), twice) == ["raw line 3 (cart_observed)"]  # two records, not one
    broken = raw(tmp_path, ARMED, {"event": "logger_error", "at": "not a time"}, SEEN)
    assert left_out(view(ARMED, SEEN), broken)[0].startswith("raw line 2 (logger_error: ")
    moved = {**SEEN, "position": [1, 2, 3]}
    assert left_out(view(ARMED, moved), raw(tmp_path, ARMED, {**SEEN, "position": [1, 2, 4]})) == [
        "raw line 2 (cart_observed)"
    ]  # a field the projection reads is a fact whether or not a flag reads it
