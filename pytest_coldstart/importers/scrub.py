"""Redacting the raw copy of a session: what the run's rules remove never stays in imports/.

The copy in ``imports/`` starts as the session's exact bytes (hashed as the source, before
anything parses them). Once the importer has parsed it, every line goes through the run's
``Redactor``, the one the records get: a JSON line is redacted as a value (keys on the
denylist, secrets inside strings, identifiers to hash), a line that is not JSON (a plugin's
own format) as text; a string that holds a JSON object or array (Codex keeps tool
arguments so) is redacted as that JSON too. A line where nothing is found keeps its bytes; a changed line is
written as its redacted compact JSON, one line for one line, so ``source_line`` still
points at the same entry. When any line changed, the redacted copy replaces the raw one
atomically (temporary file in ``.coldstart/``, fsync, rename, fsync of imports/).

Speed: ``prefilter.Prefilter`` passes over the bytes and lines no rule can change; only
suspect lines are redacted for real.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from pytest_coldstart.importers.prefilter import ALWAYS, Prefilter, embedded
from pytest_coldstart.record.redaction import Redactor
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.hashing import BLOCK

_NOT_JSON = object()


@dataclass
class Scrubbed:
    """The stored copy after redaction."""

    sha256: str
    size: int
    values: int  # redacted values (JSON pointers, as in a record's ``redacted``)
    lines: int  # lines rewritten


def scrub_copy(copy: Path, redactor: Redactor, temp_dir: Path) -> Scrubbed | None:
    """Redact ``copy`` in place (atomically); None when no line changes (it keeps its bytes)."""
    check = Prefilter(redactor)
    writer: _Writer | None = None
    try:
        with open(copy, "rb") as reader:
            done = 0  # bytes of the copy read so far
            for block in _blocks(reader):
                present = check.hits(block)
                if not present:
                    if writer is None:
                        done += len(block)
                    else:
                        writer.write(block)
                    continue
                among = None if present is ALWAYS else present
                for raw in _lines(block):
                    new, count = _line(raw, redactor, check, among)
                    if count and writer is None:
                        writer = _Writer(temp_dir, copy, done)
                    if writer is not None:
                        writer.write(raw if new is None else new)
                        writer.values += count
                        writer.lines += 1 if count else 0
                    done += len(raw)
        if writer is None:
            return None
        return writer.finish(copy)
    finally:
        if writer is not None:
            writer.discard()


def _blocks(reader: BinaryIO) -> Iterator[bytes]:
    """The file in blocks of whole lines (the last may lack its LF)."""
    rest = b""
    while data := reader.read(BLOCK):
        data = rest + data
        cut = data.rfind(b"\n") + 1
        rest = data[cut:]
        if cut:
            yield data[:cut]
    if rest:
        yield rest


def _lines(block: bytes) -> Iterator[bytes]:
    """The block's lines with their LF (only LF ends a line: a CR stays in it)."""
    parts = block.split(b"\n")
    last = parts.pop()
    for part in parts:
        yield part + b"\n"
    if last:
        yield last


def _line(raw: bytes, redactor: Redactor, check: Prefilter, among: Any) -> tuple[bytes | None, int]:
    """(the redacted line or None when unchanged, values redacted)."""
    end = b"\r\n" if raw.endswith(b"\r\n") else b"\n" if raw.endswith(b"\n") else b""
    body = raw[: len(raw) - len(end)]
    hits = check.hits(body, among) if body.strip() else ()
    if not hits:
        return None, 0
    try:
        value = jsonio.loads(body)
    except (ValueError, RecursionError):
        value = _NOT_JSON
    if value is not _NOT_JSON and hits is not ALWAYS and not check.suspect(value, hits):
        return None, 0
    redactor.paths = []
    if value is _NOT_JSON:
        new_text = redactor.scrub(body.decode("utf-8", "surrogateescape"))
        count = len(redactor.paths)
        return (new_text.encode("utf-8", "surrogateescape") + end, count) if count else (None, 0)
    try:
        inner = _embedded(value, redactor)
        redactor.paths = []
        new = redactor.apply(value)
    except RecursionError:
        raise ColdstartError("a line nests values too deeply to be redacted") from None
    count = len(redactor.paths) + inner
    if not count:
        return None, 0
    try:
        data = jsonio.dumps_line(new)
    except UnicodeEncodeError:  # a lone surrogate from a \\ud800 escape: keep it escaped
        data = json.dumps(new, separators=(",", ":"), allow_nan=False).encode("ascii")
    return data + end, count


def _embedded(value: Any, redactor: Redactor) -> int:
    """Redact, in place, the JSON that strings of ``value`` hold; returns how many values went."""
    removed = 0
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return 0
    for key, child in list(items):
        if isinstance(child, str):
            inner = embedded(child)
            if inner is None:
                continue
            redactor.paths = []
            cleaned = redactor.apply(inner)
            count = len(redactor.paths) + _embedded(cleaned, redactor)
            if count:
                value[key] = json.dumps(cleaned, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
                removed += count
        else:
            removed += _embedded(child, redactor)
    return removed


class _Writer:
    """The redacted copy being written: the unchanged head first, then line by line."""

    def __init__(self, temp_dir: Path, copy: Path, head: int):
        fd, name = tempfile.mkstemp(prefix="redacted-", suffix=".tmp", dir=temp_dir)
        self.path = Path(name)
        self.file = os.fdopen(fd, "wb")
        self.digest = hashlib.sha256()
        self.size = 0
        self.values = 0
        self.lines = 0
        with open(copy, "rb") as source:
            while head > 0 and (data := source.read(min(BLOCK, head))):
                self.write(data)
                head -= len(data)

    def write(self, data: bytes) -> None:
        self.file.write(data)
        self.digest.update(data)
        self.size += len(data)

    def finish(self, copy: Path) -> Scrubbed:
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.close()
        os.replace(self.path, copy)
        jsonio.fsync_directory(copy.parent)
        return Scrubbed(self.digest.hexdigest(), self.size, self.values, self.lines)

    def discard(self) -> None:
        if not self.file.closed:
            self.file.close()
        self.path.unlink(missing_ok=True)
