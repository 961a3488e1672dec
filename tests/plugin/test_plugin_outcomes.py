"""Outcome mapping (DESIGN §3): statuses to passed/failed/xfailed, per item, on real audits."""

from __future__ import annotations

import shutil

import pytest
from plugin_helpers import LAB, expected_outcomes, outcomes


def test_every_item_gets_the_outcome_its_status_demands(pytester: pytest.Pytester, lab) -> None:
    runs = lab()
    result = pytester.runpytest("--coldstart-runs=runs", "-rA")
    expected: dict[str, str] = {}
    for name in LAB:
        expected.update(expected_outcomes(runs / name, f"runs/{name}/run.json"))
    assert outcomes(result) == expected
    counts = {kind: list(expected.values()).count(kind) for kind in ("passed", "failed", "xfailed")}
    result.assert_outcomes(**counts)
    # every family is present, so the mapping is exercised in each direction
    assert counts["passed"] and counts["failed"] and counts["xfailed"]


def test_passing_run_is_all_green_and_pending_reviews_xfail(pytester: pytest.Pytester, lab) -> None:
    lab("passing", "pending_reviews")
    result = pytester.runpytest("--coldstart-runs=runs", "-rA")
    got = outcomes(result)
    assert {k: v for k, v in got.items() if "passing" in k} == {
        "runs/passing/run.json::validate": "passed",
        "runs/passing/run.json::flag-machine_operated": "passed",
        "runs/passing/run.json::flag-logger_armed_before_activation": "passed",
        "runs/passing/run.json::flag-transient_outputs_captured": "passed",
        "runs/passing/run.json::flag-agent_read_log": "passed",
        "runs/passing/run.json::flag-answer_correct": "passed",
        "runs/passing/run.json::review-machine_operated.causality": "passed",
        "runs/passing/run.json::review-logger_armed_before_activation.running": "passed",
        "runs/passing/run.json::review-answer_correct.oracle_independence": "passed",
        "runs/passing/run.json::run": "passed",
    }
    pending = {k: v for k, v in got.items() if "pending_reviews" in k and v == "xfailed"}
    assert set(pending) == {
        "runs/pending_reviews/run.json::flag-machine_operated",
        "runs/pending_reviews/run.json::flag-logger_armed_before_activation",
        "runs/pending_reviews/run.json::flag-answer_correct",
        "runs/pending_reviews/run.json::review-machine_operated.causality",
        "runs/pending_reviews/run.json::review-logger_armed_before_activation.running",
        "runs/pending_reviews/run.json::review-answer_correct.oracle_independence",
        "runs/pending_reviews/run.json::run",
    }
    result.stdout.fnmatch_lines(
        [
            "XFAIL runs/pending_reviews/run.json::review-machine_operated.causality - review * awaits a reviewer: confirm*"
        ]
    )


def test_runxfail_turns_pending_into_failures_never_passes(pytester: pytest.Pytester, lab) -> None:
    lab("pending_reviews")
    normal = outcomes(pytester.runpytest("--coldstart-runs=runs", "-rA"))
    forced = outcomes(pytester.runpytest("--coldstart-runs=runs", "-rA", "--runxfail"))
    pending = {k for k, v in normal.items() if v == "xfailed"}
    assert pending
    assert {k for k, v in forced.items() if v == "failed"} == pending
    assert {k for k, v in forced.items() if v == "passed"} == {k for k, v in normal.items() if v == "passed"}


def test_strict_mode_keeps_pending_as_xfail(pytester: pytest.Pytester, lab) -> None:
    lab("pending_reviews", "passing")
    loose = outcomes(pytester.runpytest("--coldstart-runs=runs", "-rA"))
    strict = outcomes(
        pytester.runpytest("--coldstart-runs=runs", "-rA", "-o", "strict=true", "-o", "xfail_strict=true")
    )
    assert strict == loose


def test_failed_flag_shows_summary_refs_and_the_records_they_point_to(pytester: pytest.Pytester, lab) -> None:
    lab("late_logger")
    result = pytester.runpytest(
        "--coldstart-runs=runs", "runs/late_logger/run.json::flag-logger_armed_before_activation"
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*logger_armed_before_activation FAIL: logger_armed (logger:seq1) is ordered after the first input_processed*",
            "summary: *the logger was late*",
            "evidence:",
            "  logger:seq1  -> agent/romlog.jsonl:1 [logger]",
            '      {"event": "logger_armed", "at": "2026-01-01T12:00:10.800Z", "tick": 305, *}',
            "  testmod:seq5  -> test/testmod.jsonl:5 [testmod]",
            '      {"event": "input_processed", *}',
            "run scenario-late-logger: overall FAIL, failure class AGENT_FAIL",
        ]
    )
    assert "Traceback" not in result.stdout.str()


def test_rejected_review_fails_with_the_reviewer_and_refs(pytester: pytest.Pytester, lab) -> None:
    lab("rejected_review")
    result = pytester.runpytest("--coldstart-runs=runs", "-rA")
    got = outcomes(result)
    assert got["runs/rejected_review/run.json::review-machine_operated.causality"] == "failed"
    assert got["runs/rejected_review/run.json::flag-machine_operated"] == "failed"
    result.stdout.fnmatch_lines(["review machine_operated.causality rejected by reviewer B", "note: coincidental call"])


def test_malformed_review_entry_fails_its_item(pytester: pytest.Pytester, coldstart_run) -> None:
    # A resolved entry without a reviewer: the audit ignores the line and reports INFRA_ERROR.
    builder = coldstart_run().raw_review(
        {
            "id": "machine_operated.causality",
            "status": "resolved",
            "by": " ",
            "at": "2026-01-01T12:01:00Z",
            "evidence": ["testmod:seq5"],
        }
    )
    builder.root = pytester.path / "runs" / "malformed"
    builder.build()
    result = pytester.runpytest("--coldstart-runs=runs", "-rA")
    got = outcomes(result)
    assert got["runs/malformed/run.json::review-machine_operated.causality"] == "failed"
    assert got["runs/malformed/run.json::validate"] == "failed"
    result.stdout.fnmatch_lines(["*review machine_operated.causality has a malformed entry: *non-blank reviewer*"])


def test_fixture_invalid_run_fails_its_validate_item(pytester: pytest.Pytester, lab) -> None:
    lab("invalid_fixture")
    result = pytester.runpytest("--coldstart-runs=runs", "-rA")
    got = outcomes(result)
    assert got["runs/invalid_fixture/run.json::validate"] == "failed"
    assert [k for k, v in got.items() if v == "failed"] == [
        "runs/invalid_fixture/run.json::validate",
        "runs/invalid_fixture/run.json::run",
    ]
    result.stdout.fnmatch_lines(
        ["fixture: fixture (fixture/ready.json) is not valid*", "*failure class FIXTURE_INVALID"]
    )


def test_broken_run_directory_does_not_abort_the_session(pytester: pytest.Pytester, lab) -> None:
    lab("passing")
    broken = pytester.path / "runs" / "broken"
    broken.mkdir()
    (broken / "run.json").write_bytes(b'{"schemaVersion": 2, "run_id": "broken", ')
    truncated = pytester.path / "runs" / "not-json"
    truncated.mkdir()
    (truncated / "run.json").write_bytes(b"\xff\xfe garbage")
    result = pytester.runpytest("--coldstart-runs=runs", "-rA", "-m", "infra_error")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    got = outcomes(result)
    assert got and all(k.startswith(("runs/broken/", "runs/not-json/")) for k in got)
    assert got["runs/broken/run.json::validate"] == "failed"
    assert got["runs/not-json/run.json::validate"] == "failed"
    assert "Interrupted" not in result.stdout.str() and "error" not in result.parseoutcomes()
    result.stdout.fnmatch_lines(["*run.json*malformed JSON*"])
    whole = pytester.runpytest("--coldstart-runs=runs", "-rA")
    assert sum(1 for k in outcomes(whole) if k.startswith("runs/passing/")) == 10


def test_agent_written_tests_inside_a_run_are_never_collected(pytester: pytest.Pytester, lab) -> None:
    runs = lab("passing")
    workspace = runs / "passing" / "workspace"
    workspace.mkdir()
    marker = pytester.path / "agent-code-ran"
    (workspace / "test_agent.py").write_text(
        f"open({str(marker)!r}, 'w').close()\ndef test_agent():\n    assert False\n"
    )
    (workspace / "conftest.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    for args in (["--coldstart-runs=runs"], ["runs"], ["runs/passing"], []):
        result = pytester.runpytest(*args, "-rA")
        assert not any("test_agent" in k for k in outcomes(result))
    assert not marker.exists()


def test_item_order_is_deterministic(pytester: pytest.Pytester, lab, monkeypatch: pytest.MonkeyPatch) -> None:
    lab()
    monkeypatch.setenv("PYTHONHASHSEED", "1")
    first = pytester.runpytest_subprocess("--coldstart-runs=runs", "--collect-only", "-q")
    monkeypatch.setenv("PYTHONHASHSEED", "2")
    second = pytester.runpytest_subprocess("--coldstart-runs=runs", "--collect-only", "-q", "-p", "no:cacheprovider")
    ids = [line for line in first.outlines if "::" in line]
    assert ids == [line for line in second.outlines if "::" in line]
    per_run = [line.split("::")[1] for line in ids if line.startswith("runs/passing/")]
    assert per_run == [
        "validate",
        "flag-machine_operated",
        "flag-logger_armed_before_activation",
        "flag-transient_outputs_captured",
        "flag-agent_read_log",
        "flag-answer_correct",
        "review-machine_operated.causality",
        "review-logger_armed_before_activation.running",
        "review-answer_correct.oracle_independence",
        "run",
    ]


def test_runs_are_read_never_written(pytester: pytest.Pytester, lab) -> None:
    runs = lab()

    def snapshot() -> dict[str, bytes]:
        return {str(p.relative_to(runs)): p.read_bytes() for p in sorted(runs.rglob("*")) if p.is_file()}

    before = snapshot()
    pytester.runpytest("--coldstart-runs=runs", "--junitxml=r.xml", "--html=r.html")
    pytester.runpytest("--coldstart-runs=runs", "-n", "2")
    assert snapshot() == before


BROKEN_AUDIT = """
import pytest_coldstart.audit as audit_module

_real = audit_module.audit_run

def _broken(run_dir, **kwargs):
    name = str(run_dir).rsplit("/", 1)[-1]
    if name == "raises":
        raise RuntimeError("the audit blew up")
    if name == "unhashable":
        return {"schemaVersion": 2, "run_id": "u", "overall": "PASS", "flags": [{"flag": "machine_operated", "status": "PASS"}],
                "required_reviews": [{"flag": {"not": "hashable"}, "id": "x"}]}
    return {"schemaVersion": 2, "run_id": "n", "overall": "PASS", "flags": "not a list"}

def pytest_configure(config):
    audit_module.audit_run = _broken

def pytest_unconfigure(config):
    audit_module.audit_run = _real
"""


def test_an_audit_that_raises_or_returns_garbage_never_aborts_collection(pytester: pytest.Pytester, lab) -> None:
    runs = lab("passing")
    for name in ("raises", "unhashable", "noflags"):
        shutil.copytree(runs / "passing", runs / name)
    shutil.rmtree(runs / "passing")
    pytester.makeconftest(BROKEN_AUDIT)
    result = pytester.runpytest("--coldstart-runs=runs", "--coldstart-no-cache", "-rA", "-m", "infra_error")
    got = outcomes(result)
    assert got == {
        f"runs/{name}/run.json::{item}": "failed"
        for name in ("raises", "unhashable", "noflags")
        for item in ("validate", "run")
    }
    result.stdout.fnmatch_lines(["*the audit could not run: RuntimeError: the audit blew up*"])
    result.stdout.fnmatch_lines(["*the audit report could not be turned into items: *must be*"])
    result.stdout.fnmatch_lines(["*the audit report lists no flags*"])
