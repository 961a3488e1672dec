"""Adversarial scenarios: evidence records that say two things at once, or less than they seem.

An identity field spelled twice with two values (``instance`` and ``instance_id``) names no
single lab; a capture whose items are no item list, or that the test mod's own inventory of
the cart contradicts, is no record of the transient output (the logger is the agent's own, the
test mod is not); a slot of the wrong type must not match any slot; and a restore or fixture
report that names a failure by its key (``failed: true``, ``errors: [...]``), counts failures
in a form that is no count, or gives a second status (``result``) that failed or is not yet
verified, was not shown faithful (seed §5-§7). A review dated before a record it cites was made
cannot rest on it: it was written ahead, or while the agent still worked (seed §5: every ref
must resolve against the run). A logger that writes its times to the second (or as epoch
seconds) names a whole second: such a time orders nothing closer than that (R1 never guesses).
"""

from __future__ import annotations

from typing import Any

from pytest_coldstart.demo.scenarios.adversarial_edits import FIXTURE, ITEMS, SCOPE, F, P, S, W
from pytest_coldstart.demo.scenarios.builder import RunBuilder
from pytest_coldstart.demo.scenarios.catalogue import Scenario, _flags

CAPTURED = (
    "transient_outputs_captured: ... each capture carries an items list; .inventory when a capture has "
    "no items list (seed §6); the test mod is the independent record (seed §5)"
)
PENDING_ORACLE = "When the fixture is new or unverified, the oracle stays pending (seed §6)"
REVIEWED = (
    "resolved must carry by, a parseable at and a non-empty evidence list; every ref must resolve against "
    "the run ... a well-formed entry whose refs do not resolve keeps the flag PENDING (seed §5)"
)


def _event(stream: str, name: str, change: dict[str, Any], index: int = 0) -> Any:
    def configure(b: RunBuilder) -> RunBuilder:
        b.passing().event(stream, name, index).update(change)
        return b

    return configure


def _restore(change: dict[str, Any]) -> Any:
    return lambda b: b.passing().mutate_restore(lambda r: r.update(change))


def _fixture(change: dict[str, Any]) -> Any:
    return lambda b: b.passing().mutate_fixture(lambda f: f.update(change))


def _answer_slot(b: RunBuilder) -> RunBuilder:
    # iron lies in slot 7: a string slot must not be read as "no slot" and so match anywhere
    return b.passing().mutate_answer(lambda a: a["carts"][0]["items"][0].update(slot="15"))


def _causality_review(at: str, evidence: list[str]) -> Any:
    def configure(b: RunBuilder) -> RunBuilder:
        def change(reviews: list[dict[str, Any]]) -> None:
            reviews[0].update(at=at, evidence=evidence)

        return b.passing().mutate_reviews(change)

    return configure


ORDERING = "Mechanical ordering never guesses. Times decide first, then ticks (seed §6)"


def _record(call_id: str | None, change: dict[str, Any]) -> Any:
    """The passing run with a trajectory record changed: the call ``call_id``, or (None) the agent phase."""

    def configure(b: RunBuilder) -> RunBuilder:
        def edit(records: list[dict[str, Any]]) -> None:
            for record in records:
                if (call_id is None and record.get("phase") == "agent" and record.get("record") == "phase") or (
                    record.get("record") == "call" and record.get("call_id") == call_id
                ):
                    record.update(change)

        return b.passing().mutate_trajectory(edit)

    return configure


def _coarse(name: str, at: Any, index: int = 0) -> Any:
    """A logger event written to the second, without its tick."""
    return _event("logger", name, {"at": at, "tick": None}, index)


IRON_ONLY = [{"slot": 7, "id": "minecraft:iron_ingot", "count": 5}]

EVIDENCE: list[Scenario] = [
    S(
        "logger_armed_spells_its_instance_twice",
        "logger_armed says instance lab-a and instance_id lab-b",
        _event("logger", "logger_armed", {"instance_id": "lab-b"}),
        F,
        "INFRA_ERROR",
        _flags(la=F, to=F, ar=F),
        "disagree",
        SCOPE,
    ),
    S(
        "input_processed_spells_its_dimension_twice",
        "input_processed says dimension overworld and dim the_nether",
        _event("testmod", "input_processed", {"dim": "minecraft:the_nether"}),
        F,
        "INFRA_ERROR",
        _flags(mo=F, la=F, to=F, ac=W),
        "disagree",
        SCOPE,
    ),
    S(
        "capture_spells_its_cart_twice",
        "a capture names cart 1 as uuid and cart 2 as cart_uuid",
        _event("logger", "cart_observed", {"cart_uuid": "1c8f8d2b-6e3f-4d4c-8b52-7a1e3d9f2b02"}),
        F,
        "INFRA_ERROR",
        _flags(la=F, to=F, ar=F),
        "name different carts",
        SCOPE,
    ),
    S(
        "fixture_spells_its_instance_twice",
        "the fixture report says instance lab-a and instance_id lab-b",
        _fixture({"instance_id": "lab-b"}),
        F,
        "INFRA_ERROR",
        _flags(),
        "as instance_id names instance 'lab-b'",
        SCOPE,
    ),
    S(
        "capture_with_an_empty_items_list",
        "the capture of a cart the test mod saw holding iron and sand lists no items",
        _event("logger", "cart_observed", {"items": []}),
        W,
        None,
        _flags(to=W),
        "but the test mod recorded",
        CAPTURED,
    ),
    S(
        "capture_lists_another_inventory",
        "the capture of cart 1 lists only the iron; the test mod saw iron and sand",
        _event("logger", "cart_observed", {"items": IRON_ONLY}),
        W,
        None,
        _flags(to=W),
        "but the test mod recorded",
        CAPTURED,
    ),
    S(
        "capture_with_counts_as_text",
        "the capture's counts are strings",
        _event(
            "logger",
            "cart_observed",
            {"items": [{"slot": 7, "id": "minecraft:iron_ingot", "count": "5"}, {"slot": 15, "id": "minecraft:sand"}]},
        ),
        W,
        None,
        _flags(to=W),
        "carries no usable items list",
        CAPTURED,
    ),
    S(
        "capture_with_a_map_that_is_no_slot_map",
        "the capture's items are a map whose keys are not slots",
        _event("logger", "cart_observed", {"items": {"iron": 5, "sand": 1}}),
        W,
        None,
        _flags(to=W),
        "carries no usable items list",
        CAPTURED,
    ),
    S(
        "answer_gives_a_slot_as_text",
        'the answer puts iron in slot "15" (a string); the oracle has it in slot 7',
        _answer_slot,
        F,
        "AGENT_FAIL",
        _flags(ac=F),
        "slot that is not a non-negative integer",
        ITEMS,
    ),
    S(
        "restore_ok_beside_failed_true",
        "the restore report says status ok and failed: true",
        _restore({"failed": True}),
        F,
        "FIXTURE_INVALID",
        _flags(),
        "failed=True",
        FIXTURE,
    ),
    S(
        "restore_ok_beside_a_list_of_errors",
        "the restore report says status ok and lists an error",
        _restore({"errors": ["entity 2 was not placed"]}),
        F,
        "FIXTURE_INVALID",
        _flags(),
        "errors=['entity 2 was not placed']",
        FIXTURE,
    ),
    S(
        "restore_ok_beside_an_error_message",
        "the restore report says status ok and carries an error message",
        _restore({"error": "snapshot cannot be restored: 1 blocking issue"}),
        F,
        "FIXTURE_INVALID",
        _flags(),
        "error='snapshot cannot be restored",
        FIXTURE,
    ),
    S(
        "restore_counts_its_failures_as_text",
        'the restore report says status ok with entities_failed: "1"',
        _restore({"entities_failed": "1"}),
        F,
        "FIXTURE_INVALID",
        _flags(),
        "entities_failed='1'",
        FIXTURE,
    ),
    S(
        "restore_counts_minus_one_failures",
        "the restore report says status ok with entities_failed: -1",
        _restore({"entities_failed": -1}),
        F,
        "FIXTURE_INVALID",
        _flags(),
        "entities_failed=-1",
        FIXTURE,
    ),
    S(
        "restore_ok_beside_a_failed_result",
        "the restore report says status ok and result failed",
        _restore({"result": "failed"}),
        F,
        "FIXTURE_INVALID",
        _flags(),
        "result='failed'",
        FIXTURE,
    ),
    S(
        "restore_ok_but_not_verified_yet",
        "the restore report says status ok and verified: false",
        _restore({"verified": False}),
        W,
        None,
        _flags(ac=W),
        "verified=False",
        PENDING_ORACLE,
    ),
    S(
        "fixture_ready_but_not_verified_yet",
        "the fixture report says ready and verified: false",
        _fixture({"verified": False}),
        W,
        None,
        _flags(ac=W),
        "verified=False",
        PENDING_ORACLE,
    ),
    S(
        "restore_with_settings_that_name_errors",
        "allowed: a restore report whose settings name errors (on_error, ignore_errors) and whose error fields are empty",
        _restore({"on_error": "fail", "ignore_errors": True, "errors": [], "error": None}),
        P,
        None,
        _flags(),
        "the answer equals the verified oracle",
        FIXTURE,
    ),
    S(
        "capture_with_the_cart_uuid_in_capitals",
        "allowed: a capture that spells the cart's uuid in capitals and also as cart_uuid",
        _event(
            "logger",
            "cart_observed",
            {
                "uuid": "0B7E7C1A-5D2E-4C3B-9A41-6F0D2C8E1A01",
                "cart_uuid": "0b7e7c1a-5d2e-4c3b-9a41-6f0d2c8e1a01",
            },
        ),
        P,
        None,
        _flags(),
        "3 capture(s) cover 3 ejected cart(s)",
        CAPTURED,
    ),
    S(
        "review_cites_a_record_made_after_it",
        "the causality review is dated 12:00:10.2, before the input_processed (10.5) it cites",
        _causality_review("2026-01-01T12:00:10.200Z", ["trajectory:c-actuate", "testmod:seq5"]),
        W,
        None,
        _flags(mo=W),
        "a review cannot precede what it cites",
        REVIEWED,
    ),
    S(
        "review_cites_records_of_a_later_year",
        "every review is dated 2020, years before the run it resolves",
        lambda b: b.passing().mutate_reviews(
            lambda reviews: [r.update(at="2020-01-01T00:00:00Z") for r in reviews] and None
        ),
        W,
        None,
        _flags(mo=W, la=W, ac=W),
        "a review cannot precede what it cites",
        REVIEWED,
    ),
    S(
        "review_cites_in_another_time_zone",
        "allowed: the causality review is dated 13:00:10.6+01:00, just after the input it cites",
        _causality_review("2026-01-01T13:00:10.600+01:00", ["trajectory:c-actuate", "test_mod:seq5"]),
        P,
        None,
        _flags(),
        "agent call c-actuate precedes the first one",
        REVIEWED,
    ),
    S(
        "logger_armed_written_to_the_second",
        "logger_armed says 12:00:10Z (no tick): armed some time in the second the input was processed (10.5)",
        _coarse("logger_armed", "2026-01-01T12:00:10Z"),
        W,
        None,
        _flags(la=W),
        "cannot be ordered",
        ORDERING,
    ),
    S(
        "logger_armed_in_epoch_seconds",
        "logger_armed is epoch second 1767268810 (no tick), the second of the input processed at 10.5",
        _coarse("logger_armed", 1767268810),
        W,
        None,
        _flags(la=W),
        "cannot be ordered",
        ORDERING,
    ),
    S(
        "capture_written_to_the_second",
        "a capture says 12:00:11Z (no tick): the cart, ejected at 10.6, was removed at 11.8, inside that second",
        lambda b: (
            _coarse("cart_observed", "2026-01-01T12:00:11Z")(b)
            .event("testmod", "cart_ejected")
            .update(at="2026-01-01T12:00:10.600Z")
            or b
        ),
        W,
        None,
        _flags(to=W),
        "awaiting explicit review: transient_outputs_captured.window",
        ORDERING,
    ),
    S(
        "logger_written_to_the_second_with_ticks",
        "allowed: logger_armed says 12:00:08Z with its tick: the second and the tick both order it",
        _event("logger", "logger_armed", {"at": "2026-01-01T12:00:08Z"}),
        P,
        None,
        _flags(),
        "logger_armed is ordered",
        ORDERING,
    ),
    S(
        "machine_input_sent_to_another_lab_as_instance_id",
        "the actuating call names lab-b under the spelling instance_id",
        _record("c-actuate", {"instance_id": "lab-b"}),
        F,
        "AGENT_FAIL",
        _flags(mo=F),
        "lab-b",
        SCOPE,
    ),
    S(
        "machine_input_sent_to_two_labs_at_once",
        "the actuating call says instance lab-a and instance_id lab-b",
        _record("c-actuate", {"instance": "lab-a", "instance_id": "lab-b"}),
        F,
        "AGENT_FAIL",
        _flags(mo=F),
        "lab-b",
        SCOPE,
    ),
    S(
        "agent_phase_spells_its_instance_twice",
        "the agent phase record says instance lab-a and instance_id lab-b",
        _record(None, {"instance_id": "lab-b"}),
        F,
        "INFRA_ERROR",
        _flags(),
        "names instance 'lab-b'",
        SCOPE,
    ),
]
