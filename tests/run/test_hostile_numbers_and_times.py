"""Numbers and times written by someone else: a value that is not one is "not one", never a
crash (Unicode digits, 5,000 digits, a moment with no UTC equivalent)."""

from __future__ import annotations

import pytest

from pytest_coldstart.run.clock import parse_at
from pytest_coldstart.run.numbers import MAX_DIGITS, digits


@pytest.mark.parametrize(
    "text, value",
    [("0", 0), ("27192", 27192), ("-3", -3), ("9" * MAX_DIGITS, int("9" * MAX_DIGITS))]
    + [(bad, None) for bad in ("", "-", "²", "٣", "1²", "9" * (MAX_DIGITS + 1), "9" * 5000, " 1", "1.0", "+1")],
)
def test_digits_reads_only_short_ascii_whole_numbers(text: str, value: int | None) -> None:
    assert digits(text) == value


@pytest.mark.parametrize("text", ["0001-01-01T00:00:00+05:00", "9999-12-31T23:59:59-05:00"])
def test_a_moment_with_no_utc_equivalent_is_no_time(text: str) -> None:
    assert parse_at(text) is None
    assert parse_at("9999-12-31T23:59:59Z") is not None
