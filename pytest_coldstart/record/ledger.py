"""The anchor ledger: an append-only JSONL file of seal anchors, kept outside the runs.

Each line is one anchor (``run/schemas/anchor.schema.json``) plus ``appended_at``. Appends take
a lock (``<ledger>.lock``), check that the file ends with a whole line, write one line, flush
and fsync. Readers fail closed: a line that is not an anchor of a known version is a
UsageError naming ``file:line``. A run may appear more than once only with the same anchor:
two different anchors for one run id mean it was sealed again (``entries_for`` returns both,
and the check names the conflict).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from pytest_coldstart.record.anchor import check_shape, one_line
from pytest_coldstart.record.runlock import RunLock
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.clock import Clock, format_at
from pytest_coldstart.run.errors import ColdstartError, UsageError

LOCK_TIMEOUT_S = 60


def check_appendable(ledger: str | Path) -> None:
    """UsageError unless ``append`` can add a line: a file (or a new name) in an existing folder,
    ending with a whole line."""
    path = Path(ledger)
    if path.is_dir():
        raise UsageError("the ledger is a directory; give a file", path)
    if not path.parent.is_dir():
        raise UsageError("the ledger's folder does not exist", path)
    if path.exists():
        try:  # never waits on a FIFO; a device, socket or hole-filled file is refused as read() refuses it
            with jsonio.open_regular(path, follow_symlinks=True) as handle:
                handle.seek(0, os.SEEK_END)
                if handle.tell() and (handle.seek(-1, os.SEEK_END), handle.read(1))[1] != b"\n":
                    raise UsageError("ends with a torn line; repair the ledger before appending to it", path)
        except OSError as exc:
            raise UsageError(f"cannot read the ledger ({exc.strerror or exc})", path) from None


def append(ledger: str | Path, anchor: dict[str, Any], *, clock: Clock | None = None) -> dict[str, Any]:
    """Append ``anchor`` to the ledger (created if absent); returns the line's object."""
    path = Path(ledger)
    if path.is_dir():
        raise UsageError("the ledger is a directory; give a file", path)
    entry = {**anchor, "appended_at": format_at((clock or Clock()).now())}
    data = (one_line(entry) + "\n").encode("utf-8")
    try:
        with RunLock(f"{path}.lock", timeout=LOCK_TIMEOUT_S):
            flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
            fd = os.open(path, flags, 0o644)
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped for a FIFO or device since the check
                    raise ColdstartError("is not a regular file; the ledger must be one", path)
                os.set_blocking(fd, True)
                end = os.lseek(fd, 0, os.SEEK_END)
                if end and os.pread(fd, 1, end - 1) != b"\n":
                    raise ColdstartError("ends with a torn line; repair the ledger before appending to it", path)
                jsonio.append_whole(fd, data, path)
            finally:
                os.close(fd)
    except OSError as exc:
        raise ColdstartError(f"cannot append to the ledger ({exc.strerror or exc})", path) from None
    return entry


def read(ledger: str | Path) -> dict[str, list[tuple[int, dict[str, Any]]]]:
    """run_id -> [(line number, anchor), ...] in file order; any bad line is a UsageError."""
    path = str(ledger)
    if not os.path.isfile(path):
        raise UsageError("is not a regular file" if os.path.lexists(path) else "the ledger file does not exist", path)
    by_run: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    try:
        for line in jsonio.iter_jsonl(path, what=path, follow_symlinks=True):
            assert isinstance(line, jsonio.Line)
            anchor = check_shape(line.value, f"{path}:{line.number}")
            by_run.setdefault(anchor["run_id"], []).append((line.number, anchor))
    except UsageError:
        raise
    except ColdstartError as exc:
        raise UsageError(exc.problem, f"{exc.path}:{exc.line}" if exc.line else exc.path) from None
    return by_run
