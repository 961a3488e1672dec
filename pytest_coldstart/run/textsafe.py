"""Run-provided text made safe for a terminal or a markdown file: the one escaping helper.

Text from a run (agent output, tool arguments, evidence paths, run.json fields, review notes)
is data. Before it reaches a terminal (CLI output, pytest reports) or a markdown report
(audit.md), control and format characters - ANSI escape sequences, carriage returns, bidi
overrides such as U+202E, zero-width characters, unpaired surrogates, private-use and line or
paragraph separators - are shown as escapes (``\\x1b``, ``\\u202e``), never interpreted.
Every renderer uses ``clean``/``one_line`` (HTML adds html.escape on top; markdown adds its
own table and code escapes on top). A file name is text the same way: bytes that are not
UTF-8 (which Python hands over as ``\\udc80``-``\\udcff`` surrogates) show as ``\\xff``, and
``path_text`` is the form of a path inside a report, a row or a node id.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from typing import Any

#: Unicode categories shown escaped: control, format (bidi, zero-width), surrogate, private
#: use, line and paragraph separators.
ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})


def clean(value: object, limit: int | None = None) -> str:
    """A terminal-safe rendering of run-provided text (newlines kept, everything else escaped)."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    if text.isprintable():  # fast path: nothing to escape
        return text if limit is None or len(text) <= limit else text[: limit - 3] + "..."
    out = []
    for char in text:
        if char == "\n" or unicodedata.category(char) not in ESCAPED_CATEGORIES:
            out.append(char)
        else:
            out.append(_escape(char))
    result = "".join(out)
    if limit is not None and len(result) > limit:
        result = result[: limit - 3] + "..."
    return result


#: characters that show nothing though Unicode calls them letters or symbols (Hangul fillers,
#: the blank Braille pattern): a name made of them is as blank as one of spaces
_SHOWS_NOTHING = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def blank(value: str) -> bool:
    """True when ``value`` shows nothing: spaces, controls, zero-width and bidi marks, combining
    marks with no base, fillers. A reviewer named U+200B is no reviewer."""
    return all(
        char.isspace() or char in _SHOWS_NOTHING or unicodedata.category(char) in _INVISIBLE_CATEGORIES
        for char in value
    )


_INVISIBLE_CATEGORIES = ESCAPED_CATEGORIES | {"Zs", "Mn", "Me", "Cn"}


def one_line(value: object, limit: int | None = 300) -> str:
    """``clean`` on one line: newlines become spaces."""
    return clean(value, limit).replace("\n", " ")


def clean_tree(value: Any) -> Any:
    """``value`` with every string in it (keys too) ``clean``: for documents a page renders."""
    if isinstance(value, str):
        return value if value.isprintable() else clean(value)
    if isinstance(value, dict):
        return {clean_tree(key): clean_tree(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean_tree(item) for item in value]
    return value


def json_text(value: Any, indent: int | None = 2) -> str:
    """JSON for a terminal: the same values, with format, surrogate and private-use characters
    written as ``\\uXXXX`` escapes (json escapes control characters itself) - still JSON, and
    never a UnicodeEncodeError or a bidi override on the way out."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return _JSON_UNSAFE.sub(lambda m: "".join(_json_escape(c) for c in m.group()), text)


_JSON_UNSAFE = re.compile(r"[^\x00-\x7e]+")


def _json_escape(char: str) -> str:
    if unicodedata.category(char) not in ESCAPED_CATEGORIES:
        return char
    data = char.encode("utf-16-be", "surrogatepass")
    return "".join(f"\\u{int.from_bytes(data[i : i + 2], 'big'):04x}" for i in range(0, len(data), 2))


def path_text(path: str | os.PathLike[str]) -> str:
    """A file-system path as printable, valid text: undecodable bytes as ``\\xff``, control and
    bidi characters (a newline too) escaped; an ordinary path is returned unchanged."""
    text = os.fspath(path)
    return text if text.isprintable() else clean(text).replace("\n", "\\n")


def valid_text(text: str) -> str:
    """``text`` as valid Unicode, anything else kept: each lone surrogate (an undecodable byte of
    a file name, which no file can store) shown as ``_escape`` shows it."""
    if not any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        return text
    return "".join(_escape(c) if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)


def storable_name(path: str | os.PathLike[str]) -> str:
    """A file name as a record stores it: valid text, each byte that is not UTF-8 as ``%ff``
    (not ``\\xff``: in a run-relative path a backslash reads as a Windows separator). Any
    other character is kept; the record's sha256, not its name, identifies the content."""
    text = os.fspath(path)
    if text.isprintable() or not any(0xDC80 <= ord(c) <= 0xDCFF for c in text):
        return text
    return "".join(f"%{ord(c) - 0xDC00:02x}" if 0xDC80 <= ord(c) <= 0xDCFF else c for c in text)


def _escape(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # one undecodable byte of a file name (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return char.encode("unicode_escape", "backslashreplace").decode("ascii")
