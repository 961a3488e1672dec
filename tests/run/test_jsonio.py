"""jsonio: strict JSON, atomic documents, streaming JSONL with precise line problems."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_coldstart.run import jsonio
from pytest_coldstart.run.errors import ColdstartError, TornLineError


def test_strict_json_rejects_nan_and_infinity():
    for text in ("NaN", '{"a": Infinity}', "-Infinity"):
        with pytest.raises(ValueError):
            jsonio.loads(text)
    assert jsonio.loads(b'{"a": 1}') == {"a": 1}
    with pytest.raises(ValueError):
        jsonio.dumps_line({"a": float("nan")})


def test_line_and_document_forms():
    assert jsonio.dumps_line({"b": 1, "a": "é"}) == '{"b":1,"a":"é"}'.encode()
    assert jsonio.canonical_bytes({"b": 1, "a": [1, 2]}) == b'{"a":[1,2],"b":1}'
    assert jsonio.dumps_document({"a": 1}).endswith(b"}\n")


def test_write_json_atomic_replaces_whole_files_and_leaves_no_temp(tmp_path):
    target = tmp_path / "sub" / "doc.json"
    jsonio.write_json_atomic(target, {"v": 1})
    jsonio.write_json_atomic(target, {"v": 2})
    assert json.loads(target.read_text()) == {"v": 2}
    assert os.listdir(target.parent) == ["doc.json"]
    assert oct(target.stat().st_mode & 0o777) == "0o644"


def test_atomic_write_failure_keeps_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "doc.json"
    jsonio.write_json_atomic(target, {"v": 1})
    monkeypatch.setattr(jsonio.os, "replace", lambda *a: (_ for _ in ()).throw(OSError("disk full")))
    with pytest.raises(OSError):
        jsonio.write_json_atomic(target, {"v": 2})
    assert json.loads(target.read_text()) == {"v": 1} and os.listdir(tmp_path) == ["doc.json"]


@pytest.mark.parametrize(
    "data, words",
    [
        (None, "file is missing"),
        (b"{", "malformed JSON"),
        (b"\xff\xfe", "not UTF-8 (byte 0)"),
        (b"[]", "expected a JSON object, got array"),
    ],
)
def test_read_json_object_errors_name_the_file(tmp_path, data, words):
    path = tmp_path / "doc.json"
    if data is not None:
        path.write_bytes(data)
    with pytest.raises(ColdstartError) as caught:
        jsonio.read_json_object(path, what="doc.json")
    assert caught.value.one_line() == f"doc.json: {caught.value.problem}" and words in caught.value.problem


def test_read_json_accepts_a_bom_and_refuses_directories(tmp_path):
    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf{}")
    assert jsonio.read_json(tmp_path / "bom.json") == {}
    with pytest.raises(ColdstartError, match="is a directory"):
        jsonio.read_json(tmp_path)


def test_iter_jsonl_lenient_names_each_problem_and_continues(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"a":1}\n\n{bad\n"str"\n{"b":"\xff"}\r\n{"c":3}\r\n{"torn":')
    items = list(jsonio.iter_jsonl(path, strict=False))
    assert [(type(i).__name__, i.number) for i in items] == [
        ("Line", 1),
        ("LineProblem", 3),
        ("LineProblem", 4),
        ("LineProblem", 5),
        ("Line", 6),
        ("LineProblem", 7),
    ]
    assert items[1].problem.startswith("malformed JSON") and items[2].problem == "expected a JSON object, got string"
    assert items[3].problem.startswith("not UTF-8") and items[5].problem.startswith("torn final line")
    assert items[4].value == {"c": 3} and items[4].raw == b'{"c":3}\r'  # only the LF is removed


def test_iter_jsonl_strict_raises_at_the_first_problem(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"a":1}\n{bad\n')
    with pytest.raises(ColdstartError) as caught:
        list(jsonio.iter_jsonl(path, what="t.jsonl"))
    assert caught.value.one_line().startswith("t.jsonl:2: malformed JSON")
    path.write_bytes(b'{"a":1}\n{"b":')
    with pytest.raises(TornLineError) as caught:
        list(jsonio.iter_jsonl(path, what="t.jsonl"))
    assert caught.value.line == 2


def test_oversized_line_is_reported_not_loaded(tmp_path, monkeypatch):
    monkeypatch.setattr(jsonio, "MAX_LINE_BYTES", 64)
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"a":1}\n{"big":"' + b"x" * 500 + b'"}\n{"c":2}\n')
    items = list(jsonio.iter_jsonl(path, strict=False))
    assert (
        [i.number for i in items] == [1, 2, 3]
        and "longer than 64 bytes" in items[1].problem
        and items[2].value == {"c": 2}
    )


@settings(max_examples=60, deadline=None)
@given(st.lists(st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=5), max_size=3), max_size=8))
def test_iter_jsonl_round_trips_what_dumps_line_writes(tmp_path_factory, records):
    path = tmp_path_factory.mktemp("rt") / "t.jsonl"
    path.write_bytes(b"".join(jsonio.dumps_line(r) + b"\n" for r in records))
    items = list(jsonio.iter_jsonl(path))
    assert [i.value for i in items] == records and [i.raw for i in items] == [jsonio.dumps_line(r) for r in records]
