"""Adversarial scenarios: item lists - slots, an oracle against the test mod's own inventories,
and a previous run's answer handed to the session.

Item lists compare in order (DESIGN R8), and where both sides give an item's slot the slot is
part of the item: the right items in the right order, each in the wrong slot, is a wrong
answer. A verified oracle must agree with the inventory the independent test
mod recorded for each cart it cites (``cart_removed``/``cart_ejected`` ``items``/``inventory``):
an oracle that says otherwise is not supported by its evidence, and an answer that matches it
proves nothing (INFRA_ERROR, as an oracle that omits an ejected cart). The machine is
deterministic and the uuids are not: a previous run's answer or a solution script shows every
cart's ordered items under other uuids (or none), and a session that could see one was handed
the standard answer (seed §3; INFRA_ERROR).
"""

from __future__ import annotations

import json
from typing import Any

from pytest_coldstart.demo.scenarios.adversarial_edits import CLEAN, INDEPENDENT, ITEMS, F, P, S, _visible
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


def _previous_answer(b: RunBuilder) -> bytes:
    answer = json.loads(json.dumps(b.documents["answer"]))
    for number, cart in enumerate(answer["carts"]):
        cart["uuid"] = f"{number:08d}-0000-4000-8000-{number:012d}"
    answer["run_id"] = "an-earlier-run"
    return json.dumps(answer, indent=2).encode()


def _solution_script(b: RunBuilder) -> bytes:
    lists = [[f"{item['id']} x{item['count']}" for item in cart["items"]] for cart in b.documents["answer"]["carts"]]
    return ("# solve.py, kept from the run that worked\nEXPECTED = " + json.dumps(lists) + "\n").encode()


def _vocabulary(b: RunBuilder) -> bytes:
    names = sorted({item["id"] for cart in b.documents["answer"]["carts"] for item in cart["items"]})
    return ("Items the machine may hold: " + ", ".join(names) + "\n").encode()


INVENTORIES: list[Scenario] = [
    S(
        "visible_answer_of_a_previous_run",
        "a visible file is an earlier run's answer: the same items, other uuids",
        _visible(_previous_answer, "previous-answer.json"),
        F,
        "INFRA_ERROR",
        _flags(),
        "without their uuids",
        CLEAN,
    ),
    S(
        "visible_solution_script",
        "a visible script holds every cart's ordered items, no uuid",
        _visible(_solution_script, "solve.py"),
        F,
        "INFRA_ERROR",
        _flags(),
        "without their uuids",
        CLEAN,
    ),
    S(
        "visible_list_of_item_ids",
        "a visible note lists the item ids the machine may hold, without counts or order (not the answer)",
        _visible(_vocabulary),
        P,
        None,
        _flags(),
        "covers every oracle cart",
        CLEAN,
    ),
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
