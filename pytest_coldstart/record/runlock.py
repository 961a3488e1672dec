"""The run lock (``.coldstart/lock``): one writer at a time, across threads and processes.

On POSIX this is ``fcntl.flock`` on the lock file, the same lock filelock takes there, without
filelock's import cost (about 12 ms, paid by every ``coldstart trace call`` process) and with
a short poll under contention (filelock polls every 50 ms). Elsewhere it is filelock's
FileLock. Re-entrant within one thread, like FileLock; waiting longer than the timeout is a
ColdstartError naming the lock file.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any

from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.paths import open_for_write

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

_GUARD = threading.Lock()
#: lock path -> (thread lock, [depth, fd]) for this process.
_HELD: dict[str, tuple[threading.RLock, list[Any]]] = {}


class RunLock:
    def __init__(self, path: str | Path, timeout: float):
        self.path = str(path)
        self.timeout = timeout
        self._fallback = None
        if fcntl is None:  # pragma: no cover - Windows
            from filelock import FileLock

            self._fallback = FileLock(self.path, timeout=timeout)

    def _entry(self) -> tuple[threading.RLock, list[Any]]:
        with _GUARD:
            return _HELD.setdefault(self.path, (threading.RLock(), [0, None]))

    def __enter__(self) -> RunLock:
        if self._fallback is not None:  # pragma: no cover - Windows
            self._fallback.acquire()
            return self
        deadline = time.monotonic() + self.timeout
        thread_lock, state = self._entry()
        if not thread_lock.acquire(timeout=self.timeout):
            raise self._timed_out()
        if state[0] == 0:
            try:
                state[1] = self._flock(deadline)
            except BaseException:
                thread_lock.release()
                raise
        state[0] += 1
        return self

    def _flock(self, deadline: float) -> int:
        fd = open_for_write(self.path, os.O_RDWR | os.O_CREAT)  # a (dangling) symlink is refused, never created through
        pause = 0.0005
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return fd
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise self._timed_out() from None
                time.sleep(pause)
                pause = min(pause * 2, 0.01)
            except BaseException:
                os.close(fd)
                raise

    def _timed_out(self) -> ColdstartError:
        return ColdstartError(f"another writer has held the run lock for over {self.timeout:g} s", self.path)

    def __exit__(self, *exc: object) -> None:
        if self._fallback is not None:  # pragma: no cover - Windows
            self._fallback.release()
            return
        thread_lock, state = self._entry()
        state[0] -= 1
        if state[0] == 0:
            fd, state[1] = state[1], None
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)
        thread_lock.release()
