"""Adversarial scenarios: the flags' own judgement, with every record where it belongs.

The machine was actuated before the logger was armed, though no input was processed yet (a
cart was already ejected); every cart left the machine before the first processed input; a
processed input without a time sorted last and hid that it came first; a reviewer's rejection
the audit had not asked for; a review dated years before the run, or citing the agent's own
answer; an answer item that states its count twice, a slot map whose key contradicts the
item's slot, a count of 5,000 digits (a crash); a logger whose times name no zone, read as UTC
before activation while its tick says after. Each is judged as the protocol says; the honest
controls keep an untimed record that comes last and a rejection superseded by a resolution.
"""

from __future__ import annotations

from typing import Any

from pytest_coldstart.demo.scenarios import story
from pytest_coldstart.demo.scenarios.adversarial_edits import F, P, S, W
from pytest_coldstart.demo.scenarios.builder import RunBuilder
from pytest_coldstart.demo.scenarios.catalogue import Scenario, _flags

ARMED = "`logger_armed` ... the agent's logger is running, before the machine is actuated (seed §5)"
OPERATED = "machine_operated: >= 1 input_processed; an agent call before the first processing event (seed §6)"
NEVER_GUESSES = "Mechanical ordering never guesses. Times decide first, then ticks (seed §6)"
REJECTED = "rejected fails the flag (AGENT_FAIL), because the reviewer judged the evidence insufficient (seed §5)"
REFS = "every ref must resolve against the run (a trajectory:<call_id>, a testmod:/logger:seqN, or a fixture:/restore:/preflight: field) (seed §5)"
SCOPE = "agent logger events must name the same experiment instance/dimension as the test mod (seed §5)"
ANSWER = "the answer matches a verified oracle cart by cart (seed §6)"


def _armed_after_first_ejection(b: RunBuilder) -> RunBuilder:
    b.passing()
    b.event("testmod", "input_attempt").update(at=story.at(12.4), tick=339)
    b.event("testmod", "input_processed").update(at=story.at(12.5), tick=340)
    b.event("logger", "logger_armed").update(at=story.at(12.0), tick=335)  # cart 1 left at 11.0
    return b


def _processed_after_every_cart(b: RunBuilder) -> RunBuilder:
    b.passing()
    b.event("testmod", "input_attempt").update(at=story.at(15.9), tick=419)
    b.event("testmod", "input_processed").update(at=story.at(16.0), tick=420)
    return b


def _untimed_processing(tick: int) -> Any:
    def configure(b: RunBuilder) -> RunBuilder:
        def insert(events: list[dict[str, Any]]) -> None:
            at = next(i for i, e in enumerate(events) if e["event"] == "input_processed")
            events.insert(at if tick < 300 else at + 1, dict(events[at], at=None, tick=tick))
            for seq, event in enumerate(events, 1):
                event["seq"] = seq

        b.passing().mutate_testmod(insert)
        # the refs the story's oracle and reviews cite move one line down
        b.mutate_oracle(
            lambda o: o.update(evidence_refs=["testmod:seq8", "testmod:seq10", "testmod:seq12", "fixture:ready"])
        )
        b.mutate_reviews(lambda rs: rs[0].update(evidence=["trajectory:c-actuate", "testmod:seq6"]))
        return b

    return configure


def _rejected(review_id: str, evidence: list[str], then_resolved: bool = False) -> Any:
    def configure(b: RunBuilder) -> RunBuilder:
        b.passing().review(review_id, "rejected", evidence=evidence, note="insufficient")
        if then_resolved:
            b.review(review_id, evidence=evidence, note="looked again: the linkage holds")
        return b

    return configure


def _review_update(**fields: Any) -> Any:
    return lambda b: b.passing().mutate_reviews(lambda rs: rs[2].update(**fields))


def _first_item(item: Any) -> Any:
    return lambda b: b.passing().mutate_answer(lambda a: a["carts"][0]["items"].__setitem__(0, item))


def _slot_map(contradict: bool) -> Any:
    def change(answer: dict[str, Any]) -> None:
        items = answer["carts"][0]["items"]
        answer["carts"][0]["items"] = {str(item["slot"]): dict(item) for item in items}
        if contradict:  # the key keeps the oracle's slot; the item itself says another
            first = answer["carts"][0]["items"][str(items[0]["slot"])]
            first["slot"] = items[0]["slot"] + 1

    return lambda b: b.passing().mutate_answer(change)


def _logger_dimension(dimension: str) -> Any:
    def configure(b: RunBuilder) -> RunBuilder:
        b.passing().event("logger", "logger_armed").update(dimension=dimension)
        return b

    return configure


def _zoneless_logger(armed_tick: int) -> Any:
    """The logger writes its times with no zone (``2026-01-01T12:00:08.500``), armed at ``armed_tick``."""

    def change(events: list[dict[str, Any]]) -> None:
        for event in events:
            event["at"] = event["at"].removesuffix("Z")
            if event["event"] == "logger_armed":
                event["tick"] = armed_tick

    return lambda b: b.passing().mutate_logger(change)


JUDGEMENT: list[Scenario] = [
    S(
        "zoneless_logger_armed_late_by_tick",
        "the logger writes times with no zone: read as UTC its arming precedes the first processed "
        "input, but its tick (305) comes after it (301)",
        _zoneless_logger(305),
        F,
        "AGENT_FAIL",
        _flags(la=F, ar=W),
        "is ordered after the first input_processed",
        NEVER_GUESSES,
    ),
    S(
        "zoneless_logger_honest_control",
        "honest control: a logger with zoneless times armed at tick 200 is ordered by its tick, and "
        "what only its times could order against the agent's calls is asked of a reviewer, not failed",
        _zoneless_logger(200),
        W,
        None,
        _flags(la=W, ar=W),
        "is ordered (tick 200 < 301) before the first input_processed",
        NEVER_GUESSES,
    ),
    S(
        "logger_dimension_without_namespace_control",
        "honest control: the logger writes 'overworld' where the test mod writes 'minecraft:overworld'",
        _logger_dimension("overworld"),
        P,
        None,
        _flags(),
        "is ordered (by time) before the first input_processed",
        SCOPE,
    ),
    S(
        "logger_names_another_dimension",
        "the logger says its logger_armed was in 'the_nether'",
        _logger_dimension("the_nether"),
        F,
        "INFRA_ERROR",
        _flags(la=F),
        "dimension",
        SCOPE,
    ),
    S(
        "logger_armed_after_the_first_ejection",
        "the first input_processed comes late, but cart 1 was ejected before the logger was armed",
        _armed_after_first_ejection,
        F,
        "AGENT_FAIL",
        _flags(la=F),
        "is ordered after the first cart_ejected",
        ARMED,
    ),
    S(
        "input_processed_after_every_cart",
        "the only input_processed comes after every cart was ejected and removed",
        _processed_after_every_cart,
        F,
        "AGENT_FAIL",
        _flags(mo=F),
        "the machine ran before any input was processed",
        OPERATED,
    ),
    S(
        "untimed_input_processed_before_arming",
        "an input_processed without a time, at tick 150, before the logger was armed at tick 200",
        _untimed_processing(150),
        F,
        "AGENT_FAIL",
        _flags(mo=W, la=F),
        "is ordered after the first input_processed",
        NEVER_GUESSES,
    ),
    S(
        "untimed_input_processed_last_control",
        "honest control: a second input_processed without a time comes last (tick 400)",
        _untimed_processing(400),
        P,
        None,
        _flags(),
        "precedes the first one",
        NEVER_GUESSES,
    ),
    S(
        "linkage_rejected_unasked",
        "a reviewer rejects agent_read_log.linkage, which this audit did not require",
        _rejected("agent_read_log.linkage", ["trajectory:c-read-log"]),
        F,
        "AGENT_FAIL",
        _flags(ar=F),
        "review(s) rejected: agent_read_log.linkage",
        REJECTED,
    ),
    S(
        "linkage_rejected_then_resolved_control",
        "honest control: the unasked rejection is superseded by the same reviewer's resolution",
        _rejected("agent_read_log.linkage", ["trajectory:c-read-log"], then_resolved=True),
        P,
        None,
        _flags(),
        "names the logger file",
        REJECTED,
    ),
    S(
        "review_dated_before_the_run",
        "the oracle-independence review is dated 2020 and cites only fixture and restore fields",
        _review_update(at="2020-01-01T00:00:00Z", evidence=["fixture:ready", "restore:status"]),
        W,
        None,
        _flags(ac=W),
        "a review cannot precede the run",
        REFS,
    ),
    S(
        "review_cites_the_answer",
        "the oracle-independence review cites the agent's answer as its only evidence",
        _review_update(evidence=["answer"]),
        W,
        None,
        _flags(ac=W),
        "the agent's own answer is no evidence for a review",
        REFS,
    ),
    S(
        "answer_item_states_two_counts",
        "an answer item reads '5 x minecraft:iron_ingot x 7'",
        _first_item("5 x minecraft:iron_ingot x 7"),
        F,
        "AGENT_FAIL",
        _flags(ac=F),
        "states its count twice, differently",
        ANSWER,
    ),
    S(
        "answer_count_of_5000_digits",
        "an answer item's count has 5,000 digits (it crashed the audit)",
        _first_item("9" * 5000 + " x minecraft:iron_ingot"),
        F,
        "AGENT_FAIL",
        _flags(ac=F),
        "has a count too long to be one",
        ANSWER,
    ),
    S(
        "answer_slot_key_contradicts_the_item",
        "the answer's slot map puts an item under the oracle's slot, but the item says another",
        _slot_map(True),
        F,
        "AGENT_FAIL",
        _flags(ac=F),
        "but says slot",
        ANSWER,
    ),
    S(
        "answer_slot_map_control",
        "honest control: the answer's first cart as a slot map whose keys are the items' own slots",
        _slot_map(False),
        P,
        None,
        _flags(),
        "the answer equals the verified oracle",
        ANSWER,
    ),
]
