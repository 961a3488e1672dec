"""A normalized logger view against the raw output it says it comes from.

The flags read the view; the seed keeps the raw output beside it ("never replaced by the
normalized view"). A view is a new spelling of the raw records, never new facts and never
fewer: when the raw output holds JSON lines the projection reads, every logger record of the
view must be a record of the raw output, and every logger record of the raw output must be in
the view, with the same facts. The facts are every field the projection reads (instance,
dimension, run_id, cart, items, position, ... - a field added to the projection is compared
without being listed here) except the view's own bookkeeping, and the time and tick wherever
the raw record states them. A view that moves a late capture into the window, respells the
instance or run, or leaves out a ``logger_error`` contradicts its source. Raw output in a form
the audit does not read cannot be compared (reported as information).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from pytest_coldstart.audit.evidence import aliases
from pytest_coldstart.audit.evidence.inventory import ItemError, normalize_items
from pytest_coldstart.audit.model import Event
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.errors import ColdstartError

#: the logger events a view must carry over, each one as the raw output states it
COMPARED = aliases.LOGGER_EVENTS
#: projected fields that are the view's own (its numbering, its link to the raw bytes) or
#: compared as timing below; every other projected field is a fact
OWN = frozenset(["event", "seq", "source_sha256", "at", "tick"])
SHOWN = 3

Key = tuple[Any, ...]  # event name, then (field, value) of every fact
Timing = tuple[tuple[datetime, bool] | None, int | None]  # (at, zoneless), tick (None: not stated)


@dataclass
class ViewCheck:
    """``invented``: view records the raw output does not hold as written; ``left_out``: raw
    records the view does not carry as written (dropped or changed)."""

    invented: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)


def contradictions(view: list[Event], raw: Path) -> ViewCheck | None:
    """The view compared with the raw output; None when the raw output is not JSON lines of
    logger events the audit reads. Dict and set lookups: linear in the two files."""
    stated = _raw_facts(raw)
    if stated is None:
        return None
    records, unreadable = stated
    check = ViewCheck(left_out=unreadable)
    shown: dict[Key, list[Timing]] = {}
    for event in view:
        if event.name not in COMPARED:
            continue
        key = _key(event.name, event.fields)
        timing = _timing(event.at, event.zoneless, event.tick)
        if key is None or not _candidates(timing) & records.get(key, {}).keys():
            check.invented.append(f"{event.ref} ({event.name})")
        else:
            shown.setdefault(key, []).append(timing)
    for key, timings in records.items():
        covered = {c for timing in shown.get(key, []) for c in _candidates(timing)}
        missing = [n for timing, lines in timings.items() if timing not in covered for n in lines]
        # the same record twice in the raw output is two records: the view keeps both
        surplus = sum(map(len, timings.values())) - len(shown.get(key, [])) - len(missing)
        if surplus > 0:
            kept = sorted(n for timing, lines in timings.items() if timing in covered for n in lines)
            missing += kept[-surplus:]
        check.left_out += [f"raw line {n} ({key[0]})" for n in missing]
    check.left_out.sort(key=lambda text: int(text.split()[2]))
    return check


def _candidates(timing: Timing) -> set[Timing]:
    """The raw timings a view record's timing stands for: the raw record states both, or (both
    None) neither, or only one of them - the view gives no other time or tick."""
    at, tick = timing
    out = {(at, tick)}
    if tick is not None:
        out.add((None, tick))
    if at is not None:
        out.add((at, None))
    return out


def _raw_facts(raw: Path) -> tuple[dict[Key, dict[Timing, list[int]]], list[str]] | None:
    """Facts of every raw logger record, and the raw lines that name a logger event but do not
    read (the view cannot be shown to carry them); None when no line names a logger event (raw
    output in a form of the agent's own). An unreadable line cannot switch the comparison off."""
    records: dict[Key, dict[Timing, list[int]]] = {}
    unreadable: list[str] = []
    named = False
    try:
        for line in jsonio.iter_jsonl(raw, strict=False):
            record = getattr(line, "value", None)
            if not isinstance(record, dict):
                continue
            name = aliases.first_present(record, "event")[1]
            if name not in COMPARED:
                continue
            named = True
            try:
                fields = aliases.project(record)
            except aliases.ProjectionError as exc:
                unreadable.append(f"raw line {line.number} ({name}: {exc})")
                continue
            key = _key(name, fields)
            if key is None:
                unreadable.append(f"raw line {line.number} ({name}: unreadable items)")
                continue
            timing = _timing(fields.get("at"), bool(fields.get("at_zoneless")), fields.get("tick"))
            records.setdefault(key, {}).setdefault(timing, []).append(line.number)
    except (OSError, ValueError, ColdstartError):
        return None
    return (records, unreadable) if named else None


def _key(name: str, fields: dict[str, Any]) -> Key | None:
    """The event and every projected fact of a record (None: its items do not read)."""
    facts = []
    for canonical in aliases.ALIASES:
        if canonical in OWN or fields.get(canonical) is None:
            continue
        value = _fact(canonical, fields[canonical])
        if value is None:
            return None
        facts.append((canonical, value))
    return (name, *facts)


def _fact(canonical: str, value: Any) -> Any:
    """One fact as a comparable value: a cart in any case, items as the audit reads them,
    anything else as its canonical JSON."""
    if canonical == "uuid" and isinstance(value, str):
        return value.strip().lower()
    if canonical == "items":
        try:
            return "|".join(f"{i.label(slot=True)}{i.components or ''}" for i in normalize_items(value))
        except ItemError:
            return None
    return jsonio.dumps_line(value) if isinstance(value, (dict, list)) else value


def _timing(at: Any, zoneless: bool, tick: Any) -> Timing:
    moment = (at, zoneless) if isinstance(at, datetime) else None
    return moment, tick if isinstance(tick, int) and not isinstance(tick, bool) else None
