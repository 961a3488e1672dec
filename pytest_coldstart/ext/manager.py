"""The pluggy plugin manager: built-ins first, then ``coldstart`` entry points."""

from __future__ import annotations

import importlib
from functools import lru_cache

import pluggy

from pytest_coldstart.ext import hookspecs

BUILTINS = (
    "pytest_coldstart.importers.builtin",
    "pytest_coldstart.preflight.builtin",
    "pytest_coldstart.live.builtin",
)


@lru_cache(maxsize=1)
def manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    for name in BUILTINS:
        pm.register(importlib.import_module(name), name=name)
    pm.load_setuptools_entrypoints(hookspecs.PROJECT)
    return pm


def reset() -> None:
    """Forget the cached manager (tests that register plugins call this)."""
    manager.cache_clear()
