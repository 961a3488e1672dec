"""What a live-capture adapter is: one harness's hook payload in, canonical records out.

An adapter is any object with a unique ``name`` (the word after ``coldstart hook``), a one-line
``description`` and ``translate(payload, context) -> list[dict]``. Records are the field dicts
``Recorder.append`` takes (``call``, ``result``, ``phase``, ``mark``, ``error``…). A ``result``
may carry ``LATE_CALL``: the call to record first when the hook never saw it start. Adapters
may offer ``settings(command) -> str``, the harness configuration that calls the hook.
Third-party adapters register through the ``coldstart_register_live_adapters`` hook.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from pytest_coldstart.run.vocabulary import HUMAN_PROMPT_MARK, LIVE_CROSSCHECK_MARK

#: key of a result record holding the call to append when the call is not in the run yet
LATE_CALL = "_late_call"
#: key of a record ending a session: its calls still waiting get an ``open`` result first
CLOSES_SESSION = "_closes_session"
#: the mark names live capture writes (the audit and the import cross-check read them)
HUMAN_PROMPT = HUMAN_PROMPT_MARK
CROSSCHECK = LIVE_CROSSCHECK_MARK


@dataclass(frozen=True)
class HookContext:
    """What an adapter may know besides the payload."""

    adapter: str
    argv: tuple[str, ...] = ()

    @property
    def source(self) -> str:
        return f"hook:{self.adapter}"


@runtime_checkable
class LiveAdapter(Protocol):
    name: str
    description: str

    def translate(self, payload: dict[str, Any], context: HookContext) -> list[dict[str, Any]]: ...


def digest(value: Any) -> str:
    """sha256 of a value's canonical JSON (sorted keys, no spaces): equal arguments, equal digest."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def text_field(payload: dict[str, Any], key: str) -> str | None:
    value = payload.get(key)
    return value if isinstance(value, str) and value.strip() else None


def mark(name: str, actor: str, common: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """A mark record of the agent phase carrying the hook's common fields in its data."""
    return {"record": "mark", "name": name, "actor": actor, "phase": "agent", "data": {**common, **data}}
