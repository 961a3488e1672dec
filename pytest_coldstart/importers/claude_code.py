"""Claude Code project transcripts (``~/.claude/projects/<cwd>/<sessionId>.jsonl``).

Format facts: research/harness-formats.md §2. The active chain ends at the last non-sidechain
``user``/``assistant`` line and follows ``parentUuid`` (through ``logicalParentUuid`` across a
compaction). ``progress`` lines are never calls; the last one of an unanswered call is kept as
``last_progress_at``. Sidechain (subagent) calls really ran: they are imported with
``sidechain: true`` and their ``agent_id``, not merged into the main chain. Lines repeated by a
resumed session (same ``uuid``) are read once; a repeated uuid whose line differs from the
first is refused (it is no resume copy, and neither version may vanish). Every call keeps the
``cwd`` of its line. Sub-agent transcripts beside the session are read with it, by time
(``claude_subagents``), and so are the calls ``agent_progress`` lines carry. Human input (typed prompts, bash mode, slash commands, hook context
attachments) becomes ``human.prompt`` marks (see ``human``).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from pytest_coldstart.importers import base
from pytest_coldstart.importers.base import ImportedCall, ImportedResult, Where
from pytest_coldstart.importers.claude_subagents import (
    Tasks,
    agent_of,
    found,
    merged,
    progress_line,
    session_id_of,
    transcripts,
)
from pytest_coldstart.importers.events import scalars
from pytest_coldstart.importers.human import human_prompt, is_reminder, shell_kind
from pytest_coldstart.importers.walking import Branches, Hindsight, Sink, Walker, chain, collect, walk_with_hindsight
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.errors import VersionError
from pytest_coldstart.run.numbers import digits

KNOWN_MAJORS = (1, 2)
CONVERSATION = ("user", "assistant")
TIMED = ("user", "assistant", "system", "progress", "attachment")
INTERRUPTS = ("[Request interrupted by user for tool use]", "[Request interrupted by user]")
COMPACTIONS = ("compact_boundary", "microcompact_boundary")
#: attachment types the harness adds in normal operation (its own reminders, not outside input)
HARNESS_ATTACHMENTS = frozenset(
    ("todo_reminder", "task_reminder", "plan_mode", "plan_mode_exit", "plan_mode_reentry", "date_change")
    + ("critical_system_reminder", "skill_listing", "deferred_tools_delta", "token_usage", "budget_usd")
    + ("output_style",)
)
#: attachment keys that carry text into the agent's context
ATTACHMENT_TEXT = ("content", "stdout", "stderr", "additionalContext", "prompt", "text")


class ClaudeCodeImporter:
    name = "claude-code"
    version = "1.0.0"
    format = "claude-code-transcript"
    description = "Claude Code project transcript JSONL (CLI 1.x and 2.x)"
    reads_beside = True  # walk() reads the sub-agent transcripts beside the session too

    def sniff(self, first: dict[str, Any]) -> bool:
        return first.get("type") in ("file-history-snapshot", "summary", "queue-operation") or (
            "sessionId" in first and "uuid" in first
        )

    def parse(self, path: Path) -> base.ImportedSession:
        return collect(self.walk, path)

    def companions(self, source: Path, session: base.ImportedSession) -> list[str]:
        """Sub-agent transcripts beside the session that the walk did not read (research §2.1):
        named, never silently left out."""
        read = {item["path"] for item in session.metadata.get("subagents") or []}
        return [name for name, _, _ in found(source, session.session_id) if name not in read]

    def walk(self, path: Path, sink: Sink, beside: Path | None = None) -> base.ImportedSession:
        """``beside``: the session file as the user named it, whose folder holds its sub-agents'
        transcripts (``path`` may be a copy elsewhere)."""
        others = transcripts(beside, session_id_of(path)) if beside is not None else []
        return walk_with_hindsight(lambda facts: self._walk(path, sink, facts, others), sink)

    def _walk(
        self, path: Path, sink: Sink, facts: Hindsight, others: list[tuple[str, Path]]
    ) -> tuple[base.ImportedSession, Hindsight | None]:
        where = Where(path)
        parents: dict[str, str | None] = {}  # every uuid read
        seen: dict[str, tuple[int, bytes]] = {}  # uuid -> its first line and that line's digest
        previous: str | None = None
        leaf: str | None = None
        duplicates = 0
        cli_version: str | None = None
        session_id: str | None = None
        last: tuple[int, dict[str, Any]] | None = None
        first_at = last_at = ""
        walk = _Walk(where, sink, facts)
        for rank, item in merged(path, others):
            where.path, where.line = str(others[rank - 1][1] if rank else path), item.number
            value = item.value
            kind = where.text(value.get("type"), "line type", empty=False)
            uuid = value.get("uuid")
            if uuid is not None:
                uuid = where.text(uuid, "uuid", empty=False)
                if uuid in seen:
                    _same_as_first(item, seen[uuid], where)
                    duplicates += 1  # a resumed session repeats earlier lines
                    continue
                seen[uuid] = (item.number, _digest(item.value))
            if rank:
                walk.subagent_line(value, others[rank - 1][0], item.number)
                continue
            walk.at_line = item.number
            at = where.at(value.get("timestamp")) if kind in TIMED or "timestamp" in value else None
            if kind in CONVERSATION and uuid is None:
                raise where.fail(f"{kind} line has no uuid")
            if cli_version is None and "version" in value:
                cli_version = _check_version(where.text(value["version"], "version", empty=False), where)
            if session_id is None and isinstance(value.get("sessionId"), str):
                session_id = walk.session_id = value["sessionId"]
            if uuid is not None:
                parent = where.opt_text(value.get("parentUuid"), "parentUuid")
                if parent is None:
                    parent = where.opt_text(value.get("logicalParentUuid"), "logicalParentUuid")
                parents[uuid] = previous if parent == previous else parent  # one string, not two
                previous = uuid
                if kind in CONVERSATION and not where.flag(value.get("isSidechain"), "isSidechain"):
                    leaf = uuid
            if at is not None:
                if not first_at or at < first_at:
                    first_at = at
                if at > last_at:
                    last_at = at
            last = (item.number, value)
            walk.line(value, at, item.number, uuid)
        if last is None:
            raise where.fail("empty transcript")
        if cli_version is None:
            raise where.fail("not a Claude Code transcript: no line carries the CLI version")
        walk.finish()
        where.path = str(path)
        if not first_at:
            raise where.fail("no timestamped line in the transcript")
        # The active chain ends at the last main-chain user/assistant line.
        active = chain(parents, leaf)
        learned = Hindsight(active, set(), known=True) if walk.branches.wrong(active) else None
        info = base.ImportedSession(
            format_version=cli_version,
            calls=[],
            events=[],
            session_id=session_id,
            started_at=first_at,
            ended_at=last_at,
            lines=last[0],
            counts={"duplicate_lines": duplicates, "renamed_ids": walk.book.renamed, **walk.counts},
            metadata={
                "cli_version": cli_version,
                **scalars(last[1], ("gitBranch",)),
                **walk.folders(),
                **walk.subagents(others),
            },
        )
        return info, learned


def _digest(value: Any) -> bytes:
    return hashlib.blake2b(jsonio.canonical_bytes(value), digest_size=16).digest()


def _same_as_first(item: Any, first: tuple[int, bytes], where: Where) -> None:
    """A repeated uuid is a resume copy only when its line says what the first said (the
    research notes know of no field a resume changes): otherwise fail closed, naming both.
    Compared by the digest of each line's canonical JSON (key order aside), kept from the
    first: no line is read twice, however many repeat."""
    line, digest = first
    if _digest(item.value) == digest:
        return
    raise where.fail(
        f"uuid {item.value.get('uuid')!r} repeats line {line} with different content "
        "(a resumed session repeats lines unchanged; refusing to drop either version)"
    )


def _as_text(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return "\n".join(value)
    return value if isinstance(value, str) else jsonio.dumps_line(value).decode("utf-8", "replace")


def _check_version(version: str, where: Where) -> str:
    major = version.split(".", 1)[0]
    if digits(major) not in KNOWN_MAJORS:
        raise VersionError(
            f"Claude Code CLI version {version!r} is not a known transcript format "
            f"(this importer reads CLI {', '.join(f'{m}.x' for m in KNOWN_MAJORS)}); refusing to guess",
            where.path,
            where.line,
        )
    return version


class _Walk(Walker):
    def __init__(self, where: Where, sink: Sink, facts: Hindsight):
        super().__init__(where, sink, facts, "progress_lines", "sidechain_calls", "interrupts", "human_prompts")
        self.progress: dict[str, str] = {}  # tool_use id -> time of its last progress line
        self.session_id: str | None = None
        self.cwds: dict[str, None] = {}  # every line's cwd, in order of first appearance
        self.tasks = Tasks()
        self.transcript: str | None = None  # the sub-agent transcript being read, if any
        self.transcript_line = 0  # and its line there
        self.at_line = 0  # the session's last line read: a sub-agent line is placed after it

    def subagent_line(self, value: dict[str, Any], name: str, number: int) -> None:
        """A line of a sub-agent's transcript: its calls are the sub-agent's, whatever it says."""
        value = {**value, "isSidechain": True}
        if not isinstance(value.get("agentId"), str):
            value["agentId"] = agent_of(name)
        at = self.where.at(value.get("timestamp")) if value["type"] in TIMED or "timestamp" in value else None
        self.transcript, self.transcript_line = name, number
        try:
            # records keep the session's file order: the line is placed after the session line
            # read last, and says where it really is (subagent_transcript, subagent_line)
            self.line(value, at, self.at_line, None)
        finally:
            self.transcript = None

    def subagents(self, others: list[tuple[str, Path]]) -> dict[str, Any]:
        return self.tasks.metadata(others)

    def folders(self) -> dict[str, Any]:
        """run.json: the session's start folder (its first cwd) and every folder it used."""
        return {"cwd": next(iter(self.cwds)), "cwds": list(self.cwds)} if self.cwds else {}

    def line(self, value: dict[str, Any], at: str | None, line: int, uuid: str | None) -> None:
        kind = value["type"]
        if kind == "progress":
            self.counts["progress_lines"] += 1
            if isinstance(value.get("toolUseID"), str) and at is not None:
                self.progress[value["toolUseID"]] = at
            self._agent_progress(value, at or "", line)
            return
        sidechain = self.where.flag(value.get("isSidechain"), "isSidechain")
        # Sidechain (subagent) lines are off the main chain but not abandoned.
        branch = _Branch(self.branches, None if sidechain else uuid, sidechain)
        cwd = value.get("cwd")
        if isinstance(cwd, str) and cwd:
            self.cwds.setdefault(cwd)
        if kind == "assistant":
            self.assistant(value, at or "", line, branch, sidechain)
        elif kind == "user":
            self.user(value, at or "", line, branch)
            # a subagent's user lines are its parent agent's words, not a human's
            if not sidechain and value.get("isMeta") is not True and value.get("isCompactSummary") is not True:
                self.human(value, at or "", line, branch)
        elif kind == "attachment":
            self.attachment(value, at or "", line, branch)
        elif kind == "system" and value.get("subtype") in COMPACTIONS:
            data = scalars(value, ("subtype", "logicalParentUuid"))
            if isinstance(value.get("compactMetadata"), dict):
                data.update(scalars(value["compactMetadata"], ("trigger", "preTokens")))
            self.event(base.ImportedEvent("claude.compaction", at or "", line, "harness", data, branch.get()))

    def _agent_progress(self, value: dict[str, Any], at: str, line: int) -> None:
        """A sub-agent's message on an ``agent_progress`` line: its calls ran (imported once, with
        or without the transcript)."""
        side = progress_line(value)
        if side is not None:
            branch = _Branch(self.branches, None, True)
            if side["type"] == "assistant":
                self.assistant(side, at, line, branch, True)
            else:
                self.user(side, at, line, branch)

    def assistant(self, value: dict[str, Any], at: str, line: int, branch: _Branch, sidechain: bool) -> None:
        message = self.where.obj(value.get("message"), "assistant message")
        content = message.get("content")
        if not isinstance(content, list):
            return
        context = scalars(message, ("model",))
        if isinstance(value.get("cwd"), str) and value["cwd"]:
            context["cwd"] = value["cwd"]  # the folder this call ran in (Claude Code follows `cd`)
        if sidechain:
            context["sidechain"] = True
            context.update(scalars(value, ("agentId",)))
            if isinstance(value.get("agentId"), str):
                self.tasks.seen.add(value["agentId"])
        if self.transcript is not None:
            context.update(subagent_transcript=self.transcript, subagent_line=self.transcript_line)
        for block in content:
            if not isinstance(block, dict) or block.get("type") != "tool_use":
                continue
            raw_id = self.where.text(block.get("id", ""), "tool_use id")
            tool = self.where.text(block.get("name"), "tool_use name", empty=False)
            if not self.tasks.called(raw_id, tool, sidechain, self.transcript):
                continue  # already imported from the other copy (transcript or progress line)
            self.book.add(raw_id, ImportedCall("", tool, block.get("input", {}), at, line, branch.get(), dict(context)))
            if sidechain:
                self.counts["sidechain_calls"] += 1

    def user(self, value: dict[str, Any], at: str, line: int, branch: _Branch) -> None:
        message = self.where.obj(value.get("message"), "user message")
        content = message.get("content")
        if isinstance(content, str):
            self._interrupt(content, at, line, branch)
            return
        if not isinstance(content, list):
            return
        outcome = value.get("toolUseResult")
        for block in content:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                self._interrupt(block["text"], at, line, branch)
            if block.get("type") != "tool_result":
                continue
            raw_id = self.where.text(block.get("tool_use_id"), "tool_result tool_use_id")
            if not self.tasks.answered(raw_id, outcome, value.get("isSidechain") is True):
                continue
            failed = self.where.flag(block.get("is_error"), "tool_result is_error")
            text, others = base.join_text(block.get("content"), self.where, "tool_result content")
            result = ImportedResult("error" if failed else "ok", at, line, text)
            if others:
                result.value["blocks"] = others
            if isinstance(outcome, dict) and outcome.get("interrupted") is True:
                result.fields["interrupted"] = True
            if self.transcript is not None:
                result.fields["subagent_line"] = self.transcript_line
            self.book.pair(raw_id, result)

    def _interrupt(self, text: str, at: str, line: int, branch: _Branch) -> None:
        if text.strip() in INTERRUPTS:
            self.counts["interrupts"] += 1
            self.event(
                base.ImportedEvent("claude.interrupt", at, line, "operator", {"text": text.strip()}, branch.get())
            )

    def human(self, value: dict[str, Any], at: str, line: int, branch: _Branch) -> None:
        """The human's own words on a user line: everything but tool results, interrupt
        markers and the harness's reminders (an image the human pasted counts too)."""
        content = value["message"].get("content")
        parts: list[str] = []
        for block in [content] if isinstance(content, str) else content if isinstance(content, list) else []:
            if isinstance(block, str):
                text = block
            elif not isinstance(block, dict) or block.get("type") in ("tool_result", "thinking"):
                continue
            elif block.get("type") == "text":
                said = block.get("text")
                text = said if isinstance(said, str) else ""
            else:
                text = f"[{block.get('type')}]"
            if text.strip() and text.strip() not in INTERRUPTS and not is_reminder(text):
                parts.append(text)
        if parts:
            text = "\n".join(parts)
            self._prompt(text, at, line, shell_kind(text), branch)

    def attachment(self, value: dict[str, Any], at: str, line: int, branch: _Branch) -> None:
        """Context the harness attached for the agent (2.1.97+): a hook's output, a file the
        human mentioned, a message queued while the agent worked… Its own reminders, and a
        hook that said nothing, are not outside input."""
        attached = value.get("attachment")
        kind = attached.get("type") if isinstance(attached, dict) else None
        if not isinstance(attached, dict) or (isinstance(kind, str) and kind in HARNESS_ATTACHMENTS):
            return
        said = [attached[key] for key in ATTACHMENT_TEXT if attached.get(key) not in (None, "", [], {})]
        if not said and isinstance(kind, str) and kind.startswith("hook"):
            return
        text = "\n".join(_as_text(v) for v in said or [attached])
        self._prompt(text, at, line, f"attachment:{kind}", branch)

    def _prompt(self, text: str, at: str, line: int, kind: str, branch: _Branch) -> None:
        self.counts["human_prompts"] += 1
        self.event(human_prompt(text, at, line, self.session_id, kind, branch.get()))

    def finish(self) -> None:
        for call in self.book.unanswered():
            seen = self.progress.get(call.fields.get("source_call_id", call.call_id))
            if call.result is None and seen is not None:
                call.result = ImportedResult(
                    "open",
                    None,
                    None,
                    fields={
                        "last_progress_at": seen,
                        "note": "no tool_result: the tool was still running when the transcript ends",
                    },
                )
        self.book.close()


class _Branch:
    """A line's branch, asked for only when the line yields a call or an event."""

    __slots__ = ("branches", "sidechain", "uuid")

    def __init__(self, branches: Branches, uuid: str | None, sidechain: bool):
        self.branches, self.uuid, self.sidechain = branches, uuid, sidechain

    def get(self) -> str | None:
        return None if self.sidechain else self.branches.of(self.uuid)
