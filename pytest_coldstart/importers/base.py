"""What an importer is and what it returns.

An importer turns one harness session file into an ``ImportedSession``: the tool calls (each
with its result, or none when the session holds none), the harness events worth a ``mark``,
and metadata. It only reads the file it is given (the copy in ``imports/``) and never writes.
Any problem with the file is a ``SessionFormatError`` naming ``file:line``; a format version it
does not know is a ``VersionError``. ``run.import_session`` does everything else (copying,
hashing, redaction, payloads, appending, run.json).

Third-party importers satisfy the ``Importer`` protocol and are returned from the
``coldstart_register_importers`` hook (see docs/importers.md). An importer may also offer
``walk(path, sink) -> ImportedSession`` (the built-ins do, see ``walking``): it streams the
calls, results and events to the sink in file order and returns the session without them,
so an import holds one line at a time instead of the whole session.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from pytest_coldstart.run import jsonio
from pytest_coldstart.run.clock import format_at, parse_at
from pytest_coldstart.run.errors import ColdstartError

ABANDONED = "abandoned"
CANONICAL = re.compile(r"[1-9]\d{3}-(0[1-9]|1[0-2])-(0[1-9]|1\d|2[0-8])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z")


class SessionFormatError(ColdstartError):
    """The session file is not what its importer expects (one line: ``file:line: problem``)."""


@dataclass
class ImportedResult:
    status: str  # ok | error | open
    at: str | None  # canonical time; None for open (the session's end is used)
    line: int | None
    text: str | None = None
    #: extra keys of the result value (details, summarised non-text blocks), next to ``text``
    value: dict[str, Any] = field(default_factory=dict)
    #: extra record fields (exit_code, executed, note, error...)
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass
class ImportedCall:
    call_id: str
    tool: str
    arguments: Any
    at: str
    line: int
    branch: str | None = None  # None on the active branch, ABANDONED otherwise
    fields: dict[str, Any] = field(default_factory=dict)  # model, executed, sidechain...
    result: ImportedResult | None = None


@dataclass
class ImportedEvent:
    """A harness fact that is not a tool call (model change, compaction, human shell command...)."""

    name: str
    at: str
    line: int
    actor: str = "harness"
    data: dict[str, Any] = field(default_factory=dict)
    branch: str | None = None


@dataclass
class ImportedSession:
    format_version: int | str
    calls: list[ImportedCall]
    events: list[ImportedEvent]
    session_id: str | None
    started_at: str | None
    ended_at: str | None
    lines: int
    counts: dict[str, int] = field(default_factory=dict)  # importer-specific tallies
    metadata: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class Importer(Protocol):
    name: str  # the --format value
    version: str  # the importer's own version (recorded in run.json)
    format: str  # the name of the on-disk format it reads
    description: str

    def sniff(self, first: dict[str, Any]) -> bool:
        """True when the first JSON object of a file looks like this importer's format."""

    def parse(self, path: Path) -> ImportedSession:
        """Read the whole file; raise SessionFormatError / VersionError on bad input."""


# -- helpers shared by the built-in parsers ---------------------------------------------------


class Where:
    """The file and line being parsed, for one-line errors."""

    __slots__ = ("line", "path")

    def __init__(self, path: str | Path, line: int = 0):
        self.path = str(path)
        self.line = line

    def fail(self, problem: str) -> SessionFormatError:
        return SessionFormatError(problem, self.path, self.line or None)

    def obj(self, value: Any, what: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(f"{what} must be an object, got {jsonio.type_name(value)}")
        return value

    def text(self, value: Any, what: str, *, empty: bool = True) -> str:
        if not isinstance(value, str) or (not empty and not value.strip()):
            raise self.fail(f"{what} must be a {'' if empty else 'non-empty '}string, got {value!r:.60}")
        return value

    def opt_text(self, value: Any, what: str) -> str | None:
        return None if value is None else self.text(value, what)

    def flag(self, value: Any, what: str) -> bool:
        if value is None:
            return False
        if not isinstance(value, bool):
            raise self.fail(f"{what} must be true or false, got {value!r:.60}")
        return value

    def at(self, value: Any, what: str = "timestamp") -> str:
        """A session time as the canonical RFC 3339 UTC ms string (ISO strings only)."""
        text = canonical_at(value)
        if text is None:
            raise self.fail(f"{what} {value!r:.60} is not an ISO-8601 time")
        return text

    def epoch_ms(self, value: Any, what: str) -> str:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(f"{what} {value!r:.60} is not epoch milliseconds")
        moment = parse_at(value / 1000.0)
        if moment is None:
            raise self.fail(f"{what} {value!r:.60} is out of range")
        return format_at(moment)


def canonical_at(value: Any) -> str | None:
    """``YYYY-MM-DDTHH:MM:SS.mmmZ`` for an ISO-8601 string, None for anything else."""
    if not isinstance(value, str):
        return None
    if CANONICAL.fullmatch(value):
        return value  # already canonical and surely a real date (days 29-31 take the full parse)
    if _is_number(value):
        return None  # parse_at would read it as epoch seconds: a session time must be ISO
    moment = parse_at(value)
    return None if moment is None or moment.year < 1000 else format_at(moment)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def read_lines(path: str | Path) -> Iterator[jsonio.Line]:
    """Stream a session's JSONL strictly: the first malformed or torn line is an error."""
    try:
        yield from jsonio.iter_jsonl(path, strict=True)
    except SessionFormatError:
        raise
    except ColdstartError as exc:
        raise SessionFormatError(exc.problem, exc.path, exc.line) from None


_TEXT_BLOCKS = ("text", "input_text", "output_text")


def join_text(blocks: Any, where: Where, what: str) -> tuple[str, list[dict[str, Any]]]:
    """Concatenate the text blocks of a content list verbatim; summarise the other blocks.

    Returns (text, others) where ``others`` lists non-text blocks without bulky data (images
    keep their media type, size and hash; the raw session copy keeps the bytes).
    """
    if isinstance(blocks, str):
        return blocks, []
    if blocks is None:
        return "", []
    if not isinstance(blocks, list):
        raise where.fail(f"{what} must be a string or a list, got {jsonio.type_name(blocks)}")
    parts: list[str] = []
    others: list[dict[str, Any]] = []
    for block in blocks:
        if type(block) is not dict:
            where.obj(block, f"{what} block")
        if block.get("type") in _TEXT_BLOCKS:
            text = block.get("text")
            parts.append(text if type(text) is str else where.text(text, f"{what} text"))
        else:
            others.append(summarise_block(block))
    return "".join(parts), others


def summarise_block(block: dict[str, Any]) -> dict[str, Any]:
    from pytest_coldstart.run.hashing import sha256_bytes

    summary: dict[str, Any] = {"type": block.get("type") if isinstance(block.get("type"), str) else None}
    for key in ("mimeType", "media_type"):
        if isinstance(block.get(key), str):
            summary["media_type"] = block[key]
    data = block.get("data")
    if data is None and isinstance(block.get("source"), dict):
        data = block["source"].get("data")
        if isinstance(block["source"].get("media_type"), str):
            summary["media_type"] = block["source"]["media_type"]
    if data is None and isinstance(block.get("image_url"), str):
        data = block["image_url"]
    if isinstance(data, str):
        raw = data.encode("utf-8")
        summary["data_sha256"] = sha256_bytes(raw)
        summary["data_size"] = len(raw)
    return summary


def _moment(at: str) -> datetime | None:
    try:
        return datetime.fromisoformat(at)  # canonical times (the fast, common case)
    except (TypeError, ValueError):
        return parse_at(at)


def duration_ms(start: str, end: str) -> int | None:
    a, b = _moment(start), _moment(end)
    if a is None or b is None:
        return None
    return round((b - a).total_seconds() * 1000)
