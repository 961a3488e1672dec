"""The built-in live-capture adapters, registered through the same hook as third-party ones."""

from __future__ import annotations

from pytest_coldstart.ext.hookspecs import hookimpl
from pytest_coldstart.live.adapter import LiveAdapter
from pytest_coldstart.live.claude_code import ClaudeCodeAdapter
from pytest_coldstart.live.codex import CodexAdapter
from pytest_coldstart.live.pi import PiAdapter

BUILTIN: tuple[LiveAdapter, ...] = (ClaudeCodeAdapter(), PiAdapter(), CodexAdapter())


@hookimpl
def coldstart_register_live_adapters() -> list[LiveAdapter]:
    return list(BUILTIN)
