"""The provenance analysis remembers judgements of short texts and resolved paths; what it
remembers never outlives what it depends on (a link a later call makes)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence.identity import Workspace
from pytest_coldstart.audit.evidence.memo import short_texts
from pytest_coldstart.audit.evidence.shell_writes import _hinted, may_write

HOME = {"agent": {"cwd": "/home/lab/run/workspace", "run_dir": "/home/lab/run"}}


def test_short_texts_are_judged_once_and_long_ones_every_time():
    seen: list[str] = []

    @short_texts(maxsize=4, max_chars=8)
    def judge(text: str) -> int:
        seen.append(text)
        return len(text)

    assert [judge("short"), judge("short"), judge("a" * 9), judge("a" * 9)] == [5, 5, 9, 9]
    assert seen == ["short", "a" * 9, "a" * 9]
    for number in range(10):  # bounded: the oldest are forgotten, answers stay right
        assert judge(str(number)) == 1
    assert judge("short") == 5 and seen.count("short") == 2


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("cp >'\"\\tee|;ab")), max_size=40))
def test_the_remembered_write_hint_is_the_fresh_one(text):
    lowered = text.lower()
    assert _hinted(lowered) == _hinted.__wrapped__(lowered) == may_write(text)  # type: ignore[attr-defined]


def test_a_link_made_after_a_path_was_resolved_moves_it(tmp_path: Path):
    ws = Workspace(tmp_path, HOME)
    before = ws.key("t/oracle.json")
    assert before == "/home/lab/run/workspace/t/oracle.json"
    ws.alias("/home/lab/run/workspace/t", "/home/lab/run/test")
    assert ws.key("t/oracle.json") == "/home/lab/run/test/oracle.json"
    assert ws.key("t/oracle.json", "/home/lab/run/workspace") == "/home/lab/run/test/oracle.json"


def test_the_same_token_in_another_cwd_is_its_own_path(tmp_path: Path):
    ws = Workspace(tmp_path, HOME)
    assert ws.key("x.json", "/home/lab/run/test") == "/home/lab/run/test/x.json"
    assert ws.key("x.json", "/home/lab/run/workspace") == "/home/lab/run/workspace/x.json"
    assert ws.key("x.json") == "/home/lab/run/workspace/x.json"
