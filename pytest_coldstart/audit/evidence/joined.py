"""Names joined from pieces by any language's operators: a fail-closed backstop to ``folding``.

``folding`` understands Python's string operations. Other languages join strings with
operators and functions of their own: Lua ``"ora".."cle.json"``, Elixir ``<>``, Haskell
``++``, R ``paste0("ora","cle.json")``, Julia ``string(…)``, Scheme ``string-append``, Ruby
``["or","acle.json"].join``, ``111.chr``, ``"or#{}acle.json"``, Perl ``chr(111).``,
``join("",qw(or acle.json))``, a JS template ``` `or${""}acle.json` ```. Whatever the
language, a text is also read with each run of literal pieces (quoted strings, ``qw``
words, character codes) that stand next to each other, separated only by joining
punctuation or a comma, written as the one literal they make; an interpolation of a literal
(or of nothing) is written as that literal. A reading only adds names (fail closed: inline
code that never builds a protected name from its pieces names nothing new). Linear in the
text; nothing is run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

#: Cheap necessary condition (also on a lowercased raw JSON line, where " is \\").
HINT = r"""(?:'|\\?"|`)[\s.+<>,&^|~]{1,8}(?:'|\\?"|`)|\.chr\b|(?<![\w$])chr\s*\(?\s*\d|qw\s*[(\[{/]|[#$]\{"""
_HINT = re.compile(HINT, re.IGNORECASE)
_CODES = r"""|`([^`]{0,256})`|(?<![\w$])chr\s*\(?\s*(\d{1,7})\s*\)?|(?<![\w.])(\d{1,7})\.chr\b"""
_CODES += r"""|qw\s*[(\[{/]([^)\]}/]{0,256})[)\]}/]"""
#: a piece: a quoted string, a character code, or qw words; one pass reads double-quoted
#: strings, one single-quoted ones (a shell's quotes around inline code hold the other kind)
_DOUBLE = r'"((?:[^"\\\n]|\\.){0,256})"'
_SINGLE = r"'([^'\n]{0,256})'"
_PIECES = tuple(re.compile(quoted + _CODES, re.IGNORECASE) for quoted in (_DOUBLE, _SINGLE))
#: what may stand between two pieces of one name: with a comma (paste0, string, [...].join)
#: and without (a comma may also end the name: ``io.open("a".."b", "w")`` keeps its mode)
_JOINERS = (re.compile(r"[\s.+<>,&^|~]{0,8}"), re.compile(r"[\s.+<>&^|~]{0,8}"))
#: an interpolation of a literal or of nothing: #{} ${""} ${'x'} #{"x"}
_INTERPOLATION = re.compile(r"""[#$]\{\s*(?:"([^"{}]*)"|'([^'{}]*)')?\s*\}""")
_MIN_PIECES = 2


def readings(text: str) -> Iterator[str]:
    """``text`` with each run of adjacent literal pieces written as one literal (see above)."""
    if _HINT.search(text) is None:
        return
    for pattern in _PIECES:
        for joiner in _JOINERS:
            reading = _joined(text, pattern, joiner)
            if reading is not None:
                yield reading


def _joined(text: str, pattern: re.Pattern[str], joiner: re.Pattern[str]) -> str | None:
    out: list[str] = []
    written = 0
    runs: list[tuple[int, int, list[str], bool]] = []  # start, end, values, any rewritten
    for match in pattern.finditer(text):  # no cap: a padding of pieces must not hide the name
        value, rewritten = _value(match)
        if runs and joiner.fullmatch(text, runs[-1][1], match.start()) is not None:
            start, _, values, before = runs[-1]
            runs[-1] = (start, match.end(), [*values, value] if len(values) < 64 else values, before or rewritten)
        else:
            runs.append((match.start(), match.end(), [value], rewritten))
    for start, end, values, rewritten in runs:
        if len(values) >= _MIN_PIECES or rewritten:
            out += [text[written:start], '"' + "".join(values).replace('"', "") + '"']
            written = end
    if not out:
        return None
    out.append(text[written:])
    return "".join(out)


def _value(match: re.Match[str]) -> tuple[str, bool]:
    """A piece's text, and whether it differs from what the code spells."""
    quoted, template, code, ruby_code, words = match.groups()
    if code is not None or ruby_code is not None:
        number = int(code if code is not None else ruby_code)
        return (chr(number) if number < 0x110000 and not 0xD800 <= number <= 0xDFFF else ""), True
    if words is not None:
        return "".join(words.split()), True
    body = quoted if quoted is not None else template or ""
    folded = _INTERPOLATION.sub(lambda m: m.group(1) or m.group(2) or "", body)
    return folded, folded != body
