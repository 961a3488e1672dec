"""The recorder: open a run (``init_run``) and append to it (``Recorder``).

This is the Python API behind ``coldstart trace``. Every write follows DESIGN §7: trajectory
appends go through ``trajectory.Appender`` (locked, fsynced, hash-chained); documents are
rewritten atomically under the same lock; nothing is written outside the run directory.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pytest_coldstart.record import logsettings, records
from pytest_coldstart.record.manifest import initial_manifest
from pytest_coldstart.record.manifest_check import writable_manifest
from pytest_coldstart.record.redaction import Redactor
from pytest_coldstart.record.reviewing import append_review
from pytest_coldstart.record.taxonomy import FAMILIES
from pytest_coldstart.record.trajectory import Appender, lock_for
from pytest_coldstart.run import jsonio, layout
from pytest_coldstart.run.clock import Clock, format_at, parse_at
from pytest_coldstart.run.errors import ColdstartError, UsageError
from pytest_coldstart.run.hashing import sha256_bytes, sha256_file, short
from pytest_coldstart.run.layout import RunDir
from pytest_coldstart.run.paths import copy_name, ensure_folder, open_for_write, resolve_inside
from pytest_coldstart.run.payloads import PayloadStore
from pytest_coldstart.run.textsafe import storable_name
from pytest_coldstart.run.versioning import CURRENT
from pytest_coldstart.run.vocabulary import ACTORS, EVIDENCE_NAMES, PHASES, RECORD_TYPES, RESULT_STATUSES
from pytest_coldstart.run.walk import paths_below


def default_logging() -> dict[str, Any]:
    return logsettings.complete()


def _require_creatable(root: Path) -> None:
    """A new run's directory: absent or empty; never a symlink that leads nowhere (a loop)."""
    try:
        if root.is_symlink() and not root.is_dir():
            raise ColdstartError("run directory is a symlink to no directory (dangling or a loop)", root)
        if root.exists() and any(root.iterdir()):
            raise ColdstartError("run directory already exists and is not empty (init never overwrites a run)", root)
    except OSError as exc:
        raise ColdstartError(f"run directory cannot be used ({exc.strerror or exc})", root) from None


@contextmanager
def _all_or_nothing(root: Path) -> Iterator[None]:
    """init leaves a whole run or nothing: what a failure part-way wrote is removed (the folder
    was absent or empty before), so the same init can simply be run again."""
    existed = root.exists()
    try:
        yield
    except BaseException:
        for child in root.iterdir() if root.is_dir() else ():
            shutil.rmtree(child) if child.is_dir() and not child.is_symlink() else child.unlink()
        if not existed and root.is_dir():
            root.rmdir()
        raise


def init_run(
    run_dir: str | Path,
    *,
    run_id: str,
    task_bytes: bytes,
    task_source: str,
    harness: dict[str, str],
    visible_roots: list[str] | None = None,
    excludes: list[str] | None = None,
    notes: list[str] | None = None,
    created_at: str | None = None,
    experiment_id: str | None = None,
    logging: dict[str, Any] | None = None,
    clock: Clock | None = None,
    machine: dict[str, Any] | None = None,
    repo: dict[str, Any] | None = None,
    tool: dict[str, Any] | None = None,
    agent: dict[str, Any] | None = None,
) -> Recorder:
    """Create a new run directory. Refuses an existing run (nothing is overwritten).
    ``agent``: how the agent will see the run ({cwd, run_dir, case_insensitive}), recorded as
    run.json ``agent`` so the audit resolves the paths its calls name."""
    from pytest_coldstart.record import visibility

    clock = clock or Clock()
    rundir = RunDir(run_dir)
    if not run_id or not isinstance(run_id, str) or any(c in run_id for c in "/\\\n\r\t"):
        raise UsageError(f"invalid run id {run_id!r}")
    _require_creatable(rundir.root)
    if created_at is not None:
        moment = parse_at(created_at)
        if moment is None:
            raise UsageError(f"--created-at {created_at!r} is not a timestamp")
        created = format_at(moment)
    else:
        created = format_at(clock.now())
    logging = logsettings.complete(logging)  # checked (and the salt fingerprinted) before anything is written
    # Every free string of run.json passes the rules, as a record's would.
    redactor = Redactor.from_settings(logging)
    notes = [redactor.apply(note) for note in notes or []]
    experiment_id = redactor.scrub(experiment_id) if isinstance(experiment_id, str) else experiment_id
    harness = {key: redactor.scrub(value) if isinstance(value, str) else value for key, value in harness.items()}
    with _all_or_nothing(rundir.root):
        try:
            rundir.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ColdstartError(f"run directory cannot be created ({exc.strerror or exc})", rundir.root) from None
        for folder in (layout.IMPORTS, layout.ARTIFACTS):
            ensure_folder(rundir.root, folder)
        jsonio.write_bytes_atomic(rundir.path(layout.TASK_MD), task_bytes)
        vis = visibility.snapshot(rundir.root, list(visible_roots or []), list(excludes or []), created)
        vis_bytes = jsonio.dumps_document(vis)
        jsonio.write_bytes_atomic(rundir.path(layout.VISIBILITY_JSON), vis_bytes)
        evidence = {"schemaVersion": CURRENT, **{name: None for name in EVIDENCE_NAMES}}
        jsonio.write_json_atomic(rundir.evidence_json, evidence)
        os.close(open_for_write(rundir.reviews, os.O_WRONLY | os.O_CREAT))
        task_sha = sha256_bytes(task_bytes)
        manifest = initial_manifest(
            run_id=run_id,
            experiment_id=experiment_id,
            created=created,
            created_explicit=created_at is not None,
            harness=harness,
            task={"source": task_source, "sha256": task_sha, "size": len(task_bytes)},
            visibility={"sha256": sha256_bytes(vis_bytes), "file_count": vis["file_count"]},
            clock=clock,
            logging=logging,
            notes=notes,
            machine=machine,
            repo=repo,
            tool=tool,
        )
        if agent is not None:
            manifest["agent"] = dict(agent)
        jsonio.write_json_atomic(rundir.run_json, manifest)
        recorder = Recorder(rundir.root, clock=clock)
        recorder.appender.append_many(
            [
                {
                    "record": "header",
                    "at": created,
                    "created_at": created,
                    "harness": manifest["harness"],
                    "tool": manifest["tool"],
                },
                {
                    "record": "phase",
                    "at": created,
                    "phase": "prepare",
                    "actor": "operator",
                    "note": "run created",
                    "evidence": [f"task:{short(task_sha)}", f"visibility:{vis['file_count']} files"],
                },
            ]
        )
    return recorder


def _copy_into_run(source: Path, target: Path) -> None:
    """Copy a regular, not sparse ``source`` to ``target`` in the run (never through a symlink)."""
    with (
        jsonio.open_regular(source) as reader,
        os.fdopen(open_for_write(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), "wb") as writer,
    ):
        shutil.copyfileobj(reader, writer, 1 << 20)


class Recorder:
    """Append-side API of one existing (version 2, unsealed) run directory."""

    def __init__(self, run_dir: str | Path, *, clock: Clock | None = None):
        self.rundir = RunDir(run_dir)
        self.rundir.require()
        if self.rundir.manifest_version() != CURRENT:
            raise ColdstartError(
                "run is in the version-1 (reference) format; run `coldstart trace migrate` before appending",
                self.rundir.run_json,
            )
        self.manifest = writable_manifest(self.rundir)
        self.clock = clock or Clock()
        self.run_id = self.manifest["run_id"]
        origin = (self.manifest.get("clock") or {}).get("monotonic_origin_ns") or 0
        self.appender = Appender(self.rundir, self.run_id, clock=self.clock, monotonic_origin_ns=origin)
        settings = self.manifest.get("logging") or {}
        self.redactor = Redactor.from_settings(settings)
        self.payloads = PayloadStore(self.rundir, settings)

    # -- trajectory records --------------------------------------------------------------

    def _require_open(self) -> None:
        if self.manifest.get("status") == "sealed":
            raise ColdstartError("run is sealed; nothing more can be appended to its trajectory", self.rundir.run_json)

    def append(self, fields: dict[str, Any]) -> dict[str, Any]:
        """Append any canonical record (``trajectory record``); validated before writing."""
        self._require_open()
        return self.appender.append(self.prepare(fields))

    def prepare(self, fields: dict[str, Any]) -> dict[str, Any]:
        """A record as it is appended: checked, redacted, its large values in the payload store."""
        return records.protect(self.checked(fields), self.redactor, self.payloads)

    def checked(self, fields: dict[str, Any]) -> dict[str, Any]:
        """A record checked and normalized (``records.normalize``), before redaction."""
        if not isinstance(fields, dict):
            raise UsageError("a record must be a JSON object")
        fields = dict(fields)
        kind = fields.get("record")
        if kind not in RECORD_TYPES or kind == "header":
            raise UsageError(f"record type {kind!r} cannot be appended (one of {', '.join(RECORD_TYPES[1:])})")
        for key in ("seq", "prev", "monotonic_ms", "schemaVersion"):
            if key in fields:
                raise UsageError(f"{key!r} is assigned by the recorder and cannot be supplied")
        if fields.get("run_id", self.run_id) != self.run_id:
            raise UsageError(f"record run_id {fields['run_id']!r} does not match this run ({self.run_id!r})")
        fields.pop("run_id", None)
        if fields.get("phase") is not None and fields["phase"] not in PHASES:
            raise UsageError(f"unknown phase {fields['phase']!r} (one of {', '.join(PHASES)})")
        if fields.get("actor") is not None and fields["actor"] not in ACTORS:
            raise UsageError(f"unknown actor {fields['actor']!r} (one of {', '.join(ACTORS)})")
        if kind in ("call", "result"):
            if not isinstance(fields.get("call_id"), str) or not fields["call_id"].strip():
                raise UsageError(f"a {kind} needs a non-empty call_id")
        if kind == "call":
            if not isinstance(fields.get("tool"), str) or not fields["tool"].strip():
                raise UsageError("a call needs a non-empty tool")
            fields.setdefault("arguments", {})
        elif kind == "result":
            if fields.get("status") not in RESULT_STATUSES:
                raise UsageError(f"result status must be one of {', '.join(RESULT_STATUSES)}")
        elif kind == "phase" and fields.get("phase") not in PHASES:
            raise UsageError(f"a phase record needs a phase (one of {', '.join(PHASES)})")
        elif kind == "mark" and (not isinstance(fields.get("name"), str) or not fields["name"].strip()):
            raise UsageError("a mark needs a non-empty name")
        # the taxonomy's shape; normalize would only copy a protocol record's private copy again
        return records.normalize(fields) if kind in FAMILIES else fields

    def call(
        self,
        call_id: str,
        tool: str,
        arguments: Any = None,
        *,
        phase: str = "agent",
        actor: str = "agent",
        **extra: Any,
    ) -> dict[str, Any]:
        return self.append(
            {
                "record": "call",
                "call_id": call_id,
                "tool": tool,
                "arguments": {} if arguments is None else arguments,
                "phase": phase,
                "actor": actor,
                **extra,
            }
        )

    def result(
        self, call_id: str, status: str = "ok", result: Any = None, *, duration_ms: float | None = None, **extra: Any
    ) -> dict[str, Any]:
        fields: dict[str, Any] = {"record": "result", "call_id": call_id, "status": status, **extra}
        if result is not None:
            fields["result"] = result
        if duration_ms is not None:
            fields["duration_ms"] = duration_ms
        return self.append(fields)

    def phase(
        self,
        phase: str,
        actor: str = "operator",
        *,
        instance: str | None = None,
        note: str | None = None,
        evidence: list[str] | None = None,
    ) -> dict[str, Any]:
        fields: dict[str, Any] = {"record": "phase", "phase": phase, "actor": actor, "evidence": list(evidence or [])}
        if instance is not None:
            fields["instance"] = instance
        if note is not None:
            fields["note"] = note
        return self.append(fields)

    def mark(self, name: str, data: Any = None, *, actor: str = "operator", phase: str | None = None) -> dict[str, Any]:
        fields: dict[str, Any] = {"record": "mark", "name": name, "actor": actor, "data": data}
        if phase is not None:
            fields["phase"] = phase
        return self.append(fields)

    # -- documents -----------------------------------------------------------------------

    def _update_manifest(self, change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
        with lock_for(self.rundir):
            manifest = writable_manifest(self.rundir)
            change(manifest)
            jsonio.write_json_atomic(self.rundir.run_json, manifest)
        self.manifest = manifest
        return manifest

    def artifact(
        self, source: str | Path, label: str | None = None, *, phase: str = "agent", actor: str = "agent"
    ) -> list[dict[str, Any]]:
        """Copy a file (or a directory's regular files) into artifacts/ and record their hashes."""
        self._require_open()
        source = Path(source)
        if source.is_symlink() or not source.exists():
            raise ColdstartError("artifact source is missing or a symlink", source)
        files = (
            [source]
            if source.is_file()
            else sorted(p for p in paths_below(source) if p.is_file() and not p.is_symlink())
        )
        if not files:
            raise ColdstartError("artifact source holds no regular files", source)
        entries: list[dict[str, Any]] = []

        def add(manifest: dict[str, Any]) -> None:
            existing = manifest.setdefault("artifacts", [])
            for path in files:
                number = len(existing) + 1
                relative = f"{layout.ARTIFACTS}/{number:03d}-{copy_name(path.name, 'artifact')}"
                target = ensure_folder(self.rundir.root, layout.ARTIFACTS) / relative.split("/", 1)[1]
                _copy_into_run(path, target)
                digest, size = sha256_file(target)
                entry = {
                    "label": self.redactor.scrub(label or storable_name(path.name)),
                    "source": self.redactor.scrub(storable_name(path)),
                    "path": relative,
                    "sha256": digest,
                    "size": size,
                    "phase": phase,
                    "at": format_at(self.clock.now()),
                }
                existing.append(entry)
                entries.append(entry)

        self._update_manifest(add)
        self.append(
            {
                "record": "mark",
                "name": "artifact",
                "actor": actor,
                "phase": phase,
                "data": {"artifacts": [e["path"] for e in entries], "sha256": [e["sha256"] for e in entries]},
            }
        )
        return entries

    def declare_evidence(self, name: str, path: str, *, normalized: str | None = None) -> dict[str, Any]:
        """Declare an evidence file (relative to the run) in evidence.json, with its hash."""
        if self.manifest.get("status") == "sealed":
            # The seal covers evidence.json and every file: a later declaration would break it.
            raise ColdstartError("run is sealed; declare evidence before `coldstart trace seal`", self.rundir.run_json)
        if name not in EVIDENCE_NAMES:
            raise UsageError(f"unknown evidence name {name!r} (one of {', '.join(EVIDENCE_NAMES)})")
        target = resolve_inside(self.rundir.root, path, what=f"evidence {name}")
        if not target.is_file():
            raise ColdstartError(f"evidence {name}: file is missing", path)
        digest, size = sha256_file(target)
        declaration: dict[str, Any] = {
            "path": Path(path).as_posix(),
            "sha256": digest,
            "size": size,
            "declared_at": format_at(self.clock.now()),
        }
        if normalized is not None:
            if name != "agent_logger":
                raise UsageError("--normalized applies to agent_logger only")
            norm = resolve_inside(self.rundir.root, normalized, what="normalized logger view")
            if not norm.is_file():
                raise ColdstartError("normalized logger view is missing", normalized)
            declaration["normalized"] = Path(normalized).as_posix()
            declaration["normalized_sha256"], _ = sha256_file(norm)
        with lock_for(self.rundir):
            document = self.rundir.load_evidence()
            if document.get("translated_from") == 1:
                raise ColdstartError(
                    "evidence.json is version 1; run `coldstart trace migrate` first", layout.EVIDENCE_JSON
                )
            document[name] = declaration
            jsonio.write_json_atomic(self.rundir.evidence_json, document)
        if self.manifest.get("status") != "sealed":
            self.append(
                {"record": "mark", "name": "evidence", "actor": "operator", "data": {"name": name, **declaration}}
            )
        return declaration

    def review(
        self, review_id: str, status: str, by: str, *, evidence: list[str], note: str = "", at: str | None = None
    ) -> dict[str, Any]:
        """Append an explicit review resolution to reviews.jsonl (and a mark while unsealed)."""
        return append_review(self, review_id, status, by, evidence=evidence, note=note, at=at)
