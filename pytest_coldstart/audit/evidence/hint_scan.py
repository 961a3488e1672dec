"""Whether any of many patterns occurs in a text, at the cost of the few that can.

Python's ``re`` tries every branch of an alternation at every position: the prescan's rule
hints (over a hundred branches, most behind a lookbehind) cost ~40 µs on a 25-byte call.
``AnyOf`` splits the alternation at its top level and reads off each branch's parsed form the
literals one of which every match of it contains ("base64", ``[::-1]``, "=", one of "cd",
"pushd", ...). A branch is searched only when one of its literals is in the text; branches that
need the same literals share one regex; a branch that needs none (a list of command words) is
searched always. Whether anything matches is the same as for the whole alternation
(tests/audit/test_hint_scan.py); where it matches is not kept.

A branch that would not mean the same on its own (a back-reference, an inline flag) keeps the
whole alternation as one regex searched always: slower, never different.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

_parser: Any = importlib.import_module("re._parser")  # the stdlib's own parse of a pattern
_c: Any = importlib.import_module("re._constants")

MAX_NEEDS = 4  # a branch needing one of more literals than this is searched always
_REPEATS = ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")
_UNSAFE = ("GROUPREF", "GROUPREF_EXISTS")  # meaning depends on group numbers: not split


class AnyOf:
    """``search(text)``: the truth of ``re.compile(b"|".join(patterns)).search(text) is not None``."""

    def __init__(self, patterns: list[bytes]) -> None:
        whole = b"|".join(patterns)
        re.compile(whole)  # an invalid alternation fails here, as it would unsplit
        parts = [part for pattern in patterns for part in top_branches(pattern)]
        plain = all(_standalone(part) for part in parts)
        by_key: dict[int, list[bytes]] = {}
        always: list[bytes] = [] if plain else [whole]
        for part in parts if plain else ():
            literals = needs(part)
            if literals is None:
                always.append(part)
                continue
            for key in {_rarest(literal) for literal in literals}:  # a literal's bytes are all in the text
                by_key.setdefault(key, []).append(part)
        self._by_key = {key: re.compile(b"|".join(members)) for key, members in by_key.items()}
        self._not_keys = bytes(byte for byte in range(256) if byte not in by_key)
        self._always = re.compile(b"|".join(always)) if always else None

    def search(self, text: bytes) -> bool:
        end = WINDOW
        while end < len(text):  # a hint early in a long script is found without reading it all
            if self._within(text, end):
                return True
            end *= GROWTH
        return self._within(text, len(text))

    def _within(self, text: bytes, end: int) -> bool:
        """A match starting before ``end``, found as if the text stopped there and, when it does
        not, confirmed by matching the whole text at the same start."""
        whole = end >= len(text)
        # one pass in C keeps the key bytes the text holds, in the order they first occur; only
        # their branches are searched
        keys = (text if whole else text[:end]).translate(None, self._not_keys)
        while keys:
            if _found(self._by_key[keys[0]], text, end, whole):
                return True
            keys = keys.replace(keys[:1], b"")
        return self._always is not None and _found(self._always, text, end, whole)


WINDOW, GROWTH = 64, 8  # the first stretch looked at, and how much each next one is longer


def _found(regex: re.Pattern[bytes], text: bytes, end: int, whole: bool) -> bool:
    found = regex.search(text, 0, end)
    return found is not None and (whole or regex.match(text, found.start()) is not None)


#: bytes from the most to the least frequent in a call's lowercased JSON (a guess that only
#: makes the scan cheaper: a literal is keyed by its byte latest in this list, or not in it)
_FREQUENT = b'":,{} etaoinsrlcdhu/.pm_-fgy0123456789bwvkxjqz'


def _rank(byte: int) -> int:
    return _FREQUENT.find(bytes([byte])) % (len(_FREQUENT) + 1)  # not in the list: the rarest


def _rarest(literal: bytes) -> int:
    return max(literal, key=_rank)


def _rarity(literal: bytes) -> int:
    return _rank(_rarest(literal))


def top_branches(pattern: bytes) -> list[bytes]:
    """``pattern`` cut at each ``|`` outside groups, classes and escapes."""
    out, depth, start, index, inside_class = [], 0, 0, 0, False
    while index < len(pattern):
        char = pattern[index : index + 1]
        if char == b"\\":
            index += 2
            continue
        if inside_class:
            inside_class = char != b"]"
        elif char == b"[":
            inside_class = True
            index += 2 if pattern[index + 1 : index + 2] == b"^" else 1
            index += 1 if pattern[index : index + 1] == b"]" else 0  # a leading ] is a member
            continue
        elif char == b"(":
            depth += 1
        elif char == b")":
            depth -= 1
        elif char == b"|" and depth == 0:
            out.append(pattern[start:index])
            start = index + 1
        index += 1
    out.append(pattern[start:])
    return out


def _standalone(part: bytes) -> bool:
    """A branch that means alone what it meant in the alternation: it parses, sets no flag, and
    refers to no group by number."""
    try:
        parsed = _parser.parse(part)
    except re.error:
        return False
    return parsed.state.flags == 0 and _plain(parsed.data)


def _plain(items: Any) -> bool:
    for op, av in items:
        name = str(op)
        if name in _UNSAFE:
            return False
        if name == "SUBPATTERN" and (av[1] or av[2] or not _plain(av[3])):
            return False
        if name == "BRANCH" and not all(_plain(alt) for alt in av[1]):
            return False
        if name in _REPEATS and not _plain(av[2]):
            return False
        if name in ("ATOMIC_GROUP", "ASSERT", "ASSERT_NOT") and not _plain(av if name == "ATOMIC_GROUP" else av[1]):
            return False
    return True


def needs(part: bytes) -> frozenset[bytes] | None:
    """Literals one of which every match of ``part`` contains (None: no such few, or a flag
    that would make a literal match other bytes)."""
    if not _standalone(part):
        return None
    found = _needs(_parser.parse(part).data)
    return frozenset(found) if found is not None else None


def _needs(items: Any) -> set[bytes] | None:
    """Of the sequence's elements' few-literal needs, the one with the longest shortest literal
    (the rarest)."""
    choices: list[set[bytes]] = []
    run = b""  # adjacent literals match adjacent bytes
    for op, av in items:
        if op is _c.LITERAL:
            run += bytes([av])
            continue
        if run:
            choices.append({run})
            run = b""
        need = _element(op, av)
        if need and len(need) <= MAX_NEEDS:
            choices.append(need)
    if run:
        choices.append({run})
    if not choices:
        return None
    return max(choices, key=lambda need: (min(map(len, need)), min(map(_rarity, need)), -len(need)))


def _element(op: Any, av: Any) -> set[bytes] | None:
    if op is _c.SUBPATTERN:
        return _needs(av[3])
    if op is _c.ATOMIC_GROUP:
        return _needs(av)
    if op is _c.BRANCH:  # each alternative needs one of its own: one of all of them
        union: set[bytes] = set()
        for alternative in av[1]:
            need = _needs(alternative)
            if need is None:
                return None
            union |= need
        return union
    if str(op) in _REPEATS:
        return _needs(av[2]) if av[0] >= 1 else None
    if op is _c.IN and all(member is _c.LITERAL for member, _ in av):
        return {bytes([value]) for _, value in av}
    return None  # a class, any byte, an assertion: nothing to require
