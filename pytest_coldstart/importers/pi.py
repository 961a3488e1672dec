"""pi (``@mariozechner/pi-coding-agent``) session files, versions 1, 2 and 3.

Format facts: research/harness-formats.md §1. The active branch is the last entry in file
order plus its ``parentId`` chain (v1 files are linear). Calls on other branches really ran
(``/tree`` never reverts files), so they are imported too, marked abandoned. Calls of an
assistant message whose ``stopReason`` is ``error``/``aborted`` were never executed: they keep
status ``open`` with ``executed: false`` unless a result exists after all.

Human input becomes ``human.prompt`` marks (see ``human``): user messages, the human's ``!cmd``
(``bashExecution``: it ran in the agent's environment and its output reached the agent; it
also keeps its ``pi.bash_execution`` mark) and context an extension injected (``custom_message``
entries, ``custom``/``hookMessage`` messages). pi records one folder per session (the header's
``cwd``): every call carries it as ``cwd``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytest_coldstart.importers.base import (
    CANONICAL,
    ImportedCall,
    ImportedEvent,
    ImportedResult,
    ImportedSession,
    Where,
    join_text,
    read_lines,
)
from pytest_coldstart.importers.events import preview_of, scalars
from pytest_coldstart.importers.human import human_prompt
from pytest_coldstart.importers.walking import Hindsight, Sink, Walker, chain, collect, walk_with_hindsight
from pytest_coldstart.run.errors import VersionError

VERSIONS = (1, 2, 3)
NOT_EXECUTED_STOPS = ("error", "aborted")
SKIPPED_TEXT = "Skipped due to queued user message."
#: entry types that become marks, with the scalar fields they keep
MARKED = {
    "model_change": ("provider", "modelId"),
    "thinking_level_change": ("thinkingLevel",),
    "compaction": ("firstKeptEntryId", "firstKeptEntryIndex", "tokensBefore", "fromHook"),
    "branch_summary": ("fromId", "fromHook"),
    "label": ("targetId", "label"),
    "session_info": ("name",),
}
QUIET = ("custom",)  # extension state, never sent to the model
INJECTED_ROLES = ("custom", "hookMessage")


class PiImporter:
    name = "pi"
    version = "1.0.0"
    format = "pi-session"
    description = "pi coding-agent session JSONL (header version 1, 2 or 3)"

    def sniff(self, first: dict[str, Any]) -> bool:
        return first.get("type") == "session" and "payload" not in first

    def parse(self, path: Path) -> ImportedSession:
        return collect(self.walk, path)

    def walk(self, path: Path, sink: Sink) -> ImportedSession:
        return walk_with_hindsight(lambda facts: self._walk(path, sink, facts), sink)

    def _walk(self, path: Path, sink: Sink, facts: Hindsight) -> tuple[ImportedSession, Hindsight | None]:
        where = Where(path)
        header: dict[str, Any] | None = None
        tree = False
        parents: dict[str, str | None] = {}  # v2+: entry id -> parent id
        walk = _Walk(where, sink, facts)
        entries = 0
        leaf: str | None = None
        first = last = ""
        for item in read_lines(path):
            where.line = item.number
            entry = item.value
            if header is None:
                header = self._header(entry, where)
                tree = header.get("version", 1) >= 2
                walk.session_id = header["id"]
                if isinstance(header.get("cwd"), str) and header["cwd"]:
                    walk.cwd = header["cwd"]
                continue
            at = self._time(entry, where)
            entries += 1
            if not first or at < first:
                first = at
            if at > last:
                last = at
            entry_id = None
            if tree:
                entry_id, parent = entry.get("id"), entry.get("parentId")
                if type(entry_id) is not str or not entry_id or (parent is not None and type(parent) is not str):
                    where.text(entry_id, "entry id (session version 2+)", empty=False)
                    where.opt_text(parent, "parentId")
                if entry_id in parents:
                    raise where.fail(f"entry id {entry_id!r} repeats line {_first_line(path, entry_id)}")
                # the usual parent is the entry before: keep that string once, not twice
                parents[entry_id] = leaf if parent == leaf else parent
                leaf = entry_id
            walk.entry(entry, at, item.number, entry_id)
        if header is None:
            raise where.fail("empty session file (no header line)")
        last_line = where.line
        where.line = 1
        started = where.at(header.get("timestamp"), "header timestamp")
        walk.book.close()
        # The leaf pi resumes from is the last entry; the active branch is its parent chain.
        active = chain(parents, leaf) if tree and entries else None
        learned = None
        if (active is not None and walk.branches.wrong(active)) or walk.revived:
            learned = Hindsight(active, walk.revived, known=True)
        info = ImportedSession(
            format_version=header.get("version", 1),
            calls=[],
            events=[],
            session_id=header["id"],
            started_at=min(started, first) if first else started,
            ended_at=max(started, last),
            lines=last_line,
            counts={"entries": entries, "renamed_ids": walk.book.renamed, **walk.counts},
            metadata={
                **scalars(header, ("id", "cwd", "parentSession", "branchedFrom")),
                **({"cwds": [walk.cwd]} if walk.cwd is not None and walk.book.count else {}),
            },
        )
        return info, learned

    @staticmethod
    def _header(value: dict[str, Any], where: Where) -> dict[str, Any]:
        if value.get("type") != "session":
            raise where.fail('not a pi session: the first line must be the header {"type": "session", ...}')
        version = value.get("version", 1)
        if type(version) is not int or version not in VERSIONS:
            raise VersionError(
                f"pi session version {version!r} is not supported (this importer reads versions "
                f"{', '.join(map(str, VERSIONS))}); refusing to guess",
                where.path,
                where.line,
            )
        where.text(value.get("id"), "header id", empty=False)
        return value

    @staticmethod
    def _time(entry: dict[str, Any], where: Where) -> str:
        kind, stamp = entry.get("type"), entry.get("timestamp")
        if type(kind) is not str or not kind:
            where.text(kind, "entry type", empty=False)
        if type(stamp) is str and CANONICAL.fullmatch(stamp):
            return stamp  # the common case, without a call
        if "timestamp" in entry:
            return where.at(stamp, "entry timestamp")
        message = entry.get("message")
        if isinstance(message, dict) and "timestamp" in message:  # some v1 writers
            return where.epoch_ms(message["timestamp"], "message timestamp")
        raise where.fail("entry has no timestamp")


def _first_line(path: Path, entry_id: str) -> int:
    """The line of the first entry with this id (for the error about a repeated id)."""
    for item in read_lines(path):
        if item.number > 1 and item.value.get("id") == entry_id:
            return int(item.number)
    return 0  # pragma: no cover - the caller saw the id


class _Walk(Walker):
    """Turns entries (in file order) into calls, results and events."""

    def __init__(self, where: Where, sink: Sink, facts: Hindsight):
        super().__init__(where, sink, facts, "messages", "unknown_entries", "bash_executions", "human_prompts")
        self.revived: set[int] = set()
        self.session_id: str | None = None
        self.cwd: str | None = None

    def branch(self, entry_id: str | None) -> str | None:
        return None if entry_id is None else self.branches.of(entry_id)

    def entry(self, entry: dict[str, Any], at: str, line: int, entry_id: str | None) -> None:
        kind = entry["type"]
        if kind == "message":
            self.counts["messages"] += 1
            self.message(self.where.obj(entry.get("message"), "message"), at, line, entry_id)
        elif kind in MARKED:
            data = scalars(entry, MARKED[kind])
            if isinstance(entry.get("summary"), str):
                data["summary_preview"] = preview_of(entry["summary"])
            self.event(ImportedEvent(f"pi.{kind}", at, line, "harness", data, self.branch(entry_id)))
        elif kind == "custom_message":
            self.human(entry.get("content"), at, line, entry_id, "injected")
        elif kind not in QUIET:
            self.counts["unknown_entries"] += 1

    def human(self, content: Any, at: str, line: int, entry_id: str | None, kind: str) -> None:
        text, others = join_text(content if isinstance(content, (str, list)) else None, self.where, "content")
        text = "\n".join([text] * bool(text) + [f"[{block.get('type')}]" for block in others])
        self.counts["human_prompts"] += 1
        self.event(human_prompt(text, at, line, self.session_id, kind, self.branch(entry_id)))

    def message(self, message: dict[str, Any], at: str, line: int, entry_id: str | None) -> None:
        role = message.get("role")
        if role == "assistant":
            self.assistant(message, at, line, entry_id)
        elif role == "toolResult":
            self.tool_result(message, at, line)
        elif role == "bashExecution":
            # The human's `!cmd`: an operator action, not a model call.
            self.counts["bash_executions"] += 1
            data = scalars(message, ("command", "exitCode", "cancelled", "truncated"))
            if isinstance(message.get("output"), str):
                data["output_preview"] = preview_of(message["output"])
            self.event(ImportedEvent("pi.bash_execution", at, line, "operator", data, self.branch(entry_id)))
            command = message.get("command")
            self.human(f"!{command}" if isinstance(command, str) else "!", at, line, entry_id, "bash")
        elif role == "user":
            self.human(message.get("content"), at, line, entry_id, "prompt")
        elif role in INJECTED_ROLES:
            self.human(message.get("content"), at, line, entry_id, "injected")

    def assistant(self, message: dict[str, Any], at: str, line: int, entry_id: str | None) -> None:
        content = message.get("content")
        if isinstance(content, str) or content is None:
            return
        if not isinstance(content, list):
            raise self.where.fail("assistant content must be a list")
        stop = message.get("stopReason")
        context = {key: message[key] for key in ("model", "provider") if type(message.get(key)) is str}
        branch: Any = False  # computed once, for the first call
        for block in content:
            if type(block) is not dict or block.get("type") != "toolCall":
                continue
            raw_id, tool = block.get("id", ""), block.get("name")
            if type(raw_id) is not str or type(tool) is not str or not tool.strip():
                self.where.text(raw_id, "toolCall id")
                self.where.text(tool, "toolCall name", empty=False)
            if branch is False:
                branch = self.branch(entry_id)
            call = ImportedCall("", str(tool), block.get("arguments", {}), at, line, branch, dict(context))
            if self.cwd is not None:
                call.fields["cwd"] = self.cwd
            # A call of an aborted message never ran, unless a result shows up after all.
            if stop in NOT_EXECUTED_STOPS and self.book.count not in self.hindsight.revived:
                call.fields["executed"] = False
                call.result = ImportedResult(
                    "open",
                    None,
                    None,
                    fields={"executed": False, "note": f"never executed: the assistant message stopped with {stop!r}"},
                )
            self.book.add(raw_id, call)

    def tool_result(self, message: dict[str, Any], at: str, line: int) -> None:
        raw_id, failed = message.get("toolCallId"), message.get("isError")
        if type(raw_id) is not str or type(failed) is not bool:
            raw_id = self.where.text(raw_id, "toolResult toolCallId")
            failed = self.where.flag(failed, "toolResult isError")
        text, others = join_text(message.get("content"), self.where, "toolResult content")
        result = ImportedResult("error" if failed else "ok", at, line, text)
        if others:
            result.value["blocks"] = others
        details = message.get("details")
        if details not in (None, {}):
            result.value["details"] = details
        if failed and text == SKIPPED_TEXT:
            result.fields.update(executed=False, note="not executed: pi skipped it because the user queued a message")
        paired = self.book.pair(raw_id, result)
        if paired is not None and paired[1].fields.get("executed") is False:
            self.revived.add(paired[0])  # its call went out marked not executed: walk again
