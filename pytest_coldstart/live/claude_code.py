"""Claude Code's hooks (``settings.json`` → ``hooks``): one JSON object on stdin per event.

Every payload carries ``hook_event_name``, ``session_id``, ``transcript_path`` and ``cwd``.
PreToolUse (``tool_name``, ``tool_input``, ``tool_use_id``) becomes a ``call``; PostToolUse
(plus ``tool_response``) and PostToolUseFailure (plus ``error``, ``is_interrupt``) a
``result``; SessionStart a ``phase`` (agent, by the harness); UserPromptSubmit (``prompt``) a
``human.prompt`` mark by the operator (a human turn is evidence the audit must see);
SessionEnd, Stop, SubagentStop, Notification and PreCompact marks. ``tool_use_id`` is the id of
the tool_use block in the transcript, so the importer of the session file finds the same ids.
"""

from __future__ import annotations

import json
from typing import Any

from pytest_coldstart.live.adapter import CLOSES_SESSION, HUMAN_PROMPT, LATE_CALL, HookContext, digest, mark, text_field

#: events that only become marks: hook event -> mark name
MARKS = {
    "SessionEnd": "session.end",
    "Stop": "agent.stop",
    "SubagentStop": "subagent.stop",
    "Notification": "harness.notification",
    "PreCompact": "context.compact",
    "PermissionRequest": "harness.permission_request",
}
#: what --print-config wires (matchers only where Claude Code takes one)
CONFIGURED = (
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "SubagentStop",
    "SessionEnd",
)
WITH_MATCHER = {"PreToolUse", "PostToolUse", "PostToolUseFailure"}
#: seconds Claude Code waits for the hook (the hook itself stays far below)
HOOK_TIMEOUT_S = 10


class ClaudeCodeAdapter:
    name = "claude-code"
    description = "Claude Code hooks (PreToolUse/PostToolUse/… JSON on stdin)"

    def translate(self, payload: dict[str, Any], context: HookContext) -> list[dict[str, Any]]:
        event = text_field(payload, "hook_event_name") or "unknown"
        common = {"source": context.source, "session_id": text_field(payload, "session_id")}
        cwd = text_field(payload, "cwd")
        if event == "PreToolUse":
            return [_call(payload, common, cwd)]
        if event in ("PostToolUse", "PostToolUseFailure"):
            return [_result(payload, common, cwd, failed=event == "PostToolUseFailure")]
        if event == "SessionStart":
            how = text_field(payload, "source") or "startup"
            return [
                {
                    "record": "phase",
                    "phase": "agent",
                    "actor": "harness",
                    "note": f"claude-code session {common['session_id'] or '?'} started ({how})",
                    "evidence": [],
                    **common,
                    "start": how,
                    "transcript_path": text_field(payload, "transcript_path"),
                    "cwd": cwd,
                    "model": payload.get("model") if isinstance(payload.get("model"), str) else None,
                }
            ]
        if event == "UserPromptSubmit":
            prompt = payload.get("prompt")
            return [mark(HUMAN_PROMPT, "operator", common, {"prompt": prompt if isinstance(prompt, str) else None})]
        name = MARKS.get(event, "hook.unknown_event")
        data = {k: v for k, v in payload.items() if k not in ("session_id", "transcript_path", "cwd")}
        record = mark(name, "harness", common, data)
        if event == "SessionEnd":
            record[CLOSES_SESSION] = common["session_id"]
        return [record]

    def settings(self, command: str) -> str:
        hooks: dict[str, Any] = {}
        for event in CONFIGURED:
            entry: dict[str, Any] = {"hooks": [{"type": "command", "command": command, "timeout": HOOK_TIMEOUT_S}]}
            if event in WITH_MATCHER:
                entry = {"matcher": "*", **entry}
            hooks[event] = [entry]
        return json.dumps({"hooks": hooks}, indent=2)


def _call_id(payload: dict[str, Any]) -> tuple[str, bool]:
    """The tool_use id, or (older versions without it) one derived from the call itself."""
    given = text_field(payload, "tool_use_id")
    if given is not None:
        return given, False
    basis = [payload.get("session_id"), payload.get("tool_name"), payload.get("tool_input")]
    return f"live-{digest(basis)[:16]}", True


def _call(payload: dict[str, Any], common: dict[str, Any], cwd: str | None) -> dict[str, Any]:
    call_id, derived = _call_id(payload)
    arguments = payload.get("tool_input")
    record = {
        "record": "call",
        "call_id": call_id,
        "tool": text_field(payload, "tool_name") or "unknown",
        "arguments": arguments if arguments is not None else {},
        "phase": "agent",
        "actor": "agent",
        **common,
        "cwd": cwd,
        "arguments_sha256": digest(arguments if arguments is not None else {}),
    }
    if derived:
        record["derived_id"] = True
    return record


def _result(payload: dict[str, Any], common: dict[str, Any], cwd: str | None, *, failed: bool) -> dict[str, Any]:
    call = _call(payload, common, cwd)
    if failed:
        status = "error"
        value: Any = {"error": payload.get("error"), "is_interrupt": payload.get("is_interrupt") is True}
    else:
        value = payload.get("tool_response")
        status = "error" if _says_error(value) else "ok"
    record = {
        "record": "result",
        "call_id": call["call_id"],
        "status": status,
        "result": value,
        **common,
        LATE_CALL: call,
    }
    if call.get("derived_id"):
        record["derived_id"] = True
    return record


def _says_error(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    return value.get("is_error") is True or value.get("interrupted") is True or bool(value.get("error"))
