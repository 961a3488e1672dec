"""Names a format call builds from literal pieces: a fail-closed backstop to ``folding``.

``folding`` evaluates Python's ``%`` and ``str.format``. Every other language has a printf of
its own: the shell's ``printf '%s.%s' oracle json`` (and ``printf -v f …``, whose format is
reused while arguments remain: ``printf %s ora cle.json``), awk's, Perl's and PHP's
``sprintf("%s.json", "oracle")``, Ruby's ``format``, Go's ``fmt.Sprintf``, Java's
``String.format``, C's ``snprintf(buf, n, …)``, Rust's ``format!("{}.json", "oracle")`` and
C#'s ``String.Format("{0}.json", …)``. A text is also read with each such call whose format
and arguments are all literals written as the string it makes. A reading only adds names
(fail closed: a call that builds no protected name names nothing new). Linear in the text;
nothing is run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

#: Cheap necessary condition (also on a lowercased raw JSON line).
HINT = r"printf|format"
_HINT = re.compile(HINT, re.IGNORECASE)
_QUOTED = r""""(?:[^"\\\n]|\\.){0,256}"|'[^'\n]{0,256}'"""
_BARE = r"""[^\s"'`;&|<>()$\\]{1,256}"""
_WORD = rf"(?:{_QUOTED}|{_BARE})"
#: the shell's printf: its format and argument words up to the end of the command
_SHELL = re.compile(
    rf"(?<![\w-])printf(?:[ \t]+-v[ \t]+\w+)?(?:[ \t]+--)?[ \t]+(?P<fmt>{_WORD})(?P<args>(?:[ \t]+{_WORD}){{0,32}})"
)
#: a call of a format function: its literal format, then its literal arguments
_CALL = re.compile(
    r"(?<![\w$.])(?:\w{1,32}\.)?(?:[sfv]?n?printf!?|format!?|sprint[f]?)\s*\(?\s*"
    r"(?:[^,()\"'\n]{1,64},\s*){0,2}"  # C's snprintf(buf, sizeof buf, ...), fprintf(f, ...): no literal
    rf"(?P<fmt>{_QUOTED})(?P<args>(?:\s*,\s*(?:{_QUOTED}|-?\d{{1,7}})){{0,32}})\s*\)?",
    re.IGNORECASE,
)
_SHELL_ARG = re.compile(rf"{_QUOTED}|{_BARE}")
_CALL_ARG = re.compile(rf"{_QUOTED}|-?\d{{1,7}}")
#: a printf conversion (flags, width, precision ignored: they only pad) or a {} / {0} field
_CONVERSION = re.compile(r"%%|%[-+ 0#']{0,4}\d{0,3}(?:\.\d{1,3})?[a-zA-Z]|\{(\d{0,2})(?::[^{}]{0,16})?\}")


def readings(text: str) -> Iterator[str]:
    """``text`` with each format call of literal pieces written as the string it makes."""
    if _HINT.search(text) is None:  # no cap on the text: a padding must not hide the name
        return
    for pattern, shell in ((_SHELL, True), (_CALL, False)):
        reading = _formatted(text, pattern, shell)
        if reading is not None:
            yield reading


def _formatted(text: str, pattern: re.Pattern[str], shell: bool) -> str | None:
    out: list[str] = []
    written = 0
    for match in pattern.finditer(text):
        args = (_SHELL_ARG if shell else _CALL_ARG).findall(match.group("args"))
        made = _made(_unquoted(match.group("fmt")), [_unquoted(a) for a in args], shell)
        if made is None:
            continue
        # a name the format makes is no longer than what spells it; more is padding (bounded output)
        made = made[: 2 * (match.end() - match.start()) + 256]
        out += [text[written : match.start()], made if shell else f'"{made}"']
        written = match.end()
    return "".join([*out, text[written:]]) if out else None


def _unquoted(word: str) -> str:
    if len(word) >= 2 and word[0] == word[-1] and word[0] in "\"'":
        return word[1:-1]
    return word


def _made(fmt: str, args: list[str], shell: bool) -> str | None:
    """The string ``fmt`` makes of ``args``; the shell's printf reuses its format while
    arguments remain. None when the format converts nothing (the text says it already)."""
    fields = list(_CONVERSION.finditer(fmt))
    wanted = sum(1 for f in fields if f.group(0) != "%%")
    if not wanted or not args:
        return None
    rounds = -(-len(args) // wanted) if shell else 1
    made: list[str] = []
    for round_ in range(min(rounds, 32)):
        pieces = args[round_ * wanted : (round_ + 1) * wanted]
        made.append(_fill(fmt, fields, pieces))
    return "".join(made)


def _fill(fmt: str, fields: list[re.Match[str]], pieces: list[str]) -> str:
    out: list[str] = []
    written = 0
    taken = 0
    for field in fields:
        out.append(fmt[written : field.start()])
        written = field.end()
        spec = field.group(0)
        if spec == "%%":
            out.append("%")
            continue
        index = int(field.group(1)) if field.group(1) else taken
        taken += 1
        piece = pieces[index] if index < len(pieces) else ""
        out.append(chr(int(piece)) if spec.endswith("c") and piece.isdigit() and int(piece) < 0x110000 else piece)
    out.append(fmt[written:])
    return "".join(out)
