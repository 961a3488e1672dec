"""From an ``ImportedSession`` to canonical trajectory records (unprepared field dicts).

Records follow the session's file order (a call at its line, its result at the result's
line), so ``at`` is non-decreasing whenever the session's own times are (where they are not,
``clamp`` raises the odd time and keeps the original in ``source_at``). Every call gets one
result record: calls the session never answered get status ``open`` at the session's end.
The session is bracketed by ``session`` start/end records naming the raw copy
(``source_path``, ``sha256``); calls and marks carry ``source`` ("import:<name>"),
``source_path`` and ``source_line`` (1-based line in the raw copy); a result carries its own
``source_line`` and shares the rest with its call (each extra field costs redaction time). ``run.import_session`` appends them in one
batch, so they are contiguous in the trajectory.
"""

from __future__ import annotations

from typing import Any

from pytest_coldstart.importers.base import ABANDONED, ImportedSession, duration_ms

OPEN_NOTE = "no result in the session (interrupted, killed, or still running when it was copied)"
_END = float("inf")
#: per-call context repeated on a call only when it differs from the session's first call
CONTEXT = ("model", "provider")


def build(session: ImportedSession, *, importer: Any, copy_path: str, sha256: str, phase: str) -> list[dict[str, Any]]:
    source = f"import:{importer.name}"
    ended = session.ended_at
    first = session.calls[0].fields if session.calls else {}
    usual = {key: first[key] for key in CONTEXT if isinstance(first.get(key), str)}  # said once, in the start record
    keyed: list[tuple[tuple[float, int, int], dict[str, Any]]] = []
    for index, call in enumerate(session.calls):
        record = {
            "record": "call", "call_id": call.call_id, "tool": call.tool, "arguments": call.arguments,
            "phase": phase, "actor": "agent", "at": call.at, "source": source, "source_path": copy_path,
            "source_line": call.line,
        }
        for key, value in call.fields.items():
            if key not in usual or value != usual[key]:
                record[key] = value
        abandoned = call.branch == ABANDONED
        if abandoned:
            record["branch"] = ABANDONED
        keyed.append(((call.line, 0, index), record))
        # A result's phase and source are its call's (paired by call_id): not repeated.
        outcome: dict[str, Any] = {"record": "result", "call_id": call.call_id, "actor": "agent"}
        result = call.result
        if result is None or result.at is None:
            outcome.update(status="open", at=ended, note=OPEN_NOTE)
            key: tuple[float, int, int] = (_END, 0, index)
        else:
            outcome.update(status=result.status, at=result.at, source_line=result.line)
            outcome["result"] = {"text": result.text, **result.value}
            took = duration_ms(call.at, result.at)
            if took is not None and took >= 0:
                outcome["duration_ms"] = took
            key = (result.line or 0, 1, index)
        if result is not None:
            outcome.update(result.fields)
        if abandoned:
            outcome["branch"] = ABANDONED
        keyed.append((key, outcome))
    for index, event in enumerate(session.events):
        mark = {
            "record": "mark", "name": event.name, "actor": event.actor, "data": event.data, "phase": phase,
            "at": event.at, "source": source, "source_path": copy_path, "source_line": event.line,
        }
        if event.branch == ABANDONED:
            mark["branch"] = ABANDONED
        keyed.append(((event.line, 2, index), mark))
    keyed.sort(key=lambda pair: pair[0])
    begin = {
        "record": "session", "event": "start", "actor": "harness", "phase": phase, "at": session.started_at,
        "source": source, "source_path": copy_path, "sha256": sha256, "session_id": session.session_id,
        "format": importer.format, "format_version": session.format_version,
        **usual,
    }
    end = {
        "record": "session", "event": "end", "actor": "harness", "phase": phase, "at": ended, "source": source,
        "source_path": copy_path, "session_id": session.session_id, "reason": "end of the imported session file",
    }
    ordered = [begin, *(record for _, record in keyed), end]
    clamp(ordered)
    return ordered


def clamp(ordered: list[dict[str, Any]]) -> int:
    """Keep ``at`` non-decreasing in file order (validate requires it): a time earlier than the
    one before it (neighbouring lines written out of order) is raised to it, and the session's
    own time is kept in ``source_at``. Returns how many times were raised."""
    raised = 0
    latest = ""
    for record in ordered:
        at = record["at"]
        if at < latest:  # canonical times compare as strings
            record["source_at"] = at
            record["at"] = latest
            raised += 1
        else:
            latest = at
    return raised
