"""Reports: JUnit properties, pytest-html evidence tables and timeline (escaped), the run table."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from plugin_helpers import HOSTILE_DIR, HOSTILE_RUN_ID, PAYLOAD, html_tests, junit_cases, outcomes

from pytest_coldstart.audit import audit_run

PINNED = ("coldstart.run_id", "coldstart.status", "coldstart.failure_class", "coldstart.evidence")
RAW_MARKUP = re.compile(r"<(script|img|b )", re.I)


def _check_junit(path: Path, expected: dict[str, str]) -> None:
    cases = junit_cases(path)
    assert len(cases) == len(expected)
    for key, case in cases.items():
        props = case.properties
        assert all(name in props for name in PINNED), key
        name = key.split("::")[1]
        kind = "review" if name.startswith("review-") else "flag" if name.startswith("flag-") else name
        assert props[f"coldstart.{kind}"], key
        assert isinstance(json.loads(props["coldstart.evidence"]), list)
    late = cases["runs.late_logger.run.json::flag-logger_armed_before_activation"]
    assert late.outcome == "failed"
    assert late.properties["coldstart.flag"] == "logger_armed_before_activation"
    assert late.properties["coldstart.status"] == "FAIL"
    assert late.properties["coldstart.failure_class"] == "AGENT_FAIL"
    assert late.properties["coldstart.run_id"] == "scenario-late-logger"
    assert json.loads(late.properties["coldstart.evidence"]) == ["logger:seq1", "testmod:seq5"]
    tie = cases["runs.cross_stream_tie.run.json::review-logger_armed_before_activation.ordering"]
    assert tie.outcome == "xfailed" and tie.properties["coldstart.review"] == "logger_armed_before_activation.ordering"
    assert tie.properties["coldstart.status"] == "pending" and tie.properties["coldstart.failure_class"] == ""
    hostile = [
        c for k, c in cases.items() if k.endswith("::validate") and c.properties["coldstart.run_id"] == HOSTILE_RUN_ID
    ]
    assert len(hostile) == 1
    outcome_of = {
        key.rsplit(".run.json::", 1)[0].split(".", 1)[1] + "/run.json::" + key.split("::")[1]: c.outcome
        for key, c in cases.items()
    }
    assert {k: v for k, v in outcome_of.items() if "<" not in k} == {
        k.split("/", 1)[1]: v for k, v in expected.items() if "<" not in k
    }


def _values(value: object) -> list[str]:
    """Every string value of pytest-html's data (its keys are never rendered as HTML)."""
    if isinstance(value, dict):
        return [s for v in value.values() for s in _values(v)]
    if isinstance(value, list):
        return [s for v in value for s in _values(v)]
    return [value] if isinstance(value, str) else []


def _check_html(path: Path) -> None:
    tests = html_tests(path)
    values = _values(tests)
    for nodeid, entries in tests.items():
        for entry in entries:
            for cell in entry["resultsTableRow"]:
                body = re.sub(r"^<td class=\"col-\w+\">|</td>$", "", cell)
                assert not RAW_MARKUP.search(body), (nodeid, cell)
            for extra in entry["extras"]:
                assert not RAW_MARKUP.search(extra["content"]), nodeid
            assert not RAW_MARKUP.search(entry["log"]), nodeid
    assert not any(PAYLOAD in v or "<img src=x" in v for v in values)
    hostile = [k for k in tests if HOSTILE_DIR in k]
    assert len(hostile) == 10
    validate = tests[f"runs/{HOSTILE_DIR}/run.json::validate"][0]
    content = validate["extras"][0]["content"]
    assert "&lt;script&gt;alert(&#x27;run&#x27;)" in content  # the run id, escaped
    assert 'class="coldstart-timeline"' in content and "<svg" in content and "coldstart-timeline-events" in content
    assert f"runs/{HOSTILE_DIR.replace('<', '&lt;').replace('>', '&gt;')}/run.json::validate" in "".join(
        validate["resultsTableRow"]
    )
    actuate = tests[f"runs/{HOSTILE_DIR}/run.json::review-machine_operated.causality"][0]["extras"][0]["content"]
    assert "&lt;script&gt;alert(&#x27;payload&#x27;)&lt;/script&gt;" in actuate  # review note and tool arguments
    assert "&lt;b onmouseover=alert(&#x27;by&#x27;)&gt;reviewer&lt;/b&gt;" in actuate
    flag = tests["runs/late_logger/run.json::flag-logger_armed_before_activation"][0]
    assert flag["result"] == "Failed"
    table = flag["extras"][0]["content"]
    assert (
        'class="coldstart-evidence"' in table
        and "agent/romlog.jsonl:1" in table
        and "&quot;logger_armed&quot;" in table
    )
    tie = tests["runs/cross_stream_tie/run.json::validate"][0]["extras"][0]["content"]
    first, second = audit_run(path.parent / "runs" / "cross_stream_tie", write=False)["unknown_orderings"][0]
    assert 'class="unknown-ordering"' in tie and f"order unknown: {first} vs {second}" in tie
    assert (
        tests["runs/cross_stream_tie/run.json::review-logger_armed_before_activation.ordering"][0]["result"]
        == "XFailed"
    )


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_junit_and_html_reports(pytester: pytest.Pytester, lab, workers: list[str]) -> None:
    lab("passing", "late_logger", "cross_stream_tie", "tampered_hashes", HOSTILE_DIR)
    result = pytester.runpytest(
        "--coldstart-runs=runs", "-rA", "--junitxml=report.xml", "--html=report.html", "--self-contained-html", *workers
    )
    expected = outcomes(result)
    assert sum(1 for k in expected if HOSTILE_DIR in k) == 10
    _check_junit(pytester.path / "report.xml", expected)
    _check_html(pytester.path / "report.html")


def test_html_hooks_are_optional(pytester: pytest.Pytester, lab) -> None:
    lab("passing")
    for args in (["-p", "no:html"], []):
        result = pytester.runpytest("--coldstart-runs=runs", *args)
        result.assert_outcomes(passed=10)
        assert "INTERNALERROR" not in result.stdout.str()


def test_terminal_table_has_one_row_per_run(pytester: pytest.Pytester, lab) -> None:
    lab("passing", "late_logger", "invalid_fixture", "pending_reviews", "tampered_hashes")
    result = pytester.runpytest("--coldstart-runs=runs")
    result.stdout.fnmatch_lines(
        [
            "*= coldstart: 5 runs 1 PASS, 3 FAIL, 1 PENDING =*",
            "run * run_id * overall * failure class * items",
            "runs/invalid_fixture/run.json * scenario-invalid-fixture * FAIL * FIXTURE_INVALID * 2 failed, 8 passed",
            "runs/late_logger/run.json * scenario-late-logger * FAIL * AGENT_FAIL * 2 failed, 7 passed",
            "runs/passing/run.json * scenario-passing * PASS * - * 10 passed",
            "runs/pending_reviews/run.json * scenario-pending-reviews * PENDING * - * 3 passed, 7 xfailed",
            "runs/tampered_hashes/run.json * scenario-tampered-hashes * FAIL * INFRA_ERROR * 5 failed, 1 passed, 1 xfailed",
        ]
    )


def test_terminal_output_escapes_control_characters(pytester: pytest.Pytester, coldstart_run) -> None:
    builder = coldstart_run("late_logger", run_id="evil\x1b[31mred\x1b[0m")
    builder.event("logger", "logger_armed")["mod"] = "\x1b]0;title\x07\u202eevil"
    builder.root = pytester.path / "runs" / "evil"
    builder.build()
    result = pytester.runpytest("--coldstart-runs=runs", "-rA")
    text = result.stdout.str()
    assert "\x1b" not in text and "\u202e" not in text and "\x07" not in text
    assert "\\x1b[31mred" in text and "\\u202eevil" in text
