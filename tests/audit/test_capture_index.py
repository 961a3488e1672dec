"""The capture index narrows what judge checks without changing a verdict: judge equals the
check of every read against every capture (the matcher before the index), on generated
captures and reads."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence.capture_index import ItemListIndex, UuidFinder, required_tokens, trie_pattern
from pytest_coldstart.audit.evidence.content import UUID_WINDOW, ContentMatcher
from pytest_coldstart.audit.evidence.inventory import items_in_order, normalize_items


def judge_every_capture(matcher: ContentMatcher, text: str) -> tuple[str | None, str | None]:
    """The matcher's judgement as it was written before the index: O(reads x captures)."""
    found_uuid = None
    if matcher.uuids:
        pattern = re.compile("|".join(re.escape(u) for u in matcher.uuids))
        spots = [(m.start(), m.group(0)) for m in pattern.finditer(text)]
        for index, (start, uuid) in enumerate(spots):
            stop = spots[index + 1][0] if index + 1 < len(spots) else min(len(text), start + UUID_WINDOW)
            for capture in matcher.captures:
                if (
                    capture.uuid == uuid
                    and capture.may_appear_in(text)
                    and items_in_order(capture.items, text, start, stop)
                ):
                    return "items", uuid
            found_uuid = found_uuid or uuid
    for capture in matcher.captures:
        if len(capture.items or ()) >= 2 and capture.may_appear_in(text) and items_in_order(capture.items, text):
            return "items", capture.uuid
    return ("uuid", found_uuid) if found_uuid else (None, None)


NAMES = ["stone", "redstone", "iron_ingot", "air", "repair", "minecraft:dirt", "mod:gear-box", "a.b", "-", "x/y"]
UUIDS = ["ab", "abc", "b1", "c0ffee", "deadbeef-0000", "e", ""]
item = st.one_of(
    st.sampled_from(NAMES),
    st.builds(lambda n, c: f"{n} x{c}", st.sampled_from(NAMES[:5]), st.integers(0, 12)),
    st.builds(lambda n, c: {"id": n, "count": c}, st.sampled_from(NAMES), st.integers(0, 3)),
)
capture = st.fixed_dictionaries(
    {"uuid": st.one_of(st.none(), st.sampled_from(UUIDS)), "items": st.one_of(st.none(), st.lists(item, max_size=4))}
)
fragment = st.one_of(
    st.sampled_from(NAMES + UUIDS + [" ", ",", ":", "minecraft:", " x", "_", "1", "2", "5", "\n", "{", "}"]),
    st.integers(0, 12).map(str),
)


def texts_of(events: list[dict[str, Any]]) -> st.SearchStrategy[str]:
    pieces = [fragment]
    for event in events:
        try:
            items = normalize_items(event["items"]) if event["items"] is not None else []
        except ValueError:
            continue
        listed = " ".join(i.label() for i in items)
        pieces.append(st.just(((event["uuid"] or "") + " " + listed).lower()))
    return st.lists(st.one_of(*pieces), max_size=14).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.lists(capture, max_size=6).flatmap(lambda events: st.tuples(st.just(events), texts_of(events))))
def test_judge_equals_every_capture_checked(case: tuple[list[dict[str, Any]], str]) -> None:
    events, text = case
    matcher = ContentMatcher(events)
    assert matcher.judge(text) == judge_every_capture(matcher, text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="abc-", max_size=4), max_size=6), st.text(alphabet="abc- x", max_size=30))
def test_trie_pattern_finds_what_the_sorted_alternation_finds(words: list[str], text: str) -> None:
    words = [w for w in words if w]
    trie = trie_pattern(words)
    if not words:
        assert trie is None
        return
    plain = re.compile("|".join(re.escape(w) for w in sorted(set(words))))
    assert trie is not None
    assert [(m.start(), m.group(0)) for m in trie.finditer(text)] == [
        (m.start(), m.group(0)) for m in plain.finditer(text)
    ]


def test_equal_item_lists_are_judged_once_as_the_first_capture() -> None:
    items = normalize_items(["minecraft:stone", "minecraft:dirt x2"])
    index = ItemListIndex([("u1", items), ("u2", list(items)), ("u3", items[:1])])
    assert [(g.first, g.uuid) for g in index.candidates("stone 2 dirt")] == [(0, "u1")]
    assert index.candidates("redstone dirt") == []  # "stone" is not a whole token there


def test_required_tokens_are_the_runs_of_the_last_id_part() -> None:
    assert required_tokens(normalize_items(["mod:gear-box", "minecraft:iron_ingot"])) == {"gear", "box", "iron_ingot"}


def _canonical(bits: str) -> str:
    hexes = "".join("a0"[int(b)] for b in bits)
    return f"{hexes[:8]}-{hexes[8:12]}-{hexes[12:16]}-{hexes[16:20]}-{hexes[20:32]}"


canonical_uuid = st.text(alphabet="01", min_size=32, max_size=32).map(_canonical)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(canonical_uuid, min_size=1, max_size=5),
    st.lists(st.one_of(canonical_uuid, st.sampled_from(["a", "0", "-", "a0a0a0a0-", " ", "x"])), max_size=8),
    st.data(),
)
def test_canonical_uuids_are_found_as_the_sorted_alternation_finds_them(
    uuids: list[str], noise: list[str], data: st.DataObject
) -> None:
    pieces = noise + [data.draw(st.sampled_from(uuids)) for _ in range(data.draw(st.integers(0, 3)))]
    pieces = data.draw(st.permutations(pieces))
    text = "".join(
        p[data.draw(st.integers(0, 10)) :] if len(p) > 30 and data.draw(st.booleans()) else p for p in pieces
    )
    finder = UuidFinder(uuids)
    plain = re.compile("|".join(re.escape(u) for u in sorted(set(uuids))))
    assert finder.spots(text) == [(m.start(), m.group(0)) for m in plain.finditer(text)]
    assert UuidFinder([*uuids, "not-canonical"]).spots(text) == [
        (m.start(), m.group(0))
        for m in re.compile("|".join(re.escape(u) for u in sorted({*uuids, "not-canonical"}))).finditer(text)
    ]
