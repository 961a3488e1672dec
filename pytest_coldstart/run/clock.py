"""Time: RFC 3339 UTC with milliseconds for writing, a lenient parser for reading.

A ``Clock`` is injectable so that ``coldstart demo`` and tests can record byte-identical runs.
"""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta

from pytest_coldstart.run.numbers import finite


def format_at(moment: datetime) -> str:
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def parse_at(value: object) -> datetime | None:
    """Parse an ISO-8601 string (no zone = UTC: ``zoneless`` says when that is a guess) or epoch
    seconds; None when unparseable.

    Booleans are rejected (they are ints in Python); NaN/inf are rejected.
    """
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        seconds = finite(value)  # 10**400 is an int that float() refuses
        if seconds is None:
            return None
        try:
            return datetime.fromtimestamp(seconds, tz=UTC)
        except (OverflowError, OSError, ValueError):
            return None
    if not isinstance(value, str):
        return None
    text = value.strip()
    if not text:
        return None
    try:
        number = float(text)
    except ValueError:
        number = None
    if number is not None:
        return parse_at(number)
    moment = _iso(text)
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:  # 0001-01-01T00:00+05:00, 9999-12-31T23:59-05:00: no UTC moment to name
        return None


def _iso(text: str) -> datetime | None:
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


#: A time written without a zone is some local clock between UTC-12 and UTC+14: the UTC moment
#: it names lies up to 14 hours before what it reads and up to 12 hours after.
ZONE_EARLIER, ZONE_LATER = 14 * 3600.0, 12 * 3600.0


def zoneless(value: object) -> bool:
    """True for an ISO time with no zone (``2026-01-01T12:00:08``): reading it as UTC would guess."""
    if not isinstance(value, str):
        return False
    text = value.strip()
    try:
        float(text)
        return False  # epoch seconds name UTC
    except ValueError:
        pass
    moment = _iso(text)
    return moment is not None and moment.tzinfo is None


_FRACTION = re.compile(r"[T t]\d{2}(:\d{2})?(:\d{2})?(?:[.,](\d+))?")


def resolution(value: object) -> float:
    """How finely a timestamp states its moment, in seconds: ``12:00:10.5Z`` is a tenth of a
    second, ``12:00:10Z`` and epoch ``1767268810`` a whole second, ``12:00Z`` a minute and a
    date alone a day. A moment written coarsely lies anywhere in that span after it, so two
    times closer than their spans do not order two records (R1 never guesses)."""
    if isinstance(value, bool) or value is None:
        return 0.0
    if isinstance(value, int):
        return 1.0
    if isinstance(value, float):
        digits = repr(value).partition(".")[2]
        return 10.0 ** -len(digits) if digits and "e" not in digits else 1.0
    if not isinstance(value, str):
        return 0.0
    text = value.strip()
    if ":" not in text:  # neither int() nor float() takes a colon: a clock time skips both tries
        try:
            return resolution(int(text))
        except ValueError:
            pass
        try:
            return resolution(float(text))
        except ValueError:
            pass
    match = _FRACTION.search(text)
    if match is None:
        return 86400.0
    minutes, seconds, fraction = match.groups()
    if fraction:
        return 10.0 ** -min(len(fraction), 6)
    return 1.0 if seconds else 60.0 if minutes else 3600.0


def is_timestamp(value: object) -> bool:
    return parse_at(value) is not None


class Clock:
    """Wall clock (UTC) plus the system monotonic clock."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def monotonic_ns(self) -> int:
        return time.monotonic_ns()


class FixedClock(Clock):
    """Deterministic clock: starts at ``start`` and advances ``step`` on every reading."""

    def __init__(self, start: datetime, step: timedelta = timedelta(milliseconds=250)):
        self._now = start.astimezone(UTC)
        self._step = step
        self._mono = 0

    def now(self) -> datetime:
        current = self._now
        self._now = current + self._step
        return current

    def monotonic_ns(self) -> int:
        current = self._mono
        self._mono += int(self._step.total_seconds() * 1e9)
        return current
