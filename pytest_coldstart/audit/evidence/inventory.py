"""Item lists: normalisation for comparison (answer vs oracle) and token-exact matching of a
capture's items inside free text (did a read return the captured content?).

Names are matched as whole ids ("stone" never matches "redstone", "air" never "repair"); a
count is matched as a whole number next to its item, whatever the format ("iron_ingot x5",
``{"id": "minecraft:iron_ingot", "count": 5}``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from pytest_coldstart.run import jsonio
from pytest_coldstart.run.numbers import digits

if TYPE_CHECKING:
    from pytest_coldstart.audit.model import Event

#: Item keys that distinguish otherwise equal items (two different enchanted books).
COMPONENT_KEYS = ("nbt", "tag", "components", "enchantments", "stored_enchantments", "custom_name", "damage")
_NAME_KEYS = ("item", "id", "name")
_ID_KEYS = ("item", "id")  # both ids: two that differ name no one item ("name" may be a display name)
_COUNT_KEYS = ("count", "Count")
#: the two spellings of a document's cart list (answer, oracle)
CART_KEYS = ("carts", "ordered_items_by_cart")
#: ASCII digits only (``\d`` takes Arabic-Indic ones); ``digits`` bounds how many
_STRING_ITEM = re.compile(r"^\s*(?:([0-9]+)\s*x\s+)?([a-z0-9_.:/-]+)(?:\s+x\s*([0-9]+))?\s*$", re.IGNORECASE)


class ItemError(ValueError):
    pass


@dataclass(frozen=True)
class Item:
    name: str
    count: int | None
    components: str | None  # canonical JSON of distinguishing keys, when present
    # where the item lies; only ``same_item`` compares it (content matching in text never does)
    slot: int | None = field(default=None, compare=False)

    def label(self, *, slot: bool = False) -> str:
        text = self.name if self.count in (None, 1) else f"{self.name} x{self.count}"
        if slot and self.slot is not None:
            text += f" @{self.slot}"
        return text + (" +components" if self.components else "")


def item_name(raw: str) -> str:
    name = raw.strip().lower()
    return name if ":" in name else f"minecraft:{name}"


_SEEN: dict[Any, Item] = {}  # item values normalised before: one audit's checks read the same carts
SEEN_MOST = 65_536


def normalize_item(value: Any) -> Item:
    key = _seen_key(value)
    if key is None:
        return _normalize_item(value)
    item = _SEEN.get(key)
    if item is None:
        item = _normalize_item(value)  # an ItemError is raised again each time, never remembered
        if len(_SEEN) >= SEEN_MOST:
            _SEEN.clear()
        _SEEN[key] = item
    return item


def _seen_key(value: Any) -> Any:
    """A hashable stand-in for an item value, equal only for values normalised alike: a string,
    or an object's (key, type, value) triples of strings, integers, booleans and nulls (the type
    keeps 1 and True apart; a float or a nested value is never remembered: -0.0 == 0.0)."""
    if type(value) is str:
        return value
    if type(value) is not dict:
        return None
    key = []
    for name, item in value.items():
        kind = type(item)
        if kind is not str and kind is not int and kind is not bool and item is not None:
            return None
        key.append((name, kind, item))
    return tuple(key)


def _normalize_item(value: Any) -> Item:
    if isinstance(value, str):
        match = _STRING_ITEM.match(value)
        if not match:
            raise ItemError(f"item {value[:60]!r} is not an item id")
        given = [digits(text) for text in (match.group(1), match.group(3)) if text]
        if None in given:
            raise ItemError(f"item {value[:60]!r} has a count too long to be one")
        if len(given) > 1 and given[0] != given[1]:
            raise ItemError(f"item {value[:60]!r} states its count twice, differently")
        return Item(item_name(match.group(2)), given[0] if given else None, None)
    if not isinstance(value, dict):
        raise ItemError(f"item must be a string or an object, got {jsonio.type_name(value)}")
    name = next((value[k] for k in _NAME_KEYS if isinstance(value.get(k), str) and value[k].strip()), None)
    if name is None:
        raise ItemError("item object has no item/id/name string")
    ids = {item_name(value[k]) for k in _ID_KEYS if isinstance(value.get(k), str) and value[k].strip()}
    counts = [value[k] for k in _COUNT_KEYS if k in value]
    twice = len(counts) > 1 and jsonio.canonical_bytes(counts[0]) != jsonio.canonical_bytes(counts[1])
    if len(ids) > 1 or twice:  # two spellings of one fact that differ (the common item has one of each)
        raise ItemError(f"item {name[:60]!r} states its {'id' if len(ids) > 1 else 'count'} twice, differently")
    count = counts[0] if counts else None
    if count is not None and (isinstance(count, bool) or not isinstance(count, int) or count < 0):
        raise ItemError(f"item {name!r} has a count that is not a non-negative integer")
    extra = {k: value[k] for k in COMPONENT_KEYS if value.get(k) is not None}
    components = jsonio.canonical_bytes(extra).decode("utf-8") if extra else None
    slot = value.get("slot")
    if slot is not None and (type(slot) is not int or slot < 0):
        raise ItemError(f"item {name!r} has a slot that is not a non-negative integer")
    return Item(item_name(name), count, components, slot)


def normalize_items(value: Any) -> list[Item]:
    """An ordered item list from a list or a slot map (integer slot keys only)."""
    if isinstance(value, dict):
        slots = []
        for key, item in value.items():
            slot = digits(str(key))
            if slot is None or slot < 0:
                raise ItemError(f"slot map key {str(key)[:30]!r} is not a non-negative integer slot")
            slots.append((slot, item))
        if len({slot for slot, _ in slots}) != len(slots):
            raise ItemError("slot map repeats a slot")
        items = []
        for slot, raw in sorted(slots, key=lambda pair: pair[0]):
            item = normalize_item(raw)
            if item.slot is not None and item.slot != slot:  # the key and the item's own slot disagree
                raise ItemError(f"item {item.name!r} is under slot {slot} but says slot {item.slot}")
            items.append(replace(item, slot=slot))
        return items
    if not isinstance(value, list):
        raise ItemError(f"items must be a list or a slot map, got {jsonio.type_name(value)}")
    return [normalize_item(item) for item in value]


def carts_of(document: Any) -> Any:
    """A document's cart list under either spelling (``CART_KEYS``); None when it has none.
    Both spellings with different values are no one list: ItemError (the document is ambiguous)."""
    if not isinstance(document, dict):
        return None
    given = [document[key] for key in CART_KEYS if key in document]
    if len(given) > 1 and jsonio.canonical_bytes(given[0]) != jsonio.canonical_bytes(given[1]):
        raise ItemError(f"{' and '.join(CART_KEYS)} are both given and differ: the carts are ambiguous")
    return given[0] if given else None


def same_item(a: Item, b: Item) -> bool:
    if a.name != b.name or (a.count if a.count is not None else 1) != (b.count if b.count is not None else 1):
        return False
    if a.slot is not None and b.slot is not None and a.slot != b.slot:
        return False
    if a.components is not None and b.components is not None:
        return a.components == b.components
    return True


def same_items(a: list[Item], b: list[Item]) -> bool:
    """The same items in the same order (``same_item`` pairwise)."""
    return len(a) == len(b) and all(same_item(x, y) for x, y in zip(a, b, strict=False))


def components_unchecked(a: list[Item], b: list[Item]) -> bool:
    return any((x.components is None) != (y.components is None) for x, y in zip(a, b, strict=False))


def recorded_inventories(events: list[Event]) -> dict[str, tuple[str, list[Item]]]:
    """uuid -> (ref, items) of the test mod's last usable inventory of each cart, a removal's
    before an ejection's (what the cart held when it was destroyed)."""
    out: dict[str, tuple[str, list[Item]]] = {}
    for name in ("cart_ejected", "cart_removed"):
        for event in events:
            uuid = event.get("uuid")
            if event.name != name or not isinstance(uuid, str) or event.get("items") is None:
                continue
            try:
                out[uuid.strip().lower()] = (event.ref, normalize_items(event.get("items")))
            except ItemError:
                continue  # the test mod's own shape problem is not the oracle's
    return out


# -- matching captured content inside free text -------------------------------------------

_pattern_cache: dict[str, re.Pattern[str]] = {}


def name_pattern(name: str) -> re.Pattern[str]:
    pattern = _pattern_cache.get(name)
    if pattern is None:
        bare = name[len("minecraft:") :] if name.startswith("minecraft:") else None
        body = f"(?:minecraft:)?{re.escape(bare)}" if bare is not None else re.escape(name)
        pattern = re.compile(rf"(?<![a-z0-9_:]){body}(?![a-z0-9_])")
        _pattern_cache[name] = pattern
    return pattern


def _count_near(text: str, count: int, start: int, end: int, floor: int) -> bool:
    number = re.compile(rf"(?<![0-9.]){count}(?![0-9])")
    return bool(number.search(text, end, end + 48) or number.search(text, max(floor, start - 48), start))


_COUNT_AFTER = re.compile(r"[\"'\s,]*(?:x\s*|\*\s*|count[\"'\s]*[:=]\s*|\(\s*)([0-9]+)")
_COUNT_BEFORE = re.compile(r"([0-9]+)\s*[x*]?\s*$")


def _written_count(text: str, start: int, end: int) -> int | None:
    """The count written right next to an item name ("sand x3", "3 sand", "count": 3), if any."""
    after = _COUNT_AFTER.match(text, end, end + 48)
    if after is not None:
        return digits(after.group(1))
    before = _COUNT_BEFORE.search(text, max(0, start - 8), start)
    return digits(before.group(1)) if before is not None else None


def items_in_order(items: list[Item], text: str, start: int = 0, stop: int | None = None) -> bool:
    """Every item name (lowercased text), in order, each with its count nearby when known."""
    return items_end(items, text, start, stop) is not None


def items_end(items: list[Item], text: str, start: int = 0, stop: int | None = None) -> int | None:
    """Where the in-order match of ``items`` ends in ``text`` (None: no match). The search only
    moves forward, so a caller can chain lists in one pass over the text."""
    stop = len(text) if stop is None else stop
    position = start
    for item in items:
        pattern, search = name_pattern(item.name), position
        while True:
            match = pattern.search(text, search, stop)
            if match is None:
                return None
            if _count_fits(item, text, match.start(), match.end(), position):
                break
            search = match.end()  # the name with another count: a later mention may carry the right one
        position = match.end()
    return position


def _count_fits(item: Item, text: str, start: int, end: int, floor: int) -> bool:
    if item.count is None or _count_near(text, item.count, start, end, floor):
        return True
    # a count of 1 may go unwritten ("sand"); another written count never matches
    return item.count == 1 and _written_count(text, start, end) is None
