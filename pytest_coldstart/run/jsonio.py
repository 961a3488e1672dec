"""JSON and JSONL input/output with the project's durability and error rules.

Writing: documents are written atomically (temp file, fsync, rename, fsync the directory);
lines are compact UTF-8. Reading: every failure becomes a ``ColdstartError`` naming the file
(and line), never a traceback; JSONL is streamed line by line with a size bound.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Literal, NamedTuple, overload

from pytest_coldstart.run import holes
from pytest_coldstart.run.errors import ColdstartError, TornLineError
from pytest_coldstart.run.jsonrule import (
    _STRICT,
    MAX_DEPTH,
    InvalidJSON,
    UnstorableValue,
    _decode,
    canonical_bytes,
    dumps_document,
    dumps_line,
    loads,
)

__all__ = ["MAX_DEPTH", "InvalidJSON", "UnstorableValue", "canonical_bytes", "dumps_document", "dumps_line", "loads"]

#: A JSONL line longer than this is reported, not loaded (protects memory on hostile input).
MAX_LINE_BYTES = 64 * 1024 * 1024
#: A JSON document larger than this is refused by ``read_json`` (same bound as the audit's).
MAX_DOCUMENT_BYTES = 64 * 1024 * 1024
SYMLINK_REFUSED = "is a symlink; symlinks inside a run are never followed"


def fsync_directory(directory: str | Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_bytes_atomic(path: str | Path, data: bytes) -> None:
    import tempfile  # lazily: it imports random, which the append path never needs

    path = Path(path)
    _replaceable(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o644)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    fsync_directory(path.parent)


def append_whole(fd: int, data: bytes, path: str | Path) -> int:
    """Append ``data`` to the open file ``fd`` and fsync; its new size. A write that fails
    part-way (a full disk, a quota) is cut back off, so the file never ends in a torn line:
    all or nothing, and the error says nothing was recorded."""
    before = os.fstat(fd).st_size
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except OSError as exc:
        try:
            os.ftruncate(fd, before)
            os.fsync(fd)
        except OSError:
            pass  # then validate names the torn line, and appends refuse to continue after it
        raise ColdstartError(f"nothing was recorded: {exc.strerror or exc}", str(path)) from None
    return os.fstat(fd).st_size


def _replaceable(path: Path) -> None:
    """The rename that makes a write atomic replaces whatever has the name: a device, a FIFO or
    a socket given as an output (``--out /dev/full``) is refused, never swapped for a file."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return  # absent (or unreachable: the write itself names the problem)
    if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        raise OSError(errno.EEXIST, f"it is {_kind(mode)}, never replaced by a file", str(path))


def write_json_atomic(path: str | Path, value: Any) -> None:
    write_bytes_atomic(path, dumps_document(value))


def read_json(
    path: str | Path, *, what: str | None = None, follow_symlinks: bool = False, max_bytes: int | None = None
) -> Any:
    """Read one JSON document; any problem is a ColdstartError naming the file.

    Run files are never followed through a symlink nor waited on (see ``open_regular``);
    ``follow_symlinks`` is for operator inputs outside a run. Documents over ``max_bytes``
    (default MAX_DOCUMENT_BYTES) are refused unread."""
    label = what or str(path)
    limit = MAX_DOCUMENT_BYTES if max_bytes is None else max_bytes
    with open_bytes(path, label, follow_symlinks=follow_symlinks) as handle:
        try:
            data = handle.read(limit + 1)
        except OSError as exc:
            raise ColdstartError(f"unreadable ({exc.strerror or exc})", label) from None
    if len(data) > limit:
        raise ColdstartError(f"larger than {limit} bytes; refusing to load it", label)
    return parse_json_bytes(data, label)


def parse_json_bytes(data: bytes, label: str) -> Any:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ColdstartError(f"not UTF-8 (byte {exc.start})", label) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        return loads(text)
    except (ValueError, RecursionError) as exc:
        raise ColdstartError(json_problem(exc), label) from None


def read_json_object(path: str | Path, *, what: str | None = None, follow_symlinks: bool = False) -> dict[str, Any]:
    value = read_json(path, what=what, follow_symlinks=follow_symlinks)
    if not isinstance(value, dict):
        raise ColdstartError(f"expected a JSON object, got {type_name(value)}", what or str(path))
    return value


def type_name(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "boolean", int: "number", float: "number", str: "string", list: "array", dict: "object"}.get(
        type(value), type(value).__name__
    )


def json_problem(exc: BaseException) -> str:
    """The one wording of a parse failure, whether the text is not JSON or is JSON the project
    refuses (InvalidJSON: non-finite number, duplicate key, unpaired surrogate)."""
    return f"malformed JSON ({_short_reason(exc)})"


def _short_reason(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    text = str(exc)
    return text if len(text) <= 160 else text[:157] + "..."


class Line(NamedTuple):
    """One parsed JSONL line: 1-based ``number``, parsed ``value``, ``raw`` bytes without LF
    (a tuple: a frozen dataclass costs three times as much to build, once per line read)."""

    number: int
    value: Any
    raw: bytes


@dataclass(frozen=True)
class LineProblem:
    number: int
    problem: str
    raw: bytes = b""


class RawLine(NamedTuple):
    """One non-blank JSONL line as ``read_lines`` yields it (a cheap tuple for hot loops)."""

    number: int  # 1-based, blank lines counted
    offset: int  # byte offset of the line in the file
    raw: bytes  # without the LF (a CR stays); b"" for an oversized line
    value: Any  # the parsed object, or None when ``problem`` is set
    problem: str | None


TORN = "torn final line (no newline): an append did not complete"


class RefusedFile(OSError):
    """Not opened: a symlink (when not following) or not a regular file; ``strerror`` says which."""


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    ):
        if test(mode):
            return name
    return "not a file"


def open_regular(path: str | Path, *, follow_symlinks: bool = False) -> BinaryIO:
    """Open a regular file for reading bytes, never waiting and (by default) never following.

    O_NONBLOCK: opening a FIFO does not wait for a writer; O_NOFOLLOW: a symlinked final
    component is refused (``paths.resolve_inside`` refuses symlinked directories); fstat on
    the open descriptor: anything but a regular file is refused (RefusedFile, an OSError), and
    so is a file that is mostly holes (``holes``: its length would cost every reader for nothing)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if not follow_symlinks:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if not follow_symlinks and exc.errno in (errno.ELOOP, errno.EMLINK) and os.path.islink(path):
            raise RefusedFile(errno.ELOOP, SYMLINK_REFUSED, str(path)) from None
        raise
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise RefusedFile(errno.EINVAL, f"is {_kind(status.st_mode)}, not a regular file", str(path))
        if holes.excess_holes(fd, status.st_size, status.st_blocks) is not None:
            raise RefusedFile(errno.EFBIG, holes.describe(status.st_size, status.st_blocks), str(path))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def irregular(path: str | Path) -> str | None:
    """Why ``path`` cannot be read as a run file ("file is missing", a symlink, a FIFO ...),
    or None for a regular file. lstat: nothing is followed."""
    try:
        status = os.lstat(path)
    except FileNotFoundError:
        return "file is missing"
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    if stat.S_ISLNK(status.st_mode):
        return SYMLINK_REFUSED
    if not stat.S_ISREG(status.st_mode):
        return f"is {_kind(status.st_mode)}, not a regular file"
    if holes.may_have_excess(status.st_size, status.st_blocks):  # rare: then ask the file itself
        try:
            open_regular(path).close()
        except OSError as exc:
            return exc.strerror or str(exc)
    return None


def open_bytes(path: str | Path, label: str, *, follow_symlinks: bool = False) -> BinaryIO:
    """``open_regular``; ColdstartError naming ``label`` when impossible."""
    try:
        return open_regular(path, follow_symlinks=follow_symlinks)
    except FileNotFoundError:
        raise ColdstartError("file is missing", label) from None
    except RefusedFile as exc:
        raise ColdstartError(str(exc.strerror), label) from None
    except OSError as exc:
        raise ColdstartError(f"unreadable ({exc.strerror or exc})", label) from None


@overload
def iter_jsonl(
    path: str | Path, *, what: str | None = None, strict: Literal[True] = True, follow_symlinks: bool = False
) -> Iterator[Line]: ...


@overload
def iter_jsonl(
    path: str | Path, *, what: str | None = None, strict: bool, follow_symlinks: bool = False
) -> Iterator[Line | LineProblem]: ...


def iter_jsonl(
    path: str | Path, *, what: str | None = None, strict: bool = True, follow_symlinks: bool = False
) -> Iterator[Line | LineProblem]:
    """Stream a JSONL file.

    With ``strict`` the first bad line raises ColdstartError (file:line: problem). Without it,
    bad lines are yielded as ``LineProblem`` and reading continues. Blank lines are skipped.
    A final line with no LF is a torn append: reported as such (TornLineError when strict).
    """
    label = what or str(path)
    with open_bytes(path, label, follow_symlinks=follow_symlinks) as handle:
        for line in read_lines(handle):
            if line.problem is None:
                yield Line(line.number, line.value, line.raw)
                continue
            if strict:
                error = TornLineError if line.problem is TORN else ColdstartError
                raise error(line.problem, label, line.number)
            yield LineProblem(line.number, line.problem, line.raw)


def read_lines(handle: BinaryIO, *, digest: Any = None) -> Iterator[RawLine]:
    """Every non-blank line of an open JSONL file, parsed, in one read (never raises on content).

    Lines are bounded by MAX_LINE_BYTES (an oversized line is skipped without being held and
    yielded as a problem with ``raw`` b""); a final line without LF is torn and ends the file.
    Only the LF goes: a CR stays in ``raw`` so a hash chain covers every byte (JSON parsing
    ignores it as whitespace). ``digest.update`` (e.g. a sha256) sees every byte read.
    """
    limit = MAX_LINE_BYTES
    readline = handle.readline
    update = digest.update if digest is not None else None
    number = offset = 0
    while True:
        raw = readline(limit + 1)
        if not raw:
            return
        number += 1
        start = offset
        offset += len(raw)
        if update is not None:
            update(raw)
        if raw[-1] != 10:  # no LF: an oversized line, or the torn end of the file
            if len(raw) > limit:
                while True:  # skip (and hash) the rest of the line without holding it
                    more = readline(limit)
                    offset += len(more)
                    if update is not None:
                        update(more)
                    if not more or more[-1] == 10:
                        break
                yield RawLine(number, start, b"", None, f"line longer than {limit} bytes")
                continue
            if raw.strip():
                yield RawLine(number, start, raw, None, TORN)
            return
        body = raw[:-1]
        if body[:1] != b"{" and not body.strip():
            continue
        yield parse_line(number, start, body)


def parse_line(number: int, offset: int, body: bytes) -> RawLine:
    """One line's bytes parsed strictly: the object, or the problem that stops it being one."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return RawLine(number, offset, body, None, f"not UTF-8 (byte {exc.start})")
    try:
        value = _object(text)
    except (ValueError, RecursionError) as exc:
        return RawLine(number, offset, body, None, json_problem(exc))
    if type(value) is not dict:
        return RawLine(number, offset, body, None, f"expected a JSON object, got {type_name(value)}")
    return RawLine(number, offset, body, value, None)


_scan_once = _STRICT.scan_once  # type: ignore[attr-defined]  # the C scanner, undeclared in typeshed


def _object(text: str) -> Any:
    """``loads(text)``, skipping the decoder's two whitespace regexes for the common
    ``{...}`` line; anything else goes the full way (same values, same errors)."""
    if text[:1] == "{":
        try:
            value, end = _scan_once(text, 0)
        except StopIteration:
            value, end = None, -1
        if end == len(text):
            return _decode(text, value)
    return _decode(text, _STRICT.decode(text))
