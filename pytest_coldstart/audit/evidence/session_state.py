"""Shell state that outlives the call that made it: variables, functions and aliases.

A harness's shell often lives from call to call, so ``F=oracle`` in one call and ``cat
$F.json`` in the next read the oracle though neither call spells its name. The state a call
leaves is kept (``carry``) in one bounded mapping and later calls are read with it
(``expansions.readings``' ``known``; ``readings`` here for the bodies they invoke):

- a variable: a literal (``X=v``, ``export``/``declare``/``typeset``/``readonly``/``local``,
  ``X+=v``, an array ``a=(x y)``) as its value; one made at run time (``X=$(cmd)``, ``read X <
  file``, ``printf -v X FMT ARGS``) as the command substitution that makes it, so a later
  ``cat $X`` is read as ``cat $(cmd)``: what the audit does with such a name in one call
  (``runtime_reads``) it does across calls (fail closed). A for-loop's variable is not kept.
- a function (``f() { BODY; }``, ``function f { BODY; }``) or an alias (``alias f='BODY'``),
  kept under the key ``()f``: where a call (this one or a later one) runs ``f ARGS`` as a
  command, ``BODY`` is read as one more text of that call, ``$1``..``$9``, ``$@`` and ``$*``
  read as its arguments and its variables as they are at that call. A body that runs another
  kept one is followed one level more.
- the commands ``git config`` sets (``core.pager``, ``alias.x``), under ``preloads.GIT_CONFIG``:
  any later call may run them (``preloads.carried``).

Bounded: ``MAX_STATE`` entries (the oldest dropped first), bodies of ``MAX_BODY`` characters,
``MAX_INVOKED`` invocations a text; each text is scanned once (linear in the text).
"""

from __future__ import annotations

import itertools
import re
from collections import ChainMap
from collections.abc import Iterator, Mapping, MutableMapping
from typing import cast

from pytest_coldstart.audit.evidence import preloads
from pytest_coldstart.audit.evidence.expansions import assignments, valued_text

MAX_STATE = 512  # variables, functions and aliases carried from call to call
MAX_BODY = 4096
MAX_INVOKED = 16
MAX_DEFINED = 64  # functions and aliases a text defines (each body scanned at most MAX_BODY)
DEFINED = "()"  # the key prefix of a function or an alias (alone: the mark that one is kept)
#: Cheap necessary condition that a text leaves some state: an assignment, a read, printf -v, a
#: function, an alias or a git config (words looked for as substrings first: a regex at every position is slow)
_WORDS = ("read", "printf", "()", "function", "alias", "config")
_ASSIGNED = re.compile(r"[A-Za-z0-9_\]]\+?=")
_RAW_ASSIGNED = re.compile(rb"[a-z0-9_\]]\+?=")
_RAW_WORDS = tuple(word.encode("ascii") for word in _WORDS)
MAX_NAMED = 64  # kept bodies named in the mark; past it every text is looked at for a run of one
_START = r"(?:^|(?<=[\s;&|(]))"
_READ = re.compile(
    _START
    + r"read\s+(?:-[a-zA-Z]+\s+(?:'[^'\n]{0,256}'|\"[^\"\n]{0,256}\"|\S+\s+)?)*([A-Za-z_]\w*)[^;&|\n<]{0,256}(<<<|<)\s*(\S+)"
)
_PRINTF_V = re.compile(_START + r"printf\s+-v\s+([A-Za-z_]\w*)\s+([^;&|\n]{1,1024})")
_FUNCTION = re.compile(_START + r"(?:function\s+([A-Za-z_][\w.:-]*)\s*(?:\(\s*\))?|([A-Za-z_][\w.:-]*)\s*\(\s*\))\s*\{")
_ALIAS = re.compile(_START + r"alias\s+([A-Za-z_][\w.:-]*)=('[^'\n]{0,4096}'|\"[^\"\n]{0,4096}\"|[^\s;&|]+)")
#: a command word and its arguments up to the segment's end
_COMMAND = re.compile(
    r"(?:^|(?<=[;&|(\n{`]))\s*(?:(?:then|do|else|!|time|command)\s+)*([A-Za-z_][\w.:-]*)([^;&|\n)`]*)"
)
_POSITIONAL = re.compile(r"\$(?:\{([0-9@*#])\}|([0-9@*#]))")


def carry(text: str, state: MutableMapping[str, str]) -> int:
    """Keep in ``state`` what ``text`` leaves its shell with: its variables (literal, or the
    command substitution that makes them), functions and aliases. Returns how many names it
    adds (a name assigned again is none)."""
    if not _hinted(text):
        return 0
    defined = _definitions(text)
    found = {**assignments(text, state, runtime=True), **_made(text), **defined}
    found |= preloads.git_settings(text, state.get(preloads.GIT_CONFIG, ""))  # git config core.pager …
    if defined:  # the mark: the names of the kept bodies (all of them: "*")
        named = dict.fromkeys([*state.get(DEFINED, "").split(), *(name[len(DEFINED) :] for name in defined)])
        found[DEFINED] = " ".join(named) if len(named) <= MAX_NAMED and "*" not in named else "*"
    elif DEFINED in state:
        found[DEFINED] = state[DEFINED]
    added = 0
    for name, value in found.items():
        added += state.pop(name, None) is None  # the newest last: the oldest is dropped first
        state[name] = value
    while len(state) > MAX_STATE:
        del state[next(key for key in state if key != DEFINED)]
    return added


def leaves_state(raw: bytes) -> bool:
    """Cheap necessary condition: a call's arguments (lowercased JSON) may leave some state."""
    return any(word in raw for word in _RAW_WORDS) or (b"=" in raw and _RAW_ASSIGNED.search(raw) is not None)


def _hinted(text: str) -> bool:
    return any(word in text for word in _WORDS) or ("=" in text and _ASSIGNED.search(text) is not None)


def readings(text: str, state: Mapping[str, str] | None) -> Iterator[str]:
    """The bodies of the functions and aliases ``text`` runs (kept in ``state`` or defined in
    ``text`` itself), each as that call runs it: its arguments and variables valued."""
    own = _definitions(text) if "(" in text or "function" in text or "alias" in text else {}
    named = (state or {}).get(DEFINED, "").split()
    if not own and "*" not in named and not any(name in text for name in named):
        return
    values = ChainMap({**own, **_made(text)}, cast("MutableMapping[str, str]", state or {}))
    yield from itertools.islice(_invoked(text, values, 2), MAX_INVOKED)


def _invoked(text: str, values: ChainMap[str, str], depth: int) -> Iterator[str]:
    assigned: Mapping[str, str] | None = None  # the text's own variables, read once if it runs one
    for match in _COMMAND.finditer(text):
        body = values.get(DEFINED + match.group(1))
        if body is None:
            continue
        if assigned is None:
            assigned = values.new_child(assignments(text, values))
        words = match.group(2).split()
        alias = not body.startswith("{")
        run = body[1:-1] + " " + match.group(2) if alias else _positional(body[1:-1], words)
        run = valued_text(run, assigned)
        yield run
        if depth > 1:
            yield from _invoked(run, values, depth - 1)


def _positional(body: str, words: list[str]) -> str:
    def value(match: re.Match[str]) -> str:
        which = match.group(1) or match.group(2)
        if which in "@*":
            return " ".join(words)
        if which == "#":
            return str(len(words))
        index = int(which)
        return words[index - 1] if 0 < index <= len(words) else ""

    return _POSITIONAL.sub(value, body) if "$" in body else body


def _made(text: str) -> dict[str, str]:
    """Variables made at run time by ``read X < file`` and ``printf -v X ...``: the command
    substitution that makes the same value."""
    found = {
        m.group(1): m.group(3).strip("'\"") if m.group(2) == "<<<" else f"$(cat {m.group(3)})"
        for m in _READ.finditer(text)
    }
    found |= {match.group(1): f"$(printf {match.group(2).strip()})" for match in _PRINTF_V.finditer(text)}
    return found


def _definitions(text: str) -> dict[str, str]:
    """The functions (``{BODY}``) and aliases (``'BODY'``) ``text`` defines."""
    found: dict[str, str] = {}
    for match in itertools.islice(_FUNCTION.finditer(text), MAX_DEFINED):
        body = _braced(text, match.end() - 1)
        found[DEFINED + (match.group(1) or match.group(2))] = body
    for match in itertools.islice(_ALIAS.finditer(text), MAX_DEFINED):
        raw = match.group(2)
        body = raw[1:-1] if raw[:1] in "'\"" else raw
        found[DEFINED + match.group(1)] = f"'{body[:MAX_BODY]}'"
    return found


def _braced(text: str, start: int) -> str:
    """The ``{...}`` at ``start``, to its closing brace (or ``MAX_BODY`` characters)."""
    depth = 0
    for index in range(start, min(len(text), start + MAX_BODY)):
        depth += {"{": 1, "}": -1}.get(text[index], 0)
        if depth == 0:
            return text[start : index + 1]
    return text[start : start + MAX_BODY] + "}"
