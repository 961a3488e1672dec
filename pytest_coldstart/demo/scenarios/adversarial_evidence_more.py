"""Adversarial scenarios: evidence that says less, or other, than the records it stands for.

A normalized logger view that leaves out the raw output's ``logger_error``, or respells the raw
output's instance or run: the raw output is never replaced by the view, so the run is judged
as the raw output alone would be. The honest control respells every raw record with other
field names, an upper-case cart and a slot map, and keeps every record.
"""

from __future__ import annotations

from typing import Any

from pytest_coldstart.demo.scenarios import story
from pytest_coldstart.demo.scenarios.adversarial_edits import F, P, S
from pytest_coldstart.demo.scenarios.adversarial_single_edits import view_as
from pytest_coldstart.demo.scenarios.builder import RunBuilder
from pytest_coldstart.demo.scenarios.catalogue import Scenario, _flags

VIEW = "The raw output is never replaced by the normalized view (seed §5)"
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
]
