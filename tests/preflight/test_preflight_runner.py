"""Selection, SKIP semantics, crash isolation, the overall rule, and registration through pluggy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pluggy
import pytest
from preflight_helpers import entry, write_script

from pytest_coldstart.ext import hookspecs
from pytest_coldstart.ext.hookspecs import hookimpl
from pytest_coldstart.preflight import builtin, registry
from pytest_coldstart.preflight.checks.base import CheckResult
from pytest_coldstart.preflight.config import from_document
from pytest_coldstart.preflight.pipeline import run_preflight
from pytest_coldstart.preflight.runner import overall
from pytest_coldstart.run.errors import ColdstartError, UsageError

BUILTIN_IDS = [
    "harness_identity",
    "terminal",
    "filesystem",
    "ports",
    "source_fetch",
    "build_install",
    "bridge_cli",
    "bridge_mcp",
    "bridge_smoke",
    "lab_management",
]


class Exploding:
    id = "exploding"
    proves = "nothing: it raises"

    def run(self, context: Any) -> CheckResult:
        raise RuntimeError("the probe blew up")


class Malformed:
    id = "malformed"
    proves = "nothing: it returns a wrong type"

    def run(self, context: Any) -> Any:
        return {"status": "PASS"}


class NoisyPass:
    id = "noisy_pass"
    proves = "a third-party check runs with the same context"

    def run(self, context: Any) -> CheckResult:
        probe = context.command(self.id, "echo", ["bash", "-c", "echo third-party"], timeout=10)
        return CheckResult.verdict(probe.ok and "third-party" in probe.stdout, "echoed", [probe.evidence])


class ThirdParty:
    def __init__(self, *checks: Any):
        self.checks = list(checks)

    @hookimpl
    def coldstart_register_preflight_checks(self) -> list[Any]:
        return self.checks


def manager(*plugins: Any) -> pluggy.PluginManager:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(builtin)
    for plugin in plugins:
        pm.register(plugin)
    return pm


@pytest.mark.parametrize(
    ("statuses", "expected"),
    [
        ([], "FAIL"),
        (["SKIP", "SKIP"], "FAIL"),
        (["PASS", "SKIP"], "PASS"),
        (["PASS", "FAIL", "SKIP"], "FAIL"),
        (["PASS"], "PASS"),
    ],
)
def test_overall_needs_one_check_run_and_every_run_check_passed(statuses: list[str], expected: str) -> None:
    assert overall(statuses) == expected


def test_builtins_register_through_the_hook_in_protocol_order() -> None:
    assert [c.id for c in registry.all_checks()] == BUILTIN_IDS
    assert [c.id for c in registry.all_checks(manager(ThirdParty(NoisyPass())))] == [*BUILTIN_IDS, "noisy_pass"]


def test_a_duplicate_or_malformed_registration_is_refused() -> None:
    with pytest.raises(ColdstartError, match="'ports' is registered twice"):
        registry.all_checks(
            manager(ThirdParty(type("Dup", (), {"id": "ports", "proves": "x", "run": lambda s, c: None})()))
        )
    with pytest.raises(ColdstartError, match="no 'proves' text"):
        registry.all_checks(
            manager(ThirdParty(type("Bare", (), {"id": "bare", "proves": " ", "run": lambda s, c: None})()))
        )
    with pytest.raises(ColdstartError, match="expected"):
        registry.all_checks(
            manager(ThirdParty(type("Bad", (), {"id": "Bad-Id", "proves": "x", "run": lambda s, c: None})()))
        )


def test_a_crashing_or_malformed_check_is_a_fail_not_a_crash(tmp_path: Path, base_config: dict) -> None:
    checks = registry.all_checks(manager(ThirdParty(Exploding(), Malformed(), NoisyPass())))
    outcome = run_preflight(
        from_document(base_config),
        tmp_path / "out",
        checks=["exploding", "malformed", "noisy_pass", "terminal"],
        available=checks,
        cwd=tmp_path,
    )
    document = outcome.document
    assert entry(document, "exploding")["status"] == "FAIL"
    assert entry(document, "exploding")["detail"].startswith("probe raised RuntimeError: the probe blew up")
    assert (
        entry(document, "malformed")["status"] == "FAIL"
        and "expected a CheckResult, got dict" in entry(document, "malformed")["detail"]
    )
    assert entry(document, "noisy_pass")["status"] == "PASS" and entry(document, "terminal")["status"] == "PASS"
    assert document["overall"] == "FAIL" and outcome.report_path.is_file()


def test_checks_run_in_the_order_asked_and_skip_is_never_run(tmp_path: Path, base_config: dict, preflight) -> None:
    counter = tmp_path / "calls.txt"
    harness = write_script(tmp_path / "bin/harness", f'#!/bin/sh\necho called >> "{counter}"\necho "harness 1.0"\n')
    document = preflight(
        {**base_config, "command": str(harness)},
        checks=["ports,filesystem", "harness_identity"],
        skip=["harness_identity"],
    ).document
    assert [c["id"] for c in document["checks"]] == ["ports", "filesystem", "harness_identity"]
    skipped = entry(document, "harness_identity")
    assert skipped["status"] == "SKIP" and "skipped by request" in skipped["detail"] and skipped["evidence"] == []
    assert not counter.exists(), "a skipped check must not run"
    assert document["overall"] == "PASS" and document["selection"] == {
        "checks": ["ports", "filesystem", "harness_identity"],
        "skipped": ["harness_identity"],
    }


def test_all_skipped_is_a_fail(base_config: dict, preflight) -> None:
    document = preflight(base_config, checks=["terminal"], skip=["terminal"]).document
    assert document["overall"] == "FAIL" and document["counts"] == {"PASS": 0, "FAIL": 0, "SKIP": 1}


@pytest.mark.parametrize(("checks", "skip"), [(["ports,nope"], None), (None, ["nope"])])
def test_unknown_ids_are_usage_errors_before_anything_runs(tmp_path: Path, base_config: dict, checks, skip) -> None:
    with pytest.raises(UsageError, match="unknown check 'nope'"):
        run_preflight(from_document(base_config), tmp_path / "out", checks=checks, skip=skip)
    assert not (tmp_path / "out").exists()


def test_out_must_be_empty_unless_forced_and_force_replaces_only_preflight_files(
    tmp_path: Path, base_config: dict
) -> None:
    out = tmp_path / "out"
    config = from_document(base_config)
    run_preflight(config, out, checks=["filesystem"], cwd=tmp_path)
    (out / "keep.txt").write_text("mine")
    with pytest.raises(UsageError, match="not empty"):
        run_preflight(config, out, checks=["filesystem"], cwd=tmp_path)
    outcome = run_preflight(config, out, checks=["terminal"], cwd=tmp_path, force=True)
    assert (out / "keep.txt").read_text() == "mine"
    assert not (out / "probes/filesystem-expected.txt").exists()
    assert [c["id"] for c in outcome.document["checks"]] == ["terminal"]


class Leaky:
    id = "leaky"
    proves = "what a careless third-party check reports is redacted"

    def run(self, context: Any) -> CheckResult:
        probe = context.command(
            self.id, "echo", ["bash", "-c", "echo key sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX"], timeout=10
        )
        return CheckResult.passed(
            "reported", [probe.evidence], auth_token="tok-123", note="sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX"
        )


def test_secrets_a_check_reports_are_redacted_in_report_and_transcripts(tmp_path: Path, base_config: dict) -> None:
    checks = registry.all_checks(manager(ThirdParty(Leaky())))
    outcome = run_preflight(
        from_document(base_config), tmp_path / "out", checks=["leaky"], available=checks, cwd=tmp_path
    )
    out = tmp_path / "out"
    versions = entry(outcome.document, "leaky")["versions"]
    assert versions["auth_token"].startswith("<redacted sha256:") and "sk-proj-" not in versions["note"]
    for path in out.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert b"tok-123" not in data and b"sk-proj-ABCDEFGH" not in data, path


def test_the_markdown_summary_escapes_what_the_config_and_checks_say(base_config: dict, preflight) -> None:
    outcome = preflight(
        {**base_config, "name": "evil|name <script>alert(1)</script>", "shell": ["no|such<b>shell"]},
        checks=["terminal"],
    )
    markdown = outcome.report_path.with_name("preflight.md").read_text()
    assert "<script>" not in markdown and "<b>" not in markdown
    assert "evil\\|name &lt;script&gt;" in markdown and "no\\|such&lt;b&gt;shell" in markdown
