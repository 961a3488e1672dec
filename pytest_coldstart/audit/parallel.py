"""Run one function in a forked child while the parent works (the audit's own streaming pass
and ``validate``'s pass over a large trajectory at the same time, instead of one after the
other). Only when forking is safe: POSIX, "fork" available, and a single-threaded process;
otherwise, and if the child fails for any reason, the function simply runs in-process."""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable
from typing import Any

#: Below this trajectory size a fork costs more than it saves.
PARALLEL_BYTES = 8 * 1024 * 1024


def can_fork() -> bool:
    return os.name == "posix" and threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods()


class Background:
    """``Background(fn).result()`` == ``fn()``, computed in a forked child when allowed."""

    def __init__(self, function: Callable[[], Any], *, fork: bool):
        self.function = function
        self.process = None
        if fork and can_fork():
            context = multiprocessing.get_context("fork")
            self.receiver, sender = context.Pipe(duplex=False)
            self.process = context.Process(target=_child, args=(function, sender), daemon=True)
            self.process.start()
            sender.close()

    def result(self) -> Any:
        if self.process is None:
            return self.function()
        try:
            ok, value = self.receiver.recv()
        except (EOFError, OSError):
            ok, value = False, None
        finally:
            self.process.join()
            self.receiver.close()
        return value if ok else self.function()  # the child failed: do the work here instead


def _child(function: Callable[[], Any], sender) -> None:  # pragma: no cover - runs in the forked child
    try:
        sender.send((True, function()))
    except BaseException:  # noqa: BLE001 - the parent recomputes in-process
        try:
            sender.send((False, None))
        except Exception:  # noqa: BLE001
            pass
    finally:
        sender.close()
        os._exit(0)
