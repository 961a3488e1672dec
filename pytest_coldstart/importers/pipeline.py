"""``coldstart trace import``: copy a harness session into the run, then translate the copy.

Order of work (seed 000 §3, DESIGN §5 and §7):
1. the raw bytes are copied and hashed before anything parses them (``copying``: the name
   ``imports/<unique name>`` is reserved, the bytes wait in ``.coldstart/``; a second session
   with the same file name gets another name, never an overwrite); a session whose hash
   run.json already lists is refused right away;
2. the copy is parsed completely and its records are built, prepared (shape checks,
   redaction, payload store) and serialized as they stream out, into a spool file in
   ``.coldstart/``; any problem deletes the copy and the spool and nothing is written (the
   error names the original file and line);
3. the copy itself is redacted with the run's rules (``scrub``) and only then takes its name
   in imports/; run.json keeps both hashes (stored and source);
4. under the run lock, held to the end: a session already imported (same source sha256) or
   a call id already in the trajectory is refused; otherwise run.json ``imports`` gets the
   entry (``complete: false``), the spool is appended in chunks, and the entry is marked
   ``complete: true``. The import is contiguous in the trajectory; a failure before the
   first chunk removes the entry and the copy, a failure after it leaves the entry
   incomplete, which ``validate`` reports (``imports.incomplete``).
"""

from __future__ import annotations

import gc
import sqlite3
from pathlib import Path
from typing import Any

from pytest_coldstart.importers import copying, registry
from pytest_coldstart.importers.base import ImportedSession, canonical_at
from pytest_coldstart.importers.records import RecordStream
from pytest_coldstart.importers.scrub import scrub_copy
from pytest_coldstart.importers.spool import Spool, Unprepared, preparer
from pytest_coldstart.live.crosscheck import Reconciler, not_before
from pytest_coldstart.record.recorder import Recorder
from pytest_coldstart.record.trajectory import CallIndex, lock_for, read_last_line
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.clock import Clock, format_at, parse_at
from pytest_coldstart.run.errors import ColdstartError, UsageError
from pytest_coldstart.run.hashing import short
from pytest_coldstart.run.layout import RunDir
from pytest_coldstart.run.textsafe import storable_name
from pytest_coldstart.run.vocabulary import PHASES


def import_session(
    run_dir: str | Path, format: str, session_path: str | Path, *, phase: str = "agent", clock: Clock | None = None
) -> str:
    """Import one session file into the run; returns a one-line summary."""
    # Bulk work creates millions of acyclic objects: the cyclic GC would rescan them over and
    # over (measured: a third of the time at 50,000 calls).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _import(run_dir, format, session_path, phase, clock)
    finally:
        if collecting:
            gc.enable()


def _import(run_dir: str | Path, format: str, session_path: str | Path, phase: str, clock: Clock | None) -> str:
    if phase not in PHASES:
        raise UsageError(f"unknown phase {phase!r} (one of {', '.join(PHASES)})")
    recorder = Recorder(run_dir, clock=clock)
    if recorder.manifest.get("status") == "sealed":
        raise ColdstartError("run is sealed; nothing more can be imported", recorder.rundir.run_json)
    source = Path(session_path)
    if not source.is_file():
        raise ColdstartError("session file is missing or not a regular file", source)
    importer = None if format == "auto" else registry.get(format)
    staged = copying.stage(recorder.rundir, source)
    copy = staged.path
    spool: Spool | None = None
    try:
        _refuse_repeat(recorder.rundir.load_manifest(), staged.sha256, source)
        if importer is None:
            importer = registry.sniff(_first_object(copy, source))
        state = copying.state_folder(recorder.rundir)
        spool = Spool(state, preparer(recorder, source))
        live = Reconciler.of(recorder.rundir)
        stream = RecordStream(
            live.filter(spool.add),
            importer=importer,
            copy_path=staged.relative,
            phase=phase,
            forget=live.forgetting(spool.restart),
        )
        session = _read(importer, copy, source, stream)
        crosscheck = live.mark(session.session_id, staged.relative)
        try:
            stored = scrub_copy(copy, recorder.redactor, state)
        except ColdstartError as exc:
            raise _renamed(exc, copy, source) from None
        digest, size = (stored.sha256, stored.size) if stored else (staged.sha256, staged.size)
        spool.put_first(stream.finish(session, sha256=digest))
        entry = {
            "source": storable_name(source.resolve()),
            "path": staged.relative,
            "sha256": digest,
            "size": size,
            "source_sha256": staged.sha256,
            "source_size": staged.size,
            "redacted": stored.values if stored else 0,
            "redacted_lines": stored.lines if stored else 0,
            "importer": importer.name,
            "importer_version": str(importer.version),
            "format": str(importer.format),
            "format_version": session.format_version
            if type(session.format_version) in (int, str)
            else str(session.format_version),
            "records": spool.count + 1 + (crosscheck is not None),
            "counts": stream.counts(session),
            "imported_at": format_at(recorder.clock.now()),
            "session_started_at": session.started_at,
            "session_ended_at": session.ended_at,
            "phase": phase,
            "complete": False,
            **({"cwd": session.metadata["cwd"]} if isinstance(session.metadata.get("cwd"), str) else {}),
            **({"cwds": session.metadata["cwds"]} if _texts(session.metadata.get("cwds")) else {}),
        }
        if callable(getattr(importer, "companions", None)) and (left := importer.companions(source, session)):
            entry["unimported_subagents"] = left
        for key in ("subagents", "subagent_calls_missing"):
            if session.metadata.get(key):
                entry[key] = session.metadata[key]
        del session
        copying.publish(staged)
    except BaseException:
        copying.discard(staged)
        if spool is not None:
            spool.close()
        raise
    try:
        new_ids = [c for c in stream.call_ids if c not in live.matched]
        last_at = _land(recorder, spool, entry, new_ids, source, staged.target, bool(live.live), crosscheck)
    finally:
        spool.close()
    if crosscheck is not None:
        last_at = None  # the session's times were raised past the live records (source_at keeps them)
    return _summary(importer, source, entry, recorder.manifest, last_at) + _live_summary(crosscheck)


def _texts(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(item, str) for item in value)


def _first_object(copy: Path, source: Path) -> dict[str, Any]:
    try:
        for line in jsonio.iter_jsonl(copy, strict=True):
            first: dict[str, Any] = line.value
            return first
    except ColdstartError as exc:
        raise _renamed(exc, copy, source) from None
    raise ColdstartError("empty session file", source)


def _renamed(exc: ColdstartError, copy: Path, source: Path) -> ColdstartError:
    """The same error, naming the file the user gave instead of the (deleted) copy."""
    if exc.path in (str(copy), None):
        renamed = type(exc)(f"{exc.problem} (nothing was imported)", source, exc.line)
        return renamed
    return exc


def _read(importer: Any, copy: Path, source: Path, stream: RecordStream) -> ImportedSession:
    """Stream the session into ``stream``: a walking importer directly, any other one through
    its whole parsed session."""
    try:
        walk = getattr(importer, "walk", None)
        if callable(walk):
            beside = {"beside": source} if getattr(importer, "reads_beside", False) is True else {}
            session = _check_type(importer, walk(copy, stream, **beside))
            _session_times(session, source)
            return session
        session = _check_type(importer, importer.parse(copy))
        _canonical_times(session, source)
        stream.replay(session)
        return session
    except Unprepared:
        raise
    except ColdstartError as exc:
        raise _renamed(exc, copy, source) from None
    except RecursionError:
        raise ColdstartError("session nests values too deeply (nothing was imported)", source) from None


def _check_type(importer: Any, session: object) -> ImportedSession:
    if not isinstance(session, ImportedSession):
        raise ColdstartError(f"importer {importer.name!r} returned {type(session).__name__}, not an ImportedSession")
    return session


def _fix_time(value: Any, what: str, source: Path) -> str:
    text = canonical_at(value)
    if text is None:
        raise ColdstartError(
            f"importer gave {what} time {value!r:.60}, which is not ISO-8601 (nothing was imported)", source
        )
    return text


def _session_times(session: ImportedSession, source: Path) -> None:
    session.started_at = _fix_time(session.started_at, "the session start", source)
    session.ended_at = _fix_time(session.ended_at, "the session end", source)


def _canonical_times(session: ImportedSession, source: Path) -> None:
    """Every time as ``YYYY-MM-DDTHH:MM:SS.mmmZ`` (built-ins already comply; plugins may not)."""
    _session_times(session, source)
    for call in session.calls:
        call.at = _fix_time(call.at, f"call {call.call_id!r}", source)
        if call.result is not None and call.result.at is not None:
            call.result.at = _fix_time(call.result.at, f"the result of {call.call_id!r}", source)
    for event in session.events:
        event.at = _fix_time(event.at, f"mark {event.name!r}", source)


def _refuse_repeat(manifest: dict[str, Any], digest: str, source: Path) -> None:
    """A session whose source hash run.json already lists is not imported twice."""
    for previous in manifest.get("imports") or []:
        if not isinstance(previous, dict):
            continue
        if previous.get("source_sha256", previous.get("sha256")) == digest:
            note = (
                " (that import was interrupted: `coldstart trace validate` reports it)"
                if previous.get("complete") is False
                else ""
            )
            raise ColdstartError(
                f"this session (sha256 {short(digest)}) was already imported as {previous.get('path')}{note}; "
                "refusing to import it twice",
                source,
            )


def _land(
    recorder: Recorder,
    spool: Spool,
    entry: dict[str, Any],
    call_ids: list[str],
    source: Path,
    copy: Path,
    reconciling: bool = False,
    crosscheck: dict[str, Any] | None = None,
) -> str | None:
    """Under the run lock from the checks to the last record: list the import, append the
    spool chunk by chunk, mark the import complete. Returns the ``at`` of the record that
    was last before the import."""
    with lock_for(recorder.rundir):
        try:
            last_at = _reserve(recorder, entry, call_ids, source)
        except BaseException:
            copy.unlink(missing_ok=True)
            raise
        appended = 0
        try:
            for chunk in spool.chunks():
                # Call ids were checked against the index under this lock in _reserve; the
                # index catches up from its last offset on the next checked append.
                if reconciling:
                    chunk = not_before(chunk, last_at)
                recorder.appender.append_many(chunk, check_calls=False)
                appended += len(chunk)
            if crosscheck is not None:
                recorder.appender.append(recorder.prepare(crosscheck))
                appended += 1
        except BaseException as exc:
            if appended == 0:
                _unreserve(recorder, entry, copy)
                raise
            if not isinstance(exc, Exception):
                raise
            problem = exc.one_line() if isinstance(exc, ColdstartError) else f"{type(exc).__name__}: {exc}"
            raise ColdstartError(
                f"the import stopped after {appended} of {entry['records']} records ({problem}); they stay in the "
                "trajectory and run.json marks the import incomplete (`coldstart trace validate` reports "
                "imports.incomplete): import the session into a new run",
                source,
            ) from None
        _mark_complete(recorder, entry)
    return last_at


def _reserve(recorder: Recorder, entry: dict[str, Any], call_ids: list[str], source: Path) -> str | None:
    """Under the run lock: refuse a repeated session or a known call id, else list the import.
    Returns the ``at`` of the trajectory's last record."""
    rundir = recorder.rundir
    with lock_for(rundir):
        manifest = rundir.load_manifest()
        if manifest.get("status") == "sealed":
            raise ColdstartError("run is sealed; nothing more can be imported", rundir.run_json)
        _refuse_repeat(manifest, entry["source_sha256"], source)
        clash = known_call_ids(rundir, call_ids)
        if clash:
            raise ColdstartError(
                f"{len(clash)} call id(s) of this session are already in the trajectory (e.g. {clash[0]!r}): "
                "is it a fork or copy of a session imported before? nothing was imported",
                source,
            )
        last = read_last_line(rundir.trajectory)  # a torn trajectory refuses the import here
        manifest.setdefault("imports", []).append(entry)
        jsonio.write_json_atomic(rundir.run_json, manifest)
    recorder.manifest = manifest
    try:
        value = jsonio.loads(last) if last else None
    except ValueError:
        return None
    return value.get("at") if isinstance(value, dict) and isinstance(value.get("at"), str) else None


def _mark_complete(recorder: Recorder, entry: dict[str, Any]) -> None:
    def done(manifest: dict[str, Any]) -> None:
        for listed in manifest.get("imports") or []:
            if isinstance(listed, dict) and listed.get("path") == entry["path"]:
                listed["complete"] = True
        entry["complete"] = True

    recorder._update_manifest(done)


def known_call_ids(rundir: RunDir, call_ids: list[str]) -> list[str]:
    """Which of ``call_ids`` the trajectory already holds (one indexed query per 500 ids)."""
    if not call_ids:
        return []
    index = CallIndex(rundir)
    try:
        index.catch_up()
        found: list[str] = []
        for start in range(0, len(call_ids), 500):
            chunk = call_ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            found.extend(
                row[0] for row in index.db.execute(f"SELECT call_id FROM calls WHERE call_id IN ({marks})", chunk)
            )
        return found
    except sqlite3.Error as exc:
        raise ColdstartError(
            f"call index is unusable ({exc}); delete .coldstart/index.sqlite to rebuild it", rundir.root
        ) from None
    finally:
        index.close()


def _unreserve(recorder: Recorder, entry: dict[str, Any], copy: Path) -> None:
    def drop(manifest: dict[str, Any]) -> None:
        manifest["imports"] = [
            e for e in manifest.get("imports", []) if not (isinstance(e, dict) and e.get("path") == entry["path"])
        ]

    recorder._update_manifest(drop)
    copy.unlink(missing_ok=True)


def _summary(importer: Any, source: Path, entry: dict[str, Any], manifest: dict[str, Any], last_at: str | None) -> str:
    counts = entry["counts"]
    text = (
        f"imported {importer.name} session {source.name} as {entry['path']} (sha256 {short(entry['sha256'])}, "
        f"format version {entry['format_version']}): {counts['calls']} calls ({counts['ok']} ok, {counts['error']} error, "
        f"{counts['open']} open; {counts['abandoned']} on abandoned branches), {entry['records']} records"
    )
    if entry["redacted"]:
        text += (
            f"; {entry['redacted']} value(s) in {entry['redacted_lines']} line(s) of the stored copy were redacted "
            f"(source sha256 {short(entry['source_sha256'])})"
        )
    if entry.get("unimported_subagents"):
        text += (
            f"; warning: {len(entry['unimported_subagents'])} subagent transcript(s) beside the session were not "
            f"imported ({', '.join(entry['unimported_subagents'][:3])}): their calls are not in the run"
        )
    if entry.get("subagents"):
        text += f"; read {len(entry['subagents'])} sub-agent transcript(s) with it (their calls are in the run)"
    if missing := entry.get("subagent_calls_missing"):
        text += f"; warning: {len(missing)} Task call(s) left no sub-agent transcript (the audit stays PENDING)"
    created = parse_at(manifest.get("created_at"))
    started = parse_at(entry["session_started_at"])
    if created is not None and started is not None and started < created:
        text += (
            f"; warning: the session started at {entry['session_started_at']}, before the run was created at "
            f"{manifest.get('created_at')} (validate reports this: open the run before the session starts)"
        )
    latest = parse_at(last_at)
    if latest is not None and started is not None and latest > started and (created is None or latest > created):
        text += (
            f"; warning: the trajectory already held records up to {last_at}, later than this session's start "
            "(validate reports times that decrease: import a session as soon as it ends)"
        )
    return text


def _live_summary(crosscheck: dict[str, Any] | None) -> str:
    if crosscheck is None:
        return ""
    data = crosscheck["data"]
    text = f"; {data['matched']} call(s) were already recorded live (kept once)"
    if data["differences"]:
        return text + f"; {data['differences']} difference(s) from the live capture (the audit reports them)"
    return text + ", no difference from the live capture"
