"""What the run directory holds on disk, looked at without reading a file: its symlinks."""

from __future__ import annotations

import os
from pathlib import Path


def symlink_names(root: Path) -> set[str]:
    """Lowercased names of the symlinks inside the run (a call may name a file through one)."""
    names: set[str] = set()
    stack = [str(root)]
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_symlink():
                    names.add(entry.name.lower())
                elif entry.is_dir(follow_symlinks=False) and entry.name != ".coldstart":
                    stack.append(entry.path)
            except OSError:
                continue
    return names
