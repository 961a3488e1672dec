"""``validate`` for trajectory.jsonl: one streaming pass, linear time, compact per-call state.

Checked per line: parseable UTF-8 JSON objects (a torn final line named precisely), the record
version, the JSON Schema of the record (envelope + type), header first and only once,
``run_id``, strictly increasing ``seq``, non-decreasing ``at`` and ``monotonic_ms``, the hash
chain (``prev`` = sha256 of the previous line's bytes), unique call ids and exactly one result
per call after its call, payload refs (verified after the pass), and imported records that
precede the run's creation. Version-1 records (the reference format) are read through
``v1.trajectory_record_to_current`` and have no chain or monotonic clock to check.

Memory: open calls by id (few at a time), finished call ids (16-byte digests of long ones), and unique
stored payload refs; never the records themselves.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from hashlib import sha256
from pathlib import Path
from typing import Any

from pytest_coldstart.run import jsonio, schemas, v1
from pytest_coldstart.run.clock import parse_at
from pytest_coldstart.run.layout import TRAJECTORY
from pytest_coldstart.run.versioning import V1_SCHEMAS, incompatible
from pytest_coldstart.validate.findings import Findings

_ENUM_CODES = {
    "record": "record.unknown_type",
    "phase": "record.unknown_phase",
    "actor": "record.unknown_actor",
    "status": "record.unknown_status",
}


class ObserverError(Exception):
    """An exception raised by a pass's observer (not a problem of the run): the caller's to handle."""


def _id_key(call_id: str) -> str | bytes:
    """A finished call id as kept: itself when short, else its 16-byte digest (a str key
    never equals a bytes key, so the two kinds cannot collide)."""
    if len(call_id) <= 16:
        return call_id
    return hashlib.blake2b(call_id.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class TrajectoryChecker:
    """Feed it the lines of one trajectory in file order (``feed``), then ``finish``; or ``run``
    it over the file. Its results are attributes (records, calls, results, head ...)."""

    def __init__(self, findings: Findings, *, run_id: str | None, version: int, created_at: datetime | None):
        self.findings = findings
        self.run_id = run_id
        self.version = version
        self.created_at = created_at
        self.check = schemas.check("trajectory-record")
        self.records = 0
        self.calls = 0
        self.results = 0
        self.head: str | None = None  # sha256 of the last line: what a seal anchors
        self.size = 0  # bytes read by ``run``
        self.payload_refs: dict[tuple[Any, Any], tuple[int, dict[str, Any]]] = {}
        self.early_imports: dict[str, tuple[int, str]] = {}
        self._open: dict[str, int] = {}
        self._closed: set[str | bytes] = set()
        self._early_results: dict[str, int] = {}
        self._last_number = 0
        self._prev_hash: str | None = None
        self._prev_line = 0
        self._chain_known = True
        self._seq: tuple[int, int] | None = None  # (seq, line)
        self._at: tuple[datetime, int, str] | None = None
        self._mono: tuple[float, int] | None = None
        self._moments: tuple[Any, datetime | None] = (None, None)  # the last ``at`` parsed

    def add(self, line: int | None, problem: str, code: str) -> None:
        self.findings.add(TRAJECTORY, line, problem, code)

    # -- the pass ------------------------------------------------------------------------------

    def run(self, path: Path, *, observer: Any = None, digest: Any = None) -> None:
        """One pass over the file. ``observer.feed(line, at)`` sees every line after this
        checker (``at``: the record's parsed time, or None), then ``observer.finish()``: a
        second consumer of the same read. ``digest`` sees every byte of the file."""
        with jsonio.open_bytes(path, TRAJECTORY) as handle:
            for line in jsonio.read_lines(handle, digest=digest):
                at = self.feed(line)
                if observer is not None:
                    try:
                        observer.feed(line, at)
                    except Exception as exc:
                        raise ObserverError(exc) from exc
            self.size = handle.tell()  # every byte was read (and passed to ``digest``)
        self.finish()
        if observer is not None:
            try:
                observer.finish()
            except Exception as exc:
                raise ObserverError(exc) from exc

    def feed(self, line: jsonio.RawLine) -> datetime | None:
        """Check one line; returns the record's parsed ``at`` (None when absent or unusable)."""
        number = line.number
        if number > self._last_number + 1 and self.version >= 2:
            self.add(
                self._last_number + 1,
                f"blank line(s) before line {number} (the recorder never writes one)",
                "trajectory.blank_line",
            )
        self._last_number = number
        if line.problem is not None:
            self._problem(number, line.problem, line.raw)
            return None
        return self._line(number, line.value, line.raw)

    def finish(self) -> None:
        if self.records == 0:
            self.add(None, "trajectory is empty (no header record)", "trajectory.empty")
        for call_id, line in sorted(self._open.items(), key=lambda item: item[1]):
            self.add(line, f"call {call_id!r} has no result (missing a result is an error)", "call.no_result")
        for call_id, line in sorted(self._early_results.items(), key=lambda item: item[1]):
            self.add(line, f"result for unknown call id {call_id!r}", "result.unknown_call")

    def _problem(self, number: int, problem: str, raw: bytes) -> None:
        if problem.startswith("torn"):
            self.add(number, problem + "; the run's earlier records are intact", "trajectory.torn")
            return
        self.records += 1
        self.add(number, problem, "trajectory.malformed")
        if self.records == 1:
            self.add(number, "the first line must be the header record", "trajectory.header")
        self._advance_chain(raw if raw else None)

    def _advance_chain(self, raw: bytes | None) -> None:
        if self.version < 2:
            return
        self._prev_line = self._last_number
        if raw is None:  # an oversized line: its bytes were never held, so the next link is unknown
            self._chain_known, self._prev_hash, self.head = False, None, None
            return
        self._chain_known = True
        self._prev_hash = self.head = sha256(raw).hexdigest()

    def _line(self, number: int, value: dict[str, Any], raw: bytes) -> datetime | None:
        self.records += 1
        moment = None
        if self.version >= 2:
            found = value.get("schemaVersion")
            record = value if type(found) is int and found == 2 else self._versioned(number, value)
        else:
            record = self._versioned(number, value)
        if record is not None:
            if self.version >= 2 and self._chain_known and record.get("prev") != self._prev_hash:
                self._broken_chain(number, record.get("prev"))
            # a key ending in _payload, unless a \u escape spells it (the only way JSON can)
            moment = self._fields(number, record, value, b'_payload"' in raw or b"\\u" in raw)
        elif self.records == 1:
            self.add(number, "the first line must be the header record", "trajectory.header")
        if self.version >= 2:  # _advance_chain, inlined: once per line
            self._prev_line = number
            self._chain_known = True
            self._prev_hash = self.head = sha256(raw).hexdigest()
        return moment

    def _versioned(self, number: int, value: dict[str, Any]) -> dict[str, Any] | None:
        """The record in the current shape, or None (a finding) when its version is unusable."""
        if self.version >= 2:
            found = value.get("schemaVersion")
            if type(found) is int and found == 2:
                return value
            if "schemaVersion" not in value and value.get("schema") == V1_SCHEMAS["trajectory"]:
                self.add(
                    number, "a version-1 record in a version-2 trajectory (migrate the whole run)", "version.mixed"
                )
            else:
                self.add(number, incompatible("trajectory record", found), "version.unknown")
            return None
        if "schemaVersion" in value:
            self.add(number, "a version-2 record in a version-1 trajectory (migrate the whole run)", "version.mixed")
            return None
        schema = value.get("schema")
        if schema is not None and schema != V1_SCHEMAS["trajectory"]:
            self.add(
                number,
                f"record declares schema {schema!r}, expected {V1_SCHEMAS['trajectory']!r} (fail closed)",
                "version.unknown",
            )
            return None
        return v1.trajectory_record_to_current(value)

    def _broken_chain(self, number: int, prev: Any) -> None:
        if self._prev_hash is None:
            self.add(number, "prev must be null on the first line (the chain starts here)", "chain.prev")
        else:
            self.add(
                number,
                f"prev {_short(prev)} is not the sha256 of line {self._prev_line} ({self._prev_hash[:12]}): the hash chain is broken (a line was edited, removed or inserted)",
                "chain.prev",
            )

    def _fields(
        self, number: int, record: dict[str, Any], original: dict[str, Any], refs: bool = True
    ) -> datetime | None:
        """Schema, header, run_id, order, calls/results, payload refs, early imports; returns
        the record's parsed time."""
        get = record.get
        kind = get("record")
        if self.version < 2 and kind in _V2_ONLY:
            self.add(number, f"record type {kind!r} does not exist in version 1", "record.unknown_type")
        elif not self.check(record):
            self._schema_findings(number, record)
        if kind == "header":
            if self.records > 1:
                self.add(number, "a second header record (only the first line is a header)", "trajectory.header")
        elif self.records == 1:
            self.add(number, f"the first record is {kind!r}, expected the header", "trajectory.header")
        run_id = get("run_id")
        if self.version < 2 and run_id is None:
            run_id = original.get("runId")
        if run_id != self.run_id and isinstance(run_id, str) and self.run_id is not None:
            self.add(number, f"run_id {run_id!r} is not this run's ({self.run_id!r})", "trajectory.run_id")
        moment = self._order(number, get("seq"), get("at"), get("monotonic_ms"))
        if kind == "call" or kind == "result":
            call_id = get("call_id")
            if isinstance(call_id, str):
                self._call(number, call_id) if kind == "call" else self._result(number, call_id)
        if refs:  # the raw line may name a *_payload key
            for key, ref in record.items():
                if key.endswith("_payload") and isinstance(ref, dict) and ref.get("stored") is True:
                    self.payload_refs.setdefault((ref.get("sha256"), ref.get("compression", "none")), (number, ref))
        source = get("source")
        if (
            source is not None
            and isinstance(source, str)
            and source.startswith("import")
            and moment is not None
            and self.created_at is not None
        ):
            if moment < self.created_at:
                named = get("source_path")
                where = named if isinstance(named, str) else str(source)
                self.early_imports.setdefault(where, (number, str(get("at"))))
        return moment

    def _schema_findings(self, number: int, record: dict[str, Any]) -> None:
        for error in schemas.iter_errors("trajectory-record", record):
            cause = schemas.leaf(error)
            field = cause.absolute_path[0] if len(cause.absolute_path) == 1 else None
            code = _ENUM_CODES.get(str(field), "schema.record") if cause.validator == "enum" else "schema.record"
            self.add(number, schemas.describe(error), code)

    def _order(self, number: int, seq: Any, at: Any, mono: Any) -> datetime | None:
        """seq, at and monotonic_ms ordering; returns the record's parsed time."""
        kind = type(seq)
        if kind is int or (kind is not float and kind is not bool and isinstance(seq, int)):
            if self._seq is not None and seq <= self._seq[0]:
                self.add(
                    number,
                    f"seq {seq} does not increase (line {self._seq[1]} has seq {self._seq[0]})",
                    "trajectory.seq",
                )
            self._seq = (seq, number)
        elif isinstance(seq, float):
            self.add(number, f"seq {seq!r} is not an integer", "trajectory.seq")
        moment = None
        if at is not None and at is not True and at is not False and isinstance(at, (str, int, float)):
            last_text, moment = self._moments
            if at != last_text or type(at) is not str:
                moment = _moment(at)
                self._moments = (at, moment) if type(at) is str else (None, None)
            if moment is None:
                self.add(number, f"at {at!r} is not a timestamp", "trajectory.at")
            else:
                if self._at is not None and moment < self._at[0]:
                    self.add(
                        number,
                        f"at {at} is earlier than line {self._at[1]} ({self._at[2]}): times must never decrease",
                        "trajectory.at",
                    )
                self._at = (moment, number, str(at))  # pairwise: one finding per step back
        if (
            self.version >= 2
            and mono is not None
            and mono is not True
            and mono is not False
            and isinstance(mono, (int, float))
        ):
            if self._mono is not None and mono < self._mono[0]:
                self.add(
                    number,
                    f"monotonic_ms {mono} is below line {self._mono[1]} ({self._mono[0]}): the monotonic clock never decreases",
                    "trajectory.monotonic",
                )
            self._mono = (mono, number)
        return moment

    # -- calls and results ---------------------------------------------------------------------

    def _call(self, number: int, call_id: str) -> None:
        self.calls += 1
        if call_id in self._open:
            self.add(
                number,
                f"call id {call_id!r} is recorded again (first at line {self._open[call_id]}; call ids are unique)",
                "call.duplicate",
            )
        elif (key := _id_key(call_id)) in self._closed:
            self.add(number, f"call id {call_id!r} is recorded again (call ids are unique)", "call.duplicate")
        elif call_id in self._early_results:
            line = self._early_results.pop(call_id)
            self.add(line, f"result for call {call_id!r} comes before its call (line {number})", "result.before_call")
            self._closed.add(key)
        else:
            self._open[call_id] = number

    def _result(self, number: int, call_id: str) -> None:
        self.results += 1
        if call_id in self._open:
            del self._open[call_id]
            self._closed.add(_id_key(call_id))
        elif call_id in self._early_results or _id_key(call_id) in self._closed:
            self.add(number, f"call {call_id!r} already has a result (exactly one result per call)", "result.duplicate")
        else:
            self._early_results[call_id] = number


_V2_ONLY = ("decision", "error", "session", "state", "action")


def _moment(at: str | int | float) -> datetime | None:
    """parse_at, with a fast path for the recorder's own format (YYYY-MM-DDTHH:MM:SS.mmmZ)."""
    if type(at) is str and len(at) == 24 and at[23] == "Z" and at[19] == ".":
        try:
            return datetime.fromisoformat(at)
        except ValueError:
            return None
    return parse_at(at)


def _short(value: Any) -> str:
    return value[:12] if isinstance(value, str) else repr(value)
