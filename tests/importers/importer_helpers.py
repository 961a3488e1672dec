"""Builders for the importer tests: fresh runs, sample sessions, reading what an import wrote."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from pytest_coldstart.record.recorder import init_run

SAMPLES = {
    "pi-v3-basic": "pi",
    "pi-v3-branched": "pi",
    "pi-v1-legacy": "pi",
    "claude-code-basic": "claude-code",
    "codex-rollout-basic": "codex",
}
#: before every sample session (they are all in 2026)
CREATED = "2025-12-01T00:00:00.000Z"
HARNESS = {"name": "pi", "version": "0.73.1", "model": "m", "provider": "p"}


def new_run(path: Path, created_at: str = CREATED) -> Path:
    init_run(path, run_id=path.name, task_bytes=b"task", task_source="inline", harness=HARNESS, created_at=created_at)
    return path


def records(run: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run / "trajectory.jsonl").read_text("utf-8").splitlines()]


def manifest(run: Path) -> dict[str, Any]:
    return json.loads((run / "run.json").read_text("utf-8"))


def snapshot(run: Path) -> dict[str, str]:
    """sha256 of every file of the run except the derived private state (.coldstart/)."""
    found = {}
    for path in sorted(run.rglob("*")):
        if path.is_file() and ".coldstart" not in path.relative_to(run).parts:
            found[path.relative_to(run).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def calls_by_id(run: Path) -> dict[str, dict[str, Any]]:
    """call_id -> {"call": record, "result": record} of everything imported."""
    out: dict[str, dict[str, Any]] = {}
    for record in records(run):
        if record["record"] in ("call", "result"):
            out.setdefault(record["call_id"], {})[record["record"]] = record
    return out


def write_lines(path: Path, lines: list[Any]) -> Path:
    """Write JSON values (or raw strings/bytes, verbatim) one per line."""
    with open(path, "wb") as out:
        for line in lines:
            if isinstance(line, bytes):
                out.write(line + b"\n")
            elif isinstance(line, str):
                out.write(line.encode("utf-8") + b"\n")
            else:
                out.write(json.dumps(line).encode("utf-8") + b"\n")
    return path


def check_stored_copy(run: Path, entry: dict[str, Any], raw: bytes) -> None:
    """The copy in imports/ is the session as the run's rules redact it, with both hashes.

    Unredacted: byte for byte the source. Redacted: line for line, each line either the
    source's bytes or JSON equal to the source's but for redaction markers in its place.
    """
    stored = (run / entry["path"]).read_bytes()
    assert (entry["source_sha256"], entry["source_size"]) == (hashlib.sha256(raw).hexdigest(), len(raw))
    assert (entry["sha256"], entry["size"]) == (hashlib.sha256(stored).hexdigest(), len(stored))
    if entry["redacted"] == 0:
        assert stored == raw and entry["redacted_lines"] == 0
        return
    ours, theirs = stored.split(b"\n"), raw.split(b"\n")
    assert len(ours) == len(theirs)
    changed = 0
    for mine, source in zip(ours, theirs, strict=False):
        if mine != source:
            assert redacted_from(json.loads(mine), json.loads(source)), (mine, source)
            changed += 1
    assert changed == entry["redacted_lines"] > 0


def redacted_from(mine: Any, source: Any) -> bool:
    """``mine`` is ``source`` with some values, key names or parts of strings replaced by
    redaction markers (a string holding JSON compares as that JSON)."""
    from pytest_coldstart.record.redaction import MARKER

    if mine == source:
        return True
    if isinstance(mine, str) and MARKER.fullmatch(mine):
        return True
    if isinstance(mine, str) and isinstance(source, str):
        try:
            inner = json.loads(mine), json.loads(source)
        except ValueError:
            inner = None
        if inner is not None and isinstance(inner[1], (dict, list)):
            return redacted_from(*inner)
        pieces = MARKER.split(mine)
        position = 0
        for piece in pieces:  # what is left of the string appears in the source, in order
            found = source.find(piece, position)
            if found < 0:
                return False
            position = found + len(piece)
        return len(pieces) > 1
    if isinstance(mine, list) and isinstance(source, list):
        return len(mine) == len(source) and all(redacted_from(a, b) for a, b in zip(mine, source, strict=False))
    if isinstance(mine, dict) and isinstance(source, dict):
        if len(mine) != len(source):
            return False
        pairs = zip(mine.items(), source.items(), strict=False)
        return all((k == j or redacted_from(k, j)) and redacted_from(v, w) for (k, v), (j, w) in pairs)
    return False


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    merged = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "pytest_coldstart", *args], capture_output=True, text=True, env=merged, timeout=120
    )
