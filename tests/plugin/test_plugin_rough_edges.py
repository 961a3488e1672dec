"""#17's pytest rough edges: path arguments holding runs, pasteable headings, -rA, no 'run null'."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from plugin_helpers import outcomes

Lab = Callable[..., Path]  # the lab fixture: copies scenario runs into pytester's runs/

HEADING = re.compile(r"^_{3,} (\S+::\S+)\s+_{3,}$")


def test_a_path_argument_holding_runs_collects_like_the_option(pytester: pytest.Pytester, lab: Lab) -> None:
    lab()
    with_option = pytester.runpytest("--coldstart-runs=runs", "-rA")
    as_argument = pytester.runpytest("runs", "-rA")
    assert as_argument.ret == pytest.ExitCode.TESTS_FAILED  # was 5: nothing collected
    assert outcomes(as_argument) == outcomes(with_option) and len(outcomes(with_option)) > 60
    one_run = outcomes(pytester.runpytest("runs/late_logger", "-rA"))
    assert set(one_run) == {k for k in outcomes(with_option) if k.startswith("runs/late_logger/")}
    (pytester.path / "tests").mkdir()
    (pytester.path / "tests" / "test_plain.py").write_text("def test_plain():\n    pass\n")
    ordinary = outcomes(pytester.runpytest("tests", "-rA"))
    assert ordinary == {"tests/test_plain.py::test_plain": "passed"}  # a folder without runs: unchanged
    parallel = pytester.runpytest("runs", "-rA", "-n", "2")
    assert outcomes(parallel) == outcomes(with_option)


@pytest.mark.parametrize("where", [".", "runs"], ids=["rootdir", "subfolder"])
def test_failure_headings_are_node_ids_that_paste_back(
    pytester: pytest.Pytester, lab: Lab, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    lab("late_logger", "rejected_review", "tampered_hashes")
    pytester.makeini("[pytest]\n")  # rootdir stays here when pytest runs from runs/
    monkeypatch.chdir(pytester.path / where)
    first = pytester.runpytest("--coldstart-runs=.", "-rA") if where == "runs" else pytester.runpytest("runs", "-rA")
    failures = first.stdout.str().split("= FAILURES =", 1)[1].split("= PASSES =", 1)[0]
    headings = [m.group(1) for line in failures.splitlines() if (m := HEADING.match(line))]
    failed = {k for k, v in outcomes(first).items() if v == "failed"}
    assert headings and len(headings) == len(failed)
    for heading in headings:
        again = pytester.runpytest(heading, "-rA")
        got = outcomes(again)
        assert len(got) == 1 and list(got.values()) == ["failed"], heading
    assert any(h.endswith("::review-machine_operated.causality") for h in headings)  # dots kept


def test_verbose_lines_keep_dotted_names(pytester: pytest.Pytester, lab: Lab) -> None:
    lab("passing")
    result = pytester.runpytest("runs", "-v")
    result.stdout.fnmatch_lines(["runs/passing/run.json::review-machine_operated.causality PASSED*"])
    assert "run::json" not in result.stdout.str()


def test_passes_section_shows_each_verdict(pytester: pytest.Pytester, lab: Lab) -> None:
    lab("passing")
    result = pytester.runpytest("runs", "-rA")
    text = result.stdout.str()
    passes = text.split("= PASSES =", 1)[1].split("= coldstart:", 1)[0]
    assert passes.count("Captured coldstart call") == 10
    for line in (
        "runs/passing/run.json::flag-machine_operated",
        "machine_operated PASS: *",
        "run scenario-passing PASS: every flag passed, nothing is pending",
        "review machine_operated.causality resolved by *",
    ):
        assert any(
            re.fullmatch(re.escape(line).replace(r"\*", ".*"), row.strip(" _")) for row in passes.splitlines()
        ), line


def test_a_run_without_a_usable_run_id_is_named_not_null(pytester: pytest.Pytester, lab: Lab) -> None:
    lab("unknown_version")
    result = pytester.runpytest("runs", "-rA")
    text = result.stdout.str()
    assert "run null" not in text and "run None" not in text
    result.stdout.fnmatch_lines(
        [
            "run (no usable run_id in run.json): overall FAIL, failure class INFRA_ERROR",
            "run unknown_version (no usable run_id) FAIL (INFRA_ERROR): infra: run.json: run has schemaVersion 3*",
        ]
    )
