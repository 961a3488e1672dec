"""Containment: nothing is ever read from (or written to) outside the run directory."""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path, PurePosixPath, PureWindowsPath

from pytest_coldstart.run.errors import ContainmentError


def resolve_inside(root: str | Path, relative: object, *, what: str = "path") -> Path:
    """Resolve ``relative`` against ``root`` or raise ContainmentError.

    Refused: non-strings, empty strings, absolute paths (POSIX or Windows, a leading slash or
    backslash included), any ``..`` component, NUL bytes, and any symlink on the way (the file
    itself included). With no ``..`` and no symlink below ``root``, the path is inside the
    run by construction: one lstat per component, no realpath.
    """
    if not isinstance(relative, str) or not relative.strip():
        raise ContainmentError(f"{what} must be a non-empty relative path, got {relative!r}")
    if "\x00" in relative:
        raise ContainmentError(f"{what} contains a NUL byte")
    windows = PureWindowsPath(relative)
    if relative.startswith(("/", "\\")) or windows.drive or windows.is_absolute():
        raise ContainmentError(f"{what} {relative!r} is absolute; declare it relative to the run directory")
    parts = [part for part in relative.replace("\\", "/").split("/") if part not in ("", ".")]
    if ".." in parts:
        raise ContainmentError(f"{what} {relative!r} leaves the run directory")
    current = os.fspath(root)
    for part in parts:
        current = os.path.join(current, part)
        try:
            link = stat.S_ISLNK(os.lstat(current).st_mode)
        except OSError as exc:
            if exc.errno not in _ABSENT:  # e.g. ENAMETOOLONG: a path the OS refuses is refused, not a crash
                raise ContainmentError(f"{what} {relative[:200]!r} cannot be used ({exc.strerror or exc})") from None
            link = False
        if link:
            raise ContainmentError(f"{what} {relative!r} passes through a symlink ({part})")
    return Path(current)


#: lstat errors that mean "no such file" (nothing there to be a symlink), as Path.is_symlink reads them
_ABSENT = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)


def relative_posix(root: str | Path, path: str | Path) -> str:
    return Path(os.path.relpath(path, root)).as_posix()


WRITE_REFUSED = "is a symlink; writers never follow a symlink inside a run"


def ensure_folder(root: str | Path, relative: str) -> Path:
    """The run's folder ``relative`` (e.g. ``.coldstart``, ``payloads``, ``originals/x``),
    created if absent; ContainmentError when it, or any component on the way, is a symlink
    or not a directory. Checked with lstat (nothing followed) after creating, so a symlink
    planted before or between the calls is refused, never written through."""
    current = Path(root)
    for part in PurePosixPath(relative).parts:
        current = current / part
        try:
            os.mkdir(current, 0o755)
        except FileExistsError:
            pass
        except OSError as exc:
            raise ContainmentError(f"cannot create the folder ({exc.strerror or exc})", current) from None
        try:
            mode = os.lstat(current).st_mode
        except OSError as exc:
            raise ContainmentError(f"cannot use the folder ({exc.strerror or exc})", current) from None
        if stat.S_ISLNK(mode):
            raise ContainmentError(WRITE_REFUSED, current)
        if not stat.S_ISDIR(mode):
            raise ContainmentError("is not a directory", current)
    return current


def open_for_write(path: str | Path, flags: int, mode: int = 0o644) -> int:
    """``os.open`` with O_NOFOLLOW (and O_CLOEXEC): a symlink at ``path`` (dangling or not)
    is refused with a ContainmentError, never followed nor created through."""
    try:
        return os.open(path, flags | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0), mode)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK) or os.path.islink(path):
            raise ContainmentError(WRITE_REFUSED, path) from None
        raise


_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")
MAX_COPY_NAME = 120


def copy_name(name: str, default: str) -> str:
    """The name a copy takes inside the run (imports/, artifacts/): letters, digits and ``._-``
    only, no leading dot, the last ``MAX_COPY_NAME`` characters - any file name the operator
    gave fits a folder entry (255 bytes) with a prefix, and shows the same everywhere."""
    return _UNSAFE_NAME.sub("_", name).lstrip(".")[-MAX_COPY_NAME:] or default
