"""Sealing: the file manifest that anchors a finished run.

``seal`` writes into run.json every file of the run with size and sha256, the trajectory's
record count and head hash (the hash of its last line, which anchors the hash chain), the end
time and the duration. Derived or post-run files are not sealed: run.json itself, the private
``.coldstart/`` state, ``audit/``, ``summary.json`` and ``reviews.jsonl`` (reviews are appended
by reviewers after the run and are checked by shape and by resolving their refs instead).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_coldstart.record.trajectory import lock_for, read_last_line
from pytest_coldstart.run import jsonio, layout
from pytest_coldstart.run.clock import format_at
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.hashing import sha256_bytes, sha256_file
from pytest_coldstart.run.layout import RunDir

if TYPE_CHECKING:
    from pytest_coldstart.record.recorder import Recorder

UNSEALED_TOP = {layout.RUN_JSON, layout.STATE_DIR, layout.AUDIT_DIR, layout.SUMMARY_JSON, layout.REVIEWS}


def sealable_files(rundir: RunDir) -> list[str]:
    """Run-relative POSIX paths of every regular file that a seal covers (sorted)."""
    found: list[str] = []
    for current, dirs, files in os.walk(rundir.root):
        relative_dir = Path(current).relative_to(rundir.root)
        if relative_dir == Path("."):
            dirs[:] = [d for d in dirs if d not in UNSEALED_TOP]
            files = [f for f in files if f not in UNSEALED_TOP]
        dirs.sort()
        for name in files:
            path = Path(current) / name
            if path.is_symlink() or not path.is_file():
                continue
            if name.endswith(".tmp") and name.startswith("."):
                continue
            found.append((relative_dir / name).as_posix())
    return sorted(found)


def seal(run_dir: str | Path, *, recorder: Recorder | None = None) -> dict[str, Any]:
    from pytest_coldstart.record.recorder import Recorder

    recorder = recorder or Recorder(run_dir)
    rundir = recorder.rundir
    if recorder.manifest.get("status") == "sealed":
        raise ColdstartError("run is already sealed", rundir.run_json)
    last = recorder.append(
        {"record": "phase", "phase": "audit", "actor": "operator", "note": "run sealed", "evidence": []}
    )
    with lock_for(rundir):
        manifest = rundir.load_manifest()
        head = read_last_line(rundir.trajectory)
        count = 0
        for _ in jsonio.iter_jsonl(rundir.trajectory, what=layout.TRAJECTORY):
            count += 1
        files = []
        for relative in sealable_files(rundir):
            digest, size = sha256_file(rundir.path(relative))
            files.append({"path": relative, "size": size, "sha256": digest})
        manifest["status"] = "sealed"
        manifest["ended_at"] = last["at"]
        manifest["duration_ms"] = last["monotonic_ms"]
        manifest["seal"] = {
            "sealed_at": format_at(recorder.clock.now()),
            "trajectory": {"records": count, "head": sha256_bytes(head or b"")},
            "files": files,
        }
        jsonio.write_json_atomic(rundir.run_json, manifest)
    recorder.manifest = manifest
    sealed: dict[str, Any] = manifest["seal"]
    return sealed
