"""The texts a visible file may carry: as it is, and as the agent could read it in one step.

A visible file that holds the answer compressed (gzip, bzip2, xz, a zip archive), base64-encoded
(whole, wrapped at any width, or as blobs in a text), in UTF-16, percent-, HTML-, JSON- or
C-escaped, hex-encoded, rot13'd, reversed, or spelled with spaces or invisible characters
between its letters hands the agent the answer as surely as plain text: ``gunzip -c``, ``unzip
-p``, ``base64 -d``, ``xxd -r -p``, ``rev`` or ``tr`` is all it takes. Each reading
is bounded (decompression stops at the byte bound whatever a header claims; at most
``MAX_READINGS`` readings and ``MAX_TOTAL`` bytes of a file), so a compression bomb costs the bound, not its size.
Nothing is executed; the readings are lowercased for the matchers of ``visibility``.
"""

from __future__ import annotations

import bz2
import codecs
import gzip
import html
import io
import lzma
import re
import urllib.parse
import zipfile
import zlib
from collections.abc import Callable, Iterator

from pytest_coldstart.audit.evidence.encoded import readable

MAX_BYTES = 8 * 1024 * 1024  # each reading, as the plain file is read
MAX_READINGS = 64
MAX_TOTAL = 4 * MAX_BYTES  # decompressed bytes of one file, all its layers
MAX_MEMBERS = 32  # of a zip archive
_BASE64_ONLY = re.compile(rb"[A-Za-z0-9+/=\s]{16,}")
_BLOB = re.compile(r"(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{16,}={0,2}(?![A-Za-z0-9+/=])")
MAX_SCRAMBLED = 1024 * 1024  # characters of a file also read rot13'd, reversed and squeezed
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z]{2,8});")
_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\x([0-9A-Fa-f]{2})")
_HEX_RUN = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){16,}(?![0-9A-Fa-f])")
_INVISIBLE = re.compile(  # soft hyphen, zero-width and bidi controls, BOM
    r"[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]+"
)
_SPACED = re.compile(r"(?:\S[ \t]){8}\S")
_SINGLE = re.compile(r"(?<=\S)[ \t](?=\S)")
_WIDE = re.compile(r"[ \t]{2,}")
_UNREADABLE = (OSError, EOFError, ValueError, RuntimeError, zlib.error, lzma.LZMAError, zipfile.BadZipFile)


def readings(data: bytes) -> Iterator[tuple[str, str]]:
    """(how the text was read, the text lowercased): the file itself first."""
    count, total = 0, 0
    for how, raw in _layers(data):
        total += len(raw)
        if total > MAX_TOTAL and how:
            return  # 32 members of 8 MiB each would cost 256 MiB of matching
        for suffix, text in _texts(raw):
            count += 1
            if count > MAX_READINGS:
                return
            yield how + suffix, text


def _layers(data: bytes) -> Iterator[tuple[str, bytes]]:
    yield "", data
    opener = _DECOMPRESSORS.get(data[:2]) or _DECOMPRESSORS.get(data[:3]) or _DECOMPRESSORS.get(data[:6])
    if opener is not None:
        name, open_stream = opener
        try:
            with open_stream(io.BytesIO(data)) as stream:
                yield f" ({name}-compressed)", stream.read(MAX_BYTES)
        except _UNREADABLE:
            return
    elif data[:4] == b"PK\x03\x04":
        yield from _zip_members(data)


def _zip_members(data: bytes) -> Iterator[tuple[str, bytes]]:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for info in archive.infolist()[:MAX_MEMBERS]:
                if info.is_dir():
                    continue
                with archive.open(info) as member:
                    yield f" (zip member {info.filename!r})", member.read(MAX_BYTES)
    except _UNREADABLE:
        return


def _texts(raw: bytes) -> Iterator[tuple[str, str]]:
    text = _decoded(raw)
    yield "", text.lower()
    yield from _spelled(text)
    if _BASE64_ONLY.fullmatch(raw.strip() or b"-"):  # base64 -w 76 wraps its lines
        whole = readable(re.sub(r"\s+", "", text))
        if whole is not None:
            yield " (base64-encoded)", whole.lower()
            return
    for index, match in enumerate(_BLOB.finditer(text)):
        if index >= MAX_READINGS:
            return
        blob = readable(match.group(0))
        if blob is not None and len(blob) >= 8:
            yield " (a base64 blob in it)", blob.lower()


def _spelled(text: str) -> Iterator[tuple[str, str]]:
    """The text in the spellings a one-line command undoes: percent-, HTML-, JSON- or
    C-escaped, hex; and, for a file of at most ``MAX_SCRAMBLED`` characters, rot13, reversed,
    without invisible format characters (zero-width joiners), and letter-spaced undone ("c a r t")."""
    if len(_PERCENT.findall(text, 0, 4096)) >= 4:
        yield " (percent-encoded)", urllib.parse.unquote(text).lower()
    if "&" in text and _ENTITY.search(text):
        yield " (HTML entities)", html.unescape(text).lower()
    if "\\" in text and _ESCAPE.search(text):
        yield " (escaped)", _ESCAPE.sub(_unescaped, text).lower()
    for index, match in enumerate(_HEX_RUN.finditer(text)):
        decoded = _hex_text(match.group(0)) if index < MAX_READINGS else None
        if decoded is not None:
            yield " (hex-encoded)", decoded.lower()
    if len(text) <= MAX_SCRAMBLED:
        yield " (rot13)", codecs.encode(text, "rot13").lower()
        yield " (reversed)", text[::-1].lower()
        visible = _INVISIBLE.sub("", text)
        if visible != text:
            yield " (invisible characters removed)", visible.lower()
        if _SPACED.search(visible):  # "c a r t   0 b 7 e": one space between letters, three between words
            yield " (letter-spaced)", _WIDE.sub(" ", _SINGLE.sub("", visible)).lower()


def _unescaped(match: re.Match[str]) -> str:
    code = int(match.group(1) or match.group(2), 16)
    return chr(code) if code < 0xD800 or code > 0xDFFF else "?"


def _hex_text(digits: str) -> str | None:
    try:
        text = bytes.fromhex(digits).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None
    return text if text.isprintable() and any(c.isalpha() for c in text) else None


def _decoded(raw: bytes) -> str:
    """UTF-8, or UTF-16 where a byte-order mark or every other byte NUL says so."""
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff") or (len(raw) >= 8 and raw[1:64:2].count(0) * 2 >= len(raw[1:64:2])):
        return raw.decode("utf-16", "replace")
    return raw.decode("utf-8", "replace")


def _gzip(data: io.BytesIO) -> io.BufferedIOBase:
    return gzip.GzipFile(fileobj=data)


def _bzip2(data: io.BytesIO) -> io.BufferedIOBase:
    return bz2.BZ2File(data)


def _xz(data: io.BytesIO) -> io.BufferedIOBase:
    return lzma.LZMAFile(data)


_DECOMPRESSORS: dict[bytes, tuple[str, Callable[[io.BytesIO], io.BufferedIOBase]]] = {
    b"\x1f\x8b": ("gzip", _gzip),
    b"BZh": ("bzip2", _bzip2),
    b"\xfd7zXZ\x00": ("xz", _xz),
}
