"""The session's bytes in the run: copied before anything reads them, published once redacted.

``stage`` reserves ``imports/<name>`` (an empty file created exclusively: a name already
taken gets ``-2``, ``-3`` … before the extension, so an earlier copy is never overwritten)
and copies the session's bytes, hashing them as they go, to a private file in
``.coldstart/``: the importer parses that copy, and the run's redaction rules rewrite it
there. ``publish`` then moves it onto the reserved name atomically, so imports/ never holds
bytes the rules would remove; ``discard`` undoes both. A crash in between leaves an empty
reserved name in imports/ and the copy in ``.coldstart/`` (private state: never sealed,
safe to delete).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pytest_coldstart.run import jsonio, layout
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.hashing import BLOCK
from pytest_coldstart.run.layout import RunDir
from pytest_coldstart.run.paths import copy_name, ensure_folder


@dataclass
class Staged:
    relative: str  # "imports/<name>", what run.json and the records name
    target: Path  # the reserved name in imports/
    path: Path  # the private copy (parsed, then redacted in place)
    sha256: str  # of the session's bytes as read
    size: int


def state_folder(rundir: RunDir) -> Path:
    return ensure_folder(rundir.root, layout.STATE_DIR)  # a symlinked .coldstart/ is refused


def stage(rundir: RunDir, source: Path) -> Staged:
    """Reserve a name in imports/ and copy ``source`` byte for byte into ``.coldstart/``."""
    folder = ensure_folder(rundir.root, layout.IMPORTS)  # a symlinked imports/ is refused
    private = state_folder(rundir)
    name = copy_name(source.name, "session.jsonl")
    stem, suffix = os.path.splitext(name)
    number = 1
    while True:
        candidate = name if number == 1 else f"{stem}-{number}{suffix}"
        try:
            os.close(os.open(folder / candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
            break
        except FileExistsError:
            number += 1
    target = folder / candidate
    fd, temp = tempfile.mkstemp(prefix="session-", suffix=".tmp", dir=private)
    digest = hashlib.sha256()
    size = 0
    try:
        with jsonio.open_regular(source, follow_symlinks=True) as reader, os.fdopen(fd, "wb") as writer:
            while block := reader.read(BLOCK):
                digest.update(block)
                size += len(block)
                writer.write(block)
            writer.flush()
            os.fsync(writer.fileno())
    except OSError as exc:
        target.unlink(missing_ok=True)
        Path(temp).unlink(missing_ok=True)
        raise ColdstartError(f"cannot copy the session ({exc.strerror or exc})", source) from None
    jsonio.fsync_directory(folder)
    return Staged(f"{layout.IMPORTS}/{candidate}", target, Path(temp), digest.hexdigest(), size)


def publish(staged: Staged) -> None:
    """The copy takes its reserved name in imports/ (atomic rename, then fsync of the folder)."""
    os.replace(staged.path, staged.target)
    jsonio.fsync_directory(staged.target.parent)


def discard(staged: Staged) -> None:
    staged.path.unlink(missing_ok=True)
    staged.target.unlink(missing_ok=True)
