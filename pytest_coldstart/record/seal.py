"""Sealing: the file manifest that anchors a finished run.

``seal`` writes into run.json every file of the run with size and sha256, the trajectory's
record count and head hash (the hash of its last line, which anchors the hash chain), the end
time and the duration. The seal's fingerprint, its *anchor* (``record.anchor``), is what
pins the run from outside: ``coldstart trace seal`` prints it and can append it to a ledger or
sign it. Derived or post-run files are not sealed: run.json itself, the private
``.coldstart/`` state, ``audit/``, ``summary.json`` and ``reviews.jsonl`` (reviews are appended
by reviewers after the run and are checked by shape and by resolving their refs instead).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_coldstart.record.anchor import of_manifest
from pytest_coldstart.record.trajectory import lock_for, read_last_line
from pytest_coldstart.run import jsonio, layout
from pytest_coldstart.run.clock import format_at
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.hashing import sha256_bytes, sha256_file
from pytest_coldstart.run.layout import RunDir
from pytest_coldstart.run.walk import walk

if TYPE_CHECKING:
    from pytest_coldstart.record.recorder import Recorder

UNSEALED_TOP = {layout.RUN_JSON, layout.STATE_DIR, layout.AUDIT_DIR, layout.SUMMARY_JSON, layout.REVIEWS}


def sealable_files(rundir: RunDir) -> list[str]:
    """Run-relative POSIX paths of every regular file that a seal covers (sorted)."""
    found: list[str] = []
    for current, dirs, files in walk(rundir.root):
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
    """Seal the run; returns the seal written into run.json."""
    return seal_with_anchor(run_dir, recorder=recorder)[0]


def seal_with_anchor(run_dir: str | Path, *, recorder: Recorder | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """Seal the run; returns (the seal, its anchor: see ``record.anchor``). The anchor's
    manifest digest is of the exact bytes written as run.json."""
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
        data = jsonio.dumps_document(manifest)
        jsonio.write_bytes_atomic(rundir.run_json, data)
    recorder.manifest = manifest
    anchor = of_manifest(data)
    assert anchor is not None  # just sealed
    sealed: dict[str, Any] = manifest["seal"]
    return sealed, anchor
