"""bridge_cli, bridge_mcp and bridge_smoke with real executables on real ports."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from preflight_helpers import SMOKE, entry, fake_bridge

from pytest_coldstart.preflight.sockets import port_state


def bridge_config(base_config: dict, **bridge) -> dict:
    return {**base_config, "bridge": {"enabled": True, **bridge}}


def smoke_config(base_config: dict, *extra: str, **bridge) -> dict:
    command = [
        "{python}",
        str(SMOKE),
        "--api-port",
        "{api_port}",
        "--mod-port",
        "{mod_port}",
        "--timeout",
        "{timeout}",
        *extra,
    ]
    return bridge_config(base_config, smoke_command=command, **bridge)


def check(preflight, config: dict, check_id: str, **kwargs) -> dict:
    return entry(preflight(config, checks=[check_id], **kwargs).document, check_id)


def test_bridge_cli_and_mcp_pass_with_a_working_bridge(tmp_path: Path, base_config: dict, preflight) -> None:
    bridge = fake_bridge(tmp_path / "bin")
    document = preflight(bridge_config(base_config, command=str(bridge)), checks=["bridge_cli", "bridge_mcp"]).document
    assert entry(document, "bridge_cli")["status"] == "PASS"
    assert entry(document, "bridge_mcp")["status"] == "PASS"
    assert entry(document, "bridge_mcp")["evidence"][0]["command"] == [str(bridge), "mcp", "--help"]


def test_the_bridge_is_found_on_path(tmp_path: Path, base_config: dict, preflight) -> None:
    fake_bridge(tmp_path / "bin")
    environ = {**os.environ, "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}"}
    result = check(preflight, bridge_config(base_config), "bridge_cli", environ=environ)
    assert result["status"] == "PASS" and result["versions"]["command_path"] == str(tmp_path / "bin/mc-bridge")


def test_bridge_mcp_is_skip_when_the_extra_is_absent(tmp_path: Path, base_config: dict, preflight) -> None:
    bridge = fake_bridge(tmp_path / "bin", mcp=False)
    document = preflight(bridge_config(base_config, command=str(bridge)), checks=["bridge_cli", "bridge_mcp"]).document
    mcp = entry(document, "bridge_mcp")
    assert mcp["status"] == "SKIP" and "MCP entry absent (exit 2)" in mcp["detail"]
    assert "No module named 'mcp'" in mcp["evidence"][0]["excerpt"]
    assert document["overall"] == "PASS"  # the JSON CLI is the accepted alternative


def test_a_broken_or_missing_bridge_fails_bridge_cli(tmp_path: Path, base_config: dict, preflight) -> None:
    broken = fake_bridge(tmp_path / "bin", help_ok=False)
    assert check(preflight, bridge_config(base_config, command=str(broken)), "bridge_cli")["status"] == "FAIL"
    document = preflight(
        bridge_config(base_config), checks=["bridge_cli", "bridge_mcp"], environ={"PATH": str(tmp_path / "empty")}
    ).document
    assert (
        entry(document, "bridge_cli")["status"] == "FAIL"
        and "mc-bridge is not on PATH" in entry(document, "bridge_cli")["detail"]
    )
    assert entry(document, "bridge_mcp")["status"] == "SKIP"


def test_a_disabled_bridge_skips_all_three(base_config: dict, preflight) -> None:
    document = preflight(base_config, checks=["bridge_cli", "bridge_mcp", "bridge_smoke"]).document
    assert {c["status"] for c in document["checks"]} == {"SKIP"} and document["overall"] == "FAIL"


def test_bridge_smoke_passes_against_the_reserved_ports(base_config: dict, preflight, ports: list[int]) -> None:
    result = check(preflight, smoke_config(base_config), "bridge_smoke")
    assert result["status"] == "PASS", result["detail"]
    assert result["versions"]["command"][3:6:2] == [str(ports[0]), str(ports[1])]
    assert f"bridge on {ports[0]} -> mod on {ports[1]}: mod:ping " in result["evidence"][0]["excerpt"]
    assert port_state(ports[0]).free and port_state(ports[1]).free


def test_bridge_smoke_fails_when_the_smoke_fails(base_config: dict, preflight) -> None:
    result = check(preflight, smoke_config(base_config, "--misbehave", "fail"), "bridge_smoke")
    assert result["status"] == "FAIL" and result["detail"] == "smoke failed (exit 1)"


def test_bridge_smoke_needs_its_ok_line(base_config: dict, preflight) -> None:
    result = check(preflight, smoke_config(base_config, smoke_ok="[smoke] PERFECT"), "bridge_smoke")
    assert result["status"] == "FAIL" and "never printed '[smoke] PERFECT'" in result["detail"]


def test_bridge_smoke_fails_when_a_reserved_port_is_taken(base_config: dict, preflight, listener: int) -> None:
    config = smoke_config({**base_config, "ports": {**base_config["ports"], "api": listener}})
    result = check(preflight, config, "bridge_smoke")
    assert result["status"] == "FAIL" and f"api port {listener}" in result["detail"] and result["evidence"] == []


def test_bridge_smoke_fails_when_the_smoke_leaves_a_port_in_use(
    tmp_path: Path, base_config: dict, preflight, lab_root: Path
) -> None:
    pidfile = tmp_path / "holder.pid"
    config = smoke_config(base_config, "--misbehave", "hold-port", str(pidfile))
    config["timeouts"] = {"smoke": 1}
    result = check(preflight, config, "bridge_smoke")
    assert result["status"] == "FAIL" and "left port(s)" in result["detail"]


def test_bridge_smoke_is_skip_when_disabled(base_config: dict, preflight) -> None:
    result = check(preflight, smoke_config(base_config, smoke=False), "bridge_smoke")
    assert result["status"] == "SKIP" and "bridge.smoke is false" in result["detail"]


def test_bridge_smoke_without_a_command_fails(base_config: dict, preflight) -> None:
    result = check(preflight, bridge_config(base_config), "bridge_smoke")
    assert result["status"] == "FAIL" and "no tools/smoke_offline.py was found" in result["detail"]


def test_bridge_smoke_falls_back_to_the_reference_smoke_script(tmp_path: Path, base_config: dict, preflight) -> None:
    (tmp_path / "tools").mkdir()
    shutil.copy(SMOKE, tmp_path / "tools/smoke_offline.py")
    result = check(preflight, bridge_config(base_config), "bridge_smoke")  # cwd is tmp_path
    assert result["status"] == "PASS", result["detail"]
    assert result["versions"]["command"][:2] == [sys.executable, str(tmp_path / "tools/smoke_offline.py")]
    assert "--backend" in result["versions"]["command"]


@pytest.mark.parametrize("template", [["{python}", "{nope}"], ["{python", "x}"]])
def test_smoke_templates_name_known_placeholders_only(base_config: dict, preflight, template: list[str]) -> None:
    result = check(preflight, bridge_config(base_config, smoke_command=template), "bridge_smoke")
    if "{nope}" in template:
        assert result["status"] == "FAIL" and "unknown placeholder {nope}" in result["detail"]
    else:  # not a placeholder: passed through verbatim, and that command does not exist
        assert result["status"] == "FAIL" and result["versions"]["command"] == template
