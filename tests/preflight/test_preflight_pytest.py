"""The pytest integration: check items, gate marks, policies, once-per-session caching (pytester)."""

from __future__ import annotations

import json
from importlib.metadata import entry_points

import pytest
from preflight_helpers import write_script

from pytest_coldstart.run import schemas

pytest_plugins = ["pytester"]


def plugin_args() -> list[str]:
    """Load the plugin by module when the installed metadata predates its entry point."""
    installed = any(ep.name == "coldstart_preflight" for ep in entry_points(group="pytest11"))
    return [] if installed else ["-p", "pytest_coldstart.pytest_plugin.preflight"]


@pytest.fixture
def harness(pytester: pytest.Pytester, base_config: dict) -> dict:
    """harness.json in the pytester dir; its harness command counts its own invocations."""
    counter = pytester.path / "calls.txt"
    command = write_script(pytester.path / "bin/harness", f'#!/bin/sh\necho x >> "{counter}"\necho "harness 2.0"\n')
    config = {**base_config, "command": str(command)}
    (pytester.path / "harness.json").write_text(json.dumps(config))
    return {"config": config, "counter": counter}


def calls(harness: dict) -> int:
    return len(harness["counter"].read_text().splitlines()) if harness["counter"].exists() else 0


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest("-p", "no:cacheprovider", *plugin_args(), *args)


def test_each_check_is_an_item_with_its_outcome(pytester: pytest.Pytester, harness: dict) -> None:
    result = run(pytester, "--coldstart-preflight=harness.json", "-k", "not build_install", "-rs", "-v")
    result.assert_outcomes(passed=4, failed=1, skipped=4, deselected=1)
    result.stdout.fnmatch_lines(
        [
            "*harness.json::harness_identity PASSED*",
            "*harness.json::source_fetch FAILED*",
            "*harness.json::lab_management SKIPPED*",
        ]
    )
    result.stdout.fnmatch_lines(["*preflight check source_fetch FAIL: no fetch URLs configured*"])
    result.stdout.fnmatch_lines(["*preflight check bridge_cli SKIP: the bridge is disabled*"])
    assert "Traceback" not in result.stdout.str()


def test_a_node_id_pasted_back_reruns_exactly_that_check(pytester: pytest.Pytester, harness: dict) -> None:
    result = run(pytester, "harness.json::terminal", "--coldstart-preflight=harness.json")
    result.assert_outcomes(passed=1)


GATED = """
import pytest

GATES = {
    "ok": ("ports", "terminal", "harness_identity"),
    "on_a_failure": ("source_fetch",),
    "on_a_skip": ("bridge_cli",),
    "on_an_unknown_check": ("warp_drive",),
    "again": ("harness_identity",),
}


def gated(ids):
    @pytest.mark.coldstart_preflight(*ids, config="harness.json")
    def test():
        pass

    return test


for _name, _ids in GATES.items():
    globals()[f"test_gated_{_name}"] = gated(_ids)
"""


def test_gate_marks_fail_by_default(pytester: pytest.Pytester, harness: dict) -> None:
    pytester.makepyfile(test_gates=GATED)
    result = run(pytester, "--strict-markers", "-rsf")
    result.assert_outcomes(passed=2, failed=2, skipped=1)
    result.stdout.fnmatch_lines(
        [
            "*_ test_gated_on_a_failure _*",
            "preflight check source_fetch FAIL: no fetch URLs configured*",
            "*_ test_gated_on_an_unknown_check _*",
            "unknown preflight check 'warp_drive'*",
            "SKIPPED*preflight check bridge_cli was SKIP (never a PASS)*",
            "FAILED test_gates.py::test_gated_on_a_failure - Failed: preflight check*",
        ]
    )
    assert calls(harness) == 1  # harness_identity ran once for two gated tests


def test_the_skip_policy_skips_a_failed_gate(pytester: pytest.Pytester, harness: dict) -> None:
    pytester.makepyfile(test_gates=GATED)
    result = run(pytester, "--coldstart-preflight-policy=skip", "-rs")
    result.assert_outcomes(passed=2, failed=1, skipped=2)  # an unknown check id stays a failure
    result.stdout.fnmatch_lines(["SKIPPED*preflight check source_fetch FAIL: no fetch URLs configured*"])


def test_items_and_gates_share_one_run_per_session_even_under_xdist(pytester: pytest.Pytester, harness: dict) -> None:
    pytester.makepyfile(test_gates=GATED)
    result = run(pytester, "--coldstart-preflight=harness.json", "-k", "not build_install", "-n", "2")
    result.assert_outcomes(passed=6, failed=3, skipped=5)  # xdist does not report deselections
    assert calls(harness) == 1


def test_the_session_writes_a_valid_preflight_report_under_basetemp(pytester: pytest.Pytester, harness: dict) -> None:
    basetemp = pytester.path / "basetemp"
    run(pytester, "--coldstart-preflight=harness.json", "-k", "terminal or ports", f"--basetemp={basetemp}")
    (report,) = basetemp.glob("coldstart-preflight/harness-*/preflight.json")
    document = json.loads(report.read_text())
    assert schemas.errors("preflight", document) == []
    assert [c["id"] for c in document["checks"]] == ["terminal", "ports"] and document["overall"] == "PASS"
    assert (report.parent / "probes/terminal-shell.txt").is_file()


def test_a_broken_config_is_one_failing_item_not_a_collection_error(pytester: pytest.Pytester) -> None:
    (pytester.path / "harness.json").write_text('{"schemaVersion": 2, "lab": {"rcon_password": "hunter2"}}')
    result = run(pytester, "--coldstart-preflight=harness.json")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*looks like a credential*", "FAILED harness.json::config - preflight config*"])
    assert "hunter2" not in result.stdout.str()


def test_a_gate_without_a_config_fails_clearly(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("import pytest\n@pytest.mark.coldstart_preflight('ports')\ndef test_x():\n    pass\n")
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*needs config=... or --coldstart-preflight=CONFIG*"])


def test_the_ini_key_configures_items_and_the_default_gate(pytester: pytest.Pytester, harness: dict) -> None:
    pytester.makeini("[pytest]\ncoldstart_preflight = harness.json\n")
    pytester.makepyfile("import pytest\n@pytest.mark.coldstart_preflight('terminal')\ndef test_x():\n    pass\n")
    result = run(pytester, "-k", "terminal or test_x")
    result.assert_outcomes(passed=2, deselected=9)
    result.stdout.fnmatch_lines(["coldstart preflight: *harness.json (policy fail; probes under *)"])


def test_a_bad_policy_is_a_usage_error(pytester: pytest.Pytester, harness: dict) -> None:
    pytester.makeini("[pytest]\ncoldstart_preflight_policy = maybe\n")
    result = run(pytester)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*coldstart_preflight_policy must be one of fail, skip*"])
