"""Containment: nothing is ever read from (or written to) outside the run directory."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath, PureWindowsPath

from pytest_coldstart.run.errors import ContainmentError


def resolve_inside(root: str | Path, relative: object, *, what: str = "path") -> Path:
    """Resolve ``relative`` against ``root`` or raise ContainmentError.

    Refused: non-strings, empty strings, absolute paths (POSIX or Windows), any ``..``
    component, NUL bytes, and any symlink on the way (the file itself included).
    """
    if not isinstance(relative, str) or not relative.strip():
        raise ContainmentError(f"{what} must be a non-empty relative path, got {relative!r}")
    if "\x00" in relative:
        raise ContainmentError(f"{what} contains a NUL byte")
    if (
        PurePosixPath(relative).is_absolute()
        or PureWindowsPath(relative).is_absolute()
        or (PureWindowsPath(relative).drive)
    ):
        raise ContainmentError(f"{what} {relative!r} is absolute; declare it relative to the run directory")
    parts = PurePosixPath(relative.replace("\\", "/")).parts
    if any(part == ".." for part in parts):
        raise ContainmentError(f"{what} {relative!r} leaves the run directory")
    root_path = Path(root)
    current = root_path
    for part in parts:
        if part in ("", "."):
            continue
        current = current / part
        try:
            link = current.is_symlink()
        except OSError as exc:  # e.g. ENAMETOOLONG: a path the OS refuses is refused, not a crash
            raise ContainmentError(f"{what} {relative[:200]!r} cannot be used ({exc.strerror or exc})") from None
        if link:
            raise ContainmentError(f"{what} {relative!r} passes through a symlink ({part})")
    real_root = os.path.realpath(root_path)
    real = os.path.realpath(current)
    if real != real_root and not real.startswith(real_root + os.sep):
        raise ContainmentError(f"{what} {relative!r} resolves outside the run directory")
    return current


def relative_posix(root: str | Path, path: str | Path) -> str:
    return Path(os.path.relpath(path, root)).as_posix()
