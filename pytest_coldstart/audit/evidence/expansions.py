"""A text as the shell or the code it carries would spell its names: expansions and escapes the
call's arguments leave unexpanded.

The audit reads arguments lexically, so a name the program builds at run time from literal
pieces is no name to it unless the pieces are joined first. One more reading of a text joins
them, each step fail closed (a reading only ever adds names and writes, never removes one):

- escapes: ``\\x74``, ``\\164``, ``\\0164``, ``\\u0074`` (``printf``, ``echo -e``, ``$'...'``,
  string literals of most languages) are the characters they stand for;
- hex: a hex literal a text decodes (``bytes.fromhex``, ``unhexlify``, ``xxd -r -p``,
  ``Buffer.from(..., 'hex')``) is the text it encodes, where that is readable;
- concatenation: ``'te' + 'st'`` and ``'te' . 'st'`` are ``'test'``; ``os.path.join('a', 'b')``,
  ``'/'.join(['a', 'b'])`` and ``Path('a') / 'b'`` are ``'a/b'``;
- a glob's character class (``t[e]st``) is one unknown character (``t?st``), and bash's
  extended group (``@(o)racle.json``, ``!(answer).json``) any text (``*``): a glob;
- a command line inside code: each string literal a program may hand to a shell or exec
  (``os.system('cp a b')``, ``subprocess.run(['cp', 'a', 'b'])``, ``execSync('...')``, a
  line echoed into a script that is then run) is read as a text of its own, a list of
  literals as the words it joins (an ``alias`` or a ``trap`` body, ``script -c``, ``ssh HOST
  CMD``, ``tmux send-keys``, ``at`` too);
- shell variables: a variable assigned a literal - in the text (``p=test/x; cp a "$p"``) or by
  an earlier call (``known``: ``export L=...``) - is read as its value, with the expansion's
  operators applied (``${p%.bak}``, ``${p#*/}``, ``${p//a/b}``, ``${p,,}``, ``${p^^}``);
- cmd.exe's variables: ``set X=v`` (``set "X=v"``; kept as ``%X``, upper case: cmd folds case)
  read where ``%X%``, ``!X!`` (delayed) or ``%%X%%`` expands it; ``%X:~0,4%``/``%X:a=b%`` (a
  part of it) as ``*``, any name (fail closed);
- brace expansion: ``te{s,x}t/f`` is read once per alternative (``test/f``, ``text/f``), the
  product of a text's groups bounded by ``_MAX_BRACES`` readings (beyond it, each group's
  alternatives in turn).

Nothing is run; a text holding none of these yields no reading.
"""

from __future__ import annotations

import binascii
import fnmatch
import itertools
import re
from collections import ChainMap
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from typing import cast

from pytest_coldstart.audit.evidence import program_files
from pytest_coldstart.audit.evidence.globs import EXTGLOB

#: braces, a class joined to a word (a[b], [a]b), an extglob. A class is tried once per word (a run
#: with no ']', space or '/'), from its start and committed to its first '[': the word's first
#: candidate decides, and a word of many '[' and no ']' costs its length, not its square
_SHAPES = r"\{[^{}\s\"']*,[^{}\s\"']*\}|(?<![^\]\s/])(?>[^\]\s/]*?[\w.]\[)[^\]\s/]++\]"
_SHAPES += r"|(?<![^\]\s/])(?>[^\[\]\s/]*+\[)[^\]\s/]++\][\w.]|[?*+@!]\([^()\s]*\)"
_WORDS = r"hex|xxd|join\(|path\(|\bimport\b|=\s*open\b"
#: Cheap necessary condition for a reading of a text (lowercased).
_TEXT_HINT = re.compile(
    r"\\(?:x[0-9a-f]{2}|0?[0-7]{3}|u[0-9a-f]{4})|['\"]\s*[+.]\s*['\"]|\)\s*/\s*['\"]|"
    + _WORDS
    + "|"
    + _SHAPES
    + r'|(?:[=(,]|print|printf)\s*"[^"\n]*"\s+"'
)
#: The same on a lowercased raw JSON line, where a backslash and a quote inside a string are
#: escaped (``\\x74``, ``\\"``).
HINT = r"\\\\(?:x[0-9a-f]{2}|0?[0-7]{3}|u[0-9a-f]{4})|(?:'|\\\")\s*[+.]\s*(?:'|\\\")|\)\s*/\s*(?:'|\\\")|"
HINT += _WORDS + "|" + _SHAPES + r'|(?:[=(,]|print|printf)\s*\\"[^"\\]*\\"\s+\\"'
HINT += r'|\bset\s+(?:\\")?[a-z_][\w.-]*='  # cmd.exe's set X=v (its %X% may join a name)

_ESCAPE = re.compile(r"\\(?:x([0-9a-fA-F]{2})|0?([0-7]{3})|u([0-9a-fA-F]{4}))")
_HEX = re.compile(r"(?<![0-9A-Fa-f])((?:[0-9A-Fa-f]{2}){4,})(?![0-9A-Fa-f])")
_HEX_DECODER = re.compile(r"fromhex|unhexlify|xxd|['\"]hex['\"]", re.IGNORECASE)
_LIT = r"""(?:'[^'\n]*'|"[^"\n]*")"""
_JOINED = re.compile(r"""(['"])\s*[+.]\s*(['"])""")  # 'te' + 'st': the quotes between two literals
#: awk's (and C's) juxtaposed literals: f = "ora" "cle.json", print "ora" "cle.json"
_JUXTAPOSED = re.compile(r'(?:(?<=[=(,])|(?<=print)|(?<=printf))(\s*)("[^"\n]*"(?:\s+"[^"\n]*")+)')
_JOIN = re.compile(
    rf"""(?:\b(?:os\.)?path\.join|(?P<sep>{_LIT})?\s*\.join)\(\s*\[?\s*(?P<parts>{_LIT}(?:\s*,\s*{_LIT})+)\s*,?\s*\]?\s*\)"""
)
_PATH_ARGS = re.compile(rf"""\bPath\(\s*(?P<parts>{_LIT}(?:\s*,\s*{_LIT})+)\s*\)""")  # Path('a', 'b')
_PATH_SLASH = re.compile(rf"""\bPath\(\s*({_LIT})\s*\)\s*/\s*({_LIT})""")
_CLASS = re.compile(r"\[[^\]\s/'\"]{1,64}\]")
_BRACES = re.compile(r"\{([^{}\s\"'$]*,[^{}\s\"'$]*)\}")
_SPAWNS = re.compile(
    r"\b(?:system|popen|subprocess|spawn\w*|exec\w*|shell_exec|passthru|qx|check_output|call|run|bash|sh|zsh|source"
    r"|alias|trap|watch|script|ssh|tmux|screen|at|batch|expect|xterm|systemd-run|flock|nohup|setsid)\b"
)
#: String literals by their quote, each found on its own: one kind may hold another.
_STRINGS = [re.compile(r"'([^'\n]{1,4096})'"), re.compile(r"\"([^\"\n]{1,4096})\""), re.compile(r"`([^`\n]{1,4096})`")]
_WORD_LIST = re.compile(rf"\[\s*({_LIT}(?:\s*,\s*{_LIT})+)\s*,?\s*\]")
_ARG_LIST = re.compile(rf"\b(?:system|exec|spawn)\s*\(?\s*({_LIT}(?:\s*,\s*{_LIT})+)")
#: Python's names for what it imports: import shutil as s; from shutil import copy [as c]; f = open
_IMPORT_AS = re.compile(r"\bimport\s+([A-Za-z_][\w.]*)\s+as\s+([A-Za-z_]\w*)")
_FROM_IMPORT = re.compile(r"\bfrom\s+([A-Za-z_][\w.]*)\s+import\s+([A-Za-z_]\w*)(?:\s+as\s+([A-Za-z_]\w*))?")
_BOUND = re.compile(r"(?:^|(?<=[;\n\"'\s]))([A-Za-z_]\w*)\s*=\s*([A-Za-z_][\w.]*)\s*(?=[;\n]|$)")
_MAX_ALIASES = 32
_MAX_EMBEDDED = 64
#: X=v, X+=v, export X=v, local/declare/readonly X=v: a literal value (quoted, or a word; a word stops
#: before a command substitution, whose value is known only at run time)
_ASSIGN = re.compile(
    r"""(?:^|(?<=[\s;&|('"{]))(?:(?:export|local|declare|readonly|typeset|my|our)\s+(?:-\w+\s+)*)?"""
    r"""(?:\$([A-Za-z_][A-Za-z0-9_]*)\s?=\s?("[^"\n]*"|'[^'\n]*')(?=\s*(?:;|$))"""
    r"""|([A-Za-z_][A-Za-z0-9_]*)(\+?)=((?:"[^"\n]*"|'[^'\n]*')(?:"[^"\n]*"|'[^'\n]*'|[\w./-])*|(?:[^\s;&|()'"$]|\$(?!\())*))"""
)
#: cmd.exe's set X=v / set "X=v" (the value ends at & | a newline or the closing quote) and its uses
_CMD_SET = re.compile(r"""(?:^|(?<=[\s&|("]))set[ \t]+("?)([A-Za-z_][\w.-]*)=([^&|\n"<>]*)\1""", re.IGNORECASE)
_CMD_USE = re.compile(r"(?P<q>%%|%|!)(?P<name>[A-Za-z_][\w.-]*)(?P<part>:[^%!\n]*)?(?P=q)")
CMD = "%"  # the prefix of a cmd.exe variable's key
_QUOTED = re.compile(r"'([^'\n]*)'|\"([^\"\n]*)\"")  # "ora""cle": the pieces the shell joins
#: $x, ${x...}, ${!x}, ${a[0]}, and Ruby's #{x}; the operators applied to a known value
_OPS = r"%%|%|##|#|//|/|,,|\^\^|,|\^|:"
_EXPANSION = re.compile(
    rf"[$#](?:\{{(?P<bang>!)?(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?P<index>\[[^\]}}]*\])?(?:(?P<op>{_OPS})(?P<arg>[^}}]*))?\}}"
    r"|(?<=\$)(?P<word>[A-Za-z_][A-Za-z0-9_]*))"
)
#: code reading an environment variable: os.environ['F'], os.getenv("F"), process.env.F, ENV['F']
_ENVIRON = re.compile(
    r"""\b(?:os\.environ\[\s*(['"])(?P<a>\w+)\1\s*\]|(?:os\.environ\.get|getenv)\(\s*(['"])(?P<b>\w+)\3[^)\n]{0,256}\)"""
    r"""|process\.env(?:\.(?P<c>\w+)|\[\s*(['"])(?P<d>\w+)\6\s*\])|ENV\[\s*(['"])(?P<e>\w+)\8\s*\])"""
)
#: a command substitution a value holds: known only at run time
RUNTIME = ("$(", "`")
_ARRAY = re.compile(r"\(([^()\n]{0,1024})\)")  # a=(x y z): the words, right after the '='
_SUBSTITUTION = re.compile(r"\$\((?:[^()\n]|\([^()\n]*\)){0,1024}\)|`[^`\n]{0,1024}`")
_CASES: dict[str, Callable[[str], str]] = {",,": str.lower, "^^": str.upper}
_CASES |= {",": lambda v: v[:1].lower() + v[1:], "^": lambda v: v[:1].upper() + v[1:]}
_MAX_VARIABLES = 64
_MAX_VALUE = 1024
_MAX_BRACES = 32
_MAX_GROUPS = 8


def readings(text: str, known: Mapping[str, str] | None = None) -> Iterator[str]:
    """The other readings of ``text``: one with its variables, escapes, hex, concatenations and
    classes resolved, then that one's brace expansions; nothing when no step changes it.
    ``known``: variables earlier calls assigned."""
    valued = valued_text(text, known)
    if valued != text:
        yield valued
    joined = valued
    if _TEXT_HINT.search(valued.lower()) is not None:
        joined = _classes(_concatenated(_hex(_escapes(_aliased(valued)))))
        if joined != valued:
            yield joined
        yield from _braces(joined)
    if _SPAWNS.search(joined) is not None:
        yield from itertools.islice(_embedded(joined), _MAX_EMBEDDED)
    if "|" in text and ("\\n" in text or "\\t" in text):
        fed = program_files.fed_lines(text)  # printf 'r oracle.json\n,p' | ed -s: the name ends at the \n
        if fed != text:
            yield fed


def assignments(text: str, known: Mapping[str, str] | None = None, *, runtime: bool = False) -> dict[str, str]:
    """The variables ``text`` assigns a literal (``X=v``, ``X+=v``, ``export X=v``, ``local
    X="v"``, ``a=(x y)`` as ``a``, ``a[0]``, ``a[1]``, ``a[@]``), in order, each value read with
    the ones before it (and ``known``). A value made by a command substitution is known only at
    run time: left out, or with ``runtime`` kept as the substitution itself (``$(cmd)``), which
    a later expansion reads as the shell would run it."""
    found: dict[str, str] = {}
    values = ChainMap(found, cast("MutableMapping[str, str]", known or {}))  # no copy of what is known
    if "=" not in text:
        return found
    for match in itertools.islice(_ASSIGN.finditer(text), _MAX_VARIABLES):
        name, raw = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(5))
        value = _QUOTED.sub(lambda m: m.group(1) or m.group(2) or "", raw) if raw[:1] in "'\"" else raw
        after = text[match.end() : match.end() + 2]
        if not match.group(1) and not raw and after[:1] == "(":
            found.update(_array(name, text, match.end(), values))
            continue
        if any(mark in value for mark in RUNTIME) or after.startswith(RUNTIME):
            inside = any(mark in value for mark in RUNTIME)
            made = _SUBSTITUTION.search(value) if inside else _SUBSTITUTION.match(text, match.end())
            if runtime and made is not None:
                found[name] = made.group(0)
            continue
        value = _EXPANSION.sub(lambda m: _expanded(m, values), value) if "$" in value or "#{" in value else value
        value = values.get(name, "") + value if match.group(4) else value  # X+=v appends
        found[name] = value[:_MAX_VALUE]
    if "set" in text or "SET" in text or "Set" in text:
        for match in itertools.islice(_CMD_SET.finditer(text), _MAX_VARIABLES):
            value = (
                _CMD_USE.sub(lambda m: _cmd_expanded(m, values), match.group(3))
                if "%" in match.group(3)
                else match.group(3)
            )
            found[CMD + match.group(2).upper()] = value.rstrip(" ")[:_MAX_VALUE]  # Win32 drops a name's trailing spaces
    return found


def _cmd_expanded(match: re.Match[str], values: Mapping[str, str]) -> str:
    """A cmd.exe ``%X%``/``!X!`` of a known variable as its value; ``%X:~0,4%`` (a part): ``*``."""
    value = values.get(CMD + match.group("name").upper())
    if value is None:
        return match.group(0)
    return value if not match.group("part") else "*"


def _array(name: str, text: str, start: int, values: Mapping[str, str]) -> dict[str, str]:
    """``a=(x y z)``: ``a`` (its first), each ``a[i]``, and ``a[@]``/``a[*]`` (all, joined)."""
    match = _ARRAY.match(text, start)
    if match is None:
        return {}
    words = [word.strip("'\"") for word in match.group(1).split()][:_MAX_VARIABLES]
    words = [_EXPANSION.sub(lambda m: _expanded(m, values), w) if "$" in w else w for w in words]
    found = {f"{name}[{index}]": word[:_MAX_VALUE] for index, word in enumerate(words)}
    joined = " ".join(words)[:_MAX_VALUE]
    return {name: words[0] if words else "", **found, f"{name}[@]": joined, f"{name}[*]": joined}


def valued_text(text: str, known: Mapping[str, str] | None = None) -> str:
    """``text`` with the variables it or earlier calls (``known``) assign a literal read as
    their values; ``text`` itself when it expands none of them."""
    expands = "$" in text or "#{" in text or "env" in text or "ENV" in text or "%" in text or "!" in text
    return _valued(text, known or {}) if expands and (known or "=" in text) else text


def _valued(text: str, known: Mapping[str, str]) -> str:
    values = ChainMap(assignments(text, known), cast("MutableMapping[str, str]", known))
    if not any(values.maps):
        return text
    text = _EXPANSION.sub(lambda match: _expanded(match, values), text)
    text = _CMD_USE.sub(lambda match: _cmd_expanded(match, values), text) if "%" in text or "!" in text else text
    return _ENVIRON.sub(lambda match: _environ(match, values), text) if "env" in text or "ENV" in text else text


def _environ(match: re.Match[str], values: Mapping[str, str]) -> str:
    """Code's read of a known environment variable as the literal it holds (then joined)."""
    name = next(found for found in match.group("a", "b", "c", "d", "e") if found)
    value = values.get(name)
    return match.group(0) if value is None or value.startswith(RUNTIME) or "'" in value else f"'{value}'"


def _expanded(match: re.Match[str], values: Mapping[str, str]) -> str:
    """A ``$NAME``/``${NAME<op><arg>}`` expansion of a known variable, else itself. A value known
    only at run time (``$(cmd)``) stays itself under any operator (fail closed)."""
    name = match.group("name") or match.group("word")
    if match.group("bang"):  # ${!x}: the variable x names
        name = values.get(name, "")
    name += match.group("index") or ""
    op, arg = match.group("op"), match.group("arg") or ""
    if name not in values:
        return match.group(0)  # unknown: a name made at run time (encoded reads the defaults)
    value = values[name]
    if not op or value.startswith(RUNTIME):
        return value
    if op == ":":  # ${x:offset[:length]}; ${x:-w} ${x:=w} ${x:?w} ${x:+w}: the value (fail closed)
        return value if arg[:1] in "-=+?" else _substring(value, arg)
    if op in _CASES:  # ${x,,} ${x^^}: the case changed (a pattern limiting it: the whole value, fail closed)
        return _CASES[op](value)
    if op in ("/", "//"):
        pattern, _, replacement = arg.partition("/")
        if not pattern:
            return value
        found = re.compile(_glob_regex(pattern))
        return found.sub(lambda _: replacement, value, count=0 if op == "//" else 1)
    cuts = range(len(value) + 1)
    if op in ("%", "%%"):  # a suffix: shortest (%) or longest (%%)
        order = reversed(cuts) if op == "%" else iter(cuts)
        return next((value[:i] for i in order if fnmatch.fnmatchcase(value[i:], arg)), value)
    order = iter(cuts) if op == "#" else reversed(cuts)  # a prefix: shortest (#) or longest (##)
    return next((value[i:] for i in order if fnmatch.fnmatchcase(value[:i], arg)), value)


def _substring(value: str, arg: str) -> str:
    """``${x:2}``, ``${x: -3}``, ``${x:1:4}``; the whole value where the numbers are no literals."""
    offset, _, length = arg.partition(":")
    try:
        start = int(offset.strip() or "0")
        count = int(length) if length.strip() else None
    except ValueError:
        return value
    start = start if start >= 0 else max(len(value) + start, 0)
    end = None if count is None else start + count if count >= 0 else len(value) + count
    return value[start:end]


def _glob_regex(pattern: str) -> str:
    return "".join(".*?" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)


def _embedded(text: str) -> Iterator[str]:
    """The command lines a code text may run: its literals that hold a space, and its lists of
    literals as the words they join."""
    for pattern in _STRINGS:
        for match in pattern.finditer(text):
            if " " in match.group(1).strip():
                yield match.group(1)
    for match in _WORD_LIST.finditer(text):
        yield " ".join(_literals(match.group(1)))
    for match in _ARG_LIST.finditer(text):  # Perl's system "cp", "a", "b" (no brackets)
        yield " ".join(_literals(match.group(1)))


def _aliased(text: str) -> str:
    """``text`` with Python's other names for what it imports and binds spelled in full
    (``s.copy(`` is ``shutil.copy(``, ``c(`` after ``from shutil import copy as c``, ``f(``
    after ``f = open``): the write constructs are known by their full names."""
    if "import" not in text and "=" not in text:
        return text
    names: dict[str, str] = {}
    for match in itertools.islice(_IMPORT_AS.finditer(text), _MAX_ALIASES):
        names[match.group(2) + "."] = match.group(1) + "."
    for match in itertools.islice(_FROM_IMPORT.finditer(text), _MAX_ALIASES):
        names[(match.group(3) or match.group(2)) + "("] = f"{match.group(1)}.{match.group(2)}("
    for match in itertools.islice(_BOUND.finditer(text), _MAX_ALIASES):
        names[match.group(1) + "("] = match.group(2) + "("
    if not names:
        return text
    pattern = re.compile(r"(?<![\w.])(" + "|".join(re.escape(name) for name in names) + ")")
    return pattern.sub(lambda match: names[match.group(1)], text)


def _escapes(text: str) -> str:
    if "\\" not in text:
        return text
    return _ESCAPE.sub(_escaped, text)


def _escaped(match: re.Match[str]) -> str:
    hexed, octal, code = match.groups()
    value = int(hexed, 16) if hexed else int(octal, 8) if octal else int(code, 16)
    return chr(value) if 0x20 <= value < 0x7F or value > 0x9F else match.group(0)


def _hex(text: str) -> str:
    if _HEX_DECODER.search(text) is None:
        return text
    return _HEX.sub(lambda match: _unhexed(match.group(1)) or match.group(0), text)


def _unhexed(digits: str) -> str | None:
    """The text a hex literal encodes, where it is readable (printable ASCII, a letter)."""
    try:
        raw = binascii.unhexlify(digits)
    except (binascii.Error, ValueError):
        return None
    text = raw.decode("ascii", "replace")
    if all(c.isprintable() for c in text) and any(c.isalpha() for c in text) and "\ufffd" not in text:
        return text
    return None


def _concatenated(text: str) -> str:
    if "'" not in text and '"' not in text:
        return text
    text = _JOINED.sub("", text)
    if '" "' in text or '"\t"' in text or "\n" in text or "  " in text:
        text = _JUXTAPOSED.sub(lambda m: m.group(1) + '"' + "".join(_literals(m.group(2))) + '"', text)
    text = _JOIN.sub(_join, text)
    text = _PATH_ARGS.sub(lambda m: f"Path({_quoted('/'.join(_literals(m.group('parts'))))})", text)
    return _PATH_SLASH.sub(lambda m: f"Path({_quoted('/'.join(_literals(m.group(1) + m.group(2))))})", text)


def _join(match: re.Match[str]) -> str:
    """A join of literals as the literal it makes: by its separator (``'/'.join``), else by
    the path separator (``os.path.join``)."""
    separator = match.group("sep")
    return _quoted((separator[1:-1] if separator else "/").join(_literals(match.group("parts"))))


def _literals(text: str) -> list[str]:
    return [piece[1:-1] for piece in re.findall(_LIT, text)]


def _quoted(text: str) -> str:
    return f"'{text}'"


def _classes(text: str) -> str:
    """A glob's character class is one unknown character; bash's extended group (``@(o)``,
    ``!(answer)``) any text."""
    text = _CLASS.sub("?", text) if "[" in text else text
    return EXTGLOB.sub("*", text) if "(" in text else text


def _braces(text: str) -> Iterator[str]:
    """``text`` once per choice of alternatives in its brace groups (bounded)."""
    if "{" not in text:
        return
    groups = list(itertools.islice(_BRACES.finditer(text), _MAX_GROUPS))
    if not groups:
        return
    choices = [match.group(1).split(",") for match in groups]
    total = 1
    for options in choices:
        total *= len(options)
    if total <= _MAX_BRACES:
        combos: Iterator[tuple[str, ...]] = itertools.product(*choices)
    else:  # each group's alternatives with the others at their first: linear in the alternatives
        firsts = tuple(options[0] for options in choices)
        combos = (
            firsts[:index] + (option,) + firsts[index + 1 :]
            for index, options in enumerate(choices)
            for option in options[:_MAX_BRACES]
        )
    for combo in combos:
        pieces, last = [], 0
        for match, option in zip(groups, combo, strict=True):
            pieces += [text[last : match.start()], option]
            last = match.end()
        yield "".join(pieces) + text[last:]
