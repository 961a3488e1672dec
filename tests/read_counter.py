"""Count how often a file is opened and how many of its bytes are read, whichever way the code
opens it: ``open``/``io.open`` with a path, or ``os.open`` then ``os.fdopen`` (which calls
``io.open`` with the descriptor)."""

from __future__ import annotations

import builtins
import io
import os
from pathlib import Path
from typing import Any


class Tally:
    def __init__(self) -> None:
        self.opens = 0
        self.bytes = 0

    def __repr__(self) -> str:
        return f"Tally(opens={self.opens}, bytes={self.bytes})"


class _Counted:
    """A file handle that counts the bytes read through it."""

    def __init__(self, handle: Any, tally: Tally):
        self._handle = handle
        self._tally = tally

    def readline(self, *args: Any) -> bytes:
        data = self._handle.readline(*args)
        self._tally.bytes += len(data)
        return data

    def read(self, *args: Any) -> bytes:
        data = self._handle.read(*args)
        self._tally.bytes += len(data)
        return data

    def __iter__(self):
        return iter(self.readline, b"")

    def __enter__(self) -> _Counted:
        return self

    def __exit__(self, *exc: Any) -> None:
        self._handle.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._handle, name)


def count_reads(monkeypatch: Any, target: Path) -> Tally:
    """A Tally of ``target``'s opens and bytes read from now on (until monkeypatch undoes it)."""
    tally = Tally()
    wanted = os.path.realpath(target)
    descriptors: set[int] = set()
    real_open, real_os_open = io.open, os.open

    def is_target(file: Any) -> bool:
        return isinstance(file, (str, os.PathLike)) and os.path.realpath(file) == wanted

    def os_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        fd = real_os_open(path, flags, *args, **kwargs)
        if is_target(path):
            tally.opens += 1
            descriptors.add(fd)
        return fd

    def opened(file: Any, *args: Any, **kwargs: Any) -> Any:
        handle = real_open(file, *args, **kwargs)
        if isinstance(file, int) and file in descriptors:
            descriptors.discard(file)
            return _Counted(handle, tally)
        if is_target(file):
            tally.opens += 1
            return _Counted(handle, tally)
        return handle

    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(builtins, "open", opened)
    monkeypatch.setattr(io, "open", opened)
    return tally
