"""Human input in a harness session: ``human.prompt`` marks, as live capture writes them.

A cold start runs unattended. The first prompt of a session is the task; every later human
input that reached the agent keeps the run PENDING (``audit/live.py``, no review clears it):
a typed prompt, a shell command the human ran in the agent's environment (its output went
into the agent's context), context an extension or a hook injected. An importer writes one
mark per such input, the first prompt included: the audit counts marks per ``session_id`` and
takes the first as the task, exactly as for live capture. Tool results, the harness's own
reminders and interrupt markers are not human input.

The data keys are live capture's (``session_id``, ``prompt``) plus ``kind`` (prompt, bash,
bash_output, command, injected, attachment) and the text's ``size`` and ``sha256``; a long
text keeps a preview in ``prompt`` (the whole text stays in the stored session copy).
"""

from __future__ import annotations

from pytest_coldstart.importers.base import ImportedEvent
from pytest_coldstart.importers.events import PREVIEW_CHARS, preview_of
from pytest_coldstart.run.vocabulary import HUMAN_PROMPT_MARK

#: the harness's own reminders wrapped into a user message (Claude Code)
_REMINDER = ("<system-reminder>", "</system-reminder>")


def human_prompt(
    text: str, at: str, line: int, session_id: str | None, kind: str = "prompt", branch: str | None = None
) -> ImportedEvent:
    shown = preview_of(text)
    data = {
        "session_id": session_id,
        "prompt": text if len(text) <= PREVIEW_CHARS else shown["preview"],
        "kind": kind,
        "size": shown["size"],
        "sha256": shown["sha256"],
    }
    return ImportedEvent(HUMAN_PROMPT_MARK, at, line, "operator", data, branch)


def is_reminder(text: str) -> bool:
    """A text that is only harness reminders (``<system-reminder>…</system-reminder>``)."""
    stripped = text.strip()
    return stripped.startswith(_REMINDER[0]) and stripped.endswith(_REMINDER[1])


def shell_kind(text: str) -> str:
    """Claude Code's bash mode (``!cmd``) and slash commands, by the tags it writes."""
    head = text.lstrip()
    if head.startswith("<bash-input>"):
        return "bash"
    if head.startswith(("<bash-stdout>", "<bash-stderr>")):
        return "bash_output"
    if head.startswith(("<command-name>", "<command-message>", "<local-command-stdout>")):
        return "command"
    return "prompt"
