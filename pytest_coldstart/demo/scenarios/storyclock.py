"""The ``RunBuilder``'s clock: the given clock, except while an inserted step runs.

The story's records carry their own times; records a step appends through the recorder take
the clock's. While pinned, the clock reads from just after the anchor's story time, 1 ms per
reading, so the inserted records sit between the story records around them. Outside a pin every
reading is the wrapped clock's, so a builder without inserts writes the same bytes as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from pytest_coldstart.run.clock import Clock

STEP = timedelta(milliseconds=1)


class StoryClock(Clock):
    def __init__(self, base: Clock):
        self.base = base
        self._pinned: datetime | None = None
        self.reached: datetime | None = None  # the last reading of the latest pin

    def now(self) -> datetime:
        if self._pinned is None:
            return self.base.now()
        self._pinned += STEP
        return self._pinned

    def monotonic_ns(self) -> int:
        return self.base.monotonic_ns()

    @contextmanager
    def pinned(self, start: datetime | None, *, until: datetime | None, where: str) -> Iterator[None]:
        """Read from just after ``start``, 1 ms per reading; refuse to have read past ``until``."""
        if start is None:
            raise ValueError(f"{where}: the story record before it has no time to start from")
        self._pinned = start
        try:
            yield
            if until is not None and self._pinned > until:
                raise ValueError(
                    f"{where}: the inserted records run to {self._pinned.isoformat()}, past the next story record ({until.isoformat()})"
                )
        finally:
            self.reached, self._pinned = self._pinned, None
