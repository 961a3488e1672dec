"""Adversarial scenarios: one edit of a clean run, as an outside tester makes them.

A normalized logger view that moves a late capture or a late arming in time (its tick kept);
a reviewer whose name shows nothing; a restore in the middle of the experiment; an oracle cart
the test mod never recorded; a cart removed that the test mod never saw ejected; the oracle
read by an agent call recorded after the audit phase began; a second capture of a cart that lists other items; an oracle
whose refs are not a list; a review dated with no zone, which may be hours earlier than it
reads. The honest control respells the raw times with an offset in the view.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pytest_coldstart.demo.scenarios import story
from pytest_coldstart.demo.scenarios.adversarial_edits import F, P, S, W
from pytest_coldstart.demo.scenarios.builder import RunBuilder
from pytest_coldstart.demo.scenarios.catalogue import Scenario, _flags
from pytest_coldstart.run import jsonio

VIEW = "The raw output is never replaced by the normalized view (seed §5)"
REVIEWER = "resolved must carry by ... A malformed entry (missing reviewer ...) is INFRA_ERROR (seed §5)"
RESTORE = "FIXTURE_INVALID: initialisation or restore was not faithful (seed §7)"
ORACLE = "the oracle's refs resolve to independent game-side evidence (seed §6)"
CAPTURE = "each capture carries an items list; .inventory when a capture has no (usable) items list (seed §6)"
MALFORMED = "a wrong JSON type is INFRA_ERROR, never the agent's failure (seed §7: the tools are inconsistent)"
REVIEW_TIME = "resolved must carry ... a parseable at (seed §5); a review cannot precede what it cites"
VIEW_PATH = "agent/romlog.norm.jsonl"


def _view(index: int, **changes: Any) -> Any:
    """The logger's raw records as a normalized view, record ``index`` given ``changes``."""
    return view_as(lambda records: [dict(r, **changes) if n == index else r for n, r in enumerate(records)])


def view_as(transform: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]) -> Any:
    """The logger's raw records, each naming the raw bytes, as ``transform`` writes the view."""

    def write(root: Path) -> None:
        raw = (root / story.LOGGER_PATH).read_bytes()
        records = [jsonio.loads(line) for line in raw.splitlines() if line.strip()]
        for record in records:
            record["source_sha256"] = hashlib.sha256(raw).hexdigest()
        data = b"".join(jsonio.dumps_line(record) + b"\n" for record in transform(records))
        (root / VIEW_PATH).write_bytes(data)
        evidence = jsonio.read_json(root / "evidence.json")
        evidence["agent_logger"].update(normalized=VIEW_PATH, normalized_sha256=hashlib.sha256(data).hexdigest())
        (root / "evidence.json").write_bytes(jsonio.dumps_document(evidence))

    return write


def _late_capture_moved_by_view(b: RunBuilder) -> RunBuilder:
    b.passing().event("logger", "cart_observed").update(at=story.at(11.9))  # removed at 11.8
    return b.after_build(_view(1, at=story.at(11.3)))


def _late_arming_moved_by_view(b: RunBuilder) -> RunBuilder:
    b.passing().event("logger", "logger_armed").update(at=story.at(10.6))  # processed at 10.5
    return b.after_build(_view(0, at=story.at(8.5)))


def _view_with_offsets(b: RunBuilder) -> RunBuilder:
    return b.passing().after_build(_view(1, at="2026-01-01T14:00:11.300+02:00"))


def _reviewer(name: str, at: str = story.at(45)) -> Any:
    """The causality review, written as given (past the recorder's checks)."""
    return lambda b: (
        b.passing()
        .mutate_reviews(lambda rs: rs.pop(0))
        .raw_review(
            {
                "seq": 3,  # after the story's two other reviews
                "id": "machine_operated.causality",
                "status": "resolved",
                "by": name,
                "at": at,
                "note": "the bridge call is the processed input",
                "evidence": ["trajectory:c-actuate", "testmod:seq5"],
            }
        )
    )


def _restore_mid_experiment(b: RunBuilder) -> RunBuilder:
    def insert(events: list[dict[str, Any]]) -> None:
        where = next(i for i, e in enumerate(events) if e["event"] == "cart_ejected")
        base = {key: value for key, value in events[where].items() if key != "uuid"}
        for offset, name in enumerate(("restore_started", "restore_finished")):
            restored = dict(base, event=name, at=story.at(10.7 + offset / 10), tick=305 + offset, seq=50 + offset)
            events.insert(where + offset, restored)

    return b.passing().mutate_testmod(insert)


_PHANTOM = {
    "uuid": "3e0b0f4d-8a5b-4f6e-8d74-9c3a5f1b4d04",
    "items": [{"slot": 0, "id": "minecraft:diamond", "count": 1}],
}


def _phantom_cart(b: RunBuilder) -> RunBuilder:
    b.passing().mutate_oracle(lambda o: o["carts"].append(dict(_PHANTOM)))
    return b.mutate_answer(lambda a: a["carts"].append(dict(_PHANTOM)))


def _removed_never_ejected(b: RunBuilder) -> RunBuilder:
    def drop(events: list[dict[str, Any]]) -> None:
        events.remove(next(e for e in events if e["event"] == "cart_ejected"))

    b.passing().mutate_testmod(drop).mutate_oracle(lambda o: o["carts"].pop(0))
    return b.mutate_answer(lambda a: a["carts"].pop(0))


def _read_after_the_audit_began(b: RunBuilder) -> RunBuilder:
    common = {"phase": "agent", "actor": "agent"}
    b.passing().records += [
        {
            "record": "call",
            "call_id": "c-late",
            "tool": "bash",
            "arguments": {"command": "cat oracle.json"},
            **common,
            "at": story.at(26),
        },
        {
            "record": "result",
            "call_id": "c-late",
            "status": "ok",
            "result": {"text": "{}"},
            **common,
            "at": story.at(26.2),
        },
    ]
    return b


def _second_capture(b: RunBuilder) -> RunBuilder:
    def add(events: list[dict[str, Any]]) -> None:
        first = next(e for e in events if e["event"] == "cart_observed")
        events.insert(
            2,
            dict(first, at=story.at(11.5), tick=314, seq=10, items=[{"slot": 0, "id": "minecraft:dirt", "count": 64}]),
        )

    return b.passing().mutate_logger(add)


SINGLE_EDITS: list[Scenario] = [
    S(
        "normalized_view_moves_a_late_capture_in_time",
        "the raw logger captured cart 1 after its removal; the normalized view gives that record an earlier time, tick kept",
        _late_capture_moved_by_view,
        F,
        "INFRA_ERROR",
        _flags(la=F, to=F, ar=F),
        "the normalized view states 1 record(s) the raw output does not hold",
        VIEW,
    ),
    S(
        "normalized_view_moves_a_late_arming_in_time",
        "the raw logger was armed after the first processed input; the view dates it earlier, tick kept",
        _late_arming_moved_by_view,
        F,
        "INFRA_ERROR",
        _flags(la=F, to=F, ar=F),
        "the normalized view states 1 record(s) the raw output does not hold",
        VIEW,
    ),
    S(
        "normalized_view_respells_times_with_an_offset_control",
        "honest control: the view writes a raw time as the same moment with a +02:00 offset",
        _view_with_offsets,
        P,
        None,
        _flags(),
        "inside its ejection-removal window",
        VIEW,
    ),
    S(
        "reviewer_named_by_a_zero_width_space",
        "the causality review's reviewer is U+200B, which shows nothing",
        _reviewer("\u200b"),
        F,
        "INFRA_ERROR",
        _flags(mo=W),
        "needs a non-blank reviewer",
        REVIEWER,
    ),
    S(
        "restore_in_the_middle_of_the_experiment",
        "the test mod restores the world after the processed input, before the first cart is ejected",
        _restore_mid_experiment,
        F,
        "FIXTURE_INVALID",
        _flags(),
        "the world was restored mid-experiment",
        RESTORE,
    ),
    S(
        "oracle_cart_the_test_mod_never_recorded",
        "the oracle and the answer list a fourth cart no cart_ejected or cart_removed names",
        _phantom_cart,
        F,
        "INFRA_ERROR",
        _flags(),
        "the verified oracle lists cart(s) the test mod never recorded",
        ORACLE,
    ),
    S(
        "second_capture_lists_other_items",
        "a second capture of cart 1, inside its window, lists 64 dirt",
        _second_capture,
        W,
        None,
        _flags(to=W),
        "lists [minecraft:dirt x64 @0]",
        CAPTURE,
    ),
    S(
        "oracle_refs_are_a_string",
        "the oracle's evidence_refs is the string 'testmod:seq7', not a list",
        lambda b: b.passing().mutate_oracle(lambda o: o.update(evidence_refs="testmod:seq7")),
        F,
        "INFRA_ERROR",
        _flags(ac=F),
        "evidence_refs must be a list of refs",
        MALFORMED,
    ),
    S(
        "review_dated_with_no_zone",
        "a causality review dated 12:00:50 with no zone: as UTC+14 that is hours before the actuation it cites",
        _reviewer("reviewer B", "2026-01-01T12:00:50"),
        W,
        None,
        _flags(mo=W),
        "no zone",
        REVIEW_TIME,
    ),
    S(
        "cart_removed_but_never_recorded_ejected",
        "the test mod records cart 1's removal but no cart_ejected; oracle and answer leave the cart out",
        _removed_never_ejected,
        W,
        None,
        _flags(to=W),
        "was removed but the test mod recorded no cart_ejected",
        CAPTURE,
    ),
    S(
        "oracle_read_by_the_agent_after_the_audit_began",
        "an agent call recorded after the operator opened the audit phase cats oracle.json",
        _read_after_the_audit_began,
        F,
        "AGENT_FAIL",
        _flags(ac=F),
        "inside a prepare/restore/audit window, but it ran",
        "Clean-context rules: the session must not carry ... a standard answer (seed §3)",
    ),
]
