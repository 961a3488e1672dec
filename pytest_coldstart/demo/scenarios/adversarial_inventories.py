"""Adversarial scenarios: slots, and an oracle against the test mod's own inventories.

Item lists compare in order (DESIGN R8), and where both sides give an item's slot the slot is
part of the item: the right items in the right order, each in the wrong slot, is a wrong
answer. A verified oracle must agree with the inventory the independent test
mod recorded for each cart it cites (``cart_removed``/``cart_ejected`` ``items``/``inventory``):
an oracle that says otherwise is not supported by its evidence, and an answer that matches it
proves nothing (INFRA_ERROR, as an oracle that omits an ejected cart).
"""

from __future__ import annotations

from typing import Any

from pytest_coldstart.demo.scenarios.adversarial_edits import INDEPENDENT, ITEMS, F, S
from pytest_coldstart.demo.scenarios.builder import RunBuilder
from pytest_coldstart.demo.scenarios.catalogue import Scenario, _flags


def _both_say(count: int) -> Any:
    """The oracle and the answer agree on a count the test mod never recorded."""

    def configure(b: RunBuilder) -> RunBuilder:
        def change(document: dict[str, Any]) -> None:
            document["carts"][0]["items"][0]["count"] = count

        return b.passing().mutate_oracle(change).mutate_answer(change)

    return configure


def _answer_items(change: Any) -> Any:
    return lambda b: b.passing().mutate_answer(lambda answer: change(answer["carts"][1]["items"]))


def _one_slot_off(items: list[dict[str, Any]]) -> None:
    for item in items:
        item["slot"] += 1


INVENTORIES: list[Scenario] = [
    S(
        "oracle_disagrees_with_the_test_mods_inventory",
        "the verified oracle and the answer agree on a count the test mod's removal inventory contradicts",
        _both_say(6),
        F,
        "INFRA_ERROR",
        _flags(),
        "disagrees with the test mod's inventory",
        INDEPENDENT,
    ),
    S(
        "answer_with_items_in_the_wrong_slots",
        "the answer lists the right items in the right order, each one slot off",
        _answer_items(_one_slot_off),
        F,
        "AGENT_FAIL",
        _flags(ac=F),
        "differ from the oracle",
        ITEMS,
    ),
]
