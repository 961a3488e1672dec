"""A call id the session repeats is renamed id#2, id#3, ... in call order, skipping names already
taken; the next number is kept per id, so K repeats cost K steps, not K^2 (8000 calls sharing one
id took 28 s to import)."""

from __future__ import annotations

from pytest_coldstart.importers.base import ImportedCall, ImportedEvent, ImportedResult
from pytest_coldstart.importers.walking import CallBook


class _Null:
    def call(self, index: int, call: ImportedCall) -> None:
        pass

    def result(self, index: int, call: ImportedCall) -> None:
        pass

    def event(self, event: ImportedEvent | ImportedResult, flag: bool) -> None:
        pass


def _names(raw_ids: list[str]) -> list[str]:
    book = CallBook(_Null())  # type: ignore[arg-type]
    calls = [ImportedCall("", "bash", {}, "2026-01-01T00:00:00Z", i) for i in range(len(raw_ids))]
    for raw, call in zip(raw_ids, calls, strict=True):
        book.add(raw, call)
    return [call.call_id for call in calls]


def test_repeats_are_numbered_in_order_past_names_already_taken():
    assert _names(["d", "d#3", "d", "d", "d", "e", "e"]) == ["d", "d#3", "d#2", "d#4", "d#5", "e", "e#2"]
    assert _names(["d#2", "d", "d", "d#2"]) == ["d#2", "d", "d#3", "d#2#2"]


def test_many_calls_sharing_one_id_are_named_each_once():
    names = _names(["same"] * 40_000)  # minutes when each repeat counted up from #2 (not timed here)
    assert len(set(names)) == 40_000 and names[-1] == "same#40000"
