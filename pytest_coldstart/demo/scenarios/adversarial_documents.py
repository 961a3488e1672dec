"""Adversarial scenarios: the answer or the oracle states one fact twice, differently.

A document may spell its cart list ``carts`` or ``ordered_items_by_cart``, an item's id ``item``
or ``id``, its count ``count`` or ``Count``, its run ``run_id`` or ``runId``. The audit used to
read the first spelling and never look at the other, so a document could say one thing to the
audit and another to any reader who took the other key. Two spellings that differ now name no
one list, item or run: an ambiguous answer is wrong (AGENT_FAIL), an ambiguous oracle is no
evidence (INFRA_ERROR). An oracle whose ``status`` says verified while ``verified: false`` or
``pending: true`` says not yet stays pending (seed §6: never claim correctness early). The
honest control states its carts under both keys, identically.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pytest_coldstart.demo.scenarios.adversarial_edits import ITEMS, RUN_ID, UNVERIFIED, F, P, S, W
from pytest_coldstart.demo.scenarios.builder import RunBuilder
from pytest_coldstart.demo.scenarios.catalogue import Scenario, _flags

_DIRT = {"slot": 3, "item": "minecraft:dirt", "count": 9}


def _oracle(change: Callable[[dict[str, Any]], Any]) -> Callable[[RunBuilder], RunBuilder]:
    return lambda b: b.passing().mutate_oracle(change)


def _answer(change: Callable[[dict[str, Any]], Any]) -> Callable[[RunBuilder], RunBuilder]:
    return lambda b: b.passing().mutate_answer(change)


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda document: document.update({key: value})


def _other_carts(document: dict[str, Any]) -> None:
    document["ordered_items_by_cart"] = [dict(cart, items=[dict(_DIRT)]) for cart in document["carts"]]


def _same_carts(document: dict[str, Any]) -> None:
    document["ordered_items_by_cart"] = [dict(cart) for cart in document["carts"]]


def _second_id(document: dict[str, Any]) -> None:
    """The first item keeps its id under ``item`` (the key read first) and gets another as ``id``."""
    item = document["carts"][0]["items"][0]
    item["item"] = item.get("item") or item["id"]
    item["id"] = "minecraft:dirt"


DOCUMENTS: list[Scenario] = [
    S(
        "oracle_states_its_carts_twice",
        "the oracle's carts say one inventory, its ordered_items_by_cart another",
        _oracle(_other_carts),
        F,
        "INFRA_ERROR",
        _flags(ac=W),
        "are both given and differ",
        ITEMS,
    ),
    S(
        "answer_states_its_carts_twice",
        "the answer's carts match the oracle, its ordered_items_by_cart say otherwise",
        _answer(_other_carts),
        F,
        "AGENT_FAIL",
        _flags(ac=F),
        "the answer is ambiguous",
        ITEMS,
    ),
    S(
        "oracle_item_with_two_ids",
        "an oracle item is minecraft:iron_ingot as item and minecraft:dirt as id",
        _oracle(_second_id),
        F,
        "INFRA_ERROR",
        _flags(ac=W),
        "states its id twice, differently",
        ITEMS,
    ),
    S(
        "answer_item_with_two_ids",
        "an answer item is minecraft:iron_ingot as item (the oracle's) and minecraft:dirt as id",
        _answer(_second_id),
        F,
        "AGENT_FAIL",
        _flags(ac=F),
        "states its id twice, differently",
        ITEMS,
    ),
    S(
        "answer_item_with_two_counts",
        "an answer item's count is the oracle's 5, its Count 6",
        _answer(lambda a: a["carts"][0]["items"][0].update(Count=6)),
        F,
        "AGENT_FAIL",
        _flags(ac=F),
        "states its count twice, differently",
        ITEMS,
    ),
    *(
        S(
            f"oracle_verified_beside_{key}_{str(value).lower()}",
            f"the oracle's status says verified, its {key} key says {str(value).lower()}",
            _oracle(_set(key, value)),
            W,
            None,
            _flags(ac=W),
            "says not yet",
            UNVERIFIED,
        )
        for key, value in (("verified", False), ("pending", True))
    ),
    S(
        "oracle_names_a_second_run",
        "the oracle's run_id is this run's, its runId another run's",
        _oracle(lambda o: o.update(runId="run-from-yesterday")),
        F,
        "INFRA_ERROR",
        _flags(),
        "belongs to run 'run-from-yesterday'",
        RUN_ID,
    ),
    S(
        "answer_names_a_second_run",
        "the answer's run_id is this run's, its runId another run's",
        _answer(lambda a: a.update(runId="run-from-yesterday")),
        F,
        "INFRA_ERROR",
        _flags(),
        "belongs to run 'run-from-yesterday'",
        RUN_ID,
    ),
    S(
        "answer_states_its_carts_twice_identically",
        "allowed: the answer gives carts and ordered_items_by_cart, the same lists",
        _answer(_same_carts),
        P,
        None,
        _flags(),
        "the answer equals the verified oracle",
        ITEMS,
    ),
]
