"""Make's text functions, evaluated: the names a recipe builds at make time.

``cat $(subst X,o,Xracle.json)``, ``cat $(addsuffix .json,oracle)``, ``$(join orac,le.json)``
and ``$(patsubst %.txt,%.json,oracle.txt)`` hand the shell a name no line of the makefile spells.
``evaluate`` replaces each innermost call of a text function with what make makes of it, so the
recipe reads as the shell gets it. Where make's answer depends on what only a run knows, both
ways are kept (fail closed): ``$(if …)``, ``$(or …)`` and ``$(and …)`` give all their branches,
``$(wildcard P)`` and ``$(realpath P)`` their patterns, ``$(findstring F,T)`` F. Functions not
here (``shell``, ``eval``, ``file``) are left as written: the makefile is then also read whole.
Each call is evaluated once per pass and makes at most ``LIMIT`` characters, built within that
budget (never the whole product of a long text and a long replacement first); a pass stops
making text once its line passes ``LIMIT``. The caller bounds the passes.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Mapping

LIMIT = 64 * 1024  # characters one call may make (the caller bounds the line as well)
#: an innermost call: its arguments hold no call, only plain variable references
_CALL = re.compile(r"\$[({]([a-z-]+)[ \t]+((?:[^$(){}]|\$[({][\w.-]*[)}])*)[)}]")
_ARGUMENT = re.compile(r"\$[({]([0-9]{1,6})[)}]")
_INDEX = re.compile(r"[0-9]{1,6}")  # ASCII digits only (str.isdigit takes '²'), short enough for int()


def _pattern(pattern: str, word: str, replacement: str) -> str:
    """``patsubst``'s rule for one word: ``%`` matches any stem."""
    if "%" not in pattern:
        return replacement if word == pattern else word
    head, _, tail = pattern.partition("%")
    if word.startswith(head) and word.endswith(tail) and len(word) >= len(head) + len(tail):
        return replacement.replace("%", word[len(head) : len(word) - len(tail)], 1)
    return word


def _patsubst(args: list[str]) -> str:
    pattern, replacement, text = (args + ["", "", ""])[:3]
    return _bounded(_pattern(pattern.strip(), word, replacement.strip()) for word in text.split())


def _subst(args: list[str]) -> str:
    if len(args) < 3 or not args[0]:
        return ",".join(args[2:])
    old, new, text = args[0], args[1], args[2]
    if len(text) + text.count(old) * (len(new) - len(old)) <= LIMIT:
        return text.replace(old, new)
    return _bounded(text.split(old), new)  # each piece made once, until LIMIT


def _join(args: list[str]) -> str:
    first, second = (args[0].split() if args else []), (args[1].split() if len(args) > 1 else [])
    longer = max(len(first), len(second))
    return " ".join(
        (first[i] if i < len(first) else "") + (second[i] if i < len(second) else "") for i in range(longer)
    )


def _words(args: list[str]) -> list[str]:
    return ",".join(args).split()


def _word(args: list[str]) -> str:
    index, words = args[0].strip(), (args[1].split() if len(args) > 1 else [])
    number = int(index) if _INDEX.fullmatch(index) else 0
    return words[number - 1] if 0 < number <= len(words) else " ".join(words)


_WORDWISE: dict[str, Callable[[str, str], str]] = {
    "addsuffix": lambda affix, word: word + affix,
    "addprefix": lambda affix, word: affix + word,
}
_EACH: dict[str, Callable[[str], str]] = {
    "notdir": lambda word: posixpath.basename(word),
    "dir": lambda word: posixpath.dirname(word) + "/" if "/" in word else "./",
    "basename": lambda word: posixpath.splitext(word)[0],
    "suffix": lambda word: posixpath.splitext(word)[1],
}
_WHOLE: dict[str, Callable[[list[str]], str]] = {
    "subst": _subst,
    "patsubst": _patsubst,
    "join": _join,
    "word": _word,
    "strip": lambda a: " ".join(_words(a)),
    "sort": lambda a: " ".join(sorted(set(_words(a)))),
    "firstword": lambda a: " ".join(_words(a)[:1]),
    "lastword": lambda a: " ".join(_words(a)[-1:]),
    "wordlist": lambda a: a[2] if len(a) >= 3 else "",
    "findstring": lambda a: a[0] if a else "",
    "filter": lambda a: a[1] if len(a) > 1 else "",
    "filter-out": lambda a: a[1] if len(a) > 1 else "",
    "words": lambda a: str(len(_words(a))),
    "wildcard": lambda a: " ".join(_words(a)),
    "realpath": lambda a: " ".join(_words(a)),
    "abspath": lambda a: " ".join(_words(a)),
    "if": lambda a: " ".join(a[1:]),
    "or": lambda a: " ".join(a),
    "and": lambda a: " ".join(a),
    "info": lambda a: "",
    "warning": lambda a: "",
    "error": lambda a: "",
}


def evaluate(line: str, values: Mapping[str, str]) -> str:
    """``line`` with each innermost call of a text function replaced by what make makes of it;
    ``call`` and ``foreach`` with the makefile's ``values`` (one pass)."""

    def one(match: re.Match[str]) -> str:
        name, raw = match.group(1), match.group(2)
        args = raw.split(",")
        if name in _WHOLE:
            return _WHOLE[name](args)
        if name in _WORDWISE and len(args) >= 2:
            return _bounded(_WORDWISE[name](args[0], word) for word in ",".join(args[1:]).split())
        if name in _EACH:
            return " ".join(_EACH[name](word) for word in raw.split())
        if name == "call":
            body = values.get(args[0].strip(), "")
            return sub(_ARGUMENT, lambda m: args[int(m.group(1))] if int(m.group(1)) < len(args) else "", body)
        if name == "value":
            return values.get(raw.strip(), "")
        if name == "foreach" and len(args) >= 3:
            reference = re.compile(r"\$[({]" + re.escape(args[0].strip()) + r"[)}]")
            text = ",".join(args[2:])
            return _bounded(sub(reference, _constant(word), text) for word in args[1].split())
        return match.group(0)  # shell, eval, file: left as written

    return sub(_CALL, lambda match: one(match)[:LIMIT], line) if "$" in line else line


def sub(pattern: re.Pattern[str], replace: Callable[[re.Match[str]], str], text: str) -> str:
    """``pattern.sub(replace, text)``, built until it passes ``LIMIT`` characters: the rest of a
    longer result is never made (many long replacements would make a product)."""
    out: list[str] = []
    size = written = 0
    for match in pattern.finditer(text):
        replacement = replace(match)
        out += [text[written : match.start()], replacement]
        size += match.start() - written + len(replacement)
        written = match.end()
        if size > LIMIT:
            return "".join(out)
    out.append(text[written:])
    return "".join(out)


def _constant(text: str) -> Callable[[re.Match[str]], str]:
    return lambda _: text


def _bounded(words: Iterable[str], separator: str = " ") -> str:
    """``words`` joined, up to ``LIMIT`` characters: a foreach over a foreach grows as a product."""
    out: list[str] = []
    size = 0
    for word in words:
        size += len(word) + (len(separator) if out else 0)
        out.append(word)
        if size > LIMIT:
            break
    return separator.join(out)[:LIMIT]
