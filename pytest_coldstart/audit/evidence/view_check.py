"""A normalized logger view against the raw output it says it comes from.

The flags read the view; the seed keeps the raw output beside it ("never replaced by the
normalized view"). A view is a new spelling of the raw records, never new facts: when the raw
output holds JSON lines the projection reads, every ``logger_armed`` and ``cart_observed``
of the view must be a record of the raw output with the same cart, the same items, and the
same time and tick wherever the raw record states them. A view that moves a late capture into
the window, or captures what the raw output never held, contradicts its source. Raw output in
a form the audit does not read cannot be compared (reported as information).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from pytest_coldstart.audit.evidence import aliases
from pytest_coldstart.audit.evidence.inventory import ItemError, normalize_items
from pytest_coldstart.audit.model import Event
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.errors import ColdstartError

#: the logger events whose facts the flags read
COMPARED = ("logger_armed", "cart_observed")
SHOWN = 3

Key = tuple[str, str, str]  # event, cart uuid, items
Timing = tuple[datetime | None, int | None]  # at, tick (None: not stated)


def contradictions(view: list[Event], raw: Path) -> list[str] | None:
    """What the view states that the raw output does not (``[]``: nothing); None when the raw
    output is not JSON lines of logger events the audit reads."""
    stated = _raw_facts(raw)
    if stated is None:
        return None
    problems = []
    for event in view:
        if event.name not in COMPARED:
            continue
        facts = _facts(event.name, event.fields, event.at, event.tick)
        if facts is None or not _supported(*facts, stated):
            problems.append(f"{event.ref} ({event.name})")
    return problems


def _supported(key: Key, timing: Timing, stated: dict[Key, set[Timing]]) -> bool:
    """A raw record with the same event, cart and items whose time and tick, where it states
    them, are the view's (a view never gives a time its source left unstated). Set lookups:
    linear in the two files, whatever their sizes."""
    known = stated.get(key)
    if known is None:
        return False
    at, tick = timing
    candidates = {(at, tick)}  # the raw record states both, or (both None) neither
    if tick is not None:
        candidates.add((None, tick))  # it states the tick alone
    if at is not None:
        candidates.add((at, None))  # it states the time alone
    return bool(candidates & known)


def _raw_facts(raw: Path) -> dict[Key, set[Timing]] | None:
    """The logger facts of the raw output; None when no line of it even names a logger event
    the view is checked on (raw output in a form of the agent's own). A line that names one
    but the projection cannot read supports nothing: it cannot switch the comparison off."""
    stated: dict[Key, set[Timing]] = {}
    named = False
    try:
        for line in jsonio.iter_jsonl(raw, strict=False):
            record = getattr(line, "value", None)
            if not isinstance(record, dict):
                continue
            named = named or aliases.first_present(record, "event")[1] in COMPARED
            try:
                fields = aliases.project(record)
            except aliases.ProjectionError:
                continue
            name = fields.get("event")
            if name in COMPARED:
                facts = _facts(name, fields, fields.get("at"), fields.get("tick"))  # project parsed the time
                if facts is not None:
                    stated.setdefault(facts[0], set()).add(facts[1])
    except (OSError, ValueError, ColdstartError):
        return None
    return stated if stated or named else None


def _facts(name: str, fields: dict[str, Any], at: datetime | None, tick: Any) -> tuple[Key, Timing] | None:
    uuid = fields.get("uuid")
    try:
        items = normalize_items(fields["items"]) if fields.get("items") is not None else None
    except ItemError:
        return None
    shown = "" if items is None else "|".join(f"{i.label(slot=True)}{i.components or ''}" for i in items)
    key = (name, uuid.strip().lower() if isinstance(uuid, str) else "", shown)
    return key, (at, tick if isinstance(tick, int) and not isinstance(tick, bool) else None)
