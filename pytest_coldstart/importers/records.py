"""From a session's calls, results and events to canonical trajectory records, as a stream.

Records follow the session's file order (a call at its line, its result at the result's
line; at one line calls, then results, then marks), so ``at`` is non-decreasing whenever
the session's own times are (where they are not, the odd time is raised and the original
kept in ``source_at``). Every call gets one result record: calls the session never
answered get status ``open`` at the session's end. The session is bracketed by ``session``
start/end records naming the raw copy (``source_path``, ``sha256``); calls and marks carry
``source`` ("import:<name>"), ``source_path`` and ``source_line`` (1-based line in the raw
copy); a result carries its own ``source_line`` and shares the rest with its call (each
extra field costs redaction time).

``RecordStream`` is a ``walking.Sink``: it turns each line's items into records as soon as
the line is complete and hands them to ``emit``, keeping only the counts. ``replay`` feeds it
a whole ``ImportedSession`` (importers that only ``parse``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pytest_coldstart.importers.base import ABANDONED, ImportedCall, ImportedEvent, ImportedSession, duration_ms
from pytest_coldstart.run.errors import ColdstartError

OPEN_NOTE = "no result in the session (interrupted, killed, or still running when it was copied)"
_END = float("inf")
#: per-call context repeated on a call only when it differs from the session's first call
CONTEXT = ("model", "provider")
CALL, RESULT, MARK = 0, 1, 2


class RecordStream:
    """A sink that builds records in file order and passes each to ``emit``."""

    def __init__(
        self,
        emit: Callable[[dict[str, Any]], None],
        *,
        importer: Any,
        copy_path: str,
        phase: str,
        forget: Callable[[], None] | None = None,
    ):
        self.emit = emit
        self.forget = forget  # drops what ``emit`` received, on a restart
        self.importer = importer
        self.source = f"import:{importer.name}"
        self.copy_path = copy_path
        self.phase = phase
        self.restart()

    def restart(self) -> None:
        if getattr(self, "records", 0) and self.forget is not None:
            self.forget()
        self.usual: dict[str, Any] | None = None  # model/provider of the first call
        self.latest = ""
        self.raised = 0  # records with source_at
        self.marks = 0
        self.records = 0
        self.call_ids: list[str] = []
        self.tally = {"calls": 0, "results": 0, "ok": 0, "error": 0, "open": 0, "abandoned": 0, "not_executed": 0}
        self._line: float = -1
        self._pending: list[tuple[tuple[Any, ...], int, Any, Any]] = []  # the current line's items
        self._unanswered: list[tuple[int, ImportedCall]] = []  # open at the end

    # -- the sink ----------------------------------------------------------------------------

    def call(self, index: int, call: ImportedCall) -> None:
        self._push((call.line, CALL, index), CALL, index, call)

    def result(self, index: int, call: ImportedCall) -> None:
        answer = call.result
        if answer is None or answer.at is None:
            self._unanswered.append((index, call))
        else:
            self._push((answer.line or 0, RESULT, index), RESULT, index, call)

    def event(self, event: ImportedEvent, orphan: bool) -> None:
        self._push((event.line or 0, MARK, (orphan, self.marks)), MARK, 0, event)
        self.marks += 1

    def _push(self, key: tuple[Any, ...], kind: int, index: int, item: Any) -> None:
        line = key[0]
        if line != self._line:
            if line < self._line:
                raise ColdstartError(
                    f"importer {self.importer.name!r} sent line {line} after line {self._line} (items must come in file order)"
                )
            self._flush()
            self._line = line
        self._pending.append((key, kind, index, item))

    def _flush(self) -> None:
        pending = self._pending
        if len(pending) > 1:
            pending.sort(key=lambda entry: entry[0])
        for _, kind, _index, item in pending:
            if kind == CALL:
                self._out(self._call(item))
            elif kind == RESULT:
                self._out(self._result(item))
            else:
                self._out(self._mark(item))
        pending.clear()

    # -- records -----------------------------------------------------------------------------

    def _out(self, record: dict[str, Any]) -> None:
        at = record["at"]
        if at < self.latest:  # canonical times compare as strings
            record["source_at"] = at
            record["at"] = self.latest
        else:
            self.latest = at
        if "source_at" in record:
            self.raised += 1
        self.records += 1
        self.emit(record)

    def _call(self, call: ImportedCall) -> dict[str, Any]:
        if self.usual is None:
            self.usual = {key: call.fields[key] for key in CONTEXT if isinstance(call.fields.get(key), str)}
        usual = self.usual
        record = {
            "record": "call",
            "call_id": call.call_id,
            "tool": call.tool,
            "arguments": call.arguments,
            "phase": self.phase,
            "actor": "agent",
            "at": call.at,
            "source": self.source,
            "source_path": self.copy_path,
            "source_line": call.line,
        }
        for key, value in call.fields.items():
            if key not in usual or value != usual[key]:
                record[key] = value
        if call.branch == ABANDONED:
            record["branch"] = ABANDONED
        self.call_ids.append(call.call_id)
        return record

    def _result(self, call: ImportedCall, *, open_at: str | None = None) -> dict[str, Any]:
        """The call's answer, or (``open_at``) the open result of a call never answered."""
        # A result's phase and source are its call's (paired by call_id): not repeated.
        outcome: dict[str, Any] = {"record": "result", "call_id": call.call_id, "actor": "agent"}
        result = call.result
        if result is None or result.at is None:
            outcome.update(status="open", at=open_at, note=OPEN_NOTE)
        else:
            outcome.update(status=result.status, at=result.at, source_line=result.line)
            outcome["result"] = {"text": result.text, **result.value}
            took = duration_ms(call.at, result.at)
            if took is not None and took >= 0:
                outcome["duration_ms"] = took
        if result is not None:
            outcome.update(result.fields)
        if call.branch == ABANDONED:
            outcome["branch"] = ABANDONED
        self._count(call)
        return outcome

    def _count(self, call: ImportedCall) -> None:
        tally = self.tally
        status = call.result.status if call.result is not None else "open"
        tally["calls"] += 1
        tally[status] = tally.get(status, 0) + 1
        if status != "open":
            tally["results"] += 1
        if call.branch == ABANDONED:
            tally["abandoned"] += 1
        if call.fields.get("executed") is False or (
            call.result is not None and call.result.fields.get("executed") is False
        ):
            tally["not_executed"] += 1

    def _mark(self, event: ImportedEvent) -> dict[str, Any]:
        mark = {
            "record": "mark",
            "name": event.name,
            "actor": event.actor,
            "data": event.data,
            "phase": self.phase,
            "at": event.at,
            "source": self.source,
            "source_path": self.copy_path,
            "source_line": event.line,
        }
        if event.branch == ABANDONED:
            mark["branch"] = ABANDONED
        return mark

    # -- the whole session -------------------------------------------------------------------

    def replay(self, session: ImportedSession) -> None:
        """Feed a parsed session (file order restored from the lines, as a walk gives it)."""
        self.latest = session.started_at or ""  # the start record comes first
        if session.calls:
            first = session.calls[0].fields
            self.usual = {key: first[key] for key in CONTEXT if isinstance(first.get(key), str)}
        items: list[tuple[tuple[Any, ...], int, int, Any]] = []
        for index, call in enumerate(session.calls):
            items.append(((call.line, CALL, index), CALL, index, call))
            result = call.result
            if result is None or result.at is None:
                items.append(((_END, CALL, index), RESULT, index, call))
            else:
                items.append(((result.line or 0, RESULT, index), RESULT, index, call))
        for index, event in enumerate(session.events):
            items.append(((event.line or 0, MARK, (False, index)), MARK, index, event))
        items.sort(key=lambda entry: entry[0])
        for key, kind, index, item in items:
            if kind == CALL:
                self.call(index, item)
            elif kind == RESULT:
                self.result(index, item)
            else:
                self._push(key, MARK, index, item)
        self.marks = len(session.events)

    def finish(self, session: ImportedSession, *, sha256: str) -> dict[str, Any]:
        """After the last item: open results, the end record; returns the start record (it
        goes first in the trajectory, so whoever emits records keeps it apart)."""
        self._flush()
        ended = session.ended_at
        for _, call in self._unanswered:
            self._out(self._result(call, open_at=ended))
        self._unanswered = []
        self._out(
            {
                "record": "session",
                "event": "end",
                "actor": "harness",
                "phase": self.phase,
                "at": ended,
                "source": self.source,
                "source_path": self.copy_path,
                "session_id": session.session_id,
                "reason": "end of the imported session file",
            }
        )
        self.records += 1  # the start record
        return {
            "record": "session",
            "event": "start",
            "actor": "harness",
            "phase": self.phase,
            "at": session.started_at,
            "source": self.source,
            "source_path": self.copy_path,
            "sha256": sha256,
            "session_id": session.session_id,
            "format": self.importer.format,
            "format_version": session.format_version,
            **(self.usual or {}),
        }

    def counts(self, session: ImportedSession) -> dict[str, int]:
        """run.json ``counts``: the importer's own tallies, never overriding the standard ones."""
        extra = {k: v for k, v in (session.counts or {}).items() if isinstance(k, str) and type(v) is int}
        return {**extra, **self.tally, "marks": self.marks, "lines": session.lines, "times_raised": self.raised}
