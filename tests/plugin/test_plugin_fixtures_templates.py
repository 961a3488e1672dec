"""Contributor fixtures (coldstart_run, audit, coldstart_scenarios) and the conftest templates."""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pytest
from plugin_helpers import html_tests, outcomes

from pytest_coldstart.pytest_plugin.fixtures import flag_status, mismatches

TEMPLATES = Path(__file__).resolve().parents[2] / "conftest_templates"


def test_builder_writes_a_valid_run_that_breaks_in_one_line(coldstart_run, audit) -> None:
    assert audit(coldstart_run())["overall"] == "PASS"
    report = audit(coldstart_run().mutate_testmod(lambda ev: [e for e in ev if e["event"] != "input_processed"]))
    assert flag_status(report, "machine_operated") == "FAIL" and report["failure_class"] == "AGENT_FAIL"
    path = coldstart_run().drop_call("c-read-log").build()
    assert path.is_dir() and flag_status(audit(path), "agent_read_log") == "FAIL"


@pytest.mark.parametrize("name", ["late_logger", "pending_oracle", "tampered_hashes", "invalid_fixture"])
def test_catalogue_scenarios_give_their_demanded_verdict(coldstart_run, audit, coldstart_scenarios, name: str) -> None:
    scenario = coldstart_scenarios[name]
    assert mismatches(audit(coldstart_run(name)), scenario) == []
    assert scenario.description


def test_unknown_scenario_names_the_catalogue(coldstart_run) -> None:
    with pytest.raises(KeyError, match="late_logger"):
        coldstart_run("no_such_scenario")


def test_ci_lab_suite_template_audits_labs_and_writes_reports(pytester: pytest.Pytester, scenario_runs) -> None:
    shutil.copy(TEMPLATES / "ci_lab_suite" / "conftest.py", pytester.path / "conftest.py")
    for name in ("passing", "late_logger", "pending_reviews"):
        shutil.copytree(scenario_runs.get(name), pytester.path / "labs" / name)
    result = pytester.runpytest("-rA")
    got = outcomes(result)
    assert len(got) == 29 and {k.split("/")[0] for k in got} == {"labs"}
    result.assert_outcomes(passed=20, failed=2, xfailed=7)
    report = (pytester.path / "reports" / "coldstart.xml").read_text()
    assert 'name="coldstart.flag" value="logger_armed_before_activation"' in report
    tests = html_tests(pytester.path / "reports" / "coldstart.html")
    assert (
        'class="coldstart-evidence"'
        in tests["labs/late_logger/run.json::flag-logger_armed_before_activation"][0]["extras"][0]["content"]
    )
    strict = pytester.runpytest("--runxfail")
    assert strict.ret == pytest.ExitCode.TESTS_FAILED
    strict.assert_outcomes(passed=20, failed=9)


def test_failure_mode_template_runs_the_documented_examples(pytester: pytest.Pytester) -> None:
    shutil.copy(TEMPLATES / "failure_mode_tests" / "conftest.py", pytester.path / "conftest.py")
    doc = (TEMPLATES / "failure_mode_tests" / "conftest.py").read_text()
    example = doc.split("``test_late_logger.py``)::\n\n", 1)[1].split("\n\nBreaking a run", 1)[0]
    source = "\n".join(line[4:] for line in example.splitlines())
    pytester.makepyfile(test_late_logger=source)
    result = pytester.runpytest("-q", "-p", "no:cacheprovider")
    from pytest_coldstart.demo.scenarios import SCENARIOS

    result.assert_outcomes(passed=1 + len(SCENARIOS))
    pytester.makepyfile(
        test_wrong="def test_wrong(coldstart_run, audit, expect):\n    expect(audit(coldstart_run('late_logger')), 'PASS')\n"
    )
    wrong = pytester.runpytest("test_wrong.py", "-q", "-p", "no:cacheprovider")
    wrong.assert_outcomes(failed=1)
    wrong.stdout.fnmatch_lines(
        ["*overall FAIL (expected PASS); failure_class AGENT_FAIL (expected None)*", "*the logger was late*"]
    )


def _harness(path: Path, command: str) -> None:
    config = {
        "schemaVersion": 2,
        "name": "template-harness",
        "command": command,
        "version_args": ["--version"],
        "model": "m",
        "provider": "p",
        "shell": ["bash", "--version"],
        "fetch_urls": [],
        "build": {"java": "", "min_java": 0},
        "bridge": {"enabled": False},
        "ports": {"api": 0, "mod": 0, "range": [1024, 65535]},
        "lab": {"enabled": False},
    }
    path.write_text(json.dumps(config))


def test_preflight_gated_template_gates_its_folder(pytester: pytest.Pytester) -> None:
    lab = pytester.path / "lab"
    lab.mkdir()
    shutil.copy(TEMPLATES / "preflight_gated" / "conftest.py", lab / "conftest.py")
    (lab / "test_needs_lab.py").write_text("def test_needs_lab():\n    pass\n")
    pytester.makepyfile(test_elsewhere="def test_elsewhere():\n    pass\n")
    (lab / "conftest.py").write_text((lab / "conftest.py").read_text().replace('"ports")', '"filesystem")'))
    _harness(lab / "harness.json", sys.executable)
    working = pytester.runpytest("-rA", "-p", "no:cacheprovider")
    assert outcomes(working) == {
        "lab/test_needs_lab.py::test_needs_lab": "passed",
        "test_elsewhere.py::test_elsewhere": "passed",
    }
    _harness(lab / "harness.json", str(pytester.path / "no-such-harness"))
    broken = pytester.runpytest("-rA", "-p", "no:cacheprovider")
    assert outcomes(broken) == {"test_elsewhere.py::test_elsewhere": "passed"}
    broken.assert_outcomes(passed=1, skipped=1)
    broken.stdout.fnmatch_lines(["SKIPPED * preflight check harness_identity FAIL: *no-such-harness*"])


DOC = (Path(__file__).resolve().parents[2] / "docs" / "pytest.md").read_text(encoding="utf-8")


def test_the_documented_failure_mode_tests_pass(pytester: pytest.Pytester) -> None:
    (example,) = [block for block in re.findall(r"```python\n(.*?)```", DOC, re.S) if "def test_" in block]
    pytester.makepyfile(test_documented=example)
    result = pytester.runpytest("-q", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=example.count("def test_"))


def test_the_documented_catalogue_is_the_real_one() -> None:
    from pytest_coldstart.demo.scenarios import SCENARIOS

    rows = re.findall(r"^\| `(\w+)` \| .* \| (PASS|FAIL|PENDING) \| (\S+) \|$", DOC, re.M)
    assert {name: (overall, klass) for name, overall, klass in rows} == {
        name: (s.overall, s.failure_class or "-") for name, s in SCENARIOS.items()
    }
