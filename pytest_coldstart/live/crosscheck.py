"""Reconciling ``trace import`` of a harness session with what its hooks recorded live.

Before the session's records are spooled, the trajectory is read once for the calls live
capture appended (``source: "hook:…"``). A session record whose call id was recorded live is
not appended a second time — the live record stays the call — but compared: the tool, the
arguments' digest (of the values before redaction, on both sides) and the result's status.
Session calls the hooks never saw, and live calls of the same session the file does not have,
are differences too. The import ends with one ``live.crosscheck`` mark listing them all; the
audit reports every difference (a session file edited after the run, a call the hook missed).
The session's ``human.prompt`` marks are the hooks' again: as many of a session's as live
capture recorded for it are not appended twice (the audit counts a session's prompts and
takes the first as the task); the ones beyond that count, which the hooks missed, are.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pytest_coldstart.live.adapter import CROSSCHECK, HUMAN_PROMPT, digest
from pytest_coldstart.record.trajectory import Serialized
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.layout import RunDir

#: differences listed in full in the mark; beyond that only counted
LISTED = 200


@dataclass
class LiveCall:
    call_id: str
    tool: str | None
    arguments_sha256: str | None
    session_id: str | None
    status: str | None = None


@dataclass
class Reconciler:
    """``keep(fields)`` for each session record before it is spooled; ``mark(...)`` at the end."""

    live: dict[str, LiveCall]
    prompts: dict[str | None, int] = field(default_factory=dict)  # live human.prompt marks per session
    matched: set[str] = field(default_factory=set)
    missed: list[str] = field(default_factory=list)
    differences: list[dict[str, Any]] = field(default_factory=list)
    count: int = 0
    informational: int = 0

    def __post_init__(self) -> None:
        self.prompts_left = dict(self.prompts)

    @classmethod
    def of(cls, rundir: RunDir) -> Reconciler:
        prompts: dict[str | None, int] = {}
        return cls(live_calls(rundir, prompts), prompts)

    def filter(self, emit: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
        """``emit`` for the records to append; the rest are compared (``emit`` itself when
        nothing was captured live: no cost for ordinary imports)."""
        if not self.live and not self.prompts:
            return emit

        def kept(fields: dict[str, Any]) -> None:
            if self.keep(fields):
                emit(fields)

        return kept

    def forgetting(self, restart: Callable[[], None]) -> Callable[[], None]:
        """``restart`` that also forgets what was compared (the importer walks its file again)."""

        def both() -> None:
            restart()
            self.matched.clear()
            self.missed.clear()
            self.differences.clear()
            self.count = 0
            self.informational = 0
            self.prompts_left = dict(self.prompts)

        return both

    def keep(self, fields: dict[str, Any]) -> bool:
        """False for a record of a call already recorded live (it is compared instead)."""
        kind = fields.get("record")
        call_id = fields.get("call_id")
        if kind == "mark" and fields.get("name") == HUMAN_PROMPT:
            data = fields.get("data")
            session = data.get("session_id") if isinstance(data, dict) else None
            if self.prompts_left.get(session, 0) > 0:
                self.prompts_left[session] -= 1
                return False
            return True
        if kind not in ("call", "result") or not isinstance(call_id, str):
            return True
        seen = self.live.get(call_id)
        if seen is None:
            if kind == "call" and self.live:
                self.missed.append(call_id)
            return True
        if kind == "call":
            self.matched.add(call_id)
            if fields.get("tool") != seen.tool:
                self._differ("tool_differs", call_id, f"live {seen.tool!r}, session {fields.get('tool')!r}")
            imported = digest(fields.get("arguments") if fields.get("arguments") is not None else {})
            if seen.arguments_sha256 is not None and imported != seen.arguments_sha256:
                self._differ("arguments_differ", call_id, "the session's arguments are not the ones run live")
        elif seen.status is not None and fields.get("status") != seen.status and fields.get("status") != "open":
            self._differ(
                "status_differs", call_id, f"live {seen.status!r}, session {fields.get('status')!r}", finding=False
            )
        return False

    def _differ(self, kind: str, call_id: str, detail: str, *, finding: bool = True) -> None:
        """One difference; ``finding=False`` for what harnesses legitimately report differently
        (an error status the session derives from output text, not the hook's flag)."""
        if finding:
            self.count += 1
        else:
            self.informational += 1
        if len(self.differences) < LISTED:
            self.differences.append({"kind": kind, "call_id": call_id, "detail": detail, "finding": finding})

    def mark(self, session_id: str | None, copy_path: str) -> dict[str, Any] | None:
        """The ``live.crosscheck`` mark, or None when nothing of this session was captured live."""
        ours = [c for c in self.live.values() if session_id is not None and c.session_id == session_id]
        if not self.matched and not ours:
            return None
        for call_id in self.missed:
            self._differ("missed_by_hook", call_id, "in the session file, never recorded live")
        for call in ours:
            if call.call_id not in self.matched:
                self._differ("not_in_session", call.call_id, "recorded live, absent from the session file")
        return {
            "record": "mark",
            "name": CROSSCHECK,
            "actor": "harness",
            "data": {
                "session_id": session_id,
                "session_copy": copy_path,
                "matched": len(self.matched),
                "differences": self.count,
                "informational": self.informational,
                "listed": self.differences,
            },
        }


def not_before(chunk: list[Serialized], floor: str | None) -> list[Serialized]:
    """The chunk with every time raised to at least ``floor`` (the trajectory's last time), the
    session's own time kept in ``source_at``: the session's records land after the live ones,
    and a trajectory's times never decrease."""
    if floor is None:
        return chunk
    for record in chunk:
        at = record.get("at")
        if isinstance(at, str) and at < floor:
            record["at"] = floor
            body = record.body
            if "source_at" not in jsonio.loads(body):  # a top-level key: one nested in arguments is not it
                record.body = b'{"source_at":' + jsonio.dumps_line(at) + (b"," if body != b"{}" else b"") + body[1:]
    return chunk


def live_calls(rundir: RunDir, prompts: dict[str | None, int] | None = None) -> dict[str, LiveCall]:
    """The calls live capture appended (one read of the trajectory), with their results' status;
    ``prompts`` (when given) gets the number of live ``human.prompt`` marks of each session."""
    found: dict[str, LiveCall] = {}
    if not rundir.trajectory.is_file():
        return found
    for line in jsonio.iter_jsonl(rundir.trajectory, strict=False):
        record = getattr(line, "value", None)
        if not isinstance(record, dict):
            continue
        source = record.get("source")
        call_id = record.get("call_id")
        if prompts is not None and record.get("name") == HUMAN_PROMPT and record.get("record") == "mark":
            stated = record.get("data")
            data: dict[str, Any] = stated if isinstance(stated, dict) else {}
            if str(data.get("source") or source).startswith("hook:"):
                session = data.get("session_id") if isinstance(data.get("session_id"), str) else None
                prompts[session] = prompts.get(session, 0) + 1
            continue
        if not isinstance(source, str) or not source.startswith("hook:") or not isinstance(call_id, str):
            continue
        if record.get("record") == "call":
            found[call_id] = LiveCall(
                call_id,
                record.get("tool") if isinstance(record.get("tool"), str) else None,
                record.get("arguments_sha256") if isinstance(record.get("arguments_sha256"), str) else None,
                record.get("session_id") if isinstance(record.get("session_id"), str) else None,
            )
        elif record.get("record") == "result" and call_id in found:
            status = record.get("status")
            found[call_id].status = status if isinstance(status, str) else None
    return found
