"""run.json as a writer may trust it: checked against ``run.schema.json`` before any append.

Every writer of a run (the recorder's appends, manifest updates, reviews, imports) reads
fields of run.json - the run id, the clock origin, the logging and redaction rules - and would
otherwise trust their shape: a null redaction pattern, a missing ``run_id``, a string clock
origin or a non-object ``logging`` became a TypeError or KeyError in the middle of an append.
``writable_manifest`` is the one check: the manifest is read, version-checked and validated
against the full schema, and a problem is one line naming run.json and the JSON path.

The verdict is cached by the file's identity (device, inode, size, mtime and ctime, taken
before and after the read): per process, and across processes in a stamp in the run's private
``.coldstart/`` folder (with the tool version), so a harness's one-process-per-call appends do
not load the schema machinery each time; any rewrite of run.json changes the identity and is
checked again. The stamp guards writers against crashes, not the audit: validate and the
audit check run.json themselves.
"""

from __future__ import annotations

import os
from typing import Any

from pytest_coldstart.run import layout, schemas
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.layout import RunDir
from pytest_coldstart.run.paths import open_for_write

Identity = tuple[int, int, int, int, int]

_VALID: set[Identity] = set()
STAMP = "manifest-checked"


def _identity(path: os.PathLike[str] | str) -> Identity | None:
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def check_manifest(manifest: Any) -> None:
    """ColdstartError naming run.json and the first schema problem; None for a valid manifest."""
    if schemas.is_valid("run", manifest):
        return
    problems = schemas.errors("run", manifest) or ["does not match run.schema.json"]
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    raise ColdstartError(
        f"not a valid run manifest: {problems[0]}{more} (see `coldstart trace validate`)",
        layout.RUN_JSON,
    )


def _stamp_text(identity: Identity) -> bytes:
    from pytest_coldstart._version import __version__

    return f"{__version__} {' '.join(str(n) for n in identity)}\n".encode()


def _stamped(rundir: RunDir, identity: Identity) -> bool:
    state = rundir.state_dir
    if os.path.islink(state):
        return False
    try:
        fd = os.open(state / STAMP, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    try:
        return os.read(fd, 256) == _stamp_text(identity)
    finally:
        os.close(fd)


def _stamp(rundir: RunDir, identity: Identity) -> None:
    """Best effort: a stamp that cannot be written only costs the next process a check."""
    state = rundir.state_dir
    if not state.is_dir() or os.path.islink(state):
        return
    try:
        fd = open_for_write(state / STAMP, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    except (OSError, ColdstartError):
        return
    try:
        os.write(fd, _stamp_text(identity))
    finally:
        os.close(fd)


def writable_manifest(rundir: RunDir) -> dict[str, Any]:
    """run.json in the current shape, validated (once per file identity)."""
    before = _identity(rundir.run_json)
    manifest = rundir.load_manifest()
    same = before is not None and _identity(rundir.run_json) == before
    if same and before is not None and (before in _VALID or _stamped(rundir, before)):
        _VALID.add(before)
        return manifest
    check_manifest(manifest)
    if same and before is not None:
        _VALID.add(before)
        _stamp(rundir, before)
    return manifest
