"""Ruling R1: how two records are ordered, and when the audit must admit it cannot tell.

Time decides first (both parseable and different by more than the precision they are written
with: ``12:00:10Z`` is anywhere in that second, so it does not order against ``12:00:10.5Z``),
then the game tick (both integers and different). A time with no zone is some local clock (UTC-12 to
UTC+14): it orders against another stream's time only when even the widest zones cannot swap them. A ``seq`` tie-break is used only inside one stream: a trajectory seq is the
recorder's counter while test-mod and logger seqs are per file, so records of different
streams that share a time and tick are "unknown" - which becomes a required review, never a
PASS and never a FAIL.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Protocol, TypeVar

from pytest_coldstart.run.clock import ZONE_EARLIER, ZONE_LATER

BEFORE, AFTER, UNKNOWN = "before", "after", "unknown"


class Ordered(Protocol):
    """A record the audit can order: an external-stream ``Event`` or a trajectory ``Call``."""

    @property
    def stream(self) -> str: ...

    @property
    def at(self) -> datetime | None: ...

    @property
    def tick(self) -> int | None: ...

    @property
    def seq(self) -> int | None: ...

    @property
    def line(self) -> int: ...

    @property
    def span(self) -> float: ...

    @property
    def zoneless(self) -> bool: ...

    @property
    def ref(self) -> str: ...


T = TypeVar("T", bound=Ordered)


def compare(a: Ordered, b: Ordered) -> str:
    """Order of ``a`` relative to ``b``: BEFORE, AFTER or UNKNOWN."""
    timed = by_time(a, b)
    if timed != UNKNOWN:
        return timed
    if a.tick is not None and b.tick is not None and a.tick != b.tick:
        return BEFORE if a.tick < b.tick else AFTER
    if a.stream == b.stream and a.seq is not None and b.seq is not None and a.seq != b.seq:
        return BEFORE if a.seq < b.seq else AFTER
    return UNKNOWN


def by_time(a: Ordered, b: Ordered) -> str:
    """Order of ``a`` relative to ``b`` by their times alone: BEFORE, AFTER or UNKNOWN."""
    if a.at is None or b.at is None or a.at == b.at:
        return UNKNOWN
    # each time names a span as long as its precision (and its zone, when it names none):
    # only spans apart order the records
    a_zone, b_zone = _zone_unknown(a, b), _zone_unknown(b, a)
    gap = (b.at - a.at).total_seconds()
    if gap > 0 and gap >= a.span + (ZONE_LATER if a_zone else 0.0) + (ZONE_EARLIER if b_zone else 0.0):
        return BEFORE
    if gap < 0 and -gap >= b.span + (ZONE_LATER if b_zone else 0.0) + (ZONE_EARLIER if a_zone else 0.0):
        return AFTER
    return UNKNOWN


def _zone_unknown(record: Ordered, other: Ordered) -> bool:
    """``record``'s time names no zone, and ``other`` is not of the same writer's zoneless clock
    (one stream's zoneless times order among themselves: one clock, one zone)."""
    return record.zoneless and not (other.zoneless and other.stream == record.stream)


def _key(record: Ordered) -> tuple[bool, float, bool, int, bool, int, int]:
    # Within one stream only: records without a time or tick sort last; file line breaks ties.
    at = record.at
    return (
        at is None,
        at.timestamp() if at is not None else 0.0,
        record.tick is None,
        record.tick or 0,
        record.seq is None,
        record.seq or 0,
        record.line,
    )


def earliest(records: Iterable[T]) -> T | None:
    """The first record of one stream (by time, tick, seq, then file line), moved to any record
    ``compare`` orders before it: a record without a time sorts last by key, but its tick may
    still place it first (R1 never guesses, so the key alone must not hide it)."""
    return _extreme(list(records), min, BEFORE)


def latest(records: Iterable[T]) -> T | None:
    """The last record, the mirror of ``earliest``."""
    return _extreme(list(records), max, AFTER)


def first_of(records: Sequence[T]) -> T:
    """``earliest`` of records known to be there (ValueError when there are none)."""
    return _present(earliest(records))


def last_of(records: Sequence[T]) -> T:
    """``latest`` of records known to be there (ValueError when there are none)."""
    return _present(latest(records))


def _extreme(items: list[T], pick: Callable[..., T | None], beyond: str) -> T | None:
    best = pick(items, key=_key, default=None)
    for record in items:
        if best is not None and record is not best and compare(record, best) == beyond:
            best = record
    return best


def _present(record: T | None) -> T:
    if record is None:
        raise ValueError("no records")
    return record


def scope_conflicts(a: object, b: object) -> list[str]:
    """Instance/dimension values present on both records that differ."""
    problems = []
    for key in ("instance", "dimension"):
        left, right = _scope(a, key), _scope(b, key)
        if left is not None and right is not None and str(left) != str(right):
            problems.append(f"{key} {left!r} vs {right!r}")
    return problems


def _scope(record: object, key: str) -> object:
    value = getattr(record, key, None)
    if value is None and hasattr(record, "fields"):
        value = record.fields.get(key)
    return value
