"""Walking a folder tree without recursion.

Python 3.11's ``os.walk`` and ``Path.rglob`` call themselves once per folder level, so a run (or
a lab) nested a thousand folders deep - an agent's ``mkdir -p a/a/a/...`` is enough - raised
RecursionError in every command that looked at it. These walk with an explicit stack: the same
results in the same order, at any depth.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path


def walk(top: str | os.PathLike[str]) -> Iterator[tuple[str, list[str], list[str]]]:
    """``os.walk(top)``: top-down, symlinked folders listed but not entered, unreadable folders
    skipped; the caller may prune ``dirs`` in place, as with ``os.walk``."""
    stack = [os.fspath(top)]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as entries:
                listed = list(entries)
        except OSError:
            continue
        dirs: list[str] = []
        files: list[str] = []
        for entry in listed:
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            (dirs if is_dir else files).append(entry.name)
        yield folder, dirs, files
        for name in reversed(dirs):  # pre-order, in listing order, like the recursive walk
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                stack.append(path)


def paths_below(root: Path) -> Iterator[Path]:
    """``root.rglob("*")``: every folder and file below ``root``, symlinked folders not entered."""
    for folder, dirs, files in walk(root):
        base = Path(folder)
        for name in (*dirs, *files):
            yield base / name
