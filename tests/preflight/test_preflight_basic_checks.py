"""harness_identity, terminal, filesystem and ports against the real machine."""

from __future__ import annotations

import platform
import sys
from pathlib import Path

import pytest
from preflight_helpers import entry, write_script

from pytest_coldstart.preflight.checks.harness import Filesystem
from pytest_coldstart.preflight.config import from_document
from pytest_coldstart.preflight.context import Context
from pytest_coldstart.run.hashing import sha256_bytes, sha256_file


def run_one(preflight, config: dict, check_id: str, **kwargs) -> dict:
    return entry(preflight(config, checks=[check_id], **kwargs).document, check_id)


def test_harness_identity_passes_and_records_model_provider_and_version(base_config: dict, preflight) -> None:
    result = run_one(
        preflight,
        {**base_config, "session_env": "COLDSTART_TEST_SESSION"},
        "harness_identity",
        environ={"PATH": "/usr/bin:/bin", "COLDSTART_TEST_SESSION": "/tmp/session.jsonl"},
    )
    assert result["status"] == "PASS"
    assert result["detail"].endswith("model=test-model provider=test-provider")
    versions = result["versions"]
    assert versions["version_output"] == f"Python {platform.python_version()}"
    assert versions["session_env_name"] == "COLDSTART_TEST_SESSION" and versions["session_env_present"] is True
    assert versions["command_path"] == sys.executable
    command = result["evidence"][0]
    assert (
        command["kind"] == "command"
        and command["exit_code"] == 0
        and command["command"] == [sys.executable, "--version"]
    )


@pytest.mark.parametrize(
    ("change", "detail"),
    [
        ({"name": ""}, "harness name not configured"),
        ({"name": "   "}, "harness name not configured"),
        ({"model": ""}, "harness model not configured"),
        ({"command": ""}, "harness command not configured"),
        ({"command": "definitely-not-a-harness-xyz"}, "command not found: definitely-not-a-harness-xyz"),
        ({"command": "bash", "version_args": ["-c", "echo broken >&2; exit 3"]}, "version probe failed (exit 3)"),
    ],
)
def test_harness_identity_failures(base_config: dict, preflight, change: dict, detail: str) -> None:
    result = run_one(preflight, {**base_config, **change}, "harness_identity")
    assert result["status"] == "FAIL" and detail in result["detail"]


def test_harness_identity_fails_when_the_name_is_absent(base_config: dict, preflight) -> None:
    config = {k: v for k, v in base_config.items() if k != "name"}
    assert run_one(preflight, config, "harness_identity")["status"] == "FAIL"


def test_terminal_runs_the_shell_and_a_command_line(base_config: dict, preflight) -> None:
    result = run_one(preflight, base_config, "terminal")
    assert result["status"] == "PASS" and result["detail"] == "bash ran and executed a command line"
    assert [e["step"] for e in result["evidence"]] == ["shell", "execute"]
    assert result["versions"]["first_line"].startswith("GNU bash")


def test_terminal_with_a_non_posix_probe_needs_only_exit_0(base_config: dict, preflight) -> None:
    result = run_one(preflight, {**base_config, "shell": [sys.executable, "--version"]}, "terminal")
    assert result["status"] == "PASS" and len(result["evidence"]) == 1


@pytest.mark.parametrize(
    ("shell", "detail"),
    [
        (["false"], "false failed (exit 1)"),
        (["no-such-shell-xyz"], "command not found"),
        (["bash", "-c", "exit 4"], "exit 4"),
    ],
)
def test_terminal_failures(base_config: dict, preflight, shell: list[str], detail: str) -> None:
    result = run_one(preflight, {**base_config, "shell": shell}, "terminal")
    assert result["status"] == "FAIL" and detail in result["detail"]


def test_a_hanging_probe_times_out_and_fails(base_config: dict, preflight) -> None:
    config = {**base_config, "shell": ["bash", "-c", "sleep 30"], "timeouts": {"command": 0.5}}
    result = run_one(preflight, config, "terminal")
    assert result["status"] == "FAIL" and "timed out" in result["detail"]
    assert result["evidence"][0]["timed_out"] is True and result["evidence"][0]["exit_code"] is None


def test_every_command_probe_is_a_hashed_transcript_with_command_and_exit_code(base_config: dict, preflight) -> None:
    outcome = preflight(base_config, checks=["harness_identity", "terminal"])
    out = outcome.report_path.parent
    for check in outcome.document["checks"]:
        for evidence in check["evidence"]:
            transcript = out / evidence["path"]
            assert sha256_file(transcript) == (evidence["sha256"], evidence["size"])
            text = transcript.read_text()
            assert text.startswith(f"$ {evidence['display']}\n") and f"# exit: {evidence['exit_code']} " in text


def test_filesystem_preserves_exact_bytes(base_config: dict, preflight) -> None:
    outcome = preflight(base_config, checks=["filesystem"])
    result = entry(outcome.document, "filesystem")
    assert result["status"] == "PASS"
    expected, readback = result["evidence"]
    out = outcome.report_path.parent
    written = (out / readback["path"]).read_bytes()
    assert written == (out / expected["path"]).read_bytes()
    assert b"\r\n" in written and b"\x00" in written and "ü".encode() in written
    assert readback["matched"] is True and readback["sha256"] == sha256_bytes(written) == result["versions"]["sha256"]


def test_filesystem_fails_when_the_scratch_folder_cannot_be_written(tmp_path: Path, base_config: dict) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "scratch").write_text("a file where the folder should be")
    result = Filesystem().run(Context.create(from_document(base_config), out))
    assert result.status == "FAIL" and "could not write and read back" in result.detail


def test_ports_pass_when_free_and_in_range(base_config: dict, preflight, ports: list[int]) -> None:
    result = run_one(preflight, base_config, "ports")
    assert result["status"] == "PASS"
    assert result["versions"]["api"] == ports[0] and result["versions"]["mod"] == ports[1]
    assert [e["name"] for e in result["evidence"] if e["kind"] == "port"] == ["api", "mod"]


def test_ports_fail_when_a_listener_holds_one(base_config: dict, preflight, listener: int) -> None:
    config = {**base_config, "ports": {**base_config["ports"], "mod": listener}}
    result = run_one(preflight, config, "ports")
    assert result["status"] == "FAIL" and f"mod port {listener} is not free" in result["detail"]
    assert any(e.get("port") == listener and e["free"] is False for e in result["evidence"])


@pytest.mark.parametrize(
    ("change", "detail"),
    [
        ({"api": 0}, "api port 0 is not free: 0 is not a reservable TCP port"),
        ({"range": [27190, 27199]}, "outside the reserved range 27190-27199"),
        ({"range": [27199, 27190]}, "range 27199-27190 is empty"),
    ],
)
def test_ports_fail_on_bad_reservations(base_config: dict, preflight, change: dict, detail: str) -> None:
    result = run_one(preflight, {**base_config, "ports": {**base_config["ports"], **change}}, "ports")
    assert result["status"] == "FAIL" and detail in result["detail"]


def test_ports_fail_when_two_roles_share_a_port(base_config: dict, preflight) -> None:
    config = {**base_config, "ports": {**base_config["ports"], "mod": base_config["ports"]["api"]}}
    assert "is also reserved as api" in run_one(preflight, config, "ports")["detail"]


def test_ports_include_the_lab_ports_only_when_the_lab_is_enabled(base_config: dict, preflight, listener: int) -> None:
    lab = {**base_config["lab"], "ports": {"game": base_config["lab"]["ports"]["game"], "rcon": listener}}
    assert run_one(preflight, {**base_config, "lab": {**lab, "enabled": False}}, "ports")["status"] == "PASS"
    result = run_one(preflight, {**base_config, "lab": {**lab, "enabled": True}}, "ports")
    assert result["status"] == "FAIL" and f"lab.rcon port {listener} is not free" in result["detail"]


def test_version_probe_of_a_script_harness(tmp_path: Path, base_config: dict, preflight) -> None:
    harness = write_script(tmp_path / "bin/pi", "#!/bin/sh\necho 'pi 0.9.1'\necho 'build abc'\necho extra\n")
    result = run_one(preflight, {**base_config, "command": str(harness)}, "harness_identity")
    assert result["status"] == "PASS" and result["versions"]["version_output"] == "pi 0.9.1\nbuild abc"
