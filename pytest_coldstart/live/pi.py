"""pi: the shipped extension (``examples/pi-coldstart-extension.ts``) sends one JSON event per
hook invocation; ``--stream`` reads pi's ``--mode json`` event stream instead.

Extension events: ``session_start``, ``input`` (a user prompt), ``tool_call`` (``toolCallId``,
``toolName``, ``input``), ``tool_result`` (``toolCallId``, ``toolName``, ``content``,
``isError``), ``session_shutdown``. Stream events: ``tool_execution_start`` (``toolCallId``,
``toolName``, ``args``) and ``tool_execution_end`` (``result``, ``isError``); the others are
ignored there (they carry no timestamps: the recorder stamps arrival). ``toolCallId`` is the id
of the toolCall block in the session file, so ``trace import --format pi`` finds the same ids.
"""

from __future__ import annotations

from typing import Any

from pytest_coldstart.live.adapter import CLOSES_SESSION, HUMAN_PROMPT, LATE_CALL, HookContext, digest, mark, text_field

#: pi --mode json events that carry no tool call or prompt: not recorded from the stream
STREAM_IGNORED = {
    "agent_start",
    "turn_start",
    "turn_end",
    "message_start",
    "message_update",
    "message_end",
    "tool_execution_update",
    "queue_update",
}


class PiAdapter:
    name = "pi"
    description = "pi coding agent: the shipped extension's events, or --mode json events (--stream)"

    def translate(self, payload: dict[str, Any], context: HookContext) -> list[dict[str, Any]]:
        kind = text_field(payload, "type") or "unknown"
        common = {"source": context.source, "session_id": text_field(payload, "sessionId")}
        if kind in ("tool_call", "tool_execution_start"):
            return [_call(payload, common)]
        if kind in ("tool_result", "tool_execution_end"):
            call = _call(payload, common)
            value = payload.get("content") if kind == "tool_result" else payload.get("result")
            return [
                {
                    "record": "result",
                    "call_id": call["call_id"],
                    "status": "error" if payload.get("isError") is True else "ok",
                    "result": value,
                    **common,
                    LATE_CALL: call,
                }
            ]
        if kind == "input":
            text = payload.get("text")
            return [mark(HUMAN_PROMPT, "operator", common, {"prompt": text if isinstance(text, str) else None})]
        if kind == "session":  # the header line of pi --mode json
            common["session_id"] = text_field(payload, "id")
            kind = "session_start"
        if kind == "session_start":
            return [
                {
                    "record": "phase",
                    "phase": "agent",
                    "actor": "harness",
                    "note": f"pi session {common['session_id'] or '?'} started",
                    "evidence": [],
                    **common,
                    "cwd": text_field(payload, "cwd"),
                }
            ]
        if kind in STREAM_IGNORED:
            return []
        name = {"session_shutdown": "session.end", "agent_end": "agent.stop"}.get(kind, "hook.unknown_event")
        record = mark(name, "harness", common, {"type": kind})
        if kind == "session_shutdown":
            record[CLOSES_SESSION] = common["session_id"]
        return [record]


def _call(payload: dict[str, Any], common: dict[str, Any]) -> dict[str, Any]:
    arguments = payload.get("input", payload.get("args"))
    call_id = text_field(payload, "toolCallId")
    record: dict[str, Any] = {
        "record": "call",
        "call_id": call_id or f"live-{digest([common['session_id'], payload.get('toolName'), arguments])[:16]}",
        "tool": text_field(payload, "toolName") or "unknown",
        "arguments": arguments if arguments is not None else {},
        "phase": "agent",
        "actor": "agent",
        **common,
        "cwd": text_field(payload, "cwd"),
        "arguments_sha256": digest(arguments if arguments is not None else {}),
    }
    if call_id is None:
        record["derived_id"] = True
    return record
