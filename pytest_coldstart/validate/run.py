"""``coldstart trace validate``: every structural and integrity problem of a run, as findings.

``validate_run(run_dir)`` never raises on bad content: a missing directory, malformed JSON,
wrong types, non-UTF-8 bytes, unknown versions, a torn final line ... each becomes a finding
``file:line: problem`` with a stable code (``validate_findings``). It checks:

- run.json, visibility.json, evidence.json, every trajectory record and every review line
  against the shipped JSON Schemas (version 1 files through the ``v1`` translators);
- unknown or future ``schemaVersion`` (fail closed: the document is not interpreted further);
- the trajectory (``validate_trajectory``): header first, run_id, seq, at, monotonic_ms, the
  hash chain, unique call ids, exactly one result per call after its call;
- the task hash, the visibility.json hash and every visibility copy, imports (hash, size,
  containment, "open the run before the session starts"), artifacts, evidence declarations
  and normalized views, the payload store, the sealed anchor and file manifest, and the
  originals kept by ``migrate`` (``validate_files``);
- review lines (DESIGN R3): a resolved entry needs a non-blank ``by``, a parseable ``at`` and
  a non-empty list of non-blank evidence refs.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from pytest_coldstart.run import jsonio, layout, payloads, schemas, v1
from pytest_coldstart.run.clock import parse_at
from pytest_coldstart.run.errors import ColdstartError, VersionError
from pytest_coldstart.run.jsonfields import object_or_empty
from pytest_coldstart.run.versioning import version_of
from pytest_coldstart.validate.files import (
    Context,
    check_artifacts,
    check_evidence,
    check_imports,
    check_originals,
    check_payloads,
    check_seal,
    check_task,
    check_visibility_copies,
)
from pytest_coldstart.validate.findings import Finding, Findings, ValidationReport
from pytest_coldstart.validate.trajectory import ObserverError, TrajectoryChecker

__all__ = ["Finding", "ValidationReport", "validate_run"]

_TRANSLATE = {
    "run": v1.manifest_to_current,
    "evidence": v1.evidence_to_current,
    "visibility": v1.visibility_to_current,
    "review": v1.review_to_current,
}


def validate_run(
    run_dir: str | Path, *, observer: Any = None, digests: dict[Path, tuple[str, int]] | None = None
) -> ValidationReport:
    """Validate one run directory (any readable version); never raises on bad content.

    ``observer`` (optional) shares the one read of trajectory.jsonl: ``observer.feed(line, at)``
    gets every ``jsonio.RawLine`` right after validate's own checks of it (``at``: the record's
    parsed time or None), then ``observer.finish()``; an exception it raises propagates. It is
    not called when validate cannot read the trajectory. ``digests`` maps files of the run (as
    ``paths.resolve_inside`` names them) to the (sha256, size) of bytes the caller already
    read, so validate does not read them again.
    """
    findings = Findings()
    report = ValidationReport(run_dir=str(run_dir))
    ctx = Context(Path(run_dir), findings)
    for path, digest in (digests or {}).items():
        ctx.known(path, digest)
    counts: dict[str, Any] = {"records": 0, "calls": 0, "results": 0, "reviews": 0}
    try:
        _validate(ctx, report, counts, observer)
    except ObserverError as exc:
        if exc.__cause__ is None:  # pragma: no cover - always raised from the observer's error
            raise
        raise exc.__cause__ from None  # the caller's error, not a finding about the run
    except Exception as exc:
        findings.add(
            "(run)", None, f"validate stopped on an unexpected problem ({type(exc).__name__}: {exc})", "internal.error"
        )
    report.findings = findings.listed()
    report.counts = {
        **counts,
        "files_hashed": ctx.hashed,
        "findings": len(findings),
        "findings_by_code": dict(sorted(findings.by_code.items())),
    }
    return report


def _validate(ctx: Context, report: ValidationReport, counts: dict[str, Any], observer: Any) -> None:
    root = ctx.root
    if not root.is_dir():
        ctx.add(
            str(root), None, "run directory does not exist" if not root.exists() else "not a directory", "run.missing"
        )
        return
    loaded = read_document(ctx, layout.RUN_JSON, "run", required=True)
    if loaded is None:
        return  # nothing can be interpreted without the manifest (fail closed)
    version, manifest = loaded
    report.run_version = version
    run_id = manifest.get("run_id")
    report.run_id = run_id if isinstance(run_id, str) else None
    created_at = parse_at(manifest.get("created_at"))
    if created_at is None and "created_at" in manifest:
        ctx.add(
            layout.RUN_JSON, None, f"created_at {manifest.get('created_at')!r} is not a timestamp", "run.created_at"
        )
    _check_locations(ctx, manifest, version)

    check_task(ctx, manifest)
    _check_visibility(ctx, manifest, version)
    checker = TrajectoryChecker(ctx.findings, run_id=report.run_id, version=version, created_at=created_at)
    unusable = jsonio.irregular(ctx.rundir.trajectory)
    if unusable is None:
        # A seal that lists the trajectory needs its whole-file hash: taken in the same read.
        whole = hashlib.sha256() if version >= 2 and _seals(manifest, layout.TRAJECTORY) else None
        checker.run(ctx.rundir.trajectory, observer=observer, digest=whole)
        if whole is not None:
            ctx.known(ctx.rundir.trajectory, (whole.hexdigest(), checker.size))
    else:
        problem = "trajectory is missing" if unusable == "file is missing" else f"{layout.TRAJECTORY} {unusable}"
        ctx.add(layout.TRAJECTORY, None, problem, "trajectory.missing")
    counts.update(records=checker.records, calls=checker.calls, results=checker.results)
    check_imports(ctx, manifest, created_at, checker.early_imports)
    check_artifacts(ctx, manifest, version)
    evidence = read_document(ctx, layout.EVIDENCE_JSON, "evidence", required=version >= 2, run_version=version)
    if evidence is not None:
        check_evidence(ctx, evidence[1], version)
    counts["reviews"] = _check_reviews(ctx, manifest, evidence[1] if evidence else {}, version)
    check_payloads(ctx, checker.payload_refs, payloads.read_limit(manifest.get("logging")))
    if version >= 2:
        check_seal(ctx, manifest, checker.records, checker.head)
    check_originals(ctx, manifest)


def _seals(manifest: dict[str, Any], relative: str) -> bool:
    seal = manifest.get("seal")
    files = seal.get("files") if isinstance(seal, dict) else None
    return isinstance(files, list) and any(isinstance(entry, dict) and entry.get("path") == relative for entry in files)


def read_document(
    ctx: Context, relative: str, kind: str, *, required: bool, run_version: int | None = None
) -> tuple[int, dict[str, Any]] | None:
    """(version, document in the current shape) after schema findings; None when unusable."""
    path = ctx.root / relative
    if not path.exists():
        if required:
            ctx.add(relative, None, f"{relative} is missing", "document.missing")
        return None
    try:
        document = jsonio.read_json(path, what=relative)
        if not isinstance(document, dict):
            raise ColdstartError(f"expected a JSON object, got {jsonio.type_name(document)}", relative)
        version = version_of(document, kind, relative)
    except VersionError as exc:
        ctx.add(relative, None, exc.problem, "version.unknown")
        return None
    except ColdstartError as exc:
        ctx.add(relative, None, exc.problem, "document.malformed")
        return None
    except OSError as exc:
        ctx.add(relative, None, f"unreadable ({exc.strerror or exc})", "document.malformed")
        return None
    if run_version is not None and version != run_version:
        ctx.add(
            relative,
            None,
            f"{relative} is version {version} but run.json is version {run_version} (migrate the whole run)",
            "version.mixed",
        )
    current = _TRANSLATE[kind](document) if version == 1 else document
    for error in schemas.iter_errors(kind, current) if not schemas.is_valid(kind, current) else []:
        ctx.add(relative, None, schemas.describe(error), f"schema.{kind}", _value_path(error))
    return version, current


def _value_path(error: Any) -> str:
    """The JSON path of the value a schema error is about (a missing property's own path)."""
    cause = schemas.leaf(error)
    if cause.validator == "required" and isinstance(cause.instance, dict):
        for name in cause.validator_value:  # type: ignore[union-attr]  # a list for "required"
            if cause.message == f"{name!r} is a required property":
                return f"{cause.json_path}.{name}"
    return cause.json_path


def _check_locations(ctx: Context, manifest: dict[str, Any], version: int) -> None:
    """Version 2 pins where the trajectory, evidence and reviews live (readers use fixed names)."""
    if version < 2:
        return
    for key, expected in (
        ("trajectory", layout.TRAJECTORY),
        ("evidence", layout.EVIDENCE_JSON),
        ("visibility", layout.VISIBILITY_JSON),
    ):
        entry = manifest.get(key)
        if isinstance(entry, dict) and isinstance(entry.get("path"), str) and entry["path"] != expected:
            ctx.add(
                layout.RUN_JSON,
                None,
                f"{key}.path is {entry['path']!r}; version 2 keeps it at {expected!r}",
                "run.location",
            )


def _check_visibility(ctx: Context, manifest: dict[str, Any], version: int) -> None:
    declared = object_or_empty(manifest.get("visibility"))
    relative = layout.VISIBILITY_JSON
    loaded = read_document(ctx, relative, "visibility", required=True, run_version=version)
    if version >= 2 and (ctx.root / relative).is_file():
        ctx.check_file(
            relative, declared.get("sha256"), None, what="visibility.json", document=layout.RUN_JSON, code="visibility"
        )
    if loaded is None:
        return
    document = loaded[1]
    count = declared.get("file_count")
    if isinstance(count, int) and isinstance(document.get("file_count"), int) and count != document["file_count"]:
        ctx.add(
            layout.RUN_JSON,
            None,
            f"visibility.file_count {count} but visibility.json lists file_count {document['file_count']}",
            "visibility.count",
        )
    check_visibility_copies(ctx, document, relative)


def _reviews_path(ctx: Context, manifest: dict[str, Any], evidence: dict[str, Any]) -> str | None:
    declared = evidence.get("review")
    if isinstance(declared, dict) and isinstance(declared.get("path"), str):
        relative = declared["path"]
    else:
        located = manifest.get("reviews")
        relative = (
            located["path"] if isinstance(located, dict) and isinstance(located.get("path"), str) else layout.REVIEWS
        )
    if ctx.inside(relative, "reviews file", layout.EVIDENCE_JSON if declared else layout.RUN_JSON, "review") is None:
        return None
    return str(relative)


def _check_reviews(ctx: Context, manifest: dict[str, Any], evidence: dict[str, Any], version: int) -> int:
    relative = _reviews_path(ctx, manifest, evidence)
    if relative is None:
        return 0
    unusable = jsonio.irregular(ctx.root / relative)
    if unusable == "file is missing":
        return 0  # no review written yet
    if unusable is not None:  # a FIFO, directory or symlink is not "no reviews"
        ctx.add(relative, None, f"{relative} {unusable}", "review.malformed")
        return 0
    count = 0
    last_seq: tuple[int, int] | None = None
    for item in jsonio.iter_jsonl(ctx.root / relative, what=relative, strict=False):
        if isinstance(item, jsonio.LineProblem):
            torn = item.problem.startswith("torn")
            ctx.add(relative, item.number, item.problem, "review.torn" if torn else "review.malformed")
            continue
        count += 1
        entry = _review_entry(ctx, relative, item.number, item.value, version)
        if entry is None:
            continue
        seq = entry.get("seq")
        if isinstance(seq, int) and not isinstance(seq, bool):
            if last_seq is not None and seq <= last_seq[0]:
                ctx.add(
                    relative,
                    item.number,
                    f"seq {seq} does not increase (line {last_seq[1]} has seq {last_seq[0]})",
                    "review.seq",
                )
            last_seq = (seq, item.number)
    return count


def _review_entry(
    ctx: Context, relative: str, number: int, value: dict[str, Any], version: int
) -> dict[str, Any] | None:
    try:
        found = version_of(value, "review", relative)
    except VersionError as exc:
        ctx.add(relative, number, exc.problem, "version.unknown")
        return None
    if found != version:
        ctx.add(relative, number, f"a version-{found} review line in a version-{version} run", "version.mixed")
    entry = v1.review_to_current(value) if found == 1 else value
    if not schemas.is_valid("review", entry):
        for message in schemas.errors("review", entry):
            ctx.add(relative, number, f"review {_label(entry)}: {message}", "review.shape")
    at = entry.get("at")
    if isinstance(at, str) and at.strip() and parse_at(at) is None:
        ctx.add(relative, number, f"review {_label(entry)}: at {at!r} is not a parseable time", "review.shape")
    return entry


def _label(entry: dict[str, Any]) -> str:
    value = entry.get("id")
    return repr(value) if isinstance(value, str) else "(no id)"
