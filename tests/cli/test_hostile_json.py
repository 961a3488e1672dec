"""Issue 16.1/16.6: one JSON rule for every reader and writer, through the real CLI and pytest.

Non-finite numbers (``1e999`` parses to infinity), unpaired surrogates (``"\\ud800"``) and
duplicate keys are invalid JSON: named by file and line, never a crash (exit 70), never PASS.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile_runs import coldstart, copy_run, edit_line, no_traceback, run_pytest

#: (scenario, file, line, old, new, words the finding must hold)
CASES = {
    "non-finite in the trajectory": (
        "passing",
        "trajectory.jsonl",
        11,
        '"parent_id":null',
        '"parent_id":1e999',
        "not a finite number",
    ),
    "negative overflow in the trajectory": (
        "passing",
        "trajectory.jsonl",
        11,
        '"parent_id":null',
        '"parent_id":-1E+400',
        "not a finite number",
    ),
    "unpaired surrogate in a review note": (
        "passing",
        "reviews.jsonl",
        1,
        '"note":"the bridge call is the processed input"',
        '"note":"\\ud800"',
        "unpaired surrogate \\ud800",
    ),
    "unpaired low surrogate in a key": (
        "passing",
        "reviews.jsonl",
        1,
        '"note":',
        '"\\udc00":1,"note":',
        "unpaired surrogate \\udc00",
    ),
    "duplicate status turns a rejection into resolved": (
        "rejected_review",
        "reviews.jsonl",
        4,
        '"status":"rejected"',
        '"status":"rejected","status":"resolved"',
        "duplicate key 'status'",
    ),
    "duplicate key in the trajectory": (
        "passing",
        "trajectory.jsonl",
        11,
        '"parent_id":null',
        '"parent_id":null,"tool":"other"',
        "duplicate key 'tool'",
    ),
}


@pytest.fixture(params=sorted(CASES))
def hostile(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, str, int, str]:
    scenario, relative, line, old, new, words = CASES[request.param]
    run = copy_run(scenario, tmp_path / "lab" / "run")
    edit_line(run, relative, line, old, new)
    return run, relative, line, words


def test_validate_names_file_and_line(hostile: tuple[Path, str, int, str]) -> None:
    run, relative, line, words = hostile
    done = coldstart("trace", "validate", "--run-dir", str(run))
    no_traceback(done.stderr)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"{relative}:{line}: malformed JSON" in done.stdout and words in done.stdout, done.stdout


def test_audit_run_writes_a_report_and_never_passes(hostile: tuple[Path, str, int, str], tmp_path: Path) -> None:
    run, relative, line, words = hostile
    done = coldstart("audit", "run", "--run-dir", str(run), "--out", str(tmp_path / "out"), "--json")
    no_traceback(done.stderr)
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["overall"] == "FAIL" and report["failure_class"] == "INFRA_ERROR"
    assert any(f"{relative}:{line}" in text and words in text for text in report["infra_errors"]), report
    assert (tmp_path / "out" / "audit.json").is_file() and (tmp_path / "out" / "audit.md").is_file()


def test_pytest_fails_the_run_and_names_the_line(hostile: tuple[Path, str, int, str], tmp_path: Path) -> None:
    run, relative, line, words = hostile
    outcomes, output = run_pytest(run.parent, cwd=tmp_path)
    no_traceback(output)
    assert outcomes.get("validate") == "FAILED", output[-3000:]
    assert f"{relative}:{line}" in output and words in output, output[-3000:]


def test_the_rejected_review_stays_rejected_under_a_duplicate_key(tmp_path: Path) -> None:
    scenario, relative, line, old, new, _ = CASES["duplicate status turns a rejection into resolved"]
    run = copy_run(scenario, tmp_path / "lab" / "run")
    edit_line(run, relative, line, old, new)
    report = json.loads(coldstart("audit", "run", "--run-dir", str(run), "--json").stdout)
    assert (report["overall"], report["failure_class"]) == ("FAIL", "INFRA_ERROR")
    _, output = run_pytest(run.parent, cwd=tmp_path)
    assert "overall FAIL, failure class INFRA_ERROR" in output and "1 run 1 FAIL" in output, output[-3000:]


@pytest.mark.parametrize(
    "args",
    [
        ("trace", "mark", "--name", "\udcff"),  # undecodable argv bytes arrive as lone surrogates
        ("trace", "mark", "--name", "n", "--data", "[1e999]"),
        ("trace", "mark", "--name", "n", "--data", '{"a":1,"a":2}'),
        (
            "trace",
            "review",
            "--id",
            "x.y",
            "--status",
            "resolved",
            "--by",
            "me",
            "--note",
            "\udcff",
            "--evidence",
            "t:c",
        ),
    ],
)
def test_writers_refuse_what_readers_would_reject(args: tuple[str, ...], tmp_path: Path) -> None:
    run = copy_run("pending_reviews", tmp_path / "run")
    before = {p.name: p.read_bytes() for p in run.iterdir() if p.is_file()}
    done = coldstart(*args[:2], "--run-dir", str(run), *args[2:])
    no_traceback(done.stderr)
    assert done.returncode == 64, done.stderr
    assert "surrogate" in done.stderr or "finite" in done.stderr or "duplicate key" in done.stderr, done.stderr
    assert {p.name: p.read_bytes() for p in run.iterdir() if p.is_file()} == before
    assert coldstart("trace", "validate", "--run-dir", str(run)).returncode == 0
