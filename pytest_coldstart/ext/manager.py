"""The pluggy plugin manager: built-ins first, then ``coldstart`` entry points."""

from __future__ import annotations

from functools import lru_cache

import pluggy

from pytest_coldstart.ext import hookspecs

BUILTINS = (
    "pytest_coldstart.importers.builtin",
    "pytest_coldstart.preflight.builtin",
)


@lru_cache(maxsize=1)
def manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    import importlib

    for name in BUILTINS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                continue  # that capability is not built yet
            raise
        pm.register(module, name=name)
    pm.load_setuptools_entrypoints(hookspecs.PROJECT)
    return pm


def reset() -> None:
    """Forget the cached manager (tests that register plugins call this)."""
    manager.cache_clear()
