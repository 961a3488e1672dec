"""Issue 16.1 / 17: one malformed run becomes an UNREADABLE row of `coldstart compare`, whose
cells keep the table's columns; the others are compared as usual."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile_runs import coldstart, copy_run, edit_manifest, no_traceback

BROKEN = {
    "tool is a number": lambda m: m.update(tool=-1),
    "harness is a list": lambda m: m.update(harness=[]),
    "logging is a string": lambda m: m.update(logging="x"),
    "run_id missing": lambda m: m.pop("run_id"),
}


@pytest.mark.parametrize("broken", sorted(BROKEN))
def test_a_malformed_run_is_an_unreadable_row(broken: str, tmp_path: Path) -> None:
    lab = tmp_path / "lab"
    copy_run("passing", lab / "a-passing")
    copy_run("pending_reviews", lab / "c-pending")
    edit_manifest(copy_run("rejected_review", lab / "b-broken"), BROKEN[broken])
    done = coldstart("compare", str(lab))
    no_traceback(done.stderr)
    assert done.returncode == 1
    table, _, notes = done.stdout.partition("\n\n")
    lines = table.splitlines()
    header = lines[0]
    starts = [header.index(word) for word in ("run", "outcome", "calls")]
    row = next(line for line in lines if "b-broken" in line)
    assert row[starts[1] :].startswith("UNREADABLE ") and row[starts[2]] == "-", row  # columns kept
    assert "null" not in row and "None" not in row
    assert notes.startswith(f"UNREADABLE {lab / 'b-broken'}: run.json: ")
    as_json = json.loads(coldstart("compare", "--json", str(lab)).stdout)
    outcomes = {Path(r["path"]).name: (r["outcome"] if r["error"] is None else "UNREADABLE") for r in as_json["runs"]}
    assert outcomes == {"a-passing": "PASS", "b-broken": "UNREADABLE", "c-pending": "PENDING"}
