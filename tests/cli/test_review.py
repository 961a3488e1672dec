"""``coldstart review todo|resolve|reject`` through the real CLI, on a copy of runs/ and on scenario runs.

The expected worklist is computed independently: every run is audited with ``audit_run`` and its
open required reviews (not resolved or rejected) counted; the CLI must list exactly those, with
the records each evidence ref cites taken from the same report.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from bundle_helpers import run_cli

from pytest_coldstart.audit import audit_run
from pytest_coldstart.demo.scenarios import RunBuilder

RUNS = Path(__file__).resolve().parents[2] / "runs"


@pytest.fixture
def runs(tmp_path: Path) -> Path:
    copy = tmp_path / "runs"
    shutil.copytree(RUNS, copy)
    return copy


def expected_open(root: Path) -> set[tuple[str, str]]:
    found = set()
    for run_json in root.rglob("run.json"):
        report = audit_run(run_json.parent, write=False)
        for review in report["required_reviews"]:
            if review["status"] not in ("resolved", "rejected"):
                found.add((run_json.parent.name, review["id"]))
    return found


def todo(*paths: Path) -> dict:
    done = run_cli("review", "todo", *map(str, paths), "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def listed(doc: dict) -> set[tuple[str, str]]:
    return {(Path(item["path"]).name, item["review"]) for group in doc["groups"] for item in group["items"]}


def test_todo_lists_every_open_review_of_runs_with_its_question_and_cited_records(runs):
    doc = todo(runs)
    expected = expected_open(runs)
    assert expected, "runs/ has pending reviews (pending_reviews, cross_stream_tie, research-preview)"
    assert listed(doc) == expected
    assert doc["open"] == len(expected) == sum(g["count"] for g in doc["groups"])
    assert doc["runs"] == len(list(runs.rglob("run.json")))
    assert doc["runs_with_open_reviews"] == len({run for run, _ in expected})
    counts = [g["count"] for g in doc["groups"]]
    assert counts == sorted(counts, reverse=True)
    for group in doc["groups"]:
        assert len(group["items"]) == group["count"]
        for item in group["items"]:
            report = audit_run(item["path"], write=False)
            flag = next(f for f in report["flags"] if f["flag"] == item["flag"])
            assert item["question"] == next(r["question"] for r in flag["required_review"] if r["id"] == item["review"])
            assert [e["ref"] for e in item["evidence"]] == flag["evidence"]
            for cited in item["evidence"]:
                assert cited["record"] == report["refs"][cited["ref"]]["record"]
                assert cited["file"] == report["refs"][cited["ref"]]["file"]

    table = run_cli("review", "todo", str(runs))
    assert table.returncode == 0
    assert table.stdout.startswith(f"{len(expected)} open review(s) in ")
    for run, review in expected:
        assert review in table.stdout and str(runs / run) in table.stdout
    assert "trajectory:c-actuate  trajectory.jsonl:" in table.stdout


def test_resolve_and_reject_record_decisions_and_the_worklist_follows(runs):
    run = runs / "pending_reviews"
    before = {r for p, r in listed(todo(runs)) if p == "pending_reviews"}
    assert before == {
        "machine_operated.causality",
        "logger_armed_before_activation.running",
        "answer_correct.oracle_independence",
    }
    done = run_cli(
        "review", "resolve", "--run-dir", str(run), "--id", "machine_operated.causality", "--by", "alice",
        "--evidence", "testmod:seq5", "trajectory:c-actuate", "--note", "checked the window",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "review machine_operated.causality resolved seq=1" in done.stdout
    assert "now: resolved (flag machine_operated)" in done.stdout
    entry = json.loads((run / "reviews.jsonl").read_text().splitlines()[-1])
    assert entry["by"] == "alice" and entry["evidence"] == ["testmod:seq5", "trajectory:c-actuate"]
    assert entry["note"] == "checked the window"
    after = {r for p, r in listed(todo(runs)) if p == "pending_reviews"}
    assert after == before - {"machine_operated.causality"}

    for review, refs in (
        ("logger_armed_before_activation.running", ["logger:seq1"]),
        ("answer_correct.oracle_independence", ["oracle", "fixture:ready"]),
    ):
        decided = run_cli(
            "review", "resolve", "--run-dir", str(run), "--id", review, "--by", "bob", "--evidence", *refs
        )
        assert decided.returncode == 0, decided.stderr
    assert all(p != "pending_reviews" for p, _ in listed(todo(runs)))
    assert audit_run(run, write=False)["overall"] == "PASS"

    rejected = run_cli(
        "review", "reject", "--run-dir", str(run), "--id", "machine_operated.causality", "--by", "carol",
        "--note", "coincidental call",
    )  # fmt: skip
    assert rejected.returncode == 0, rejected.stderr
    assert "now: rejected" in rejected.stdout and "run overall: FAIL" in rejected.stdout
    assert audit_run(run, write=False)["overall"] == "FAIL"
    assert all(p != "pending_reviews" for p, _ in listed(todo(runs)))


def test_a_decision_has_the_checks_of_trace_review(runs):
    run = runs / "pending_reviews"
    original = (run / "reviews.jsonl").read_bytes()
    blank = run_cli(
        "review",
        "resolve",
        "--run-dir",
        str(run),
        "--id",
        "machine_operated.causality",
        "--by",
        " ",
        "--evidence",
        "testmod:seq5",
    )
    assert blank.returncode == 64 and "non-blank reviewer" in blank.stderr
    no_refs = run_cli("review", "resolve", "--run-dir", str(run), "--id", "machine_operated.causality", "--by", "a")
    assert no_refs.returncode == 64 and "--evidence" in no_refs.stderr
    bad_time = run_cli("review", "reject", "--run-dir", str(run), "--id", "x", "--by", "a", "--at", "yesterday")
    assert bad_time.returncode == 64 and "not a timestamp" in bad_time.stderr
    assert (run / "reviews.jsonl").read_bytes() == original
    trace = run_cli(
        "trace",
        "review",
        "--run-dir",
        str(run),
        "--id",
        "machine_operated.causality",
        "--status",
        "resolved",
        "--by",
        " ",
        "--evidence",
        "testmod:seq5",
    )
    assert trace.returncode == blank.returncode and trace.stderr == blank.stderr  # one code path

    # A ref that does not resolve is recorded but does not close the review: it stays on the list, with the reason.
    dangling = run_cli(
        "review",
        "resolve",
        "--run-dir",
        str(run),
        "--id",
        "machine_operated.causality",
        "--by",
        "a",
        "--evidence",
        "testmod:seq999",
    )
    assert (
        dangling.returncode == 0
        and "now: unresolved-refs" in dangling.stdout
        and "problem: review machine_operated.causality" in dangling.stdout
    )
    item = next(i for g in todo(run)["groups"] for i in g["items"] if i["review"] == "machine_operated.causality")
    assert item["status"] == "unresolved-refs" and item["problems"] and "testmod:seq999" in item["problems"][0]

    unknown = run_cli(
        "review",
        "resolve",
        "--run-dir",
        str(run),
        "--id",
        "no.such.review",
        "--by",
        "a",
        "--evidence",
        "testmod:seq5",
    )
    assert unknown.returncode == 0 and "does not require review no.such.review" in unknown.stderr

    versioned = runs / "passing" / "reviews.jsonl"
    versioned.write_bytes(versioned.read_bytes() + b'{"schemaVersion": 9, "seq": 9, "id": "x", "status": "pending"}\n')
    refused = run_cli(
        "review",
        "resolve",
        "--run-dir",
        str(runs / "passing"),
        "--id",
        "x",
        "--by",
        "a",
        "--evidence",
        "testmod:seq5",
    )
    assert refused.returncode == 1 and "reviews.jsonl" in refused.stderr


def test_stored_reports_are_used_only_while_current_and_run_strings_are_escaped(tmp_path):
    root = tmp_path / "lab"
    run = RunBuilder(root / "r1", run_id="rid-\x1b[31mred\u202e").unreviewed().build()
    RunBuilder(root / "r2", run_id="rid-two").passing().build()
    assert run_cli("audit", "run", "--run-dir", str(run)).returncode == 2  # writes audit/audit.json
    doc = todo(root)
    sources = {item["report"] for g in doc["groups"] for item in g["items"]}
    assert sources == {"stored"} and doc["open"] == 3 and doc["runs"] == 2
    # A review recorded after the stored report makes it stale: the run is audited again.
    assert (
        run_cli(
            "trace",
            "review",
            "--run-dir",
            str(run),
            "--id",
            "machine_operated.causality",
            "--status",
            "resolved",
            "--by",
            "r",
            "--evidence",
            "trajectory:c-actuate",
            "--evidence",
            "testmod:seq5",  # the agent's call and the input it caused: agent-side alone shows nothing
        ).returncode
        == 0
    )
    doc = todo(root)
    assert doc["open"] == 2 and {item["report"] for g in doc["groups"] for item in g["items"]} == {"audited"}
    table = run_cli("review", "todo", str(root)).stdout
    assert "\x1b" not in table and "\u202e" not in table and "rid-\\x1b[31mred\\u202e" in table
    assert run_cli("review", "todo", str(tmp_path / "nothing")).returncode == 1
