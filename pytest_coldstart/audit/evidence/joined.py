"""Names joined from pieces by any language's operators: a fail-closed backstop to ``folding``.

``folding`` understands Python's string operations. Other languages join strings with
operators and functions of their own: Lua ``"ora".."cle.json"``, Elixir ``<>``, Haskell
``++``, R ``paste0("ora","cle.json")``, Julia ``string(…)``, Scheme ``string-append``, Ruby
``["or","acle.json"].join``, ``111.chr``, ``"or#{}acle.json"``, Perl ``chr(111).``,
``join("",qw(or acle.json))``, a JS template ``` `or${""}acle.json` ```. Whatever the
language, a text is also read with each run of literal pieces (quoted strings, ``qw``
words, character codes) that stand next to each other, separated only by joining
punctuation or a comma, written as the one literal they make; an interpolation of a literal
(or of nothing) is written as that literal. A name split across statements (``a="ora";
b=a.."cle.json"``, ``my $a = "ora"; $a . "cle.json"``, ``const a='ora'; a+'cle.json'``,
``"#{a}cle.json"``) is read with each use of a variable assigned one literal written as that
literal, then joined: ``_ROUNDS`` times, so a join assigned in turn is followed. A join with a
separator (Perl's ``join("/", ".", "p.sh")``, PHP's ``implode``, ``[…].join("/")``) and a path
join (``File.join``, ``path.join``, ``catfile``, ``filepath.Join``) of literals are written as
the path they make (``open(O, ">", join("/", ".", "p.sh"))`` writes ./p.sh). A reading only
adds names (fail closed: inline code that never builds a protected name from its pieces names
nothing new). Linear in the text; nothing is run.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping

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
#: a variable next to a join with a literal, or interpolated: a="ora"; b=a.."cle.json" / "#{a}x"
_Q = "(?:'|\\\\?\")"  # a quote, also as a raw JSON line escapes it
VAR_HINT = (
    rf"[\w$)\]]\s*(?:\.\.?|\+\+?|<>|~)\s*{_Q}|{_Q}\s*(?:\.\.?|\+\+?|<>|~)\s*[$@]"
    rf"|{_Q}\s*(?:\+\+?|<>|~|\s\.|\.\.)\s*[a-z_]|[#$]\{{\s*[$@]?[a-z_]"
    r"|\$[a-z_]\w*\s*(?:\.\.?|\+\+?|,)\s*\$[a-z_]"  # PowerShell's $a+$b, -join($a,$b); PHP's $a.$b
)
_VAR_HINT = re.compile(VAR_HINT, re.IGNORECASE)
_NAME = r"[$@]?[A-Za-z_]\w{0,63}"
#: ``a = "ora"``, ``local a='ora'``, ``my $a = "ora"``, ``const a = 'ora'``, ``a := "ora"``
_ASSIGNED = re.compile(rf"""(?<![\w$@.])({_NAME})\s*:?=\s*(?:"((?:[^"\\\n]|\\.){{0,256}})"|'([^'\n]{{0,256}})')""")
#: a use of a variable (not the target of an assignment), or its interpolation in a string
_USE = re.compile(rf"[#$]\{{\s*({_NAME})\s*\}}|(?<![\w$@])({_NAME})(?!\w)(?!\s*:?=(?!=))")
_ROUNDS = 3
_BEFORE = re.compile(r"[\s.+<>&^|~]{0,8}$")  # a joiner that ends where a use starts
_LIT = r"""(?:"(?:[^"\\\n]|\\.){0,256}"|'[^'\n]{0,256}')"""
_LITS = rf"{_LIT}(?:\s*,\s*{_LIT}){{0,63}}"
#: join(SEP, a, b) / implode(SEP, [a, b]) / [a, b].join(SEP) / File.join(a, b): SEP, the pieces
_SEPARATED = re.compile(
    rf"\b(?:join|implode)\s*\(?\s*({_LIT})\s*,\s*[\[(]?\s*({_LITS})\s*[\])]?"
    rf"|[\[{{]\s*({_LITS})\s*[\]}}]\s*(?:\.join\s*\(\s*|,\s*)({_LIT})"
    rf"|\b(?:File\.join|path\.join|catfile|catdir|filepath\.Join|Join-Path|Paths\.get|Path\.of)\s*\(?\s*({_LITS})"
)
_ONE_LIT = re.compile(_LIT)
_MAX_VARIABLES = 1024


def readings(text: str, known: Mapping[str, str] | None = None) -> Iterator[str]:
    """``text`` with each run of adjacent literal pieces written as one literal (see above);
    ``known``: the variables earlier calls assigned (``$a='orac'`` in one, ``gc ($a+$b)`` later)."""
    if _VAR_HINT.search(text) is not None:
        yield from _assigned(text, known or {})
    if _HINT.search(text) is None:
        return
    if "join" in text or "cat" in text or "implode" in text or "Join" in text or "Path" in text:
        separated = _SEPARATED.sub(_path_of, text)
        if separated != text:  # the pieces below are joined in it: a separator is no piece
            yield separated
            text = separated
    for pattern in _PIECES:
        for joiner in _JOINERS:
            reading = _joined(text, pattern, joiner)
            if reading is not None:
                yield reading


def _assigned(text: str, known: Mapping[str, str]) -> Iterator[str]:
    """``text`` with each variable assigned one literal written as it, then joined (see above)."""
    for _ in range(_ROUNDS):
        values: dict[str, tuple[str, str]] = {}  # the value, and the quote it was written in
        for match in _ASSIGNED.finditer(text):
            if len(values) < _MAX_VARIABLES or match.group(1) in values:
                double, single = match.group(2), match.group(3)
                values[match.group(1)] = (double, '"') if double is not None else (single or "", "'")
        lookup = functools.partial(_literal, values=values, known=known)
        used = _USE.sub(lookup, text) if values or (known and "$" in text) else text
        if used == text:
            return
        readings = []
        for joiner in _JOINERS:  # both quote kinds joined: a='ora' used in a+'cle.json'
            reading = used
            for pattern in _PIECES:
                reading = _joined(reading, pattern, joiner) or reading
            readings.append(reading)
        yield from dict.fromkeys(readings)
        text = readings[-1]  # the next round reads the joins a comma does not end


def _literal(match: re.Match[str], *, values: dict[str, tuple[str, str]], known: Mapping[str, str]) -> str:
    """A use of a variable assigned a literal written as it: bare inside an interpolation, else
    quoted as the literal it is joined to is (``b + '.json'`` after ``b = "oracle"``)."""
    interpolated, name = match.groups()
    used = interpolated if interpolated is not None else name
    found = values.get(used)
    if found is None and used[:1] == "$" and used[1:] in known:
        found = (known[used[1:]], "'")  # a $a an earlier call assigned
    if found is None:
        return match.group(0)
    value, quote = found
    if interpolated is not None:
        return value
    text, end, start = match.string, match.end(), match.start()
    after = _JOINERS[1].match(text, end)
    before = _BEFORE.search(text, max(0, start - 9), start)
    for at in (after.end() if after else end, before.start() - 1 if before else start - 1):
        if 0 <= at < len(text) and text[at] in "'\"":
            quote = text[at]
            break
    return quote + value.replace(quote, "") + quote


def _path_of(match: re.Match[str]) -> str:
    """A join of literals with a separator written as the one literal it makes."""
    sep_first, pieces_first, pieces_last, sep_last, path_pieces = match.groups()
    sep = sep_first or sep_last
    pieces = pieces_first or pieces_last or path_pieces or ""
    values = [found[1:-1] for found in _ONE_LIT.findall(pieces)]
    joined = (sep[1:-1] if sep is not None else "/").join(values)
    return '"' + joined.replace('"', "") + '"'


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
