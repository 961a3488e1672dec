"""Claude Code sub-agent transcripts, read with the session that started them.

A ``Task``/``Agent`` call runs a sub-agent whose own calls really ran: 2.1.2+ write them to
``<session id>/subagents/agent-<id>.jsonl`` and older CLIs to ``agent-<id>.jsonl`` beside the
session (research/harness-formats.md §2.1). The import reads them with the session and
merges their lines by time, so each sub-agent call lands in the trajectory where it ran,
marked ``sidechain`` with its ``agentId``. A Task call whose sub-agent left no transcript
(and no inline sidechain line) is listed, never silently dropped: the audit cannot judge
what the record does not hold.
"""

from __future__ import annotations

import hashlib
import heapq
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pytest_coldstart.importers.base import canonical_at, read_lines
from pytest_coldstart.run import jsonio

#: tools that start a sub-agent
TASK_TOOLS = ("Task", "Agent")
#: lines read to find a transcript's session id (it is on the first conversation line)
HEAD_LINES = 50


def session_id_of(path: Path) -> str | None:
    """The ``sessionId`` of a transcript's first lines, or None."""
    try:
        for line in jsonio.iter_jsonl(path, strict=True):
            value = line.value
            if isinstance(value, dict) and isinstance(value.get("sessionId"), str):
                return str(value["sessionId"])
            if line.number >= HEAD_LINES:
                break
    except (OSError, ValueError):
        return None
    return None


def transcripts(source: Path, sid: str | None) -> list[tuple[str, Path]]:
    """(name relative to the session's folder, path) of every sub-agent transcript of ``sid``
    the import reads: regular files inside the session's folder, reached through no symlink."""
    return [(name, path) for name, path, readable in found(source, sid) if readable]


def found(source: Path, sid: str | None) -> list[tuple[str, Path, bool]]:
    """Every sub-agent transcript of ``sid`` beside the session, and whether it may be read. A
    symlinked transcript is listed unread, and a symlinked ``<sid>`` or ``<sid>/subagents``
    folder by its own name (never followed: it may lead out of the session's folder)."""
    if not sid or "/" in sid or "\\" in sid or sid in (".", ".."):
        return []
    folder = source.parent
    out: list[tuple[str, Path, bool]] = []
    try:
        inside = folder.resolve()
        subagents = folder / sid / "subagents"
        linked = next((p for p in (folder / sid, subagents) if p.is_symlink()), None)
        if linked is not None:
            out.append((linked.relative_to(folder).as_posix(), linked, False))
        else:
            for path in sorted(subagents.glob("agent-*.jsonl")):
                if (readable := _regular_inside(path, inside)) is not None:
                    out.append((f"{sid}/subagents/{path.name}", path, readable))
        # the older layout shares the project folder with other sessions' agents: its own
        # lines name the session (a symlinked one is not read, so it is not known to be ours)
        for path in sorted(folder.glob("agent-*.jsonl")):
            if _regular_inside(path, inside) and path.resolve() != source.resolve() and session_id_of(path) == sid:
                out.append((path.name, path, True))
    except (OSError, ValueError):
        return out
    return out


def _regular_inside(path: Path, inside: Path) -> bool | None:
    """True for a regular file (lstat: not a symlink) inside the folder ``inside``; False for a
    symlink (to be listed, unread); None for anything else (a FIFO, a folder: not a transcript)."""
    status = path.lstat()
    if stat.S_ISLNK(status.st_mode):
        return False
    if not stat.S_ISREG(status.st_mode):
        return None
    return path.resolve().is_relative_to(inside)


def agent_of(name: str) -> str:
    """``agent-a1.jsonl`` -> ``a1``."""
    stem = name.rsplit("/", 1)[-1]
    return stem[len("agent-") : -len(".jsonl")] if stem.startswith("agent-") else stem


def describe(name: str, path: Path, calls: int) -> dict[str, Any]:
    """The run.json entry of one transcript read (hashed as read; its calls are in the run)."""
    digest = hashlib.sha256()
    size = 0
    with jsonio.open_regular(path) as handle:  # never a symlink, never a FIFO swapped in
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
            size += len(chunk)
    return {"path": name, "source_sha256": digest.hexdigest(), "source_size": size, "calls": calls}


def merged(main: Path, others: list[tuple[str, Path]]) -> Iterator[tuple[int, jsonio.Line]]:
    """Every line of the session (source 0) and of each transcript (source i + 1), by time.

    Each file keeps its own order (a merge only ever takes the head of a file); a line without
    a time goes with the line before it; on equal times the session comes first, so a Task
    call precedes its sub-agent's lines."""

    def keyed(rank: int, path: Path) -> Iterator[tuple[str, int, int, jsonio.Line]]:
        last = ""
        for item in read_lines(path):
            value = item.value
            at = canonical_at(value.get("timestamp")) if isinstance(value, dict) else None
            last = at or last
            yield last, rank, item.number, item

    streams = [keyed(0, main)] + [keyed(rank + 1, path) for rank, (_, path) in enumerate(others)]
    for _, rank, _, item in heapq.merge(*streams, key=lambda entry: entry[:3]):
        yield rank, item


def progress_line(value: dict[str, Any]) -> dict[str, Any] | None:
    """The sub-agent's own line an ``agent_progress`` line carries (``user``/``assistant``,
    marked sidechain with its agent id), or None."""
    data = value.get("data")
    if not isinstance(data, dict) or data.get("type") != "agent_progress":
        return None
    outer = data.get("message")
    if not isinstance(outer, dict) or not isinstance(outer.get("message"), dict):
        return None
    if outer.get("type") not in ("user", "assistant"):
        return None
    agent = data.get("agentId", outer.get("agentId"))
    side = {"type": outer["type"], "message": outer["message"], "isSidechain": True}
    side["agentId"] = agent if isinstance(agent, str) else "unknown"
    if isinstance(value.get("cwd"), str):
        side["cwd"] = value["cwd"]
    return side


class Tasks:
    """Task calls, and the sub-agents whose lines were read: which Task left no trace."""

    def __init__(self) -> None:
        self.calls: dict[str, str | None] = {}  # Task tool_use id -> its sub-agent id, when said
        self.seen: set[str] = set()  # sub-agent ids with lines in the run
        self.read: dict[str, int] = {}  # sub-agent transcript -> calls imported from it
        self.side_calls: set[str] = set()  # sub-agent tool_use ids imported (progress lines repeat them)
        self.side_answers: set[str] = set()

    def called(self, raw_id: str, tool: str, sidechain: bool, transcript: str | None) -> bool:
        """Note a call; False for a sub-agent call already imported from its other copy."""
        if tool in TASK_TOOLS:
            self.calls.setdefault(raw_id, None)
        if sidechain and raw_id:
            if raw_id in self.side_calls:
                return False
            self.side_calls.add(raw_id)
        if transcript is not None:
            self.read[transcript] = self.read.get(transcript, 0) + 1
        return True

    def answered(self, raw_id: str, outcome: Any, sidechain: bool) -> bool:
        """Note an answer; False for a sub-agent call's answer already imported."""
        if raw_id in self.calls and isinstance(outcome, dict) and isinstance(outcome.get("agentId"), str):
            self.calls[raw_id] = outcome["agentId"]
        if sidechain and raw_id in self.side_calls:
            if raw_id in self.side_answers:
                return False
            self.side_answers.add(raw_id)
        return True

    def metadata(self, others: list[tuple[str, Path]]) -> dict[str, Any]:
        """run.json: the transcripts read (hashed as read) and the Task calls without one."""
        out: dict[str, Any] = {}
        if others:
            out["subagents"] = [describe(name, path, self.read.get(name, 0)) for name, path in others]
        if missing := self.missing():
            out["subagent_calls_missing"] = missing
        return out

    def missing(self) -> list[str]:
        """Task calls whose sub-agent's lines are not in the run. A Task whose result names no
        sub-agent takes one of the unclaimed sub-agents seen, or is missing."""
        named = {agent for agent in self.calls.values() if agent is not None}
        spare = len(self.seen - named)
        out: list[str] = []
        for raw_id, agent in self.calls.items():
            if agent is not None:
                if agent not in self.seen:
                    out.append(raw_id)
            elif spare > 0:
                spare -= 1
            else:
                out.append(raw_id)
        return out
