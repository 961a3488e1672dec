"""Slots as part of an item (answer vs oracle, in order: DESIGN R8) and the verified oracle
against the test mod's recorded inventories."""

from __future__ import annotations

import pytest
from audit_helpers import audit, builder
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence.inventory import (
    ItemError,
    carts_of,
    items_end,
    items_in_order,
    normalize_items,
    same_item,
)
from pytest_coldstart.audit.visibility import carried_lists

IRON = {"slot": 7, "id": "minecraft:iron_ingot", "count": 5}
SAND = {"slot": 15, "id": "minecraft:sand", "count": 1}


def same(a, b):
    left, right = normalize_items(a), normalize_items(b)
    return len(left) == len(right) and all(same_item(x, y) for x, y in zip(left, right, strict=True))


def test_lists_compare_in_order_and_a_slot_given_on_both_sides_must_agree():
    assert same([IRON, SAND], [IRON, SAND])
    assert not same([IRON, SAND], [SAND, IRON])  # R8: in order, slots or not
    assert not same([IRON, SAND], [dict(IRON, slot=8), SAND])
    assert same([IRON, SAND], {"15": SAND, "7": IRON})  # a slot map is ordered by its slots
    bare = [{"id": "minecraft:iron_ingot", "count": 5}, {"id": "minecraft:sand"}]
    assert same(bare, [IRON, SAND])  # a slot on one side only is not compared


def test_a_null_slot_is_no_slot():
    assert normalize_items([dict(IRON, slot=None)])[0].slot is None


@pytest.mark.parametrize("slot", [True, -1, "7", 7.0, [7]])
def test_a_slot_that_is_no_slot_number_makes_the_item_invalid(slot):
    # ignoring it would let a wrong slot ("15" for an item in slot 7) match any slot
    with pytest.raises(ItemError, match="slot"):
        normalize_items([dict(IRON, slot=slot)])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 26), min_size=1, max_size=6, unique=True), st.integers(1, 26))
def test_any_slot_shift_is_a_different_inventory(slots, shift):
    items = [{"slot": s, "id": f"minecraft:item_{i}", "count": i + 1} for i, s in enumerate(slots)]
    assert same(items, [dict(i) for i in items])
    assert not same(items, [dict(i, slot=i["slot"] + shift) for i in items])


def _oracle_and_answer(change):
    def both(document):
        change(document["carts"][0]["items"])

    return both


def test_an_oracle_the_test_mods_inventory_contradicts_is_infra_error(tmp_path):
    change = _oracle_and_answer(lambda items: items[1].update(count=9))
    report = audit(builder(tmp_path).passing().mutate_oracle(change).mutate_answer(change))
    assert (report["overall"], report["failure_class"]) == ("FAIL", "INFRA_ERROR")
    (problem,) = [p for p in report["infra_errors"] if "disagrees with the test mod's inventory" in p]
    assert "testmod:seq7" in problem and "sand x9 @15" in problem and "minecraft:sand @15" in problem


def test_an_oracle_that_reorders_the_test_mods_inventory_disagrees_with_it(tmp_path):
    change = _oracle_and_answer(lambda items: items.reverse())
    report = audit(builder(tmp_path).passing().mutate_oracle(change).mutate_answer(change))
    assert report["failure_class"] == "INFRA_ERROR"
    assert any("disagrees with the test mod's inventory" in p for p in report["infra_errors"])


def test_a_test_mod_without_inventories_leaves_the_oracle_to_its_refs(tmp_path):
    def strip(events):
        for event in events:
            event.pop("items", None)

    change = _oracle_and_answer(lambda items: items[1].update(count=9))
    report = audit(builder(tmp_path).passing().mutate_testmod(strip).mutate_oracle(change).mutate_answer(change))
    assert report["overall"] == "PASS", report["infra_errors"]


# -- a previous run's answer, seen by the session (seed §3) --------------------------------

CARTS = [normalize_items([IRON, SAND]), normalize_items([{"id": "minecraft:coal", "count": 2}])]


@pytest.mark.parametrize(
    "text, carried",
    [
        ("cart a: iron_ingot x5, sand\ncart b: coal x2", True),
        ('[{"id": "minecraft:iron_ingot", "count": 5}, {"id": "minecraft:sand"}], [{"id": "coal", "count": 2}]', True),
        ("iron_ingot x1 is cheap. then: iron_ingot x5, sand; coal x2", True),  # a decoy mention first
        ("coal x2; iron_ingot x5, sand", False),  # the carts in another order
        ("iron_ingot x5, sand", False),  # one cart of two
        ("iron_ingot, sand, coal", False),  # the names without their counts
        ("", False),
    ],
)
def test_every_carts_list_in_order_is_the_answer_without_its_uuids(text, carried):
    assert carried_lists(text, CARTS) is carried


def test_one_item_in_all_proves_nothing():
    assert not carried_lists("coal x2", [normalize_items([{"id": "coal", "count": 2}])])
    assert not carried_lists("anything", [])


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abcinorsdgtx_ :,0125\n", max_size=300))
def test_the_forward_pass_agrees_with_matching_each_list_after_the_last(text):
    expected, position = True, 0
    for items in CARTS:
        end = items_end(items, text, position)
        if end is None:
            expected = False
            break
        position = end
    assert carried_lists(text, CARTS) is expected
    if expected:
        assert items_in_order([item for cart in CARTS for item in cart], text)


@pytest.mark.parametrize(
    "item, words",
    [
        ({"item": "minecraft:iron_ingot", "id": "minecraft:dirt", "count": 5}, "states its id twice"),
        ({"item": "iron_ingot", "id": "minecraft:sand"}, "states its id twice"),
        ({"id": "minecraft:iron_ingot", "count": 5, "Count": 6}, "states its count twice"),
        ({"id": "minecraft:iron_ingot", "count": 1, "Count": True}, "states its count twice"),
    ],
)
def test_an_item_that_states_its_id_or_count_twice_differently_is_no_item(item, words):
    with pytest.raises(ItemError, match=words):
        normalize_items([item])


def test_the_same_fact_twice_is_one_fact_and_a_display_name_is_not_an_id():
    assert same([{"item": "iron_ingot", "id": "minecraft:iron_ingot", "count": 5, "Count": 5}], [IRON])
    assert same([dict(IRON, name="Iron Ingot")], [IRON])  # "name" may be what a player reads


def test_carts_under_both_keys_must_be_one_list():
    carts = [{"uuid": "u", "items": [IRON]}]
    assert carts_of({"carts": carts}) == carts == carts_of({"ordered_items_by_cart": carts})
    assert carts_of({"carts": carts, "ordered_items_by_cart": [dict(carts[0])]}) == carts
    assert carts_of({}) is None and carts_of(["not a document"]) is None
    with pytest.raises(ItemError, match="both given and differ"):
        carts_of({"carts": carts, "ordered_items_by_cart": [{"uuid": "u", "items": [SAND]}]})
    with pytest.raises(ItemError, match="both given and differ"):
        carts_of({"carts": None, "ordered_items_by_cart": carts})
