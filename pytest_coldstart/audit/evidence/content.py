"""What a call's arguments and result show, judged once per record while streaming.

* ``names``: does the text name a file (whole basename, as a path component)?
* ``arms``: do the arguments show the agent's logger being written, built or started?
  (a logger identity AND a write/build/start action; a tool name alone never counts)
* ``captured_content``: does a result return captured content - a captured uuid followed by
  its items, or (without a uuid) one cart's full ordered item list (two items or more) with
  its counts (a count of 1 may be left unwritten, as in "iron_ingot x5, sand")?
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pytest_coldstart.audit.evidence.capture_index import ItemListIndex, UuidFinder
from pytest_coldstart.audit.evidence.inventory import Item, ItemError, items_in_order, normalize_items
from pytest_coldstart.audit.model import Event

_TOKENS = re.compile(r"[a-z0-9]+")
UUID_WINDOW = 4000
SEEN, SEEN_CHARS = 1024, 8192  # values whose judgement is remembered at a time, and their longest
_ENCODER = json.JSONEncoder(ensure_ascii=False)  # json.dumps with an option builds one per call


def text_of(value: Any) -> str:
    """Lowercased searchable text of an argument/result value."""
    if isinstance(value, str):
        return value.lower()
    try:
        return _ENCODER.encode(value).lower()
    except (TypeError, ValueError):
        return ""


def _seen_key(value: Any) -> Any:
    """A hashable stand-in for a value that fixes its ``text_of``: a short string, or the items
    of an object of short strings (no numbers: 1, 1.0 and True are equal keys, not equal text)."""
    if type(value) is str:
        return value if len(value) <= SEEN_CHARS else None
    if type(value) is dict and all(type(item) is str for item in value.values()):
        items = tuple(value.items())
        return items if sum(len(key) + len(item) for key, item in items) <= SEEN_CHARS else None
    return None


def names(text: str, basenames: Iterable[str]) -> bool:
    for base in basenames:
        if base and base in text and re.search(rf"(?<![a-z0-9_.-]){re.escape(base)}(?![a-z0-9_])", text):
            return True
    return False


@dataclass
class Capture:
    uuid: str | None
    items: list[Item] | None

    def may_appear_in(self, text: str) -> bool:
        """Cheap necessary condition (substring tests) before the exact regex match."""
        return bool(self.items) and all(item.name.rpartition(":")[2] in text for item in self.items or ())


def _full_list(capture: Capture) -> bool:
    """A cart's full ordered item list is captured content without its uuid when it cannot be
    a coincidence of one word: two or more items (one item and a number prove no read)."""
    return len(capture.items or ()) >= 2


class ContentMatcher:
    """Matches result text against the logger's captures (uuid + items)."""

    def __init__(self, captures: list[Event]):
        self.captures: list[Capture] = []
        for event in captures:
            uuid = event.get("uuid")
            try:
                items = normalize_items(event.get("items")) if event.get("items") is not None else None
            except ItemError:
                items = None
            self.captures.append(Capture(uuid.lower() if isinstance(uuid, str) else None, items))
        self.uuids = sorted({c.uuid for c in self.captures if c.uuid})
        # Indexed once (see capture_index): each read costs time linear in its own text.
        self._uuid_spots = UuidFinder(self.uuids)
        self._by_uuid: dict[str, list[Capture]] = {}
        for capture in self.captures:
            if capture.uuid:
                self._by_uuid.setdefault(capture.uuid, []).append(capture)
        self._item_lists = ItemListIndex([(c.uuid, c.items) for c in self.captures], minimum=2)
        self._seen: dict[Any, tuple[str | None, str | None]] = {}

    def judge_value(self, value: Any) -> tuple[str | None, str | None]:
        """``judge(text_of(value))``; a value seen before (a file read again) is judged once."""
        key = _seen_key(value)
        judged = self._seen.get(key) if key is not None else None
        if judged is None:
            judged = self.judge(text_of(value))
            if key is not None:
                if len(self._seen) >= SEEN:  # bounded: distinct reads cost no memory
                    self._seen.clear()
                self._seen[key] = judged
        return judged

    def judge(self, text: str) -> tuple[str | None, str | None]:
        """("items", uuid) for captured content, ("uuid", uuid) for a uuid alone, else (None, None)."""
        found_uuid = None
        if self._uuid_spots:
            spots = self._uuid_spots.spots(text)
            for index, (start, uuid) in enumerate(spots):
                stop = spots[index + 1][0] if index + 1 < len(spots) else min(len(text), start + UUID_WINDOW)
                for capture in self._by_uuid.get(uuid, ()):
                    if capture.may_appear_in(text) and items_in_order(capture.items or [], text, start, stop):
                        return "items", uuid
                found_uuid = found_uuid or uuid
        for group in self._item_lists.candidates(text):  # captures with >= 2 items that may appear
            capture = Capture(group.uuid, list(group.items))
            if _full_list(capture) and capture.may_appear_in(text) and items_in_order(capture.items or [], text):
                return "items", capture.uuid
        return ("uuid", found_uuid) if found_uuid else (None, None)
