"""What the standard exports (ATIF, OpenTelemetry) read from a run: its manifest, its trajectory
records in order, each tool call paired with its result, the hash-chain head, and the audit.

Exports read a version-2 run only (a version-1 run is refused with the hint to run
``coldstart trace migrate``; another version fails closed). Records are exported as the
trajectory holds them: a payload moved to the content-addressed store stays a preview with its
hash (exports never dereference files). The head is the sha256 of the trajectory's last line,
the value ``trace seal`` anchors in run.json.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_coldstart.analysis.audits import audit_of
from pytest_coldstart.record.manifest_check import check_manifest
from pytest_coldstart.record.trajectory import iter_records
from pytest_coldstart.run import jsonio, schemas
from pytest_coldstart.run.errors import ColdstartError, VersionError
from pytest_coldstart.run.layout import TRAJECTORY, RunDir
from pytest_coldstart.run.paths import resolve_inside
from pytest_coldstart.run.versioning import CURRENT

#: Envelope fields of every trajectory record (DESIGN §5); the rest is the record's body.
ENVELOPE = ("schemaVersion", "run_id", "seq", "at", "monotonic_ms", "record", "call_id", "parent_id", "prev")


@dataclass
class Call:
    """A tool call record and its result record (None while open)."""

    record: dict[str, Any]
    result: dict[str, Any] | None = None

    @property
    def call_id(self) -> str:
        return str(self.record.get("call_id"))


@dataclass
class ExportSource:
    root: Path
    manifest: dict[str, Any]
    records: list[dict[str, Any]]
    calls: list[Call]
    head: str | None
    report: dict[str, Any]
    task_text: str | None = None
    by_call: dict[str, Call] = field(default_factory=dict)

    @property
    def run_id(self) -> str:
        return str(self.manifest.get("run_id"))

    def section(self, name: str) -> dict[str, Any]:
        """A run.json object such as ``harness`` or ``task`` ({} when absent or not an object)."""
        value = self.manifest.get(name)
        return value if isinstance(value, dict) else {}

    def audit_attributes(self) -> dict[str, Any]:
        """The verdict as both exports carry it: overall, failure class, flags, the chain head."""
        report = self.report
        return {
            "overall": report.get("overall"),
            "failure_class": report.get("failure_class"),
            "flags": [
                {key: flag.get(key) for key in ("flag", "status", "summary", "evidence", "missing")}
                for flag in report.get("flags") or []
                if isinstance(flag, dict)
            ],
            "required_reviews": [r for r in report.get("required_reviews") or [] if isinstance(r, dict)],
            "trajectory_head": self.head,
            "trajectory_records": len(self.records),
            "sealed_head": self.section("trajectory").get("head"),
        }


def body(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in ENVELOPE}


def _task_text(rundir: RunDir, manifest: dict[str, Any]) -> str | None:
    """The task's text, or None when it cannot be shown: outside the run, not a regular file,
    refused (sparse) or over the document bound (read no further than the bound)."""
    task = manifest.get("task")
    relative = task.get("path") if isinstance(task, dict) else None
    if not isinstance(relative, str) or not relative:
        return None
    try:
        path = resolve_inside(rundir.root, relative, what="task file")
        with jsonio.open_regular(path) as handle:
            data = handle.read(jsonio.MAX_DOCUMENT_BYTES + 1)
    except (ColdstartError, OSError):
        return None
    return data.decode("utf-8", "replace") if len(data) <= jsonio.MAX_DOCUMENT_BYTES else None


def load_source(run_dir: str | Path, *, fresh: bool = False) -> ExportSource:
    """Read the run for export; a ColdstartError names the file and the problem."""
    root = Path(run_dir)
    rundir = RunDir(root)
    if not rundir.run_json.is_file():
        raise ColdstartError("is not a run directory (no run.json)", root)
    if rundir.manifest_version() != CURRENT:
        raise VersionError("exports read version-2 runs: run `coldstart trace migrate` first", rundir.run_json)
    manifest = rundir.load_manifest()
    check_manifest(manifest)  # its fields are exported: a wrong shape is a named error, never a crash
    records: list[dict[str, Any]] = []
    calls: dict[str, Call] = {}
    last: bytes | None = None
    valid_record = schemas.check("trajectory-record")  # the exporters read fields by their schema types
    for item in iter_records(rundir, strict=True):
        if isinstance(item, jsonio.LineProblem):  # strict reads raise instead; kept for the type checker
            raise ColdstartError(item.problem, f"{TRAJECTORY}:{item.number}")
        value = item.value
        if (
            not isinstance(value, dict)
            or type(value.get("schemaVersion")) is not int
            or value["schemaVersion"] != CURRENT
        ):
            raise VersionError("a trajectory record is not of version 2 (fail closed)", f"{TRAJECTORY}:{item.number}")
        if not valid_record(value):
            problem = (schemas.errors("trajectory-record", value) or ["does not match its schema"])[0]
            raise ColdstartError(
                f"not a valid trajectory record ({problem}); `coldstart trace validate` lists every problem",
                f"{TRAJECTORY}:{item.number}",
            )
        records.append(value)
        last = item.raw
        call_id = value.get("call_id")
        if value.get("record") == "call" and isinstance(call_id, str):
            calls.setdefault(call_id, Call(value))
        elif value.get("record") == "result" and isinstance(call_id, str) and call_id in calls:
            calls[call_id].result = value
    report = audit_of(root, fresh=fresh).report
    return ExportSource(
        root=root,
        manifest=manifest,
        records=records,
        calls=list(calls.values()),
        head=hashlib.sha256(last).hexdigest() if last is not None else None,
        report=report,
        task_text=_task_text(rundir, manifest),
        by_call=calls,
    )
