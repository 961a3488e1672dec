"""The append-only trajectory: envelope, hash chain, locked O(1) appends, streaming reads.

Each line is one JSON object in the shared envelope (``schemaVersion``, ``run_id``, ``seq``,
``at``, ``monotonic_ms``, ``record``, ``call_id``, ``parent_id``, ``prev``) followed by the
record's own fields. ``prev`` is the sha256 of the previous line's bytes (without its LF), so
deleting, editing or reordering a line breaks the chain. Appends never re-read the file: the
previous line comes from a backwards read of the tail, and call-id uniqueness from a small
SQLite index that catches up from the last indexed byte offset.
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any

from pytest_coldstart.record.runlock import RunLock
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.clock import Clock, format_at, parse_at
from pytest_coldstart.run.errors import ColdstartError, ContainmentError, TornLineError
from pytest_coldstart.run.hashing import sha256_bytes
from pytest_coldstart.run.layout import STATE_DIR, TRAJECTORY, RunDir
from pytest_coldstart.run.paths import WRITE_REFUSED, ensure_folder, open_for_write
from pytest_coldstart.run.versioning import CURRENT, require_current

ENVELOPE = ("schemaVersion", "run_id", "seq", "at", "monotonic_ms", "record", "call_id", "parent_id", "prev")
LOCK_TIMEOUT_S = 120


#: the SQLite files of the call index (the database and the journals SQLite may create)
INDEX_FILES = ("index.sqlite", "index.sqlite-wal", "index.sqlite-shm", "index.sqlite-journal")


def state_folder(rundir: RunDir) -> Path:
    """``.coldstart/``, created if absent; refused (ContainmentError) when it is a symlink or
    not a directory: the lock and the index are never written through a link."""
    return ensure_folder(rundir.root, STATE_DIR)


def lock_for(rundir: RunDir) -> RunLock:
    state_folder(rundir)
    return RunLock(rundir.lock_path, timeout=LOCK_TIMEOUT_S)


def read_last_line(path: Path) -> bytes | None:
    """The last complete line (without LF), reading backwards; TornLineError if the file does
    not end with LF. None for an empty or missing file."""
    try:
        handle = jsonio.open_regular(path)  # a FIFO or symlink in the run must not hang or redirect a writer
    except FileNotFoundError:
        return None
    except jsonio.RefusedFile as exc:
        raise ColdstartError(str(exc.strerror), path) from None
    with handle:
        handle.seek(0, os.SEEK_END)
        end = handle.tell()
        if end == 0:
            return None
        handle.seek(end - 1)
        if handle.read(1) != b"\n":
            raise TornLineError(
                "ends with a torn line (a writer stopped mid-append); "
                "run `coldstart trace validate` to see it, then repair the file before appending",
                path,
            )
        chunks: list[bytes] = []
        position = end - 1  # exclude the final LF
        block = 8192
        while position > 0:
            start = max(0, position - block)
            handle.seek(start)
            data = handle.read(position - start)
            cut = data.rfind(b"\n")
            if cut >= 0:
                chunks.append(data[cut + 1 :])
                break
            chunks.append(data)
            position = start
        return b"".join(reversed(chunks))


class CallIndex:
    """Derived index of call ids (``.coldstart/index.sqlite``), rebuilt on demand.

    Used only to refuse duplicate call ids and results for unknown calls at append time;
    ``validate`` never trusts it.
    """

    def __init__(self, rundir: RunDir):
        self.rundir = rundir
        folder = state_folder(rundir)
        for name in INDEX_FILES:  # SQLite would create a dangling link's target: refuse links first
            if (folder / name).is_symlink():
                raise ContainmentError(WRITE_REFUSED, folder / name)
        # nofollow=1: SQLite itself refuses a database path that is a symlink (a link planted
        # between the check above and the open)
        uri = "file:" + _uri_path(folder / INDEX_FILES[0]) + "?nofollow=1"
        self.db = sqlite3.connect(uri, isolation_level=None, uri=True)
        self.db.execute("PRAGMA journal_mode=WAL")
        # Derived data: never fsynced (a crash leaves it stale, which catch_up repairs, or
        # broken, which open_index rebuilds). fsyncing it tripled the cost of every append.
        self.db.execute("PRAGMA synchronous=OFF")
        self.db.execute("CREATE TABLE IF NOT EXISTS calls (call_id TEXT PRIMARY KEY, has_result INTEGER)")
        self.db.execute("CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v INTEGER)")

    def close(self) -> None:
        self.db.close()

    def _offset(self) -> int:
        row = self.db.execute("SELECT v FROM meta WHERE k='offset'").fetchone()
        return int(row[0]) if row else 0

    def catch_up(self) -> None:
        path = self.rundir.trajectory
        size = path.stat().st_size if path.exists() else 0
        offset = self._offset()
        if offset == size:
            return
        self.db.execute("BEGIN")
        if offset > size:
            self.db.execute("DELETE FROM calls")
            offset = 0
        with jsonio.open_regular(path) as handle:
            handle.seek(offset)
            for raw in handle:
                if not raw.endswith(b"\n"):
                    break
                offset += len(raw)
                try:
                    record = jsonio.loads(raw)
                except ValueError:
                    continue
                if isinstance(record, dict):
                    self._note(record)
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('offset', ?)", (offset,))
        self.db.execute("COMMIT")

    def _note(self, record: dict[str, Any]) -> None:
        call_id = record.get("call_id")
        if not isinstance(call_id, str):
            return
        if record.get("record") == "call":
            self.db.execute("INSERT OR IGNORE INTO calls VALUES (?, 0)", (call_id,))
        elif record.get("record") == "result":
            self.db.execute("UPDATE calls SET has_result=1 WHERE call_id=?", (call_id,))

    def state(self, call_id: str) -> int | None:
        """None = unknown call, 0 = call without result, 1 = call with result."""
        row = self.db.execute("SELECT has_result FROM calls WHERE call_id=?", (call_id,)).fetchone()
        return None if row is None else int(row[0])

    def commit_appended(self, records: Iterable[dict[str, Any]], new_size: int) -> None:
        self.db.execute("BEGIN")
        for record in records:
            self._note(record)
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('offset', ?)", (new_size,))
        self.db.execute("COMMIT")


def _uri_path(path: Path) -> str:
    """A path as the path part of an SQLite ``file:`` URI (without urllib: its import costs)."""
    return str(path).replace("%", "%25").replace("?", "%3f").replace("#", "%23")


def open_index(rundir: RunDir) -> CallIndex:
    """The call index, caught up with the trajectory; rebuilt from scratch if it is unreadable."""
    index = None
    try:
        index = CallIndex(rundir)
        index.catch_up()
        return index
    except sqlite3.DatabaseError:
        if index is not None:
            index.close()
        for name in INDEX_FILES:
            (rundir.state_dir / name).unlink(missing_ok=True)  # unlink removes a link, never its target
    index = CallIndex(rundir)
    index.catch_up()
    return index


def _opened_index(rundir: RunDir) -> CallIndex:
    try:
        return open_index(rundir)
    except sqlite3.Error as exc:  # a full disk, a read-only folder: nothing was appended yet
        raise ColdstartError(f"nothing was recorded: the call index cannot be used ({exc})", rundir.state_dir) from None


class Serialized(dict[str, Any]):
    """A record whose fields outside the envelope are already JSON: the dict holds only the
    envelope keys it sets (``record``, ``call_id``, ``parent_id``, ``at``) and ``body`` is one
    JSON object of the other fields (compact, no envelope key). ``append_many`` splices the
    body after the envelope, so the line is the same as for the plain dict, serialized once."""

    __slots__ = ("body",)

    def __init__(self, envelope: dict[str, Any], body: bytes):
        super().__init__(envelope)
        self.body = body


#: a time ``format_at`` would write unchanged, surely a real date (days 29-31 take the full parse)
_SURE_AT = re.compile(r"[1-9]\d{3}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z")


def _json(value: Any) -> bytes:
    if value is None:
        return b"null"
    if type(value) is str:
        return encode_basestring(value).encode("utf-8")
    return jsonio.dumps_line(value)


def _spliced(head: bytes, envelope: dict[str, Any], body: bytes) -> bytes:
    """The line ``jsonio.dumps_line`` writes for the envelope followed by the body's fields;
    ``head`` is the envelope's fixed start (``_head``), the same for every line of a run."""
    mono = envelope["monotonic_ms"]
    line = head + (
        b'%d,"at":%b,"monotonic_ms":%b,"record":%b,"call_id":%b,"parent_id":%b,"prev":%b'
        % (
            envelope["seq"],
            _json(envelope["at"]),
            float.__repr__(mono).encode() if type(mono) is float else _json(mono),
            _json(envelope["record"]),
            _json(envelope["call_id"]),
            _json(envelope["parent_id"]),
            _json(envelope["prev"]),
        )
    )
    return line + b"," + body[1:] if len(body) > 2 else line + b"}"


def _head(run_id: str) -> bytes:
    return b'{"schemaVersion":%d,"run_id":%b,"seq":' % (CURRENT, _json(run_id))


def _later(moment: datetime | None, text: str | None) -> datetime | None:
    """The later of ``moment`` and the time ``text`` (as format_at writes it) names."""
    if text is None:
        return moment
    parsed = datetime.fromisoformat(text)
    return parsed if moment is None or parsed > moment else moment


class Appender:
    """Appends records to one run's trajectory. Safe across threads and processes."""

    def __init__(self, rundir: RunDir, run_id: str, *, clock: Clock | None = None, monotonic_origin_ns: int = 0):
        self.rundir = rundir
        self.run_id = run_id
        self.clock = clock or Clock()
        self.origin = monotonic_origin_ns

    def append(self, record: dict[str, Any]) -> dict[str, Any]:
        return self.append_many([record])[0]

    def append_many(self, records: Sequence[dict[str, Any]], *, check_calls: bool = True) -> list[dict[str, Any]]:
        """Append records atomically as one write; returns them as written (with envelope;
        for a ``Serialized`` record, the envelope only)."""
        path = self.rundir.trajectory
        with lock_for(self.rundir):
            last = read_last_line(path)
            if last is None:
                seq, prev_hash, prev_at, prev_mono = 0, None, None, 0.0
            else:
                try:
                    previous = jsonio.loads(last)
                except ValueError:
                    raise ColdstartError("last line is not valid JSON; run `coldstart trace validate`", path) from None
                last_seq = previous.get("seq") if isinstance(previous, dict) else None
                if isinstance(last_seq, bool) or not isinstance(last_seq, int):
                    raise ColdstartError("last record has no integer seq; run `coldstart trace validate`", path)
                seq = last_seq
                require_current(previous, "trajectory record", str(path))
                prev_hash = sha256_bytes(last)
                prev_at = parse_at(previous.get("at"))
                mono = previous.get("monotonic_ms")
                prev_mono = float(mono) if isinstance(mono, (int, float)) and not isinstance(mono, bool) else 0.0
            index = _opened_index(self.rundir) if check_calls else None
            try:
                pending_calls: dict[str, int] = {}
                lines: list[bytes] = []
                written: list[dict[str, Any]] = []
                head = _head(self.run_id)
                # The latest time written as format_at writes it, kept as text (fixed width: text
                # order is time order) and parsed only when a record takes the clock's time.
                latest: str | None = None
                for fields in records:
                    if index is not None:
                        self._check_call(fields, index, pending_calls)
                    seq += 1
                    explicit = fields.get("at")
                    moment: datetime | None = None
                    if type(explicit) is str and _SURE_AT.fullmatch(explicit):
                        at_text = explicit  # already as format_at writes it
                        if latest is None or explicit > latest:
                            latest = explicit
                    elif explicit is not None:
                        moment = parse_at(explicit)
                        if moment is None:
                            raise ColdstartError(f"record {seq}: 'at' {explicit!r} is not a timestamp", TRAJECTORY)
                        at_text = format_at(moment)
                    else:
                        prev_at, latest = _later(prev_at, latest), None
                        moment = self.clock.now()
                        if prev_at is not None and moment < prev_at:
                            moment = prev_at  # wall clock stepped back: never write a decreasing time
                        at_text = format_at(moment)
                    mono = max(prev_mono, round((self.clock.monotonic_ns() - self.origin) / 1e6, 3))
                    record = {
                        "schemaVersion": CURRENT,
                        "run_id": self.run_id,
                        "seq": seq,
                        "at": at_text,
                        "monotonic_ms": mono,
                        "record": fields["record"],
                        "call_id": fields.get("call_id"),
                        "parent_id": fields.get("parent_id"),
                        "prev": prev_hash,
                    }
                    if type(fields) is Serialized:
                        line = _spliced(head, record, fields.body)
                    else:
                        for key, value in fields.items():
                            if key not in record:
                                record[key] = value
                        line = jsonio.dumps_line(record)
                    lines.append(line + b"\n")
                    written.append(record)
                    prev_hash = sha256_bytes(line)
                    if moment is not None:
                        prev_at = max(prev_at, moment) if prev_at is not None else moment
                    prev_mono = mono
                fd = open_for_write(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
                try:
                    new_size = jsonio.append_whole(fd, b"".join(lines), path)
                finally:
                    os.close(fd)
                if index is not None:
                    try:
                        index.commit_appended(written, new_size)
                    except sqlite3.Error:
                        pass  # the records are durable; the stale index catches up on next use
            finally:
                if index is not None:
                    index.close()
        return written

    @staticmethod
    def _check_call(fields: dict[str, Any], index: CallIndex, pending: dict[str, int]) -> None:
        kind = fields.get("record")
        call_id = fields.get("call_id")
        if kind not in ("call", "result") or not isinstance(call_id, str):
            return
        state = pending.get(call_id, index.state(call_id))
        if kind == "call":
            if state is not None:
                raise ColdstartError(f"call id {call_id!r} is already recorded (call ids are unique)", TRAJECTORY)
            pending[call_id] = 0
        else:
            if state is None:
                raise ColdstartError(f"result for unknown call id {call_id!r} (record the call first)", TRAJECTORY)
            if state == 1:
                raise ColdstartError(f"call {call_id!r} already has a result (exactly one result per call)", TRAJECTORY)
            pending[call_id] = 1


def iter_records(rundir: RunDir, *, strict: bool = True) -> Iterator[jsonio.Line | jsonio.LineProblem]:
    """Stream trajectory lines (raw values, any version). See ``jsonio.iter_jsonl``."""
    return jsonio.iter_jsonl(rundir.trajectory, what=TRAJECTORY, strict=strict)
