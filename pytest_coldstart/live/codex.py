"""Codex CLI: its ``notify`` program gets one JSON argument when a turn completes.

Codex offers no per-tool hook in the versions we import (``notify`` is turn-level): its tool
calls come from ``trace import --format codex`` of the rollout file at session end. What
``notify`` gives live is the turn boundary and the user's messages of the turn, recorded as
``human.prompt`` marks, so a human turn during a cold start is in the trajectory as it happens.
Payload: ``type`` (``agent-turn-complete``), ``thread-id``/``turn-id``, ``input-messages``
(strings), ``last-assistant-message``.
"""

from __future__ import annotations

from typing import Any

from pytest_coldstart.live.adapter import HUMAN_PROMPT, HookContext, mark, text_field


class CodexAdapter:
    name = "codex"
    description = "Codex CLI notify (turn-level: agent-turn-complete JSON as the last argument or on stdin)"

    def translate(self, payload: dict[str, Any], context: HookContext) -> list[dict[str, Any]]:
        common = {
            "source": context.source,
            "session_id": text_field(payload, "thread-id") or text_field(payload, "thread_id"),
        }
        kind = text_field(payload, "type") or "unknown"
        records: list[dict[str, Any]] = []
        messages = payload.get("input-messages", payload.get("input_messages"))
        for message in messages if isinstance(messages, list) else []:
            if isinstance(message, str):
                records.append(mark(HUMAN_PROMPT, "operator", common, {"prompt": message}))
        if kind == "agent-turn-complete":
            last = payload.get("last-assistant-message")
            data = {"turn_id": text_field(payload, "turn-id"), "last_assistant_message": last}
            records.append(mark("agent.turn_complete", "harness", common, data))
        else:
            records.append(mark("hook.unknown_event", "harness", common, {"type": kind}))
        return records
