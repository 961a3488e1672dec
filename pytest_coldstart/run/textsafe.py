"""Run-provided text made safe for a terminal or a markdown file: the one escaping helper.

Text from a run (agent output, tool arguments, evidence paths, run.json fields, review notes)
is data. Before it reaches a terminal (CLI output, pytest reports) or a markdown report
(audit.md), control and format characters - ANSI escape sequences, carriage returns, bidi
overrides such as U+202E, zero-width characters, unpaired surrogates, private-use and line or
paragraph separators - are shown as escapes (``\\x1b``, ``\\u202e``), never interpreted.
Every renderer uses ``clean``/``one_line`` (HTML adds html.escape on top; markdown adds its
own table and code escapes on top).
"""

from __future__ import annotations

import json
import unicodedata

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
            out.append(char.encode("unicode_escape", "backslashreplace").decode("ascii"))
    result = "".join(out)
    if limit is not None and len(result) > limit:
        result = result[: limit - 3] + "..."
    return result


def one_line(value: object, limit: int | None = 300) -> str:
    """``clean`` on one line: newlines become spaces."""
    return clean(value, limit).replace("\n", " ")
