"""``summary.json``: derived, rebuildable statistics of one run (schemaVersion 2).

Built in one streaming pass over ``trajectory.jsonl`` (memory grows with the number of calls,
not with payload sizes) plus ``audit/audit.json`` when present. It holds nothing that is not
derivable from those two files, and no generation time: rebuilding it gives the same bytes.
Times are differences of the records' ``at`` (imported records keep their session's times).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pytest_coldstart._version import __version__
from pytest_coldstart.analysis.tally import Tally, rate
from pytest_coldstart.audit.currency import AUDIT_JSON, stored_report
from pytest_coldstart.audit.verdict import audited, default_cache
from pytest_coldstart.record.manifest_check import check_manifest
from pytest_coldstart.run import jsonio, layout, schemas, v1
from pytest_coldstart.run.errors import VersionError
from pytest_coldstart.run.hashing import sha256_bytes, sha256_file
from pytest_coldstart.run.layout import RunDir
from pytest_coldstart.run.versioning import CURRENT, V1_SCHEMAS, incompatible, is_version


def _records(rundir: RunDir, version: int) -> Iterator[tuple[Any, bytes] | jsonio.LineProblem]:
    """Trajectory records in the current shape (a v1 run through the translator); a record of
    another version fails closed (VersionError), as every reader does."""
    for item in jsonio.iter_jsonl(rundir.trajectory, what=layout.TRAJECTORY, strict=False):
        if isinstance(item, jsonio.LineProblem):
            yield item
            continue
        where = f"{layout.TRAJECTORY}:{item.number}"
        value = item.value
        if version == 2:
            if not is_version(value.get("schemaVersion"), CURRENT):  # no bool, no 2.0
                raise VersionError(
                    incompatible("trajectory record", value.get("schemaVersion")) + " (in a version-2 run)", where
                )
            yield value, item.raw
        else:
            if "schemaVersion" in value or value.get("schema", V1_SCHEMAS["trajectory"]) != V1_SCHEMAS["trajectory"]:
                raise VersionError("record is not a version-1 record, but the run is version 1 (fail closed)", where)
            yield v1.trajectory_record_to_current(value), item.raw


def outcome(rundir: RunDir, run_id: Any = None) -> dict[str, Any]:
    """The audit verdict: null when the run was never audited; the stored audit/audit.json when
    it is current and the run's own (``audit.currency``); else the audit of the run's present
    bytes (``audit.verdict``: from the shared cache or audited now; a stale, foreign or
    unversioned report is never believed; ``recomputed_because`` says why)."""
    if not rundir.path(AUDIT_JSON).is_file() and not rundir.path(AUDIT_JSON).is_symlink():
        return {
            "overall": None,
            "failure_class": None,
            "source": None,
            "missing_reason": f"no {AUDIT_JSON} (run `coldstart audit run`)",
        }
    document, why = stored_report(rundir.root, run_id)
    if document is not None:
        digest, _ = sha256_file(rundir.path(AUDIT_JSON))
        source: dict[str, Any] | None = {"path": AUDIT_JSON, "sha256": digest}
        extra: dict[str, Any] = {}
    else:
        document, source, extra = audited(rundir.root, default_cache())[0], None, {"recomputed_because": why}
    flags = {}
    for flag in document.get("flags") or []:
        if isinstance(flag, dict) and isinstance(flag.get("flag"), str):
            flags[flag["flag"]] = flag.get("status")
    return {
        "overall": document.get("overall") if document.get("overall") in ("PASS", "FAIL", "PENDING") else None,
        "failure_class": document.get("failure_class"),
        "flags": flags,
        "source": source,
        **extra,
    }


def build(run_dir: str | Path) -> dict[str, Any]:
    """The summary document of one run (not written)."""
    rundir = RunDir(run_dir)
    rundir.require()
    version = rundir.manifest_version()
    manifest = rundir.load_manifest()
    check_manifest(manifest)  # its fields are read below: a wrong shape is a named error, never a crash
    builder = Tally()
    head = None
    valid_record = schemas.check("trajectory-record")  # the tally reads fields by their schema types
    for item in _records(rundir, version):
        if isinstance(item, jsonio.LineProblem):
            builder.problems += 1
            continue
        record, raw = item
        head = raw
        if isinstance(record, dict) and valid_record(record):
            builder.add(record)
        else:  # an invalid record (validate names it) is skipped like an unparseable line
            builder.problems += 1
    harness = manifest.get("harness") or {}
    tool = manifest.get("tool") or {}
    calls = builder.calls_json()
    return {
        "schemaVersion": CURRENT,
        "derived": True,
        "generator": {"name": "pytest-coldstart", "version": __version__},
        "run_id": manifest.get("run_id"),
        "experiment_id": manifest.get("experiment_id"),
        "harness": {k: harness.get(k) for k in ("name", "version", "model", "provider")},
        "tool": {k: tool.get(k) for k in ("name", "version", "commit")},
        "status": manifest.get("status"),
        "created_at": manifest.get("created_at"),
        "ended_at": manifest.get("ended_at"),
        "duration_ms": manifest.get("duration_ms"),
        "source": {
            "trajectory": {
                "path": layout.TRAJECTORY,
                "records": sum(builder.by_type.values()),
                "problems": builder.problems,
                "bytes": rundir.trajectory.stat().st_size,
                "head": sha256_bytes(head) if head is not None else None,
            }
        },
        "records": {"total": sum(builder.by_type.values()), "by_type": dict(sorted(builder.by_type.items()))},
        "sessions": dict(sorted(builder.sessions.items())),
        "calls": calls,
        "rates": {
            "error_rate": rate(calls["by_status"]["error"], calls["total"], "calls"),
            "open_rate": rate(calls["by_status"]["open"] + calls["by_status"]["missing"], calls["total"], "calls"),
        },
        "timing": builder.timing_json(),
        "responses": builder.responses_json(),
        "states": builder.states_json(),
        "actions": builder.actions_json(),
        "decisions": builder.decisions_json(),
        "errors": builder.errors_json(),
        "outcome": outcome(rundir, manifest.get("run_id")),
    }


def write(run_dir: str | Path) -> dict[str, Any]:
    """Build and write ``summary.json`` atomically; returns the document."""
    document = build(run_dir)
    jsonio.write_json_atomic(RunDir(run_dir).path(layout.SUMMARY_JSON), document)
    return document
