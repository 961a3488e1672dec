"""The audit's memos answer what the judgement they remember answers, whatever came before:
values that are equal but spelled apart (1 and True, 0.0 and -0.0, key order) never share one."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence import inventory
from pytest_coldstart.audit.evidence.content import ContentMatcher, text_of
from pytest_coldstart.audit.model import Event

SCALARS = st.one_of(
    st.sampled_from([0, 1, -1, 5, 64, True, False, None, 0.0, -0.0, 1.0, "", " ", "5", "x5"]),
    st.sampled_from(["iron_ingot", "minecraft:sand", "Stone", " glass ", "sand x3", "3x sand", "a:b:c"]),
)
KEYS = st.sampled_from(["id", "item", "name", "count", "Count", "amount", "slot", "nbt", "components", "tag"])
ITEMS = st.one_of(SCALARS, st.dictionaries(KEYS, SCALARS | st.lists(SCALARS, max_size=2), max_size=4))


def _fresh(value: Any) -> tuple[str, Any]:
    try:
        return "item", inventory._normalize_item(value)
    except inventory.ItemError as exc:
        return "error", str(exc)


def _remembered(value: Any) -> tuple[str, Any]:
    try:
        return "item", inventory.normalize_item(value)
    except inventory.ItemError as exc:
        return "error", str(exc)


@settings(max_examples=600, deadline=None)
@given(st.lists(ITEMS, min_size=1, max_size=8))
def test_a_remembered_item_is_the_item(values: list[Any]) -> None:
    for value in values + values[::-1]:  # each seen again after the others
        fresh, remembered = _fresh(value), _remembered(value)
        assert fresh == remembered, value
        if fresh[0] == "item":
            assert (fresh[1].slot, type(fresh[1].count)) == (remembered[1].slot, type(remembered[1].count))


CARTS = [
    {"uuid": "0b7e7c1a-5d2e-4c3b-9a41-6f0d2c8e1a01", "items": [{"id": "minecraft:sand", "count": 3}, "iron_ingot"]},
    {"uuid": "1b7e7c1a-5d2e-4c3b-9a41-6f0d2c8e1a02", "items": [{"id": "minecraft:stone", "count": 1}]},
]
MATCHER = ContentMatcher(
    [Event("logger", "cart_observed", n, 0, f"logger:{n}", fields=dict(cart)) for n, cart in enumerate(CARTS)]
)
PIECES = st.sampled_from(
    [CARTS[0]["uuid"], CARTS[1]["uuid"], "sand x3", "iron_ingot", "minecraft:sand", "3", "stone", ", ", "\n", "x"]
)
TEXTS = st.lists(PIECES, max_size=8).map("".join)
VALUES = st.one_of(
    TEXTS, st.dictionaries(st.sampled_from(["text", "stdout", "TEXT"]), TEXTS | SCALARS, max_size=3), st.lists(TEXTS)
)


@settings(max_examples=600, deadline=None)
@given(st.lists(VALUES, min_size=1, max_size=6))
def test_a_remembered_judgement_is_the_judgement(values: list[Any]) -> None:
    for value in values + values[::-1]:
        assert MATCHER.judge_value(value) == MATCHER.judge(text_of(value)), value


def test_equal_values_spelled_apart_are_remembered_apart() -> None:
    for one, other in [
        ({"id": "sand", "count": 1}, {"id": "sand", "count": True}),
        ({"id": "sand", "count": 0}, {"id": "sand", "count": False}),
        ({"id": "sand", "nbt": 0.0}, {"id": "sand", "nbt": -0.0}),
        ({"id": "sand", "slot": 1}, {"id": "sand", "slot": True}),
    ]:
        for value in (one, other, one, other):
            assert _remembered(value) == _fresh(value), value
            if _fresh(value)[0] == "item":
                assert _remembered(value)[1].slot == _fresh(value)[1].slot
