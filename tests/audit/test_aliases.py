"""Two spellings of one identity field must agree: the projection refuses a record that names
two labs, dimensions, runs, carts or inventories at once."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence.aliases import ALIASES, UNAMBIGUOUS, ProjectionError, project

SPELLINGS = [
    (canonical, a, b) for canonical in UNAMBIGUOUS for a in ALIASES[canonical] for b in ALIASES[canonical] if a < b
]
VALUE = {
    "instance": ("lab-a", "lab-b"),
    "dimension": ("minecraft:overworld", "minecraft:the_nether"),
    "run_id": ("run-1", "run-2"),
    "uuid": ("0b7e7c1a-5d2e-4c3b-9a41-6f0d2c8e1a01", "1c8f8d2b-6e3f-4d4c-8b52-7a1e3d9f2b02"),
    "items": ([{"id": "minecraft:sand"}], []),
}


@pytest.mark.parametrize("canonical, first, second", SPELLINGS)
def test_two_spellings_with_two_values_are_refused(canonical, first, second):
    one, other = VALUE[canonical]
    with pytest.raises(ProjectionError):
        project({"event": "cart_observed", first: one, second: other})


@pytest.mark.parametrize("canonical, first, second", SPELLINGS)
def test_two_spellings_of_one_value_are_one_field(canonical, first, second):
    one, _ = VALUE[canonical]
    assert project({"event": "cart_observed", first: one, second: one})[canonical] == one


def test_a_cart_uuid_compares_without_case_and_an_instance_as_text():
    uuid = VALUE["uuid"][0]
    assert project({"uuid": uuid.upper(), "cart_uuid": uuid})["uuid"] == uuid.upper()
    assert project({"instance": "7", "instance_id": 7})["instance"] == "7"


def test_the_spellings_that_may_mean_something_else_are_not_compared():
    # "type" beside "event", "game_tick" beside "tick", "captured_at" beside "at" may carry other facts
    record = {"event": "cart_observed", "type": "minecart", "tick": 5, "game_tick": 9000}
    record |= {"at": "2026-01-01T12:00:00Z", "captured_at": "2026-01-01T12:00:01Z"}
    assert project(record)["event"] == "cart_observed"


@given(st.text(min_size=1, max_size=8), st.text(min_size=1, max_size=8))
def test_instances_agree_exactly_when_their_text_does(a, b):
    record = {"instance": a, "instance_id": b}
    if a == b:
        assert project(record)["instance"] == a
    else:
        with pytest.raises(ProjectionError):
            project(record)
