"""Streaming reads that hash while parsing, so every byte of a file is read once.

``HashedLines`` yields each JSONL line with its byte offset and parse result and leaves the
whole-file sha256 and size behind; ``read_hashed`` does the same for a small JSON document.
Problems are values (``jsonio.LineProblem``), never exceptions: the audit reports them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from pytest_coldstart import jsonio

#: JSON documents (answer, oracle, fixture ...) larger than this are refused, not loaded.
MAX_DOCUMENT_BYTES = 64 * 1024 * 1024


class RawLine(NamedTuple):
    number: int
    offset: int
    raw: bytes  # without the line ending
    value: Any  # parsed object, or None when ``problem`` is set
    problem: str | None


class HashedLines:
    """Iterate a JSONL file once; afterwards ``sha256``/``size`` describe every byte read."""

    def __init__(self, path: str | Path, *, hashed: bool = True):
        self.path = Path(path)
        self.hashed = hashed
        self.sha256: str | None = None
        self.size = 0

    def __iter__(self) -> Iterator[RawLine]:
        digest = hashlib.sha256() if self.hashed else _NoDigest()
        offset = 0
        number = 0
        with open(self.path, "rb") as handle:
            while True:
                raw = handle.readline(jsonio.MAX_LINE_BYTES + 1)
                if not raw:
                    break
                digest.update(raw)
                start = offset
                offset += len(raw)
                number += 1
                if len(raw) > jsonio.MAX_LINE_BYTES and not raw.endswith(b"\n"):
                    while True:  # hash the rest of the oversized line without keeping it
                        more = handle.readline(jsonio.MAX_LINE_BYTES)
                        digest.update(more)
                        offset += len(more)
                        if not more or more.endswith(b"\n"):
                            break
                    yield RawLine(number, start, b"", None, f"line longer than {jsonio.MAX_LINE_BYTES} bytes")
                    continue
                body = raw.rstrip(b"\n").rstrip(b"\r")
                if not body.strip():
                    continue
                if not raw.endswith(b"\n"):
                    yield RawLine(number, start, body, None, "torn final line (no newline): an append did not complete")
                    continue
                yield parse_line(number, start, body)
        self.sha256 = digest.hexdigest()
        self.size = offset


class _NoDigest:
    """Stands in for a digest when the caller needs no hash (validate hashes the trajectory)."""

    def update(self, data: bytes) -> None:
        pass

    def hexdigest(self) -> None:
        return None


def parse_line(number: int, offset: int, body: bytes) -> RawLine:
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return RawLine(number, offset, body, None, f"not UTF-8 (byte {exc.start})")
    if number == 1 and text.startswith("\ufeff"):
        text = text[1:]
    try:
        value = jsonio.loads(text)
    except (ValueError, RecursionError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)[:160]
        return RawLine(number, offset, body, None, f"malformed JSON ({reason})")
    if not isinstance(value, dict):
        return RawLine(number, offset, body, None, f"expected a JSON object, got {jsonio.type_name(value)}")
    return RawLine(number, offset, body, value, None)


def read_hashed(path: str | Path) -> tuple[bytes, str]:
    """(bytes, sha256) of a small document; OSError/ValueError on trouble."""
    with open(path, "rb") as handle:
        data = handle.read(MAX_DOCUMENT_BYTES + 1)
    if len(data) > MAX_DOCUMENT_BYTES:
        raise ValueError(f"larger than {MAX_DOCUMENT_BYTES} bytes; refusing to load it")
    return data, hashlib.sha256(data).hexdigest()


def line_at(path: str | Path, offset: int) -> dict[str, Any] | None:
    """Re-read the one record starting at ``offset`` (for the report's cited refs)."""
    try:
        with open(path, "rb") as handle:
            handle.seek(offset)
            raw = handle.readline(jsonio.MAX_LINE_BYTES + 1)
    except OSError:
        return None
    parsed = parse_line(0, offset, raw.rstrip(b"\n").rstrip(b"\r"))
    return parsed.value
