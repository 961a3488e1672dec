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

from pytest_coldstart.errors import VersionError
from pytest_coldstart.importers import base
from pytest_coldstart.importers.base import ABANDONED, ImportedCall, ImportedResult, Walker, Where
from pytest_coldstart.importers.events import orphan_events, scalars

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
        where = Where(path)
        lines: list[tuple[int, dict[str, Any], str | None]] = []
        seen: set[str] = set()
        duplicates = 0
        cli_version: str | None = None
        session_id: str | None = None
        for item in base.read_lines(path):
            where.line = item.number
            value = item.value
            kind = where.text(value.get("type"), "line type", empty=False)
            uuid = value.get("uuid")
            if uuid is not None:
                uuid = where.text(uuid, "uuid", empty=False)
                if uuid in seen:
                    duplicates += 1  # a resumed session repeats earlier lines
                    continue
                seen.add(uuid)
            at = where.at(value.get("timestamp")) if kind in TIMED or "timestamp" in value else None
            if kind in CONVERSATION and uuid is None:
                raise where.fail(f"{kind} line has no uuid")
            if cli_version is None and "version" in value:
                cli_version = _check_version(where.text(value["version"], "version", empty=False), where)
            if session_id is None and isinstance(value.get("sessionId"), str):
                session_id = value["sessionId"]
            lines.append((item.number, value, at))
        if not lines:
            raise where.fail("empty transcript")
        if cli_version is None:
            raise where.fail("not a Claude Code transcript: no line carries the CLI version")
        active = _active_chain(lines, where)
        walk = _Walk(where)
        for line, value, at in lines:
            where.line = line
            walk.line(value, at, line, active)
        walk.finish()
        times = [at for _, _, at in lines if at is not None]
        if not times:
            raise where.fail("no timestamped line in the transcript")
        return base.ImportedSession(
            format_version=cli_version,
            calls=walk.book.calls,
            events=walk.events + orphan_events(walk.book),
            session_id=session_id,
            started_at=min(times),
            ended_at=max(times),
            lines=lines[-1][0],
            counts={"duplicate_lines": duplicates, "renamed_ids": walk.book.renamed, **walk.counts},
            metadata={"cli_version": cli_version, **scalars(lines[-1][1], ("cwd", "gitBranch"))},
        )


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


def _active_chain(lines: list[tuple[int, dict[str, Any], str | None]], where: Where) -> set[str]:
    parents: dict[str, str | None] = {}
    leaf: str | None = None
    for line, value, _ in lines:
        uuid = value.get("uuid")
        if uuid is None:
            continue
        where.line = line
        parent = where.opt_text(value.get("parentUuid"), "parentUuid")
        if parent is None:
            parent = where.opt_text(value.get("logicalParentUuid"), "logicalParentUuid")
        parents[uuid] = parent
        if value["type"] in CONVERSATION and not where.flag(value.get("isSidechain"), "isSidechain"):
            leaf = uuid
    return base.chain(parents, leaf)


class _Walk(Walker):
    def __init__(self, where: Where):
        super().__init__(where, "progress_lines", "sidechain_calls", "interrupts")
        self.progress: dict[str, str] = {}  # tool_use id -> time of its last progress line

    def line(self, value: dict[str, Any], at: str | None, line: int, active: set[str]) -> None:
        kind = value["type"]
        if kind == "progress":
            self.counts["progress_lines"] += 1
            if isinstance(value.get("toolUseID"), str) and at is not None:
                self.progress[value["toolUseID"]] = at
            return
        sidechain = self.where.flag(value.get("isSidechain"), "isSidechain")
        branch = None if sidechain or value.get("uuid") in active else ABANDONED
        if kind == "assistant":
            self.assistant(value, at or "", line, branch, sidechain)
        elif kind == "user":
            self.user(value, at or "", line, branch)
        elif kind == "system" and value.get("subtype") in COMPACTIONS:
            data = scalars(value, ("subtype", "logicalParentUuid"))
            if isinstance(value.get("compactMetadata"), dict):
                data.update(scalars(value["compactMetadata"], ("trigger", "preTokens")))
            self.events.append(base.ImportedEvent("claude.compaction", at or "", line, "harness", data, branch))

    def assistant(self, value: dict[str, Any], at: str, line: int, branch: str | None, sidechain: bool) -> None:
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
            self.book.add(raw_id, ImportedCall("", tool, block.get("input", {}), at, line, branch, dict(context)))
            if sidechain:
                self.counts["sidechain_calls"] += 1

    def user(self, value: dict[str, Any], at: str, line: int, branch: str | None) -> None:
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

    def _interrupt(self, text: str, at: str, line: int, branch: str | None) -> None:
        if text.strip() in INTERRUPTS:
            self.counts["interrupts"] += 1
            self.events.append(base.ImportedEvent("claude.interrupt", at, line, "operator", {"text": text.strip()}, branch))

    def finish(self) -> None:
        for call in self.book.calls:
            seen = self.progress.get(call.fields.get("source_call_id", call.call_id))
            if call.result is None and seen is not None:
                call.result = ImportedResult(
                    "open", None, None,
                    fields={"last_progress_at": seen, "note": "no tool_result: the tool was still running when the transcript ends"},
                )
