"""The other names Windows gives a file: what Win32 opens when a path is spelled otherwise.

On a Windows host (run.json ``environment.os``) Win32 drops the trailing dots and spaces of
each path component (``oracle.json.``, ``oracle.json. .``, ``test./x``), ``::$DATA`` names a
file's default stream (its content) and ``:$I30:$INDEX_ALLOCATION`` a folder's index, and an
8.3 short name (``ORACLE~1.JSO``, ``OR1A2B~1.JSO``) may stand for any long name whose first
letters and extension it keeps. ``win32_path`` folds the first two away; a short name is
matched to the long names of the folder it is in (``long_path``), or - where that folder
cannot be listed - to every name it could stand for (``could_alias``: fail closed).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

#: an 8.3 short name: up to six letters of the long name (or two and a four-hex hash), ~N, up to three of its extension
SHORT = re.compile(r"^([^~./\\ ]{1,6})~(\d{1,6})(?:\.([^.~/\\ ]{1,3}))?$")
_STREAM = re.compile(r"(?::\$I30)?::?\$(?:DATA|INDEX_ALLOCATION)$", re.IGNORECASE)
#: a short name's letters in a token: worth resolving on a Windows host
HINT = r"~\d|::?\$(?i:data|index_allocation)"


def win32_path(path: str) -> str:
    """``path`` (``/`` separators) as Win32 opens it: each component without a default-stream
    designator and without trailing dots and spaces (``.`` and ``..`` stay)."""
    if ". " not in path and "./" not in path and ":" not in path and not path.endswith((".", " ")):
        return path  # the common case: nothing to drop
    parts = []
    for part in path.split("/"):
        bare = _STREAM.sub("", part)
        if bare not in ("", ".", ".."):
            bare = bare.rstrip(". ") or "."
        parts.append(bare)
    return "/".join(parts)


def could_alias(short: str, name: str) -> bool:
    """Whether the short name ``short`` may stand for the long name ``name`` (case folded; a
    ``_`` of a short name stands for a character 8.3 cannot hold)."""
    match = SHORT.match(short)
    if match is None:
        return False
    prefix, extension = match.group(1).lower(), (match.group(3) or "").lower()
    base, dot, long_extension = name.lower().rpartition(".")
    if not dot or not base:
        base, long_extension = name.lower(), ""
    squeezed = re.sub(r"[\s.]", "", base)  # 8.3 drops the base's spaces and dots
    hashed = len(prefix) == 6 and re.fullmatch(r"[0-9a-f]{4}", prefix[2:]) is not None
    lead = prefix[:2] if hashed and not _starts(squeezed, prefix) else prefix
    return _starts(squeezed, lead) and _starts(long_extension.replace(" ", ""), extension)


def _starts(text: str, prefix: str) -> bool:
    return len(text) >= len(prefix) and all(p in (c, "_") for p, c in zip(prefix, text, strict=False))


def long_path(root: str, relative: str, preferred: Callable[[str], bool]) -> str:
    """``relative`` (inside the folder ``root``) with each short-name component replaced by
    a long name of its folder it may stand for - one ``preferred`` says is declared first;
    a component no name of its folder matches stays as written."""
    parts = relative.split("/")
    for index, part in enumerate(parts):
        if SHORT.match(part) is None:
            continue
        try:
            names = sorted(os.listdir(os.path.join(root, *parts[:index])))
        except (OSError, ValueError):  # ValueError: a NUL or a lone surrogate no file name holds
            return "/".join(parts)  # a folder the run does not hold: nothing below it to list
        if any(name.lower() == part.lower() for name in names):
            continue  # a file really named so
        candidates = [name for name in names if could_alias(part, name)]
        if candidates:
            chosen = next((n for n in candidates if preferred("/".join([*parts[:index], n]))), candidates[0])
            parts[index] = chosen
    return "/".join(parts)
