"""Selection: markers with -m (also under --strict-markers), --lf, pasted node ids, config."""

from __future__ import annotations

import pytest
from plugin_helpers import outcomes

from pytest_coldstart.audit import audit_run


def _ids(result: pytest.RunResult) -> set[str]:
    return set(outcomes(result))


def _by_class(pytester: pytest.Pytester, failure_class: str | None) -> set[str]:
    """Items of the runs whose audit gives ``failure_class`` (from the real reports)."""
    everything = outcomes(pytester.runpytest("--coldstart-runs=runs", "-rA"))
    wanted = set()
    for nodeid in everything:
        run = nodeid.split("/")[1]
        if audit_run(pytester.path / "runs" / run, write=False)["failure_class"] == failure_class:
            wanted.add(nodeid)
    return wanted


@pytest.mark.parametrize(
    ("marker", "failure_class"),
    [("agent_fail", "AGENT_FAIL"), ("fixture_invalid", "FIXTURE_INVALID"), ("infra_error", "INFRA_ERROR")],
)
def test_failure_class_markers_select_whole_runs(
    pytester: pytest.Pytester, lab, marker: str, failure_class: str
) -> None:
    lab()
    expected = _by_class(pytester, failure_class)
    assert expected
    result = pytester.runpytest("--coldstart-runs=runs", "-rA", "--strict-markers", "-m", marker)
    assert _ids(result) == expected
    total = len(outcomes(pytester.runpytest("--coldstart-runs=runs", "-rA")))
    assert result.parseoutcomes()["deselected"] == total - len(expected)


def test_pending_marker_selects_exactly_the_items_that_xfail(pytester: pytest.Pytester, lab) -> None:
    lab()
    everything = outcomes(pytester.runpytest("--coldstart-runs=runs", "-rA"))
    selected = outcomes(pytester.runpytest("--coldstart-runs=runs", "-rA", "--strict-markers", "-m", "pending"))
    assert selected == {k: v for k, v in everything.items() if v == "xfailed"}
    assert selected


def test_coldstart_marker_carries_the_item_facts(pytester: pytest.Pytester, lab) -> None:
    lab()
    everything = outcomes(pytester.runpytest("--coldstart-runs=runs", "-rA"))
    failed_flags = outcomes(
        pytester.runpytest("--coldstart-runs=runs", "-rA", "-m", "coldstart(kind='flag', status='FAIL')")
    )
    assert set(failed_flags) == {k for k, v in everything.items() if v == "failed" and "::flag-" in k}
    reviews = outcomes(pytester.runpytest("--coldstart-runs=runs", "-rA", "-m", "coldstart(kind='review')"))
    assert set(reviews) == {k for k in everything if "::review-" in k}
    assert len(_ids(pytester.runpytest("--coldstart-runs=runs", "-rA", "-m", "coldstart"))) == len(everything)


def test_markers_are_registered_under_strict_mode(pytester: pytest.Pytester, lab) -> None:
    lab("passing", "late_logger")
    result = pytester.runpytest(
        "--coldstart-runs=runs",
        "-o",
        "strict=true",
        "--strict-markers",
        "-m",
        "coldstart or pending or agent_fail or fixture_invalid or infra_error",
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(passed=17, failed=2)
    markers = pytester.runpytest("--markers")
    for name in ("coldstart(run_id, kind, check, status)", "agent_fail", "fixture_invalid", "infra_error", "pending"):
        markers.stdout.fnmatch_lines([f"@pytest.mark.{name}*"])


def test_last_failed_reruns_exactly_the_failures(pytester: pytest.Pytester, lab) -> None:
    lab()
    first = outcomes(pytester.runpytest("--coldstart-runs=runs", "-rA"))
    failed = {k for k, v in first.items() if v == "failed"}
    assert any("review-" in k and "." in k.split("::")[1] for k in failed)  # dotted review ids included
    rerun = pytester.runpytest("--coldstart-runs=runs", "-rA", "--lf")
    assert outcomes(rerun) == {k: "failed" for k in failed}
    rerun.stdout.fnmatch_lines([f"run-last-failure: rerun previous {len(failed)} failures*"])


def test_pasted_node_ids_rerun_exactly_one_item(pytester: pytest.Pytester, lab) -> None:
    lab()
    everything = outcomes(pytester.runpytest("--coldstart-runs=runs", "-rA"))
    for nodeid in (
        "runs/rejected_review/run.json::review-machine_operated.causality",
        "runs/cross_stream_tie/run.json::review-logger_armed_before_activation.ordering",
        "runs/late_logger/run.json::flag-logger_armed_before_activation",
        "runs/passing/run.json::validate",
    ):
        with_option = outcomes(pytester.runpytest("--coldstart-runs=runs", nodeid, "-rA"))
        without_option = outcomes(pytester.runpytest(nodeid, "-rA"))
        assert with_option == without_option == {nodeid: everything[nodeid]}
    one_run = outcomes(pytester.runpytest("runs/passing", "-rA"))
    assert set(one_run) == {k for k in everything if k.startswith("runs/passing/")}


def test_ini_option_and_dir_under_testpaths(pytester: pytest.Pytester, lab) -> None:
    lab("passing", "late_logger")
    (pytester.path / "runs" / "test_ordinary.py").write_text("def test_ordinary():\n    pass\n")
    pytester.makeini("[pytest]\ntestpaths = runs\ncoldstart_runs = runs\n")
    plain = outcomes(pytester.runpytest("-rA"))
    assert sum(1 for k in plain if k.startswith("runs/passing/")) == 10
    assert sum(1 for k in plain if k.startswith("runs/late_logger/")) == 9
    assert "runs/test_ordinary.py::test_ordinary" in plain  # ordinary tests beside the runs still run
    assert len(plain) == 20


def test_without_roots_runs_are_claimed_but_not_collected(pytester: pytest.Pytester, lab) -> None:
    lab("passing")
    pytester.makepyfile(test_ordinary="def test_ordinary():\n    pass\n")
    (pytester.path / "other").mkdir()
    (pytester.path / "other" / "run.json").write_text('{"name": "not a coldstart run"}')
    (pytester.path / "other" / "test_other.py").write_text("def test_other():\n    pass\n")
    result = pytester.runpytest("-rA")
    assert set(outcomes(result)) == {"test_ordinary.py::test_ordinary", "other/test_other.py::test_other"}


def test_missing_root_is_a_usage_error(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--coldstart-runs=nowhere")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--coldstart-runs: *nowhere is not a directory*"])
