"""run.json as a writer may trust it: checked against ``run.schema.json`` before any append.

Every writer of a run (the recorder's appends, manifest updates, reviews, imports) reads
fields of run.json - the run id, the clock origin, the logging and redaction rules - and would
otherwise trust their shape: a null redaction pattern, a missing ``run_id``, a string clock
origin or a non-object ``logging`` became a TypeError or KeyError in the middle of an append.
``writable_manifest`` is the one check: the manifest is read, version-checked and validated
against the full schema, and a problem is one line naming run.json and the JSON path.

The verdict is cached per process by the file's identity (device, inode, size, mtime and ctime,
taken before and after the read), so a process appending many records validates once and
appends stay O(1); any rewrite of run.json changes the identity and is checked again.
"""

from __future__ import annotations

import os
from typing import Any

from pytest_coldstart.run import layout, schemas
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.layout import RunDir

Identity = tuple[int, int, int, int, int]

_VALID: set[Identity] = set()


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


def writable_manifest(rundir: RunDir) -> dict[str, Any]:
    """run.json in the current shape, validated (once per process per file identity)."""
    before = _identity(rundir.run_json)
    manifest = rundir.load_manifest()
    same = before is not None and _identity(rundir.run_json) == before
    if same and before in _VALID:
        return manifest
    check_manifest(manifest)
    if same and before is not None:
        _VALID.add(before)
    return manifest
