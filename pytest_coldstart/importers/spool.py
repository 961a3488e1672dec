"""The prepared records of one import, waiting in ``.coldstart/`` for the run lock.

Records are prepared (shape checks, redaction, payload store) and serialized as they stream
out of the importer, and written to a temporary spool file in the run's private state
directory. Nothing reaches the trajectory before every record of the session is prepared
and serialized, so a bad record still means nothing was imported; then the append reads
the spool back one chunk at a time. Memory holds one chunk, never the session.

``preparer`` makes each record's spool item; a record no redaction rule can change and no
payload takes is serialized once, without the redactor's walk. The spool holds prepared records only (redacted like the trajectory, never raw session
content); it is deleted when the import ends, and ``.coldstart/`` is safe to delete.
Format: frames of ``<8-byte little-endian length><marshal of a list of (record, call_id,
parent_id, at, body)>``, one frame per append chunk; marshal is read back only by the
process that wrote it.
"""

from __future__ import annotations

import marshal
import os
import struct
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pytest_coldstart.importers.prefilter import Prefilter
from pytest_coldstart.record import records
from pytest_coldstart.record.recorder import Recorder
from pytest_coldstart.record.trajectory import Serialized
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.errors import ColdstartError

#: records per append (one write, one fsync each) and the byte bound of one chunk
CHUNK_RECORDS = 5000
CHUNK_BYTES = 8 << 20
ENVELOPE = ("record", "call_id", "parent_id", "at")
_FRAME = struct.Struct("<Q")

Item = tuple[Any, Any, Any, Any, bytes]


def serialize(prepared: dict[str, Any], body: bytes | None = None) -> Item:
    """A prepared record as its envelope values and the JSON of every other field (``body``
    where the caller serialized them already)."""
    if body is None:
        body = jsonio.dumps_line(outside_envelope(prepared))
    get = prepared.get
    return get("record"), get("call_id"), get("parent_id"), get("at"), body


def outside_envelope(record: dict[str, Any]) -> dict[str, Any]:
    body = record.copy()  # a C copy and four pops: a third of a comprehension's cost
    for key in ENVELOPE:
        body.pop(key, None)
    return body


def deserialize(item: Item) -> Serialized:
    kind, call_id, parent_id, at, body = item
    return Serialized({"record": kind, "call_id": call_id, "parent_id": parent_id, "at": at}, body)


class Spool:
    """Prepared, serialized records in a temporary file; ``chunks()`` reads them back.
    ``prepare`` makes a record's spool item (``serialize`` of the prepared record)."""

    def __init__(self, state_dir: Path, prepare: Callable[[dict[str, Any]], Item]):
        fd, name = tempfile.mkstemp(prefix="import-", suffix=".spool", dir=state_dir)
        self.path = Path(name)
        self.file = os.fdopen(fd, "w+b")
        self.prepare = prepare
        self.first: Item | None = None
        self.restart()

    def restart(self) -> None:
        """Drop everything spooled (the importer walks its file again)."""
        self.file.seek(0)
        self.file.truncate()
        self.count = 0
        self._frame: list[Item] = []
        self._bytes = 0

    def add(self, fields: dict[str, Any]) -> None:
        item = self.prepare(fields)
        self._frame.append(item)
        self._bytes += len(item[4])
        self.count += 1
        if len(self._frame) >= CHUNK_RECORDS or self._bytes >= CHUNK_BYTES:
            self._write()

    def put_first(self, fields: dict[str, Any]) -> None:
        """The record that goes before all others (the session start, known last)."""
        self.first = self.prepare(fields)

    def _write(self) -> None:
        data = marshal.dumps(self._frame)
        self.file.write(_FRAME.pack(len(data)))
        self.file.write(data)
        self._frame = []
        self._bytes = 0

    def chunks(self) -> Iterator[list[Serialized]]:
        """The records in order, ``first`` first, one append chunk at a time."""
        if self._frame:
            self._write()
        self.file.flush()
        self.file.seek(0)
        pending = [deserialize(self.first)] if self.first is not None else []
        while header := self.file.read(_FRAME.size):
            (size,) = _FRAME.unpack(header)
            chunk = pending + [deserialize(item) for item in marshal.loads(self.file.read(size))]
            pending = []
            yield chunk
        if pending:
            yield pending

    def close(self) -> None:
        self.file.close()
        self.path.unlink(missing_ok=True)


class Unprepared(ColdstartError):
    """A record the recorder refuses (it names the session file, not the copy)."""


def preparer(recorder: Recorder, source: Path) -> Callable[[dict[str, Any]], Item]:
    """Each record as its spool item. Most records change under no redaction rule and hold no
    value the payload store would take: their body is serialized once and looked at by the
    redactor's prefilter (no literal of any rule in it: nothing to redact), and one no larger
    than the inline bound holds no payload. Any other record is protected in full."""
    clean = Prefilter(recorder.redactor).clean
    inline = int(recorder.payloads.settings["inline_max_bytes"])

    def run(fields: dict[str, Any]) -> Item:
        try:
            checked = recorder.checked(fields)
            if checked.get("record") != "state":  # a state's hash is computed after redaction
                body = jsonio.dumps_line(outside_envelope(checked))
                if len(body) <= inline and clean(body):
                    return serialize(checked, body)
            return serialize(records.protect(checked, recorder.redactor, recorder.payloads))
        except (ColdstartError, RecursionError) as exc:
            problem = exc.one_line() if isinstance(exc, ColdstartError) else "values nested too deeply"
            raise Unprepared(
                f"a record could not be prepared ({problem}); nothing was imported", str(source.resolve())
            ) from None

    return run
