"""Adversarial scenarios: evidence that says less, or other, than the records it stands for.

A normalized logger view that leaves out the raw output's ``logger_error``, or respells the raw
output's instance or run: the raw output is never replaced by the view, so the run is judged
as the raw output alone would be. The honest control respells every raw record with other
field names, an upper-case cart and a slot map, and keeps every record.

A review that cites records which cannot show what it resolves: the oracle's independence on
the agent's own call or logger lines, causality on the agent's call with no processed input,
the logger's running on the fixture's instance_ready. A review signed by a placeholder
(``-``, ``n/a``) names no reviewer; one signed by the run's own agent, harness, model or player
is the agent's word. The controls cite an agent-side record beside independent ones, and sign
with a person's name that contains the harness's.

The only processed input named under another actor than the agent's input attempt: the
agent's input was attempted, never processed. The controls name the same player in other
case, or by uuid, or not at all (the causality review decides).
"""

from __future__ import annotations

from typing import Any

from pytest_coldstart.demo.scenarios import story
from pytest_coldstart.demo.scenarios.adversarial_edits import F, P, S, W
from pytest_coldstart.demo.scenarios.adversarial_single_edits import view_as
from pytest_coldstart.demo.scenarios.builder import RunBuilder
from pytest_coldstart.demo.scenarios.catalogue import Scenario, _flags

VIEW = "The raw output is never replaced by the normalized view (seed §5)"
REFS = (
    "Agent-side refs (trajectory:, logger:, answer) never count as independent (seed §5); causality: "
    '"this traced call is what the test mod processed" (seed §6)'
)
SIGNED = 'resolved must carry by (seed §5): "reviewer name"; the first run may need human semantic review (seed §6)'
ACTOR = (
    "An input_attempt is never accepted as operation (seed §5); the audit reads the fake-player "
    "identity on test-mod events (seed §8)"
)
UNSUPPORTED = "it cites no record that can show it: it needs"
LEFT_OUT = "the normalized view leaves out or changes 1 record(s) of the raw output"

Records = list[dict[str, Any]]


def _viewed(raw_edit: Any, transform: Any) -> Any:
    """The raw logger as ``raw_edit`` leaves it, declared with a view ``transform`` writes."""

    def configure(b: RunBuilder) -> RunBuilder:
        raw_edit(b.passing())
        return b.after_build(view_as(transform))

    return configure


def _raw_error(b: RunBuilder) -> None:
    b.logger.insert(1, {"event": "logger_error", "at": story.at(9.6), "seq": 9, "run_id": b.run_id, "error": "crash"})


def _raw_instance(b: RunBuilder) -> None:
    b.event("logger", "logger_armed")["instance"] = "lab-b"


def _raw_run(b: RunBuilder) -> None:
    b.event("logger", "cart_observed")["run_id"] = "another-run"


def _respelled(field: str, value: str) -> Any:
    return lambda records: [dict(r, **{field: value}) if field in r else r for r in records]


def _without_errors(records: Records) -> Records:
    return [r for r in records if r.get("event") != "logger_error"]


#: the story's field names and another name the projection accepts for each
_SPELLING = {"event": "type", "at": "timestamp", "seq": "sequence", "run_id": "runId", "tick": "server_tick"}
_SPELLING.update(instance="instance_id", dimension="dim", uuid="cart_uuid", position="pos")


def _other_spelling(records: Records) -> Records:
    """Every raw record under other accepted names, the same facts."""
    out = []
    for record in records:
        spelled = {_SPELLING.get(key, key): value for key, value in record.items()}
        if "cart_uuid" in spelled:
            spelled["cart_uuid"] = spelled["cart_uuid"].upper()
            spelled["inventory"] = {str(item["slot"]): item for item in spelled.pop("items")}
        out.append(spelled)
    return out


def _cites(index: int, *evidence: str) -> Any:
    """The story's review ``index`` (0 causality, 1 logger running, 2 oracle independence)."""
    return lambda b: b.passing().mutate_reviews(lambda rs: rs[index].update(evidence=list(evidence)))


def _signed(by: str) -> Any:
    """The story's reviews signed ``by``, written as given (the recorder refuses such names)."""

    def configure(b: RunBuilder) -> RunBuilder:
        reviews, b.reviews = b.passing().reviews, []
        for seq, review in enumerate(reviews, 1):
            b.raw_review(dict(review, seq=seq, by=by))
        return b

    return configure


def _processed_by(actor: str | None) -> Any:
    def configure(b: RunBuilder) -> RunBuilder:
        event = b.passing().event("testmod", "input_processed")
        event.pop("actor")
        event.update({} if actor is None else {"actor": actor})
        return b

    return configure


EVIDENCE_MORE: list[Scenario] = [
    S(
        "normalized_view_leaves_out_a_raw_logger_error",
        "the raw logger recorded a logger_error before the captures; the declared view leaves that record out",
        _viewed(_raw_error, _without_errors),
        F,
        "INFRA_ERROR",
        _flags(la=F, to=F, ar=F),
        LEFT_OUT,
        VIEW,
    ),
    S(
        "normalized_view_respells_another_instance",
        "the raw logger was armed in lab-b; the declared view names lab-a, the test mod's instance",
        _viewed(_raw_instance, _respelled("instance", "lab-a")),
        F,
        "INFRA_ERROR",
        _flags(la=F, to=F, ar=F),
        LEFT_OUT,
        VIEW,
    ),
    S(
        "normalized_view_respells_another_run",
        "a raw capture carries another run_id; the declared view gives it this run's id",
        _viewed(_raw_run, lambda records: [dict(r, run_id=records[0]["run_id"]) for r in records]),
        F,
        "INFRA_ERROR",
        _flags(la=F, to=F, ar=F),
        LEFT_OUT,
        VIEW,
    ),
    S(
        "normalized_view_respells_every_field_control",
        "honest control: the view writes every raw record under other accepted names (type, timestamp, "
        "cart_uuid in capitals, an inventory slot map) and keeps every record",
        _viewed(lambda b: None, _other_spelling),
        P,
        None,
        _flags(),
        "inside its ejection-removal window",
        VIEW,
    ),
    S(
        "oracle_independence_review_cites_the_agents_read",
        "the oracle-independence review cites only the agent's read of its logger",
        _cites(2, "trajectory:c-read-log"),
        W,
        None,
        _flags(ac=W),
        UNSUPPORTED + " independent game-side evidence",
        REFS,
    ),
    S(
        "oracle_independence_review_cites_the_agents_logger",
        "the oracle-independence review cites the agent's answer-writing call and a logger capture",
        _cites(2, "trajectory:c-write-answer", "logger:seq3"),
        W,
        None,
        _flags(ac=W),
        UNSUPPORTED + " independent game-side evidence",
        REFS,
    ),
    S(
        "causality_review_cites_no_processed_input",
        "the causality review cites the agent's bridge call and no test-mod processing event",
        _cites(0, "trajectory:c-actuate"),
        W,
        None,
        _flags(mo=W),
        UNSUPPORTED + " the processed input",
        REFS,
    ),
    S(
        "logger_running_review_cites_instance_ready",
        "the logger-running review cites only the fixture's instance_ready",
        _cites(1, "testmod:seq1"),
        W,
        None,
        _flags(la=W),
        UNSUPPORTED + " the logger's arming or the call that started it",
        REFS,
    ),
    S(
        "oracle_independence_review_beside_an_agent_ref_control",
        "honest control: the oracle-independence review cites the agent's read beside the oracle's test-mod record",
        _cites(2, "trajectory:c-read-log", "oracle:testmod:seq7"),
        P,
        None,
        _flags(),
        "covers every oracle cart",
        REFS,
    ),
    S(
        "reviews_signed_by_a_placeholder",
        "every review is signed n/a",
        _signed("n/a"),
        F,
        "INFRA_ERROR",
        _flags(mo=W, la=W, ac=W),
        "'n/a' names no one",
        SIGNED,
    ),
    S(
        "reviews_signed_by_a_dash",
        "every review is signed -",
        _signed("-"),
        F,
        "INFRA_ERROR",
        _flags(mo=W, la=W, ac=W),
        "'-' names no one",
        SIGNED,
    ),
    S(
        "reviews_signed_by_the_model",
        "every review is signed deepseek/deepseek-flash, the run's own model (run.json harness.model)",
        _signed("deepseek/deepseek-flash"),
        W,
        None,
        _flags(mo=W, la=W, ac=W),
        "a name of the run's own agent",
        SIGNED,
    ),
    S(
        "reviews_signed_by_the_agents_player",
        "every review is signed Romuser, the player the test mod records the agent's input under",
        _signed("Romuser"),
        W,
        None,
        _flags(mo=W, la=W, ac=W),
        "a name of the run's own agent",
        SIGNED,
    ),
    S(
        "reviews_signed_by_a_person_named_like_the_harness_control",
        "honest control: the reviews are signed Pia Lindqvist (pi), a person's name that holds the harness's",
        _signed("Pia Lindqvist (pi)"),
        P,
        None,
        _flags(),
        "covers every oracle cart",
        SIGNED,
    ),
    S(
        "input_processed_under_the_operator",
        "the agent's player attempted the input; the only processed input names the operator",
        _processed_by("operator"),
        F,
        "AGENT_FAIL",
        _flags(mo=F),
        "the agent's input was attempted, never processed",
        ACTOR,
    ),
    S(
        "input_processed_under_the_server",
        "the agent's player attempted the input; the only processed input names Server",
        _processed_by("Server"),
        F,
        "AGENT_FAIL",
        _flags(mo=F),
        "the agent's input was attempted, never processed",
        ACTOR,
    ),
    S(
        "input_processed_player_in_other_case_control",
        "honest control: the processed input names the player romuser, the attempt Romuser",
        _processed_by("romuser"),
        P,
        None,
        _flags(),
        "agent call c-actuate precedes the first one",
        ACTOR,
    ),
    S(
        "input_processed_player_by_uuid_control",
        "honest control: the processed input names the player by uuid, the attempt by name",
        _processed_by("5f0c2b1e-8d4a-4e6b-9c3f-1a2b3c4d5e6f"),
        P,
        None,
        _flags(),
        "agent call c-actuate precedes the first one",
        ACTOR,
    ),
]
