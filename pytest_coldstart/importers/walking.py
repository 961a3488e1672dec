"""Walking a session file: calls, results and events go to a sink as their lines are read.

A built-in importer reads its file once, line by line, and hands every call, result and
harness event to a ``Sink`` right away, keeping only compact bookkeeping (ids, parent links,
the calls still waiting for a result). Memory stays bounded however long the session is.

Two facts are known only at the end of a file: which entries are on the active branch (pi
and Claude Code resume from the last entry) and whether a call of an aborted message was
answered after all (pi). A walk assumes the common case (every entry active, nothing
answered late); when the end of the file proves that wrong, the importer tells the sink to
``restart`` and walks the file again knowing the facts (``Hindsight``). A linear session is
read once, a branched one twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from pytest_coldstart.importers.base import (
    ABANDONED,
    ImportedCall,
    ImportedEvent,
    ImportedResult,
    ImportedSession,
    Where,
)

ORPHAN = "import.orphan_result"


class Sink(Protocol):
    """Receives a session's items in file order (see ``records.RecordStream``)."""

    def call(self, index: int, call: ImportedCall) -> None:
        """A call, complete, at its line (``index`` counts calls from 0)."""

    def result(self, index: int, call: ImportedCall) -> None:
        """The call's answer (``call.result``) at the answer's line; after the last line, the
        calls never answered (``call.result`` None or without ``at``)."""

    def event(self, event: ImportedEvent, orphan: bool) -> None:
        """A harness event at its line; ``orphan``: a result that matched no call."""

    def restart(self) -> None:
        """Forget everything received: the importer walks the file again."""


@dataclass
class Hindsight:
    """What one walk learned too late for the items it had already sent."""

    active: set[str] | None = None  # entry ids on the active branch; None: assume all
    revived: set[int] = field(default_factory=set)  # indexes of not-executed calls answered after all
    known: bool = False  # True for a walk that knows the facts (the second one)


def walk_with_hindsight(
    one_walk: Callable[[Hindsight], tuple[ImportedSession, Hindsight | None]], sink: Sink
) -> ImportedSession:
    """Run ``one_walk``; when it returns what it learned, restart the sink and walk again."""
    info, learned = one_walk(Hindsight())
    if learned is not None:
        sink.restart()
        info, again = one_walk(learned)
        if again is not None:  # pragma: no cover - a walk that knows the facts learns nothing new
            raise RuntimeError("an importer walk learned new facts on its second pass")
    return info


class Branches:
    """Which entries an item belongs to is on the active branch (see the module doc)."""

    def __init__(self, hindsight: Hindsight):
        self.known = hindsight.active if hindsight.known else None
        self.assumed: list[Any] = []

    def of(self, entry_id: Any) -> str | None:
        if self.known is not None:
            return None if entry_id in self.known else ABANDONED
        self.assumed.append(entry_id)
        return None

    def wrong(self, active: set[str]) -> bool:
        """True when an entry assumed active is not."""
        return self.known is None and any(entry_id not in active for entry_id in self.assumed)


class CallBook:
    """Pairs results with calls by exact id, in file order; makes ids unique and non-empty.

    A harness id that is empty gets ``import-<line>-<n>``; a repeated one gets ``<id>#<n>``
    (the verbatim id stays in ``source_call_id``). A result pairs with the latest earlier call
    of that id that has no result yet; one that matches no call is an ``import.orphan_result``
    event. Only unanswered calls are kept.
    """

    def __init__(self, sink: Sink) -> None:
        self.sink = sink
        self.count = 0
        self.renamed = 0
        self._used: set[str] = set()
        self._next: dict[str, int] = {}  # id -> the first #n not yet tried: K repeats cost K, not K^2
        self._waiting: dict[str, list[tuple[int, ImportedCall]]] = {}
        self._pending: dict[int, ImportedCall] = {}

    def add(self, raw_id: str, call: ImportedCall) -> int:
        """Name the call, send it to the sink and wait for its result; returns its index."""
        call_id = raw_id if raw_id.strip() else f"import-{call.line}-{self.count + 1}"
        if call_id in self._used:
            n = self._next.get(call_id, 2)
            while f"{call_id}#{n}" in self._used:
                n += 1
            self._next[call_id] = n + 1
            call_id = f"{call_id}#{n}"
        if call_id != raw_id:
            self.renamed += 1
            call.fields["source_call_id"] = raw_id
        call.call_id = call_id
        self._used.add(call_id)
        index = self.count
        self.count += 1
        self._waiting.setdefault(raw_id, []).append((index, call))
        self._pending[index] = call
        self.sink.call(index, call)
        return index

    def pair(self, raw_id: str, result: ImportedResult) -> tuple[int, ImportedCall] | None:
        waiting = self._waiting.get(raw_id)
        if not waiting:
            orphan = ImportedEvent(ORPHAN, result.at or "", result.line or 0, "harness", {"source_call_id": raw_id})
            self.sink.event(orphan, True)
            return None
        index, call = waiting.pop()
        if not waiting:
            del self._waiting[raw_id]
        del self._pending[index]
        call.result = result
        self.sink.result(index, call)
        return index, call

    def unanswered(self) -> Iterator[ImportedCall]:
        """Calls without a result so far, in call order."""
        return iter(self._pending.values())

    def close(self) -> None:
        """After the last line: every unanswered call goes to the sink (it becomes ``open``)."""
        for index, call in self._pending.items():
            self.sink.result(index, call)
        self._pending.clear()
        self._waiting.clear()


def chain(parents: dict[str, str | None], leaf: str | None) -> set[str]:
    """The ids from ``leaf`` up its parent links (a missing parent or a cycle ends the walk)."""
    found: set[str] = set()
    while leaf is not None and leaf in parents and leaf not in found:
        found.add(leaf)
        leaf = parents[leaf]
    return found


class Walker:
    """One walk over a file: the call book, the sink, tallies, and the branch assumption."""

    def __init__(self, where: Where, sink: Sink, hindsight: Hindsight, *counters: str):
        self.where = where
        self.sink = sink
        self.book = CallBook(sink)
        self.hindsight = hindsight
        self.branches = Branches(hindsight)
        self.counts = dict.fromkeys(counters, 0)

    def event(self, event: ImportedEvent) -> None:
        self.sink.event(event, False)


class Collector:
    """A sink that keeps everything: ``Importer.parse`` of a walking importer."""

    def __init__(self) -> None:
        self.restart()

    def restart(self) -> None:
        self.calls: list[ImportedCall] = []
        self.events: list[ImportedEvent] = []
        self.orphans: list[ImportedEvent] = []

    def call(self, index: int, call: ImportedCall) -> None:
        self.calls.append(call)

    def result(self, index: int, call: ImportedCall) -> None:
        pass  # the call object carries its result

    def event(self, event: ImportedEvent, orphan: bool) -> None:
        (self.orphans if orphan else self.events).append(event)


def collect(walk: Callable[[Any, Sink], ImportedSession], path: Any) -> ImportedSession:
    """The whole session in memory, from a walking importer's ``walk``."""
    sink = Collector()
    info = walk(path, sink)
    info.calls = sink.calls
    info.events = sink.events + sink.orphans
    return info
