"""File-name patterns with braces and extended groups (audit/evidence/globs.py)."""

from __future__ import annotations

import pytest

from pytest_coldstart.audit.evidence.globs import MAX_ALTERNATIVES, alternatives, matches


@pytest.mark.parametrize(
    "name, pattern, expected",
    [
        ("oracle.json", "*.{json,md}", True),
        ("oracle.json", "{o,x}*", True),
        ("oracle.json", "{a,{b,o}}racle.json", True),
        ("oracle.json", "@(o)racle.json", True),
        ("oracle.json", "!(answer).json", True),
        ("oracle.json", "*.{py,md}", False),
        ("oracle.json", "o*", True),
        ("oracle.json", "{x,y}", False),
    ],
)
def test_matches(name, pattern, expected):
    assert matches(name, pattern) is expected


def test_many_groups_are_any_text():
    pattern = "{a,b}" * 40 + ".json"
    found = alternatives(pattern)
    assert len(found) <= MAX_ALTERNATIVES and matches("oracle.json", pattern)
