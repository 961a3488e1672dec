"""Fuzzing the hostile-input classes of issue 16 through every reader and writer, the CLI and
pytest: non-finite numbers, unpaired surrogates, duplicate keys, deep nesting, payload bombs and
hostile run.json shapes (``fuzz_hostile``), mixed with ``fuzz_strategies``' byte mutations.

Properties:
- the audit (writing audit.json and audit.md), validate, summary, the compare row and an append
  never crash: every problem is a report or a one-line ColdstartError; audit.md holds no raw
  control or bidi character; a validate finding never leaves the audit at PASS;
- the real CLI (in process: ``cli.main.main``: validate, audit run/explain, compare, summary,
  export, report, review todo, mark) never exits 70 on the mutated run;
- real pytest over labs of such runs: ``test_fuzz_pytest_lab.py``.
Short profile in the suite; ``COLDSTART_FUZZ=long`` (or a number) runs many more examples.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from corpus import corpus_root
from fuzz_hostile import DEEP, HOSTILE_NAMES, MANIFEST_SHAPES, HostileMutation, hostile_mutation
from fuzz_strategies import fuzz_settings, mutation, run_files, template, workspace
from hypothesis import given
from hypothesis import strategies as st
from test_fuzz import judge

from pytest_coldstart.analysis import compare
from pytest_coldstart.audit import audit_run
from pytest_coldstart.cli.main import main as cli_main
from pytest_coldstart.record.recorder import Recorder
from pytest_coldstart.run import jsonio, schemas
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.textsafe import ESCAPED_CATEGORIES
from pytest_coldstart.run.walk import walk

#: the real v1 rom20 run joins the templates when the external corpus is given (--coldstart-corpus)
TEMPLATES = ("sealed", "open", "v1") if corpus_root() is not None else ("sealed", "open")
EXIT_INTERNAL = 70


def hostile_edits(name: str) -> st.SearchStrategy[list[HostileMutation]]:
    files = run_files(template(name))
    one = st.one_of(hostile_mutation(files), hostile_mutation(files), mutation(files))  # 2:1 hostile
    return st.lists(one, min_size=1, max_size=3)


def raw_controls(text: str) -> list[str]:
    return [c for c in text if c != "\n" and unicodedata.category(c) in ESCAPED_CATEGORIES]


def judge_everywhere(run: Path, out: Path) -> dict:
    report, _ = judge(run)  # audit + validate in memory, reports schema-valid, R12
    written = audit_run(run, out=out)  # the writing path: audit.json and audit.md
    assert written["overall"] == report["overall"], (written["overall"], report["overall"])
    assert json.loads((out / "audit.json").read_text("utf-8"))["overall"] == report["overall"]
    rendered = (out / "audit.md").read_text("utf-8")
    assert not raw_controls(rendered), [hex(ord(c)) for c in raw_controls(rendered)][:5]
    row = compare.row_of(run)  # summary.build, and its one-line error when the run is unreadable
    assert "internal error" not in str(row["error"]), row["error"]
    try:
        Recorder(run).mark("fuzz")  # a writer: a one-line error or an append, never a crash
    except ColdstartError as exc:
        assert exc.one_line()
    return report


@contextlib.contextmanager
def hostile_run(data: st.DataObject, name: str) -> Iterator[tuple[Path, Path]]:
    """(a copy of template ``name`` with hostile edits drawn from ``data``, a folder outside it)."""
    edits = data.draw(hostile_edits(name), label="mutations")
    with workspace(name) as (run, outside):
        for edit in edits:
            edit.apply(run)
        yield run, outside


@fuzz_settings(30)
@given(data=st.data(), name=st.sampled_from(TEMPLATES))
def test_no_hostile_input_crashes_a_reader_or_a_writer(data, name):
    with hostile_run(data, name) as (run, outside):
        judge_everywhere(run, outside / "report")


def _cli(*args: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    saved, sys.stdin = sys.stdin, io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli_main(list(args))
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


@fuzz_settings(12)
@given(data=st.data(), name=st.sampled_from(TEMPLATES))
def test_no_hostile_input_makes_the_cli_exit_70(data, name):
    with hostile_run(data, name) as (run, outside):
        commands = [
            ("trace", "validate", "--run-dir", str(run), "--json"),
            ("audit", "run", "--run-dir", str(run), "--out", str(outside / "out"), "--json"),
            ("audit", "explain", "--run-dir", str(run)),
            ("compare", str(run)),
            ("compare", "--csv", str(run)),
            ("trace", "summary", "--run-dir", str(run)),
            ("export", "--format", "atif", "--out", str(outside / "run.atif.json"), str(run)),
            ("export", "--format", "otel", "--out", str(outside / "run.otlp.json"), str(run)),
            ("report", "--html", str(outside / "lab.html"), str(run)),
            ("review", "todo", "--json", str(run)),
            ("trace", "mark", "--run-dir", str(run), "--name", "fuzz"),
        ]
        for args in commands:
            code, _, stderr = _cli(*args)
            assert code != EXIT_INTERNAL and "internal error" not in stderr, (args, stderr[-500:])
            assert not raw_controls(stderr), (args, stderr[-500:])


WORDS = {
    "non_finite": ("not a finite number", "non-standard JSON constant"),
    "lone_surrogate": ("unpaired surrogate",),
    "duplicate_key": ("duplicate key",),
    "deep_nesting": ("nested too deeply", "expected"),  # under MAX_DEPTH it parses: then a wrong type
    "payload_bomb": ("payload",),
}


@pytest.mark.parametrize("pick", range(4))
@pytest.mark.parametrize("kind", sorted(WORDS))
def test_each_hostile_kind_really_lands_and_is_named(kind, pick):
    """The mutations do what they say: validate names the class at the mutated line."""
    params = (5, pick, pick % 2 == 0, pick > 1) if kind == "payload_bomb" else (5, 3 + pick, pick)
    with workspace("open") as (run, _):
        before = (run / "trajectory.jsonl").read_bytes()
        HostileMutation(kind, "trajectory.jsonl", params).apply(run)
        assert (run / "trajectory.jsonl").read_bytes() != before
        findings = [f.to_text() for f in judge(run)[1]]
    assert any(any(w in text for w in WORDS[kind]) for text in findings), (kind, findings[:5])


@pytest.mark.parametrize("pick", range(len(MANIFEST_SHAPES)))
def test_each_manifest_shape_is_an_infra_error_and_stops_writers(pick):
    with workspace("open") as (run, _):
        HostileMutation("manifest_shape", "run.json", (pick,)).apply(run)
        valid = schemas.is_valid("run", jsonio.read_json(run / "run.json"))
        report = judge_everywhere(run, run.parent / "report")
    assert valid or report["overall"] != "PASS", MANIFEST_SHAPES[pick]  # R12: the schema finding


@pytest.mark.parametrize("pick", range(len(HOSTILE_NAMES) * 2 + len(DEEP)))
def test_each_hostile_name_and_deep_tree_lands_and_breaks_nothing(pick, tmp_path):
    kind, params = ("hostile_name", (pick // 2, pick % 2)) if pick < 2 * len(HOSTILE_NAMES) else ("deep_tree", (pick,))
    with workspace("open") as (run, outside):
        before = sum(len(files) for _, _, files in walk(run))
        HostileMutation(kind, "agent", params).apply(run)
        assert sum(len(files) for _, _, files in walk(run)) == before + 1 or sys.platform != "linux"
        judge_everywhere(run, outside / "report")
        code, _, stderr = _cli("compare", str(run))
        assert code != EXIT_INTERNAL and not raw_controls(stderr), stderr
