"""Which lines of a raw session the run's redactor could change, found cheaply.

Redacting every line of a session in full costs as much as redacting its records again;
almost no line changes. A rule can only fire where its literal is: a pattern's trigger
(casefolded, as ``Redactor`` checks it), an environment value (exact text); a key only if
``Redactor.key_kind`` names it. Raw JSON holds the characters of its decoded strings except
for escapes, so the literals (``needles``) are searched in the raw bytes, a block of lines
at a time, then line by line for the needles the block holds. A line with ``\\u`` or
``\\/`` escapes, a pattern without a known literal, or an environment value that holds a
character JSON escapes makes every line it touches a full walk (``ALWAYS``).

A line with needles is parsed and ``suspect`` looks at it exactly where it could change:
every key (``key_kind`` and the string rules, cached per key) and the strings that hold a
needle, including the JSON such a string may hold. Only a suspect line is redacted for real. tests/importers/test_scrub.py checks with
generated lines that nothing the redactor changes is ever passed over.
"""

from __future__ import annotations

import re
from typing import Any

from pytest_coldstart.record.redaction import Redactor
from pytest_coldstart.run import jsonio

ALWAYS = ("*",)  # every line touched must be walked in full
#: characters JSON may write escaped: a literal holding one cannot be searched in raw bytes
_ESCAPED = frozenset('"\\/') | frozenset(chr(c) for c in range(32))
#: needles sharing a prefix are searched behind it (one pass instead of five)
GATES = ("gh", "xox")
SAFE, LISTED, CHANGED = 0, 1, 2
_CACHE_ITEMS = 65536


class Prefilter:
    def __init__(self, redactor: Redactor):
        self.redactor = redactor
        literals = tuple(redactor.literals)
        self.always = redactor.fast is None or any(_ESCAPED.intersection(value) for value in literals)
        needles = set(redactor.fast or ())
        for term in (*redactor.terms, *redactor.hash_terms):
            if term and not any(needle in word for needle in needles for word in term):
                needles.add(max(term, key=len))  # one word of each key term must be there
        kept = sorted(n for n in needles if not any(other != n and other in n for other in needles))
        groups: dict[str, list[str]] = {}
        for needle in kept:
            gate = next((g for g in GATES if needle.startswith(g) and needle != g), needle)
            groups.setdefault(gate, []).append(needle)
        # (gate bytes, ((needle bytes, needle), ...)); a lone needle is its own gate
        self.groups = tuple(
            (gate.encode(), tuple((n.encode(), n) for n in members)) for gate, members in groups.items()
        )
        self.needles = tuple(pair for _, members in self.groups for pair in members)
        self.literals = tuple(value.encode("utf-8") for value in literals)
        self._keys: dict[str, int] = {}  # key -> SAFE, LISTED or CHANGED
        # every gate and both escapes in one scan (``clean``): a short text is looked at once,
        # not once per gate (the scan is of lowered text: ``\\U`` counts too, a walk more)
        gates = _trie(sorted(gate for gate, _ in self.groups))
        self._scan = re.compile(rb"\\[u/]" + (b"|" + gates if gates else b""))

    def hits(self, data: bytes, among: tuple[tuple[bytes, str], ...] | None = None) -> tuple[Any, ...]:
        """The needles (``(bytes, str)`` pairs) in ``data``; ALWAYS when it must be walked in full.
        ``among``: the needles of the enclosing block, which was not ALWAYS (so neither is
        any of its lines): look only for these."""
        if among is None:
            if self.always or b"\\u" in data or b"\\/" in data:
                return ALWAYS
            for literal in self.literals:
                if literal in data:
                    return ALWAYS
        if data.isascii():
            low = data.lower()
        else:
            low = data.decode("utf-8", "surrogateescape").casefold().encode("utf-8", "surrogateescape")
        if among is not None:
            return tuple(pair for pair in among if pair[0] in low)
        found: list[tuple[bytes, str]] = []
        for gate, members in self.groups:
            if gate in low:
                found.extend(pair for pair in members if pair[0] in low)
        return tuple(found)

    def clean(self, data: bytes) -> bool:
        """No rule can change the JSON ``data``: no needle, no literal, no escape in it (what
        ``hits`` finds nothing in, in one scan of the gates)."""
        if self.always or (self.literals and any(literal in data for literal in self.literals)):
            return False
        if data.isascii():
            return self._scan.search(data.lower()) is None
        return not self.hits(data)  # casefolding: the careful way

    def suspect(self, value: Any, hits: tuple[Any, ...]) -> bool:
        """False when the redactor surely leaves ``value`` (one line's JSON) unchanged, nor
        any JSON held in one of its strings (see ``embedded``)."""
        return self._suspect(value, tuple(text for _, text in hits))

    def _suspect(self, value: Any, needles: tuple[str, ...]) -> bool:
        stack = [value]
        keys = self._keys
        while stack:
            item = stack.pop()
            kind = type(item)
            if kind is dict:
                for key, child in item.items():
                    state = keys.get(key)
                    if state is None:
                        state = self._key_state(key)
                    if state == CHANGED or (state == LISTED and child is not None):
                        return True
                    if type(child) is str:
                        if self._changes(child, needles):
                            return True
                    elif child is not None and type(child) not in (int, float, bool):
                        stack.append(child)
            elif kind is list:
                for child in item:
                    if type(child) is str:
                        if self._changes(child, needles):
                            return True
                    elif child is not None and type(child) not in (int, float, bool):
                        stack.append(child)
            elif isinstance(item, str) and self._changes(item, needles):
                return True
        return False

    def _key_state(self, key: Any) -> int:
        """CHANGED: the string rules change the key; LISTED: its (non-null) value is replaced."""
        if not isinstance(key, str):
            return SAFE
        if self.redactor.scrub(key) != key:
            state = CHANGED
        else:
            state = LISTED if self.redactor.key_kind(key) is not None else SAFE
        if len(self._keys) < _CACHE_ITEMS:
            self._keys[key] = state
        return state

    def _changes(self, text: str, needles: tuple[str, ...]) -> bool:
        low = text.casefold()
        for needle in needles:
            if needle in low:
                if self.redactor.scrub(text) != text:
                    return True
                inner = embedded(text)
                return inner is not None and self._suspect(inner, needles)
        return False


def embedded(text: str) -> Any:
    """The JSON object or array a string holds (Codex keeps tool arguments so), else None."""
    start = text.lstrip()[:1]
    if start != "{" and start != "[":
        return None
    try:
        value = jsonio.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, (dict, list)) else None


def _trie(words: list[bytes]) -> bytes:
    """An alternation of ``words`` factored by their first bytes (``a(?:iza|kia)|key``): the
    regex engine tries a few branches per position, not one per word. A word that is a prefix
    of another stands for it (a gate found is all that counts)."""
    if not words or any(not word for word in words):
        return b""
    by_first: dict[bytes, list[bytes]] = {}
    for word in words:
        by_first.setdefault(word[:1], []).append(word[1:])
    branches = []
    for first, rests in sorted(by_first.items()):
        inner = _trie(rests)
        branches.append(re.escape(first) + (b"(?:" + inner + b")" if b"|" in inner else inner))
    return b"|".join(branches)
