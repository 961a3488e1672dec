"""``coldstart trace migrate``: rewrite a version-1 (reference) run as version 2.

The original bytes of every rewritten file are kept under ``originals/`` (hashed and listed in
run.json ``migrated_from``). The trajectory gets the version-2 envelope and a fresh hash chain;
each record keeps its original ``seq`` and ``at`` (``at`` normalised to UTC milliseconds, the
same instant), carries ``migrated_from: 1``, and has ``monotonic_ms: null`` with a
``missing_reason`` (version 1 recorded no monotonic clock). run.json, evidence.json,
visibility.json and the reviews file are rewritten through the ``v1`` translators.

Crash safety: every new file is written to a temporary file first; the originals are copied
before anything is replaced; run.json is replaced last. A migration interrupted after that
point is resumed from ``originals/`` (whose run.json still equals the live one). A version-2
run, an already migrated run and unknown versions are refused; nothing is changed then.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from pytest_coldstart.record.trajectory import lock_for
from pytest_coldstart.run import jsonio, layout, v1
from pytest_coldstart.run.clock import Clock, format_at, parse_at
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.hashing import sha256_bytes, sha256_file
from pytest_coldstart.run.layout import RunDir
from pytest_coldstart.run.paths import ensure_folder, resolve_inside
from pytest_coldstart.run.versioning import CURRENT, V1_SCHEMAS, version_of
from pytest_coldstart.run.vocabulary import EVIDENCE_NAMES

NO_CLOCK = "version 1 recorded no monotonic clock"
NO_TIME = "the version-1 record had no time; the previous record's time is used"


def migrate_run(run_dir: str | Path, *, clock: Clock | None = None) -> str:
    """Migrate one version-1 run in place; returns a one-line summary."""
    clock = clock or Clock()
    rundir = RunDir(run_dir)
    rundir.require()
    with lock_for(rundir):
        live = _read(rundir.run_json, layout.RUN_JSON)
        manifest = jsonio.parse_json_bytes(live, layout.RUN_JSON)
        version = version_of(manifest, "run", layout.RUN_JSON)
        if version == CURRENT:
            origin = manifest.get("migrated_from") if isinstance(manifest, dict) else None
            if isinstance(origin, dict):
                raise ColdstartError(
                    f"run was already migrated from version 1 (at {origin.get('migrated_at')}); nothing to do",
                    layout.RUN_JSON,
                )
            raise ColdstartError("run is already version 2; nothing to migrate", layout.RUN_JSON)
        reviews = _reviews_name(rundir, manifest)
        sources = _sources(rundir, live, reviews)
        return _migrate(rundir, manifest, sources, reviews, clock)


def _read(path: Path, label: str) -> bytes:
    try:
        with jsonio.open_bytes(path, label) as handle:  # never a FIFO, never through a symlink
            return handle.read()
    except OSError as exc:
        raise ColdstartError(f"unreadable ({exc.strerror or exc})", label) from None


def _sources(rundir: RunDir, live_run_json: bytes, reviews: str) -> dict[str, Path]:
    """Run-relative name -> where its version-1 bytes are read (originals/ when resuming)."""
    originals = rundir.root / layout.ORIGINALS
    resuming = False
    if originals.exists():
        kept = originals / layout.RUN_JSON
        if not kept.is_file() or kept.read_bytes() != live_run_json:
            raise ColdstartError(
                "originals/ already exists and does not hold this run's version-1 run.json; refusing to overwrite kept originals",
                layout.ORIGINALS,
            )
        resuming = True  # an interrupted migration: originals/ holds the true version-1 bytes
    names = [layout.RUN_JSON, layout.TRAJECTORY, layout.EVIDENCE_JSON, layout.VISIBILITY_JSON, reviews]
    sources: dict[str, Path] = {}
    for name in dict.fromkeys(names):
        kept = originals / name
        if resuming and kept.is_file():
            sources[name] = kept
        elif (rundir.root / name).is_file():
            sources[name] = rundir.root / name
    if layout.TRAJECTORY not in sources:
        raise ColdstartError("trajectory is missing; nothing to migrate", layout.TRAJECTORY)
    return sources


def _reviews_name(rundir: RunDir, manifest: dict[str, Any]) -> str:
    """The version-1 reviews file: evidence.json's ``review`` declaration, else reviews.jsonl."""
    try:
        evidence = (
            jsonio.read_json_object(rundir.evidence_json, what=layout.EVIDENCE_JSON)
            if rundir.evidence_json.exists()
            else {}
        )
    except ColdstartError:
        evidence = {}
    declared = evidence.get("review") if isinstance(evidence, dict) else None
    if isinstance(declared, dict) and isinstance(declared.get("path"), str):
        try:
            target = resolve_inside(rundir.root, declared["path"], what="evidence review")
            return target.relative_to(rundir.root).as_posix()
        except (ColdstartError, ValueError):
            pass
    return layout.REVIEWS


def _migrate(
    rundir: RunDir, manifest: dict[str, Any], sources: dict[str, Path], reviews_name: str, clock: Clock
) -> str:
    root = rundir.root
    run_id = manifest.get("run_id")
    if not isinstance(run_id, str) or not run_id:
        raise ColdstartError("run_id is missing; cannot migrate", layout.RUN_JSON)
    staged: dict[str, Path] = {}
    try:
        staged[layout.TRAJECTORY], records = _stage_trajectory(root, sources[layout.TRAJECTORY], run_id)
        documents: dict[str, bytes] = {}
        evidence = _document(sources, layout.EVIDENCE_JSON, "evidence")
        if evidence is None and isinstance(manifest.get("evidence"), dict) and "path" not in manifest["evidence"]:
            evidence = dict(manifest["evidence"])  # version 1 fell back to declarations inside run.json
        if evidence is not None:
            documents[layout.EVIDENCE_JSON] = jsonio.dumps_document(_evidence(evidence))
        visibility = _document(sources, layout.VISIBILITY_JSON, "visibility")
        if visibility is not None:
            documents[layout.VISIBILITY_JSON] = jsonio.dumps_document(_marked(v1.visibility_to_current(visibility)))
        if reviews_name in sources and reviews_name != layout.EVIDENCE_JSON:
            documents[reviews_name] = _reviews(sources[reviews_name], reviews_name)
        for name, data in documents.items():
            staged[name] = _stage_bytes(root / name, data)
        kept = _keep_originals(root, sources)
        new_manifest = _manifest(root, manifest, documents.get(layout.VISIBILITY_JSON), kept, clock)
        staged[layout.RUN_JSON] = _stage_bytes(rundir.run_json, jsonio.dumps_document(new_manifest))
    except BaseException:
        for path in staged.values():
            path.unlink(missing_ok=True)
        raise
    try:
        for name in [n for n in staged if n != layout.RUN_JSON] + [layout.RUN_JSON]:
            os.replace(staged[name], root / name)  # run.json last: it says "version 2"
            del staged[name]
    finally:
        for path in staged.values():  # interrupted: a rerun resumes from originals/
            path.unlink(missing_ok=True)
    jsonio.fsync_directory(root)
    for suffix in ("", "-wal", "-shm"):
        (rundir.state_dir / f"index.sqlite{suffix}").unlink(missing_ok=True)  # derived from the old bytes
    return (
        f"migrated run {run_id} from version 1 to 2: {records} records rewritten with a fresh hash chain; "
        f"{len(kept)} original files kept under {layout.ORIGINALS}/"
    )


def _document(sources: dict[str, Path], name: str, kind: str) -> dict[str, Any] | None:
    if name not in sources:
        return None
    document = jsonio.read_json_object(sources[name], what=name)
    if version_of(document, kind, name) != 1:
        raise ColdstartError(f"{name} is not version 1 while run.json is; refusing a mixed migration", name)
    return document


def _marked(document: dict[str, Any]) -> dict[str, Any]:
    document.pop("translated_from", None)
    return {"schemaVersion": CURRENT, **{k: v for k, v in document.items() if k != "schemaVersion"}, "migrated_from": 1}


def _evidence(document: dict[str, Any]) -> dict[str, Any]:
    out = _marked(v1.evidence_to_current(document))
    for name in EVIDENCE_NAMES:
        out.setdefault(name, None)
    return out


def _stage_bytes(target: Path, data: bytes) -> Path:
    """Write ``data`` beside ``target`` (fsynced) and return the temporary path."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    return Path(name)


def _stage_copy(source: Path, target: Path) -> Path:
    ensure_folder(target.parent.parent, target.parent.name)  # originals/: a symlink there is refused
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    with os.fdopen(fd, "wb") as handle, jsonio.open_regular(source) as reader:
        shutil.copyfileobj(reader, handle, 1 << 20)
        handle.flush()
        os.fsync(handle.fileno())
    return Path(name)


def _stage_trajectory(root: Path, source: Path, run_id: str) -> tuple[Path, int]:
    """Stream the version-1 trajectory into a staged version-2 file with a fresh chain."""
    fd, name = tempfile.mkstemp(prefix=f".{layout.TRAJECTORY}.", suffix=".tmp", dir=root)
    staged = Path(name)
    count = 0
    try:
        with os.fdopen(fd, "wb") as out:
            prev: str | None = None
            last_at: str | None = None
            for line in jsonio.iter_jsonl(source, what=layout.TRAJECTORY, strict=True):
                record = _record(line, run_id, prev, last_at)
                data = jsonio.dumps_line(record)
                out.write(data + b"\n")
                prev, last_at = sha256_bytes(data), record["at"]
                count += 1
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        staged.unlink(missing_ok=True)
        raise
    if count == 0:
        staged.unlink(missing_ok=True)
        raise ColdstartError("trajectory is empty; nothing to migrate", layout.TRAJECTORY)
    return staged, count


def _record(line: jsonio.Line, run_id: str, prev: str | None, last_at: str | None) -> dict[str, Any]:
    value = line.value
    where = (layout.TRAJECTORY, line.number)
    if "schemaVersion" in value or value.get("schema", V1_SCHEMAS["trajectory"]) != V1_SCHEMAS["trajectory"]:
        raise ColdstartError("not a version-1 record; refusing a mixed migration", *where)
    translated = v1.trajectory_record_to_current(value)
    seq = translated.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise ColdstartError(f"seq {seq!r} is not an integer; version 2 needs one on every record", *where)
    if translated.get("run_id") not in (None, run_id):
        raise ColdstartError(f"run_id {translated['run_id']!r} is not this run's ({run_id!r})", *where)
    reasons = {"monotonic_ms": NO_CLOCK}
    raw_at = translated.get("at")
    if raw_at is None:
        if last_at is None:
            raise ColdstartError("the first record has no time (header created_at or at)", *where)
        at = last_at
        reasons["at"] = NO_TIME
    else:
        moment = parse_at(raw_at)
        if moment is None:
            raise ColdstartError(f"at {raw_at!r} is not a timestamp", *where)
        at = format_at(moment)
    out: dict[str, Any] = {
        "schemaVersion": CURRENT,
        "run_id": run_id,
        "seq": seq,
        "at": at,
        "monotonic_ms": None,
        "record": translated.get("record"),
        "call_id": translated.get("call_id"),
        "parent_id": translated.get("parent_id"),
        "prev": prev,
    }
    for key, item in translated.items():
        if key not in out and key != "translated_from":
            out[key] = item
    out["migrated_from"] = 1
    out["missing_reason"] = reasons
    return out


def _reviews(source: Path, name: str) -> bytes:
    lines: list[bytes] = []
    for index, line in enumerate(jsonio.iter_jsonl(source, what=name, strict=True), start=1):
        if version_of(line.value, "review", f"{name}:{line.number}") != 1:
            raise ColdstartError("not a version-1 review line; refusing a mixed migration", name, line.number)
        entry = _marked(v1.review_to_current(line.value))
        seq = entry.get("seq")
        if isinstance(seq, bool) or not isinstance(seq, int):
            entry["seq"] = index
        lines.append(jsonio.dumps_line(entry) + b"\n")
    return b"".join(lines)


def _keep_originals(root: Path, sources: dict[str, Path]) -> list[dict[str, Any]]:
    """Copy each version-1 file to originals/<name> (unless kept already); list them hashed."""
    kept: list[dict[str, Any]] = []
    for name, source in sources.items():
        target = root / layout.ORIGINALS / name
        if source != target:
            staged = _stage_copy(source, target)
            os.replace(staged, target)
            jsonio.fsync_directory(target.parent)
        sha, size = sha256_file(target)
        kept.append({"path": f"{layout.ORIGINALS}/{name}", "sha256": sha, "size": size, "original": name})
    return kept


def _manifest(
    root: Path, document: dict[str, Any], visibility: bytes | None, kept: list[dict[str, Any]], clock: Clock
) -> dict[str, Any]:
    out = v1.manifest_to_current(document)
    out.pop("translated_from", None)
    moment = parse_at(out.get("created_at"))
    if moment is not None:
        out["created_at"] = format_at(moment)
    embedded = out.get("evidence")
    if isinstance(embedded, dict) and "path" not in embedded:
        out["v1_embedded_evidence"] = embedded
    out["evidence"] = {"path": layout.EVIDENCE_JSON}
    out.setdefault("reviews", {"path": layout.REVIEWS})
    task = out.get("task")
    if isinstance(task, dict) and "size" not in task and (root / layout.TASK_MD).is_file():
        task["size"] = (root / layout.TASK_MD).stat().st_size
    if isinstance(out.get("visibility"), dict) and visibility is not None:
        out["visibility"]["sha256"] = sha256_bytes(visibility)
    out["migrated_from"] = {"version": 1, "migrated_at": format_at(clock.now()), "files": kept}
    return out
