"""Finding a live-capture adapter by name.

A hook runs once per tool call, so a built-in name is served without loading the plugin
manager (entry-point discovery costs more than the whole append); any other name goes
through ``coldstart_register_live_adapters``, where built-ins and plugins meet.
"""

from __future__ import annotations

import importlib
from typing import Any

from pytest_coldstart.live.adapter import LiveAdapter
from pytest_coldstart.run.errors import ColdstartError, UsageError


def _registered() -> dict[str, LiveAdapter]:
    from pytest_coldstart.ext import manager

    found: dict[str, LiveAdapter] = {}
    for batch in manager.manager().hook.coldstart_register_live_adapters():
        for adapter in batch or []:
            if not isinstance(adapter, LiveAdapter) or not isinstance(adapter.name, str) or not adapter.name:
                raise ColdstartError(
                    f"live adapter {adapter!r} lacks name/description/translate (docs/live-capture.md)"
                )
            other: Any = found.get(adapter.name)
            if other is not None and other is not adapter:
                raise ColdstartError(f"two live adapters are registered as {adapter.name!r}")
            found[adapter.name] = adapter
    return found


#: built-in adapters by name: (module, class), imported alone on the hook's hot path
BUILTIN = {
    "claude-code": ("pytest_coldstart.live.claude_code", "ClaudeCodeAdapter"),
    "pi": ("pytest_coldstart.live.pi", "PiAdapter"),
    "codex": ("pytest_coldstart.live.codex", "CodexAdapter"),
}


def get(name: str) -> LiveAdapter:
    if name in BUILTIN:
        module, cls = BUILTIN[name]
        adapter: LiveAdapter = getattr(importlib.import_module(module), cls)()
        return adapter
    known = _registered()
    if name not in known:
        raise UsageError(f"unknown harness {name!r} for live capture (registered: {', '.join(sorted(known))})")
    return known[name]


def names() -> list[str]:
    return sorted(_registered())
