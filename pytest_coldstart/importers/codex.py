"""OpenAI Codex CLI rollouts (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``), envelope era.

Format facts: research/harness-formats.md §3. Every line is ``{timestamp, type, payload}``; the
first is ``session_meta``. Codex persists no error flag, so a result's status comes from the
exit code printed in its output (``Process exited with code N``, ``Exit code: N`` or JSON
``metadata.exit_code``); a call without output (interrupted turn, crash) stays ``open``. The
bare pre-September-2025 layout has no per-line times and is refused.

A call keeps the folder it ran in as ``cwd``: its own ``workdir`` / ``working_directory``, else
the latest ``turn_context`` cwd, else the session's. What the human typed (``user_message``
events, user messages that are not the harness's own context) and their ``!cmd`` shell
commands become ``human.prompt`` marks (see ``human``); a typed message is written both as a
user message and as an event, and counts once.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from pathlib import Path
from typing import Any

from pytest_coldstart.importers import base
from pytest_coldstart.importers.base import ImportedCall, ImportedEvent, ImportedResult, Where
from pytest_coldstart.importers.events import scalars
from pytest_coldstart.importers.human import human_prompt
from pytest_coldstart.importers.walking import Hindsight, Sink, Walker, collect
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.errors import VersionError
from pytest_coldstart.run.numbers import digits

KNOWN_MAJORS = (0,)
CALLS = ("function_call", "custom_tool_call", "local_shell_call")
OUTPUTS = ("function_call_output", "custom_tool_call_output")
EVENTS = {"turn_aborted": ("reason",), "thread_rolled_back": ("num_turns",), "context_compacted": ()}
_EXIT = re.compile(r"^(?:Process exited with code|Exit code:)\s*(-?[0-9]{1,18})\s*$")
_TIMEOUT = re.compile(r"^command timed out after \d+")
#: user messages that are the harness's own context, not the human's words
INJECTED = ("<environment_context>", "<user_instructions>", "# AGENTS.md instructions", "<permissions instructions>")
INJECTED_TOO = ("<INSTRUCTIONS>", "<turn_aborted>", "<developer_instructions>")


def exit_code(output: str) -> tuple[int | None, bool]:
    """(exit code or None, timed out) read from a Codex tool output's header lines."""
    stripped = output.lstrip()
    if stripped.startswith("{"):
        try:
            value = jsonio.loads(stripped)
        except (ValueError, RecursionError):
            value = None
        if isinstance(value, dict) and isinstance(value.get("metadata"), dict):
            code = value["metadata"].get("exit_code")
            if isinstance(code, int) and not isinstance(code, bool):
                return code, False
    timed_out = False
    for line in output.splitlines()[:12]:
        if line.strip() == "Output:":
            break  # the command's own output follows: never read codes from it
        if _TIMEOUT.match(line):
            timed_out = True
        match = _EXIT.match(line)
        if match:
            return int(match.group(1)), timed_out
    return None, timed_out


class CodexImporter:
    name = "codex"
    version = "1.0.0"
    format = "codex-rollout"
    description = "OpenAI Codex CLI rollout JSONL (envelope format, CLI 0.x)"

    def sniff(self, first: dict[str, Any]) -> bool:
        return first.get("type") == "session_meta" and isinstance(first.get("payload"), dict)

    def parse(self, path: Path) -> base.ImportedSession:
        return collect(self.walk, path)

    def walk(self, path: Path, sink: Sink) -> base.ImportedSession:
        """One pass: nothing in a rollout is decided by a later line (no branches)."""
        where = Where(path)
        walk = _Walk(where, sink, Hindsight())
        meta: dict[str, Any] | None = None
        first = last = ""
        for item in base.read_lines(path):
            where.line = item.number
            value = item.value
            if meta is None and "payload" not in value and ("instructions" in value or "record_type" in value):
                raise VersionError(
                    "bare Codex rollout (before September 2025, no per-line timestamps) is not supported",
                    where.path,
                    where.line,
                )
            kind = where.text(value.get("type"), "line type", empty=False)
            payload = where.obj(value.get("payload"), "payload")
            at = where.at(value.get("timestamp"))
            if not first or at < first:
                first = at
            if at > last:
                last = at
            if meta is None:
                if kind != "session_meta":
                    raise where.fail("not a Codex rollout: line 1 must be a session_meta line")
                meta = payload
                _check_version(payload.get("cli_version"), where)
                walk.session_id = meta.get("id") if isinstance(meta.get("id"), str) else None
                walk.cwd = walk.folder(meta.get("cwd"))
                continue
            walk.line(kind, payload, at, item.number)
        if meta is None:
            raise where.fail("empty rollout")
        walk.finish()
        return base.ImportedSession(
            format_version=meta["cli_version"],
            calls=[],
            events=[],
            session_id=meta.get("id") if isinstance(meta.get("id"), str) else None,
            started_at=first,
            ended_at=last,
            lines=where.line,
            counts={"renamed_ids": walk.book.renamed, **walk.counts},
            metadata={
                **scalars(meta, ("id", "cwd", "originator", "cli_version", "source", "model_provider")),
                **({"cwds": list(walk.cwds)} if walk.cwds else {}),
            },
        )


def _check_version(version: Any, where: Where) -> None:
    version = where.text(version, "session_meta cli_version", empty=False)
    major = version.split(".", 1)[0]
    if digits(major) not in KNOWN_MAJORS:
        raise VersionError(
            f"Codex CLI version {version!r} is not a known rollout format (this importer reads "
            f"{', '.join(f'{m}.x' for m in KNOWN_MAJORS)}); refusing to guess",
            where.path,
            where.line,
        )


class _Walk(Walker):
    def __init__(self, where: Where, sink: Sink, facts: Hindsight):
        super().__init__(where, sink, facts, "session_meta_replays", "unknown_lines", "human_prompts")
        self.model: dict[str, Any] = {}
        self.aborts: list[tuple[int, str]] = []
        self.session_id: str | None = None
        self.cwd: str | None = None  # the latest turn's (at first the session's)
        self.cwds: dict[str, None] = {}  # every folder a call ran in, in order
        # a typed message is both a user message item and a user_message event: pair them
        self.unpaired: tuple[Counter[str], Counter[str]] = (Counter(), Counter())

    def folder(self, value: Any, base: str | None = None) -> str | None:
        """A working directory; a relative one is taken from ``base`` (Codex resolves it so)."""
        if not isinstance(value, str) or not value:
            return base
        if base is not None and base.startswith("/") and not value.startswith("/"):
            return posixpath.normpath(posixpath.join(base, value))
        return value

    def line(self, kind: str, payload: dict[str, Any], at: str, line: int) -> None:
        if kind == "response_item":
            item = payload.get("type")
            if item in CALLS:
                self.call(item, payload, at, line)
            elif item in OUTPUTS:
                self.output(payload, at, line)
            elif item == "message" and payload.get("role") == "user":
                self.user_item(payload, at, line)
        elif kind == "turn_context":
            self.model = scalars(payload, ("model",))
            self.cwd = self.folder(payload.get("cwd"), self.cwd)
        elif kind == "event_msg" and payload.get("type") == "user_message":
            text = payload.get("message")
            self.human(text if isinstance(text, str) else "", at, line, 1)
        elif kind == "event_msg" and isinstance(payload.get("type"), str) and payload["type"] in EVENTS:
            name = payload["type"]
            self.event(ImportedEvent(f"codex.{name}", at, line, "harness", scalars(payload, EVENTS[name])))
            if name == "turn_aborted":
                self.aborts.append((line, str(payload.get("reason"))))
        elif kind == "compacted":
            self.event(ImportedEvent("codex.compacted", at, line, "harness", {}))
        elif kind == "session_meta":
            self.counts["session_meta_replays"] += 1  # a forked/sub-agent file replays its parent's
        elif kind not in ("event_msg", "turn_context"):
            self.counts["unknown_lines"] += 1

    def call(self, item: str, payload: dict[str, Any], at: str, line: int) -> None:
        raw_id = self.where.text(payload.get("call_id", ""), f"{item} call_id")
        if item == "local_shell_call":
            tool, arguments = "local_shell", payload.get("action", {})
        else:
            tool = self.where.text(payload.get("name"), f"{item} name", empty=False)
            if item == "custom_tool_call":
                arguments = {"input": self.where.text(payload.get("input", ""), "custom_tool_call input")}
            else:
                arguments = payload.get("arguments", {})
                if isinstance(arguments, str):
                    try:
                        arguments = jsonio.loads(arguments)
                    except (ValueError, RecursionError):
                        pass  # not JSON: kept verbatim as the string the model emitted
        context = dict(self.model)
        given = arguments.get("workdir", arguments.get("working_directory")) if isinstance(arguments, dict) else None
        cwd = self.folder(given, self.cwd)
        if cwd is not None:
            context["cwd"] = cwd
            self.cwds.setdefault(cwd)
        self.book.add(raw_id, ImportedCall("", tool, arguments, at, line, None, context))

    def user_item(self, payload: dict[str, Any], at: str, line: int) -> None:
        text, others = base.join_text(payload.get("content"), self.where, "user message content")
        if (text.strip() or others) and not text.lstrip().startswith(INJECTED + INJECTED_TOO):
            shown = "\n".join([text] * bool(text) + [f"[{block.get('type')}]" for block in others])
            self.human(text, at, line, 0, shown)

    def human(self, text: str, at: str, line: int, side: int, shown: str | None = None) -> None:
        """One human message, unless it is the other half of one already marked (paired by
        its text: the event has no image blocks)."""
        other = self.unpaired[1 - side]
        key = text.strip()
        text = text if shown is None else shown
        if other[key]:
            other[key] -= 1
            return
        self.unpaired[side][key] += 1
        kind = "bash" if key.startswith("<user_shell_command>") else "prompt"
        self.counts["human_prompts"] += 1
        self.event(human_prompt(text, at, line, self.session_id, kind))

    def output(self, payload: dict[str, Any], at: str, line: int) -> None:
        raw_id = self.where.text(payload.get("call_id"), "output call_id")
        text, others = base.join_text(payload.get("output"), self.where, "output")
        code, timed_out = exit_code(text)
        result = ImportedResult("error" if (code not in (None, 0) or timed_out) else "ok", at, line, text)
        if others:
            result.value["blocks"] = others
        if code is not None:
            result.fields["exit_code"] = code
        if timed_out:
            result.fields["timed_out"] = True
        self.book.pair(raw_id, result)

    def finish(self) -> None:
        for call in self.book.unanswered():
            if call.result is not None:
                continue
            abort = next((reason for line, reason in self.aborts if line > call.line), None)
            if abort is not None:
                call.result = ImportedResult(
                    "open", None, None, fields={"note": f"no output: the turn was aborted ({abort})"}
                )
        self.book.close()
