"""Issue 16.1: the analysis readers (summary, compare, export, the lab report, review todo) read
record fields by their schema types. A parseable record whose fields have other types (a list
as call_id, an object as tool) is a named problem, never a crash (exit 70)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile_runs import coldstart, copy_run, no_traceback

from pytest_coldstart.analysis import compare, summary
from pytest_coldstart.run.errors import ColdstartError

#: record type -> field -> a value of the wrong type
RETYPED = {
    "result call_id is a list": ("result", "call_id", [1]),
    "result status is a number": ("result", "status", 7),
    "result payload ref is a string": ("result", "result_payload", "x"),
    "call tool is an object": ("call", "tool", {"x": 1}),
    "call call_id is an object": ("call", "call_id", {"a": []}),
    "call at is a list": ("call", "at", ["2026"]),
}


def _retype(run: Path, kind: str, field: str, value: object) -> int:
    """Give ``field`` of the first ``kind`` record the wrong type; its 1-based line number."""
    path = run / "trajectory.jsonl"
    lines = path.read_text("utf-8").splitlines()
    for number, line in enumerate(lines):
        record = json.loads(line)
        if record.get("record") == kind:
            record[field] = value
            lines[number] = json.dumps(record, separators=(",", ":"))
            path.write_text("\n".join(lines) + "\n", "utf-8")
            return number + 1
    raise AssertionError(f"no {kind} record")


@pytest.mark.parametrize("case", sorted(RETYPED))
def test_summary_counts_a_mistyped_record_as_a_problem(case: str, tmp_path: Path) -> None:
    run = copy_run("passing", tmp_path / "run")
    before = summary.build(run)["source"]["trajectory"]
    _retype(run, *RETYPED[case])
    after = summary.build(run)["source"]["trajectory"]
    assert after["problems"] == before["problems"] + 1
    assert after["records"] == before["records"] - 1  # skipped, not counted
    assert compare.row_of(run)["error"] is None


@pytest.mark.parametrize("case", sorted(RETYPED))
def test_export_names_a_mistyped_record(case: str, tmp_path: Path) -> None:
    run = copy_run("passing", tmp_path / "run")
    number = _retype(run, *RETYPED[case])
    for fmt in ("atif", "otel"):
        done = coldstart("export", "--format", fmt, "--out", str(tmp_path / f"out.{fmt}"), str(run))
        no_traceback(done.stderr)
        assert done.returncode == 1, done.stderr
        assert f"trajectory.jsonl:{number}: not a valid trajectory record ($." in done.stderr
        assert not (tmp_path / f"out.{fmt}").exists()


def test_export_source_raises_a_coldstart_error(tmp_path: Path) -> None:
    from pytest_coldstart.analysis.export_source import load_source

    run = copy_run("passing", tmp_path / "run")
    _retype(run, "call", "tool", {"x": 1})
    with pytest.raises(ColdstartError, match=r"\$\.tool: expected string"):
        load_source(run)


@pytest.mark.parametrize("command", ["compare", "report", "review"])
def test_lab_views_never_crash_on_a_mistyped_record(command: str, tmp_path: Path) -> None:
    lab = tmp_path / "lab"
    copy_run("passing", lab / "a")
    _retype(copy_run("passing", lab / "b"), "result", "call_id", [1])
    args = {
        "compare": ("compare", str(lab)),
        "report": ("report", "--html", str(tmp_path / "lab.html"), str(lab)),
        "review": ("review", "todo", str(lab)),
    }[command]
    done = coldstart(*args)
    no_traceback(done.stderr)
    assert done.returncode in (0, 1), done.stderr
