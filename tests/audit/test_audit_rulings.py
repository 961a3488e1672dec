"""Rulings R1-R12 piece by piece: ordering, read linkage, reviews, oracle refs, required
reviews under exactly their conditions, classification precedence."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from audit_helpers import audit, builder, flag, required, statuses

from pytest_coldstart.audit import audit_inputs_digest, audit_run
from pytest_coldstart.audit.model import Event
from pytest_coldstart.audit.ordering import AFTER, BEFORE, UNKNOWN, compare
from pytest_coldstart.demo.scenarios import build_run, story

T = datetime(2026, 1, 1, tzinfo=UTC)
T2 = datetime(2026, 1, 1, 0, 0, 1, tzinfo=UTC)


def ev(stream, at=None, tick=None, seq=None, span=0.0, zoneless=False):
    return Event(stream, "x", 1, 0, f"{stream}:seq{seq}", at, tick, seq, span=span, zoneless=zoneless)


HALF = datetime(2026, 1, 1, 0, 0, 0, 500000, tzinfo=UTC)


@pytest.mark.parametrize(
    "a, b, expected",
    [
        (ev("testmod", T, 5, 1), ev("logger", T2, 1, 0), BEFORE),  # time decides first, even against the tick
        (ev("testmod", T, 5, 1), ev("logger", T, 6, 0), BEFORE),  # equal times: the tick decides
        (ev("testmod", None, 5, 1), ev("logger", T, 4, 9), AFTER),  # one time missing: the tick decides
        (ev("testmod", T, 5, 1), ev("logger", T, 5, 0), UNKNOWN),  # cross-stream tie: never the seq
        (ev("testmod", T, 5, 1), ev("testmod", T, 5, 2), BEFORE),  # same stream: the seq breaks the tie
        (ev("testmod", None, None, 1), ev("logger", None, None, 2), UNKNOWN),
        (ev("testmod", None, None, None), ev("testmod", None, None, None), UNKNOWN),
        # a time written to the second is anywhere in that second: it does not order against .5
        (ev("logger", T, None, 1, span=1.0), ev("testmod", HALF, None, 1, span=0.001), UNKNOWN),
        (ev("testmod", HALF, None, 1, span=0.001), ev("logger", T, None, 1, span=1.0), UNKNOWN),
        (ev("logger", T, 5, 1, span=1.0), ev("testmod", HALF, 6, 1, span=0.001), BEFORE),  # the tick decides
        (ev("logger", T, None, 1, span=0.1), ev("testmod", HALF, None, 1, span=0.001), BEFORE),
        (ev("logger", T, None, 1, span=1.0), ev("testmod", T2, None, 1, span=0.001), BEFORE),  # spans apart
        (ev("testmod", T2, None, 1, span=0.001), ev("logger", T, None, 1, span=1.0), AFTER),
    ],
)
def test_r1_ordering(a, b, expected):
    assert compare(a, b) == expected


@pytest.mark.parametrize(
    "a, b, expected",
    [
        # a zoneless time is any local clock from UTC-12 to UTC+14: seconds or hours do not order it
        (ev("logger", T, 7, 1, zoneless=True), ev("testmod", T + timedelta(hours=11), 5, 1), AFTER),
        (ev("logger", T, None, 1, zoneless=True), ev("testmod", T + timedelta(hours=11), None, 1), UNKNOWN),
        (ev("logger", T, None, 1, zoneless=True), ev("testmod", T + timedelta(hours=12, seconds=1), None, 1), BEFORE),
        (ev("testmod", T - timedelta(hours=13), None, 1), ev("logger", T, None, 1, zoneless=True), UNKNOWN),
        (ev("testmod", T + timedelta(hours=13), None, 1), ev("logger", T, None, 2, zoneless=True), AFTER),
        (ev("testmod", T, None, 1), ev("logger", T + timedelta(hours=14, seconds=1), None, 1, zoneless=True), BEFORE),
        # two streams' zoneless clocks may be in two zones; one stream's share its zone
        (ev("logger", T, None, 1, zoneless=True), ev("testmod", T2, None, 1, zoneless=True), UNKNOWN),
        (ev("logger", T, None, 1, zoneless=True), ev("logger", T2, None, 2, zoneless=True), BEFORE),
    ],
)
def test_r1_a_zoneless_time_orders_only_beyond_every_zone(a, b, expected):
    assert compare(a, b) == expected
    assert compare(b, a) == {BEFORE: AFTER, AFTER: BEFORE, UNKNOWN: UNKNOWN}[expected]


def test_r1_machine_ordering_review_when_calls_cannot_be_ordered(tmp_path):
    b = builder(tmp_path).passing()
    processed = b.event("testmod", "input_processed")
    # every agent call at the very instant of processing, and the test mod with no time: unknown
    for record in b.records:
        if record["record"] in ("call", "result", "phase"):
            record["at"] = processed["at"]
    report = audit(b)
    assert statuses(report)["machine_operated"] == "PENDING"
    assert set(required(report, "machine_operated")) == {"machine_operated.causality", "machine_operated.ordering"}
    assert report["unknown_orderings"]


def test_r2_name_without_content_and_uuid_alone(tmp_path):
    b = builder(tmp_path, "a").passing()
    b.call("c-read-log", "result")["result"] = {"text": "file is 1.2 KB"}
    report = audit(b)
    assert required(report, "agent_read_log") == ["agent_read_log.linkage"]
    assert "no captured content" in flag(report, "agent_read_log")["summary"]
    b = builder(tmp_path, "b").passing()
    b.call("c-read-log", "result")["result"] = {"text": " ".join(c["uuid"] for c in story.CARTS)}
    assert "without its items" in flag(audit(b), "agent_read_log")["summary"]
    b = builder(tmp_path, "c").passing()
    b.call("c-read-log")["at"] = story.at(15.0)  # before the last capture (15.3): not a read-back
    b.call("c-read-log", "result")["at"] = story.at(15.1)
    b.mutate_trajectory(lambda r: r.sort(key=lambda x: x["at"]))
    assert statuses(audit(b))["agent_read_log"] == "FAIL"


def test_r3_a_resolved_review_with_unresolvable_field_ref_stays_pending(tmp_path):
    b = builder(tmp_path).passing()
    b.reviews[2]["evidence"] = ["fixture:no_such_field"]
    report = audit(b)
    assert statuses(report)["answer_correct"] == "PENDING"
    resolution = flag(report, "answer_correct")["review_resolutions"][0]
    assert resolution["refs_resolved"] is False
    assert (
        next(r for r in report["required_reviews"] if r["id"] == "answer_correct.oracle_independence")["status"]
        == "unresolved-refs"
    )


def test_r3_refs_resolve_fields_values_and_dotted_paths(tmp_path):
    b = builder(tmp_path).passing()
    b.reviews[2]["evidence"] = [
        "fixture:ready",
        "fixture:lab-a",
        "restore:entities_issued",
        "restore:545a11e87afce73b",
        "oracle:testmod:seq7",
    ]
    assert audit(b)["overall"] == "PASS"


def test_r3_a_review_never_turns_a_mechanical_fail_into_pass(tmp_path):
    b = builder(tmp_path).passing().drop_call("c-read-log").review("agent_read_log.linkage", evidence=["logger:seq2"])
    report = audit(b)
    assert statuses(report)["agent_read_log"] == "FAIL"


def test_r3_rejected_fails_and_pending_waits(tmp_path):
    b = builder(tmp_path, "a").passing().review("answer_correct.oracle_independence", "rejected", evidence=[])
    report = audit(b)
    assert statuses(report)["answer_correct"] == "FAIL" and report["failure_class"] == "AGENT_FAIL"
    b = builder(tmp_path, "b").passing().review("answer_correct.oracle_independence", "pending", evidence=[])
    assert statuses(audit(b))["answer_correct"] == "PENDING"


def test_r4_oracle_ref_to_a_missing_record_is_pending_and_no_refs_fail(tmp_path):
    report = audit(builder(tmp_path, "a").passing().mutate_oracle(lambda o: o.update(evidence_refs=["testmod:seq999"])))
    assert statuses(report)["answer_correct"] == "PENDING"
    report = audit(builder(tmp_path, "b").passing().mutate_oracle(lambda o: o.update(evidence_refs=[])))
    assert statuses(report)["answer_correct"] == "FAIL"


def test_r4_the_oracle_must_cover_every_ejected_cart(tmp_path):
    report = audit(builder(tmp_path).passing().mutate_oracle(lambda o: o["carts"].pop()))
    assert report["failure_class"] == "INFRA_ERROR"
    assert any("omits ejected cart" in text for text in report["infra_errors"])


def test_r6_no_fixture_or_restore_is_pending(tmp_path):
    b = builder(tmp_path).passing().undeclare("fixture").undeclare("restore")
    b.reviews[2]["evidence"] = ["testmod:seq7"]
    report = audit(b.mutate_oracle(lambda o: o["evidence_refs"].remove("fixture:ready")))
    assert report["overall"] == "PENDING" and set(statuses(report).values()) == {"PASS"}
    assert len(report["pending_reasons"]) == 2


def test_r6_no_oracle_is_pending(tmp_path):
    report = audit(builder(tmp_path).passing().undeclare("oracle"))
    assert statuses(report)["answer_correct"] == "PENDING" and report["overall"] == "PENDING"


def test_r8_items_compare_in_order(tmp_path):
    report = audit(builder(tmp_path).passing().mutate_answer(lambda a: a["carts"].reverse()))
    assert statuses(report)["answer_correct"] == "PASS"  # cart order is free; item order is not (answer_mismatch)


def test_r11_precedence(tmp_path):
    b = builder(tmp_path).passing().mutate_fixture(lambda f: f.update(status="invalid", ready=False))
    b.tamper("answer.json", lambda d: d + b" ")
    b.drop_call("c-read-log")
    report = audit(b)
    assert report["failure_class"] == "INFRA_ERROR"
    b = (
        builder(tmp_path, "b")
        .passing()
        .mutate_fixture(lambda f: f.update(status="invalid", ready=False))
        .drop_call("c-read-log")
    )
    assert audit(b)["failure_class"] == "FIXTURE_INVALID"


def test_r12_every_integrity_check_of_validate(tmp_path):
    report = audit(builder(tmp_path, "task").passing().tamper("task.md", lambda d: d + b"hint: the answer is ..."))
    assert report["failure_class"] == "INFRA_ERROR"
    report = audit(
        builder(tmp_path, "edit")
        .passing()
        .tamper("trajectory.jsonl", lambda d: d.replace(b'"tool":"bridge"', b'"tool":"bridgE"'))
    )
    assert report["failure_class"] == "INFRA_ERROR"
    report = audit(
        builder(tmp_path, "cut")
        .passing()
        .tamper(
            "trajectory.jsonl", lambda d: b"".join(d.splitlines(keepends=True)[:9] + d.splitlines(keepends=True)[10:])
        )
    )
    assert report["failure_class"] == "INFRA_ERROR"  # a deleted line breaks the hash chain


def test_r12_a_sealed_run_is_anchored(tmp_path):
    from pytest_coldstart.record.seal import seal

    run = build_run(tmp_path / "run", "passing")
    seal(run)
    assert audit_run(run, write=False)["overall"] == "PASS"
    lines = (run / "trajectory.jsonl").read_bytes().splitlines(keepends=True)
    (run / "trajectory.jsonl").write_bytes(b"".join(lines[:-1]))  # drop the sealing record: chain intact, anchor not
    assert audit_run(run, write=False)["failure_class"] == "INFRA_ERROR"


def test_inputs_digest_changes_with_any_input(tmp_path):
    run = build_run(tmp_path / "run", "passing")
    first = audit_inputs_digest(run)
    audit_run(run)  # writing audit/ does not change the inputs
    assert audit_inputs_digest(run) == first
    with open(run / "reviews.jsonl", "ab") as handle:
        handle.write(b"\n")
    second = audit_inputs_digest(run)
    assert second != first
    (run / "test" / "testmod.jsonl").write_bytes((run / "test" / "testmod.jsonl").read_bytes())
    assert audit_inputs_digest(run) != second


def test_window_review_without_removal_evidence_or_with_a_tie(tmp_path):
    b = builder(tmp_path, "a").passing()
    removal = b.event("testmod", "cart_removed", 2)
    b.mutate_testmod(lambda ev: ev.remove(removal))
    report = audit(b)
    assert statuses(report)["transient_outputs_captured"] == "PENDING"
    assert required(report, "transient_outputs_captured") == ["transient_outputs_captured.window"]
    assert story.CARTS[2]["uuid"] in flag(report, "transient_outputs_captured")["required_review"][0]["question"]

    def tie(b):
        ejection = b.event("testmod", "cart_ejected", 0)
        b.event("logger", "cart_observed", 0).update(at=ejection["at"], tick=ejection["tick"])
        return b

    report = audit(tie(builder(tmp_path, "b").passing()))
    assert required(report, "transient_outputs_captured") == ["transient_outputs_captured.window"]
    assert ["logger:seq2", "testmod:seq6"] in report["unknown_orderings"]
    reviewed = tie(builder(tmp_path, "c").passing()).review(
        "transient_outputs_captured.window", evidence=["logger:seq2", "testmod:seq6"]
    )
    assert audit(reviewed)["overall"] == "PASS"


def test_inventory_review_when_a_capture_has_no_items(tmp_path):
    def no_items(b):
        del b.event("logger", "cart_observed", 1)["items"]
        return b

    report = audit(no_items(builder(tmp_path, "a").passing()))
    assert required(report, "transient_outputs_captured") == ["transient_outputs_captured.inventory"]
    assert statuses(report)["transient_outputs_captured"] == "PENDING"
    reviewed = no_items(builder(tmp_path, "b").passing()).review(
        "transient_outputs_captured.inventory", evidence=["logger:seq3", "testmod:seq9"]
    )
    assert statuses(audit(reviewed))["transient_outputs_captured"] == "PASS"


@pytest.mark.parametrize(
    "value, seconds",
    [
        ("2026-01-01T12:00:10.500Z", 0.001),
        ("2026-01-01T12:00:10.5Z", 0.1),
        ("2026-01-01T12:00:10,5+01:00", 0.1),
        ("2026-01-01T12:00:10Z", 1.0),
        ("2026-01-01 12:00:10.123456", 1e-06),
        ("2026-01-01T12:00Z", 60.0),
        ("2026-01-01", 86400.0),
        (1767268810, 1.0),
        ("1767268810", 1.0),
        (1767268810.25, 0.01),
    ],
)
def test_a_time_states_its_moment_as_finely_as_it_is_written(value, seconds):
    from pytest_coldstart.run.clock import resolution

    assert resolution(value) == pytest.approx(seconds)
