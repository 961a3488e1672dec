"""jsonio: strict JSON, atomic documents, streaming JSONL with precise line problems."""

from __future__ import annotations

import json
import os
from pathlib import Path

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


# -- the one rule every reader and writer shares (issue 16.1, 16.6) -----------------------------

REFUSED = {
    '{"a": 1e999}': "not a finite number",
    '{"a": -1e999}': "not a finite number",
    '{"a": 1' + "0" * 400 + ".0}": "not a finite number",
    '{"a": "\\ud800"}': "unpaired surrogate \\ud800",
    '{"a": ["x\\udfff"]}': "unpaired surrogate \\udfff",
    '{"\\ud800": 1}': "unpaired surrogate \\ud800",
    '{"a": "\\ude00\\ud83d"}': "unpaired surrogate",  # a pair in the wrong order is two lone halves
    '{"a": 1, "a": 1}': "duplicate key 'a'",
    '{"a": {"b": 1, "c": 2, "b": 3}}': "duplicate key 'b'",
    '[{"k": 1, "k": 2}]': "duplicate key 'k'",
    "[" * 101 + "]" * 101: "nested too deeply",  # one past MAX_DEPTH: parseable, but refused
    '{"a":' * 101 + "0" + "}" * 101: "nested too deeply",
    '{"a": ' + "[" * 600 + "]" * 600 + "}": "nested too deeply",
    "[" * 120_000 + "]" * 120_000: "nested too deeply",  # past the parser's own recursion limit
}


@pytest.mark.parametrize("text", sorted(REFUSED))
def test_every_entry_point_refuses_the_same_values(text, tmp_path):
    words = REFUSED[text]
    with pytest.raises(jsonio.InvalidJSON) as caught:
        jsonio.loads(text)
    assert words in str(caught.value)
    with pytest.raises(jsonio.InvalidJSON):
        jsonio.loads(text.encode("utf-8"))
    line = jsonio.parse_line(7, 0, text.encode("utf-8"))
    assert line.value is None and line.problem is not None and words in line.problem
    path = tmp_path / "doc.json"
    path.write_text(text + "\n", "utf-8")
    with pytest.raises(ColdstartError, match="malformed JSON") as named:
        jsonio.read_json(path)
    assert named.value.path == str(path) and words in named.value.problem
    (tmp_path / "lines.jsonl").write_text('{"ok": 1}\n' + text.replace("\n", " ") + "\n", "utf-8")
    problems = [
        p for p in jsonio.iter_jsonl(tmp_path / "lines.jsonl", strict=False) if isinstance(p, jsonio.LineProblem)
    ]
    assert [p.number for p in problems] == [2] and words in problems[0].problem


@pytest.mark.parametrize(
    "text",
    [
        '{"a": "\\ud83d\\ude00"}',
        '{"a": "C:\\\\udir"}',
        '{"a": 1e308, "b": -0.0, "c": 10000000000000000000000}',
        '{"a": {"a": {"a": 1}}}',
        "[" * 100 + "]" * 100,  # exactly MAX_DEPTH
        '{"a": "' + "[" * 500 + '"}',  # brackets inside a string are not nesting
        "[" + ",".join(["[[1]]"] * 400) + "]",  # many containers, shallow
    ],
)
def test_what_the_rule_still_accepts(text):
    value = jsonio.loads(text)
    assert value == json.loads(text)
    assert jsonio.loads(jsonio.dumps_line(value)) == value


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


def test_the_depth_limit_is_the_same_for_readers_and_writers():
    assert jsonio.MAX_DEPTH == 100
    assert jsonio.loads(jsonio.dumps_line(_nested(jsonio.MAX_DEPTH))) == _nested(jsonio.MAX_DEPTH)
    for dump in (jsonio.dumps_line, jsonio.dumps_document, jsonio.canonical_bytes):
        with pytest.raises(jsonio.UnstorableValue, match="nested more than 100"):
            dump({"args": _nested(jsonio.MAX_DEPTH)})  # the object adds the 101st level
        with pytest.raises(jsonio.UnstorableValue, match="nested more than 100"):
            dump(_nested(5_000))  # past the encoder's recursion limit: refused, not RecursionError


@pytest.mark.parametrize(
    "value", [float("inf"), float("nan"), "\ud800", {"\udcff": 1}, ["ok", {"k": "x\udc80"}], _nested(101)]
)
def test_writers_refuse_what_readers_reject(value):
    for dump in (jsonio.dumps_line, jsonio.dumps_document, jsonio.canonical_bytes):
        with pytest.raises(jsonio.UnstorableValue):
            dump(value)


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.floats() | st.integers() | st.text(),
        lambda c: st.lists(c) | st.dictionaries(st.text(), c),
    )
)
def test_a_writer_and_a_reader_agree_on_every_value(value):
    """Whatever a writer stores, every reader parses back to the same value; what it refuses,
    a reader would refuse too (no value is storable but unreadable, or the reverse)."""
    try:
        data = jsonio.dumps_line(value)
    except jsonio.UnstorableValue:
        raw = json.dumps(value, allow_nan=True)  # the stdlib writes it: our readers must refuse it
        with pytest.raises(jsonio.InvalidJSON):
            jsonio.loads(raw)
        return
    if isinstance(value, dict):
        assert jsonio.parse_line(1, 0, data).problem is None
    assert jsonio.dumps_line(jsonio.loads(data)) == data


def test_an_atomic_write_never_replaces_a_fifo_or_a_socket(tmp_path: Path) -> None:
    """The rename that makes a write atomic would swap a special file (``--out /dev/full``) for a
    regular one; it is refused with the kind named, and the special file stays."""
    import socket
    import stat

    fifo, sock = tmp_path / "fifo", tmp_path / "sock"
    os.mkfifo(fifo)
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(sock))
    try:
        for target, kind in ((fifo, "a FIFO"), (sock, "a socket"), (tmp_path, "a directory")):
            with pytest.raises(OSError, match=f"it is {kind}, never replaced"):
                jsonio.write_bytes_atomic(target, b"{}")
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and stat.S_ISSOCK(os.lstat(sock).st_mode)
        (tmp_path / "link").symlink_to(tmp_path / "elsewhere.json")
        jsonio.write_bytes_atomic(tmp_path / "link", b"{}")  # a symlink name is replaced, its target untouched
        assert not (tmp_path / "elsewhere.json").exists() and (tmp_path / "link").read_bytes() == b"{}"
    finally:
        server.close()
