"""Streaming reads that hash while parsing, so every byte of a file is read once.

``HashedLines`` yields each JSONL line with its byte offset and parse result and leaves the
whole-file sha256 and size behind; ``read_hashed`` does the same for a small JSON document.
Problems are values (``RawLine.problem``), never exceptions: the audit reports them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pytest_coldstart.run import jsonio

#: JSON documents (answer, oracle, fixture ...) larger than this are refused, not loaded.
MAX_DOCUMENT_BYTES = 64 * 1024 * 1024


RawLine = jsonio.RawLine
_BOM = b"\xef\xbb\xbf"


class HashedLines:
    """Iterate a JSONL file once; afterwards ``sha256``/``size`` describe every byte read.

    Lines are ``jsonio.read_lines``'s, except that a UTF-8 byte-order mark at the start of an
    external stream is tolerated."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.sha256: str | None = None
        self.size = 0

    def __iter__(self) -> Iterator[RawLine]:
        digest = hashlib.sha256()
        with jsonio.open_regular(self.path) as handle:
            for line in jsonio.read_lines(handle, digest=digest):
                if line.number == 1 and line.problem is not None and line.raw.startswith(_BOM):
                    line = jsonio.parse_line(1, line.offset, line.raw[len(_BOM) :])
                yield line
            self.size = handle.tell()
        self.sha256 = digest.hexdigest()


def read_hashed(path: str | Path) -> tuple[bytes, str]:
    """(bytes, sha256) of a small document; OSError/ValueError on trouble."""
    with jsonio.open_regular(path) as handle:
        data = handle.read(MAX_DOCUMENT_BYTES + 1)
    if len(data) > MAX_DOCUMENT_BYTES:
        raise ValueError(f"larger than {MAX_DOCUMENT_BYTES} bytes; refusing to load it")
    return data, hashlib.sha256(data).hexdigest()


def line_at(path: str | Path, offset: int) -> dict[str, Any] | None:
    """Re-read the one record starting at ``offset`` (for the report's cited refs)."""
    try:
        with jsonio.open_regular(path) as handle:
            handle.seek(offset)
            raw = handle.readline(jsonio.MAX_LINE_BYTES + 1)
    except OSError:
        return None
    parsed = jsonio.parse_line(0, offset, raw.rstrip(b"\n"))
    value: dict[str, Any] | None = parsed.value
    return value
