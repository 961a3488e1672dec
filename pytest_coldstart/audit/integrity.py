"""Run integrity (R12): the checks of ``coldstart trace validate`` that the audit relies on.

When ``pytest_coldstart.validate.validate_run`` is installed the audit uses it and turns every
finding into an infra error. Until then these essential checks run instead, inside the
audit's single streaming pass over the trajectory (``ChainCheck.feed``) plus a few document
checks: task hash, visibility hash, hash chain, seq/at/monotonic order, one result per call,
and the sealed anchor (record count, head hash, sealed file hashes).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytest_coldstart.audit.reader import RawLine
from pytest_coldstart.clock import parse_at
from pytest_coldstart.errors import ColdstartError
from pytest_coldstart.hashing import sha256_bytes, sha256_file, short
from pytest_coldstart.layout import RunDir
from pytest_coldstart.paths import resolve_inside
from pytest_coldstart.versioning import V1_SCHEMAS
from pytest_coldstart.vocabulary import RECORD_TYPES, RESULT_STATUSES


def external_validator():
    """``validate_run`` when the validate module exists, else None (import guarded)."""
    try:
        from pytest_coldstart.validate import validate_run  # type: ignore[attr-defined]
    except ImportError:
        return None
    return validate_run


def findings_of(report: Any) -> list[str]:
    """Validate findings as one-line texts ``file:line: problem``."""
    out = []
    for finding in getattr(report, "findings", None) or []:
        get = finding.get if isinstance(finding, dict) else (lambda k, f=finding: getattr(f, k, None))
        where = get("file") or ""
        if get("line") is not None:
            where = f"{where}:{get('line')}"
        out.append(f"validate: {where}: {get('problem')}" if where else f"validate: {get('problem')}")
    return out


class ChainCheck:
    """Streaming trajectory integrity, fed one parsed line at a time."""

    def __init__(self, run_id: str, version: int):
        self.run_id = run_id
        self.version = version
        self.problems: list[str] = []
        self.count = 0
        self.prev_hash: str | None = None
        self.last_seq: int | None = None
        self.last_at = None
        self.last_mono: float | None = None
        self.open_calls: dict[str, int] = {}
        self.closed: set[str] = set()

    def problem(self, line: int, text: str) -> None:
        if len(self.problems) < 50:
            self.problems.append(f"trajectory.jsonl:{line}: {text}")
        elif len(self.problems) == 50:
            self.problems.append("trajectory.jsonl: more problems not listed")

    def feed(self, line: RawLine) -> None:
        self.count += 1
        digest = sha256_bytes(line.raw)
        if line.problem:
            self.problem(line.number, line.problem)
            self.prev_hash = digest
            return
        record = line.value
        kind = record.get("record")
        if self.count == 1 and kind != "header":
            self.problem(line.number, "the first record must be the header")
        if self.version == 2:
            if record.get("schemaVersion") != 2:
                self.problem(line.number, f"schemaVersion {record.get('schemaVersion')!r} (expected 2)")
            if record.get("prev") != self.prev_hash:
                self.problem(line.number, "hash chain broken: prev does not match the previous line (edited, deleted or reordered)")
            mono = record.get("monotonic_ms")
            if isinstance(mono, bool) or not isinstance(mono, (int, float)):
                self.problem(line.number, "monotonic_ms is not a number")
            elif self.last_mono is not None and mono < self.last_mono:
                self.problem(line.number, "monotonic_ms decreases")
            else:
                self.last_mono = float(mono)
        elif "schema" in record and record["schema"] != V1_SCHEMAS["trajectory"]:
            self.problem(line.number, f"schema {record['schema']!r} is not a trajectory schema this build reads")
        self.prev_hash = digest
        if kind not in RECORD_TYPES:
            self.problem(line.number, f"unknown record type {kind!r}")
        seq = record.get("seq")
        if self.version == 2 or seq is not None:
            if isinstance(seq, bool) or not isinstance(seq, int):
                self.problem(line.number, "seq is not an integer")
            elif self.last_seq is not None and seq <= self.last_seq:
                self.problem(line.number, f"seq {seq} does not increase (previous {self.last_seq})")
            else:
                self.last_seq = seq
        at = record.get("at")
        if at is not None or self.version == 2:
            moment = parse_at(at)
            if moment is None:
                self.problem(line.number, f"at {str(at)[:40]!r} is not a timestamp")
            elif self.last_at is not None and moment < self.last_at:
                self.problem(line.number, "at goes back in time")
            else:
                self.last_at = moment
        self._calls(line.number, kind, record)

    def _calls(self, number: int, kind: Any, record: dict[str, Any]) -> None:
        call_id = record.get("call_id")
        if kind == "call":
            if not isinstance(call_id, str) or not call_id:
                self.problem(number, "call without a call_id")
            elif call_id in self.open_calls or call_id in self.closed:
                self.problem(number, f"duplicate call id {call_id!r}")
            else:
                self.open_calls[call_id] = number
            if not isinstance(record.get("tool"), str) or not record.get("tool"):
                self.problem(number, "call without a tool")
        elif kind == "result":
            if record.get("status") not in RESULT_STATUSES:
                self.problem(number, f"result status {record.get('status')!r} is not one of {', '.join(RESULT_STATUSES)}")
            if not isinstance(call_id, str) or call_id in self.closed:
                self.problem(number, f"second result for call {call_id!r} (exactly one result per call)")
            elif call_id not in self.open_calls:
                self.problem(number, f"result for unknown (or later) call {call_id!r}")
            else:
                del self.open_calls[call_id]
                self.closed.add(call_id)

    def finish(self, manifest: dict[str, Any]) -> list[str]:
        if self.count == 0:
            self.problems.append("trajectory.jsonl: the trajectory is empty")
        for call_id, number in list(self.open_calls.items())[:20]:
            self.problems.append(f"trajectory.jsonl:{number}: call {call_id!r} has no result (a missing result is an error)")
        seal = manifest.get("seal")
        if isinstance(seal, dict):
            anchor = seal.get("trajectory") if isinstance(seal.get("trajectory"), dict) else {}
            if anchor.get("records") != self.count:
                self.problems.append(f"trajectory.jsonl: {self.count} records, but the seal anchors {anchor.get('records')!r}")
            if anchor.get("head") != self.prev_hash:
                self.problems.append("trajectory.jsonl: the last line does not match the sealed head hash")
        return self.problems


def document_problems(rundir: RunDir, manifest: dict[str, Any], hashes: dict[str, tuple[str, int]]) -> list[str]:
    """Task and visibility hashes, and every sealed file's size and hash."""
    problems: list[str] = []
    task = manifest.get("task") if isinstance(manifest.get("task"), dict) else {}
    problems += _file_hash(rundir, task.get("path", "task.md"), task.get("sha256"), "task", hashes, required=True)
    vis = manifest.get("visibility") if isinstance(manifest.get("visibility"), dict) else {}
    vis_path = vis.get("path", "visibility.json")
    if vis.get("sha256") is not None:
        problems += _file_hash(rundir, vis_path, vis.get("sha256"), "visibility", hashes, required=True)
    else:
        try:
            rundir.load_visibility()
        except ColdstartError as exc:
            problems.append(f"visibility.json: {exc.problem}")
    seal = manifest.get("seal")
    if seal is not None:
        files = seal.get("files") if isinstance(seal, dict) else None
        if not isinstance(files, list):
            problems.append("run.json: seal.files is not a list")
            files = []
        for entry in files:
            if not isinstance(entry, dict):
                problems.append("run.json: a seal.files entry is not an object")
                continue
            found = _file_hash(rundir, entry.get("path"), entry.get("sha256"), "sealed file", hashes, required=True, size=entry.get("size"))
            problems += found
    return problems


def _file_hash(rundir: RunDir, relative: Any, expected: Any, what: str, hashes: dict[str, tuple[str, int]], *, required: bool, size: Any = None) -> list[str]:
    try:
        path = resolve_inside(rundir.root, relative, what=what)
    except ColdstartError as exc:
        return [f"run.json: {exc.problem}"]
    if not path.is_file():
        return [f"{relative}: {what} is missing"]
    actual, actual_size = file_hash(rundir, path, hashes)
    if expected is None:
        return [f"{relative}: run.json records no sha256 for the {what}"] if required else []
    if actual != expected:
        return [f"{relative}: {what} hash changed (recorded {short(str(expected))}, actual {short(actual)})"]
    if size is not None and size != actual_size:
        return [f"{relative}: {what} size changed (recorded {size}, actual {actual_size})"]
    return []


def file_hash(rundir: RunDir, path: Path, hashes: dict[str, tuple[str, int]]) -> tuple[str, int]:
    """sha256/size of a run file, computed at most once per audit."""
    key = path.relative_to(rundir.root).as_posix()
    if key not in hashes:
        hashes[key] = sha256_file(path)
    return hashes[key]
