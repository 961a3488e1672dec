"""pytest options ``--coldstart-anchor``, ``--coldstart-ledger``, ``--coldstart-public-key`` (and
their ini keys) and the JUnit property ``coldstart.anchor`` (issue 16.7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from anchor_helpers import openssl_keys, reopen_and_cut, sealed_passing
from plugin_helpers import junit_cases, outcomes

from pytest_coldstart.record import anchor, ledger, signing

VALIDATE = "runs/run/run.json::validate"


def _lab(pytester: pytest.Pytester) -> tuple[Path, dict, Path]:
    run, pinned = sealed_passing(pytester.path / "runs" / "run")
    book = pytester.path / "ledger.jsonl"
    ledger.append(book, pinned)
    return run, pinned, book


def test_a_run_matching_its_ledger_passes_and_junit_pins_the_anchor(pytester: pytest.Pytester) -> None:
    _, pinned, _ = _lab(pytester)
    result = pytester.runpytest("--coldstart-runs=runs", "--coldstart-ledger=ledger.jsonl", "-rA", "--junitxml=j.xml")
    assert result.ret == 0
    seen = outcomes(result)
    assert seen[VALIDATE] == "passed" and set(seen.values()) == {"passed"}
    cases = junit_cases(pytester.path / "j.xml")
    assert cases and all(json.loads(c.properties["coldstart.anchor"]) == pinned for c in cases.values())


def test_the_undone_seal_fails_validate_with_the_reason(pytester: pytest.Pytester) -> None:
    run, _, _ = _lab(pytester)
    reopen_and_cut(run)
    plain = pytester.runpytest("--coldstart-runs=runs", "-p", "no:cacheprovider")
    assert plain.ret == 0  # without an anchor the tampered run is green
    result = pytester.runpytest(
        "--coldstart-runs=runs", "--coldstart-ledger=ledger.jsonl", "-rA", "-p", "no:cacheprovider"
    )
    assert result.ret == 1
    assert outcomes(result)[VALIDATE] == "failed"
    result.stdout.fnmatch_lines(["*records were cut after the seal*", "*failure class INFRA_ERROR*"])
    marked = pytester.runpytest(
        "--coldstart-runs=runs", "--coldstart-ledger=ledger.jsonl", "-m", "infra_error", "-rA", "-p", "no:cacheprovider"
    )
    assert outcomes(marked)[VALIDATE] == "failed"  # the run is marked infra_error, so -m selects it


def test_an_anchor_option_and_a_run_without_one(pytester: pytest.Pytester) -> None:
    _run, pinned, _ = _lab(pytester)
    sealed_passing(pytester.path / "runs" / "second", run_id="second-run")
    result = pytester.runpytest("--coldstart-runs=runs", f"--coldstart-anchor={anchor.one_line(pinned)}", "-rA")
    seen = outcomes(result)
    assert seen[VALIDATE] == "passed"
    assert seen["runs/second/run.json::validate"] == "failed"
    result.stdout.fnmatch_lines(["*no anchor for run 'second-run'*"])
    (pytester.path / "anchor.json").write_text(anchor.one_line(pinned))
    again = pytester.runpytest("--coldstart-runs=runs/run", "--coldstart-anchor=anchor.json", "-rA")
    assert again.ret == 0


def test_ini_options_with_a_signature(pytester: pytest.Pytester) -> None:
    private, public = openssl_keys(pytester.path)
    _run, pinned = sealed_passing(pytester.path / "runs" / "run")
    book = pytester.path / "ledger.jsonl"
    ledger.append(book, signing.sign(pinned, private))
    pytester.makeini(
        f"[pytest]\ncoldstart_runs = runs\ncoldstart_ledger = ledger.jsonl\ncoldstart_public_key = {public}\n"
    )
    assert pytester.runpytest().ret == 0
    _, stranger = openssl_keys(pytester.path, "stranger")
    result = pytester.runpytest(f"--coldstart-public-key={stranger}", "-rA")
    assert outcomes(result)[VALIDATE] == "failed"
    result.stdout.fnmatch_lines(["*not by the given public key*"])


def test_a_malformed_ledger_stops_the_session_with_a_usage_error(pytester: pytest.Pytester) -> None:
    _lab(pytester)
    (pytester.path / "bad.jsonl").write_text('{"schemaVersion": 9}\n')
    result = pytester.runpytest("--coldstart-runs=runs", "--coldstart-ledger=bad.jsonl")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*coldstart anchors:*bad.jsonl:1*schemaVersion 9*"])
    assert "Traceback" not in result.stderr.str()


def test_an_unsealed_run_has_an_empty_anchor_property(pytester: pytest.Pytester) -> None:
    from pytest_coldstart.demo.scenarios import build_run

    build_run(pytester.path / "runs" / "open", "passing")
    pytester.runpytest("--coldstart-runs=runs", "--junitxml=j.xml")
    cases = junit_cases(pytester.path / "j.xml")
    assert cases and all(c.properties["coldstart.anchor"] == "" for c in cases.values())


def test_anchor_checks_under_xdist(pytester: pytest.Pytester) -> None:
    run, _, _ = _lab(pytester)
    reopen_and_cut(run)
    result = pytester.runpytest("--coldstart-runs=runs", "--coldstart-ledger=ledger.jsonl", "-n", "2", "-rA")
    assert result.ret == 1 and outcomes(result)[VALIDATE] == "failed"
