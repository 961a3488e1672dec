"""Claude Code project transcripts (``~/.claude/projects/<cwd>/<sessionId>.jsonl``).

Format facts: research/harness-formats.md §2. The active chain ends at the last non-sidechain
``user``/``assistant`` line and follows ``parentUuid`` (through ``logicalParentUuid`` across a
compaction). ``progress`` lines are never calls; the last one of an unanswered call is kept as
``last_progress_at``. Sidechain (subagent) calls really ran: they are imported with
``sidechain: true`` and their ``agent_id``, not merged into the main chain. Lines repeated by a
resumed session (same ``uuid``) are read once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytest_coldstart.importers import base
from pytest_coldstart.importers.base import ImportedCall, ImportedResult, Where
from pytest_coldstart.importers.events import scalars
from pytest_coldstart.importers.walking import Branches, Hindsight, Sink, Walker, chain, collect, walk_with_hindsight
from pytest_coldstart.run.errors import VersionError

KNOWN_MAJORS = (1, 2)
CONVERSATION = ("user", "assistant")
TIMED = ("user", "assistant", "system", "progress", "attachment")
INTERRUPTS = ("[Request interrupted by user for tool use]", "[Request interrupted by user]")
COMPACTIONS = ("compact_boundary", "microcompact_boundary")


class ClaudeCodeImporter:
    name = "claude-code"
    version = "1.0.0"
    format = "claude-code-transcript"
    description = "Claude Code project transcript JSONL (CLI 1.x and 2.x)"

    def sniff(self, first: dict[str, Any]) -> bool:
        return first.get("type") in ("file-history-snapshot", "summary", "queue-operation") or (
            "sessionId" in first and "uuid" in first
        )

    def parse(self, path: Path) -> base.ImportedSession:
        return collect(self.walk, path)

    def walk(self, path: Path, sink: Sink) -> base.ImportedSession:
        return walk_with_hindsight(lambda facts: self._walk(path, sink, facts), sink)

    def _walk(self, path: Path, sink: Sink, facts: Hindsight) -> tuple[base.ImportedSession, Hindsight | None]:
        where = Where(path)
        parents: dict[str, str | None] = {}  # every uuid read (a repeated one is skipped)
        previous: str | None = None
        leaf: str | None = None
        duplicates = 0
        cli_version: str | None = None
        session_id: str | None = None
        last: tuple[int, dict[str, Any]] | None = None
        first_at = last_at = ""
        walk = _Walk(where, sink, facts)
        for item in base.read_lines(path):
            where.line = item.number
            value = item.value
            kind = where.text(value.get("type"), "line type", empty=False)
            uuid = value.get("uuid")
            if uuid is not None:
                uuid = where.text(uuid, "uuid", empty=False)
                if uuid in parents:
                    duplicates += 1  # a resumed session repeats earlier lines
                    continue
            at = where.at(value.get("timestamp")) if kind in TIMED or "timestamp" in value else None
            if kind in CONVERSATION and uuid is None:
                raise where.fail(f"{kind} line has no uuid")
            if cli_version is None and "version" in value:
                cli_version = _check_version(where.text(value["version"], "version", empty=False), where)
            if session_id is None and isinstance(value.get("sessionId"), str):
                session_id = value["sessionId"]
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
            metadata={"cli_version": cli_version, **scalars(last[1], ("cwd", "gitBranch"))},
        )
        return info, learned


def _check_version(version: str, where: Where) -> str:
    major = version.split(".", 1)[0]
    if not major.isdigit() or int(major) not in KNOWN_MAJORS:
        raise VersionError(
            f"Claude Code CLI version {version!r} is not a known transcript format "
            f"(this importer reads CLI {', '.join(f'{m}.x' for m in KNOWN_MAJORS)}); refusing to guess",
            where.path,
            where.line,
        )
    return version


class _Walk(Walker):
    def __init__(self, where: Where, sink: Sink, facts: Hindsight):
        super().__init__(where, sink, facts, "progress_lines", "sidechain_calls", "interrupts")
        self.progress: dict[str, str] = {}  # tool_use id -> time of its last progress line

    def line(self, value: dict[str, Any], at: str | None, line: int, uuid: str | None) -> None:
        kind = value["type"]
        if kind == "progress":
            self.counts["progress_lines"] += 1
            if isinstance(value.get("toolUseID"), str) and at is not None:
                self.progress[value["toolUseID"]] = at
            return
        sidechain = self.where.flag(value.get("isSidechain"), "isSidechain")
        # Sidechain (subagent) lines are off the main chain but not abandoned.
        branch = _Branch(self.branches, None if sidechain else uuid, sidechain)
        if kind == "assistant":
            self.assistant(value, at or "", line, branch, sidechain)
        elif kind == "user":
            self.user(value, at or "", line, branch)
        elif kind == "system" and value.get("subtype") in COMPACTIONS:
            data = scalars(value, ("subtype", "logicalParentUuid"))
            if isinstance(value.get("compactMetadata"), dict):
                data.update(scalars(value["compactMetadata"], ("trigger", "preTokens")))
            self.event(base.ImportedEvent("claude.compaction", at or "", line, "harness", data, branch.get()))

    def assistant(self, value: dict[str, Any], at: str, line: int, branch: _Branch, sidechain: bool) -> None:
        message = self.where.obj(value.get("message"), "assistant message")
        content = message.get("content")
        if not isinstance(content, list):
            return
        context = scalars(message, ("model",))
        if sidechain:
            context["sidechain"] = True
            context.update(scalars(value, ("agentId",)))
        for block in content:
            if not isinstance(block, dict) or block.get("type") != "tool_use":
                continue
            raw_id = self.where.text(block.get("id", ""), "tool_use id")
            tool = self.where.text(block.get("name"), "tool_use name", empty=False)
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
            failed = self.where.flag(block.get("is_error"), "tool_result is_error")
            text, others = base.join_text(block.get("content"), self.where, "tool_result content")
            result = ImportedResult("error" if failed else "ok", at, line, text)
            if others:
                result.value["blocks"] = others
            if isinstance(outcome, dict) and outcome.get("interrupted") is True:
                result.fields["interrupted"] = True
            self.book.pair(raw_id, result)

    def _interrupt(self, text: str, at: str, line: int, branch: _Branch) -> None:
        if text.strip() in INTERRUPTS:
            self.counts["interrupts"] += 1
            self.event(
                base.ImportedEvent("claude.interrupt", at, line, "operator", {"text": text.strip()}, branch.get())
            )

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
