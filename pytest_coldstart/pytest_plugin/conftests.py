"""A run's ``conftest.py`` is run-provided data: pytest never imports it.

Claiming a run directory whole keeps pytest from walking into it, but pytest also imports the
``conftest.py`` of every directory a node lies in (``labs/run-1/conftest.py`` for the run's
own node), of every path given on the command line (``pytest labs/run-1/run.json::…``), and of
their ``test*`` subfolders (a run's ``test/`` folder holds the test mod's log). A file there
is as agent-writable as the rest of the run, and a conftest runs inside the CI's pytest
process. Before pytest looks, each such ``conftest.py`` inside a run is registered under the
name pytest looks it up by (its absolute path) as an empty module: pytest then takes it as
loaded and never executes the file (``PytestPluginManager._importconftest`` returns a plugin
already registered under that name).
"""

from __future__ import annotations

import os
import types
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

CONFTEST = "conftest.py"
#: how many folders up a path is looked at for an enclosing run (deeper than any real layout)
MAX_UP = 64


def shield(pluginmanager: pytest.PytestPluginManager, directory: Path) -> None:
    """Make ``directory``'s conftest.py (if pytest would import it) a registered empty module."""
    path = Path(os.path.abspath(directory)) / CONFTEST
    name = str(path)
    if pluginmanager.get_plugin(name) is None and not pluginmanager.is_blocked(name) and path.is_file():
        pluginmanager.register(types.ModuleType(f"coldstart-unimported-{path.parent.name}"), name=name)


def shield_anchors(
    pluginmanager: pytest.PytestPluginManager, anchors: Iterable[Path], is_run: Callable[[Path], bool]
) -> None:
    """The folders pytest loads initial conftests from (each path argument, and its ``test*``
    subfolders): every one of them and their parents that lies inside a run."""
    for anchor in anchors:
        folders = [anchor, *(child for child in _children(anchor) if child.name.startswith("test"))]
        for folder in folders:
            for directory in _inside_a_run(folder, is_run):
                shield(pluginmanager, directory)


def _children(anchor: Path) -> list[Path]:
    try:
        return [child for child in anchor.iterdir() if child.is_dir()] if anchor.is_dir() else []
    except OSError:
        return []


def _inside_a_run(folder: Path, is_run: Callable[[Path], bool]) -> list[Path]:
    """``folder`` and its parents up to the outermost run directory holding it ([] if none)."""
    directory = Path(os.path.abspath(folder))
    if not directory.is_dir():
        directory = directory.parent
    chain = [directory, *list(directory.parents)[: MAX_UP - 1]]
    outermost = max((i for i, d in enumerate(chain) if is_run(d)), default=None)
    return [] if outermost is None else chain[: outermost + 1]


def run_holding(path: Path, is_run: Callable[[Path], bool]) -> Path | None:
    """The outermost run directory holding ``path`` (None if it lies in no run)."""
    chain = _inside_a_run(path, is_run)
    return chain[-1] if chain else None
