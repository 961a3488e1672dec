"""The logger's captures indexed once, so each read is judged in time linear in its own text.

``content.ContentMatcher.judge`` asks two questions of a read: which captured uuids does it
contain (leftmost, non-overlapping, the shortest uuid at a position - what a sorted regex
alternation of the uuids finds), and which captures' full item lists may it return. Asked
naively both cost (text length x captures); here:

* the uuids are compiled into one regex shaped as a trie (common prefixes factored, the end
  of a uuid tried before its extensions), so each position of the text costs at most one
  uuid's length, whatever the number of captures;
* item lists are grouped (captures with equal lists are judged once, as the first of them),
  and each group is filed under one *anchor*: its rarest required token. A capture's items
  can only be found in a text (``inventory.items_in_order``: whole ids, bounded by characters
  outside ``[a-z0-9_]``) if every ``[a-z0-9_]+`` run of every item's last id part is a whole
  token of the text, so the tokens of the text, found in one scan, name every group that
  could match; only those are checked, in capture order, by the exact matcher.

The index only narrows what is checked: every candidate still passes the matcher's own
tests, so verdicts are identical to checking every capture.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pytest_coldstart.audit.evidence.inventory import Item

Trie = dict[str, "Trie"]
TOKEN = re.compile(r"[a-z0-9_]+")


@dataclass(frozen=True)
class ItemGroup:
    """Captures with one item list, judged once as the first of them (file order)."""

    first: int  # index of the first capture with this list
    uuid: str | None  # that capture's uuid
    items: tuple[Item, ...]
    required: frozenset[str]  # tokens every match of the list shows in the text


def required_tokens(items: Iterable[Item]) -> frozenset[str]:
    """The ``[a-z0-9_]+`` runs of each item's last id part (what ``may_appear_in`` looks for)."""
    return frozenset(token for item in items for token in TOKEN.findall(item.name.rpartition(":")[2]))


def trie_pattern(words: Iterable[str]) -> re.Pattern[str] | None:
    """One regex finding what ``"|".join(sorted(words))`` finds, in time per position bounded
    by the longest word (a prefix that is itself a word is tried first: the shortest wins,
    as it sorts first)."""
    root: Trie = {}
    for word in set(words):
        if not word:
            continue
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}
    return re.compile(_alternatives(root)) if root else None


def _alternatives(node: Trie) -> str:
    branches = [_chain(char, child) for char, child in sorted(node.items()) if char]
    if "" in node:
        branches.insert(0, "")  # the word ending here, before its extensions
    if len(branches) == 1:
        return branches[0]
    return "(?:" + "|".join(branches) + ")"


def _chain(char: str, node: Trie) -> str:
    """``char`` and the run of single-child nodes below it as one literal (a uuid's own tail)."""
    literal = [char]
    while len(node) == 1 and "" not in node:
        ((char, node),) = node.items()
        literal.append(char)
    return re.escape("".join(literal)) + _alternatives(node)


CANONICAL_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
# Every canonical uuid has its first hyphen 8 characters in: a pattern that starts with the
# literal hyphen lets the regex engine skip ahead to each "-" (a fast literal search) instead of
# trying the 36-character shape at every position; the 8 hex digits before it are checked after.
_FIRST_HYPHEN = re.compile(r"-(?=[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})")
_HEX8 = re.compile(r"[0-9a-f]{8}")


class UuidFinder:
    """Where captured uuids occur in a text: what ``finditer`` of the sorted alternation of
    the uuids gives (leftmost, non-overlapping, the shortest at a position), as (start, uuid).

    When every uuid has the canonical 8-4-4-4-12 shape (the usual case, and a regex of 10,000
    uuids takes most of a second to compile), every canonical-shaped spot of the text is
    looked up in a set, overlapping spots included, keeping the leftmost non-overlapping hits
    (all have one length, so at most one uuid starts at a position). Otherwise the uuids are
    compiled into one trie-shaped regex (``trie_pattern``)."""

    def __init__(self, uuids: Iterable[str]):
        self.uuids = frozenset(u for u in uuids if u)
        canonical = all(CANONICAL_UUID.fullmatch(u) for u in self.uuids)
        self._pattern = None if canonical else trie_pattern(self.uuids)

    def __bool__(self) -> bool:
        return bool(self.uuids)

    def spots(self, text: str) -> list[tuple[int, str]]:
        if self._pattern is not None:
            return [(m.start(), m.group(0)) for m in self._pattern.finditer(text)]
        found: list[tuple[int, str]] = []
        end = 0
        for match in _FIRST_HYPHEN.finditer(text):
            start = match.start() - 8
            if start < end or start < 0 or not _HEX8.fullmatch(text, start, start + 8):
                continue
            uuid = text[start : start + 36]
            if uuid in self.uuids:
                found.append((start, uuid))
                end = start + 36
        return found


class ItemListIndex:
    """The item-list groups of captures with at least ``minimum`` items, filed by anchor token."""

    def __init__(self, item_lists: Sequence[tuple[str | None, Sequence[Item] | None]], minimum: int = 2):
        groups: dict[tuple[Item, ...], ItemGroup] = {}
        for index, (uuid, items) in enumerate(item_lists):
            if items is None or len(items) < minimum:
                continue
            key = tuple(items)
            if key not in groups:
                groups[key] = ItemGroup(index, uuid, key, required_tokens(key))
        frequency: dict[str, int] = {}
        for group in groups.values():
            for token in group.required:
                frequency[token] = frequency.get(token, 0) + 1
        self.always: list[ItemGroup] = []  # lists with no token to require: checked every time
        self.by_anchor: dict[str, list[ItemGroup]] = {}
        for group in groups.values():
            if not group.required:
                self.always.append(group)
                continue
            anchor = min(group.required, key=lambda token: (frequency[token], token))
            self.by_anchor.setdefault(anchor, []).append(group)

    def candidates(self, text: str) -> list[ItemGroup]:
        """The groups whose items may appear in ``text`` (a superset of those that do), in
        capture order."""
        if not self.by_anchor:
            return list(self.always)
        tokens = set(TOKEN.findall(text))
        found = list(self.always)
        for token in tokens & self.by_anchor.keys():
            found.extend(group for group in self.by_anchor[token] if group.required <= tokens)
        found.sort(key=lambda group: group.first)
        return found
