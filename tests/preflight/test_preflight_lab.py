"""lab_management with a real lab manager, a real server process and our RCON client."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from lab_manager import alive
from preflight_helpers import entry, lab_section

from pytest_coldstart.preflight.sockets import is_listening, port_state
from pytest_coldstart.run.hashing import sha256_file


def lab_config(base_config: dict, root: Path, ports: list[int], **lab) -> dict:
    return {**base_config, "lab": lab_section(root, ports[2], ports[3], **lab)}


def run_lab(preflight, config: dict) -> tuple[dict, Path]:
    outcome = preflight(config, checks=["ports", "lab_management"])
    return outcome.document, outcome.report_path.parent


def test_a_live_lab_is_provisioned_started_queried_over_rcon_and_stopped(
    base_config: dict, preflight, lab_root: Path, ports: list[int]
) -> None:
    document, out = run_lab(preflight, lab_config(base_config, lab_root, ports))
    assert entry(document, "ports")["status"] == "PASS"  # the lab ports were free before
    result = entry(document, "lab_management")
    assert result["status"] == "PASS", result["detail"]
    versions = result["versions"]
    assert versions["serverPort"] == ports[2] and versions["rconPort"] == ports[3]
    assert versions["started"] is True and versions["stopped"] is True
    assert versions["rcon_response"] == "There are 0 of a max of 20 players online: "
    console = lab_root / "test-lab/console.log"
    assert versions["console_sha256"] == sha256_file(console)[0]
    log = console.read_text()
    assert "[RCON] login accepted" in log and "[RCON] 'list'" in log and "Stopping the server" in log
    steps = [e.get("step") for e in result["evidence"] if e["kind"] in ("command", "transcript")]
    assert steps == ["list", "provision", "start", "status", "rcon", "stop"]
    lab_json = next(e for e in result["evidence"] if e["kind"] == "file")
    assert json.loads((out / lab_json["path"]).read_text())["rconPort"] == ports[3]
    # Really stopped: the ports are free again and the server process is gone.
    assert port_state(ports[2]).free and port_state(ports[3]).free
    assert not (lab_root / "test-lab/server.pid").exists()
    assert document["overall"] == "PASS"


def test_the_rcon_password_never_reaches_the_preflight_output(
    base_config: dict, preflight, lab_root: Path, ports: list[int]
) -> None:
    _, out = run_lab(preflight, lab_config(base_config, lab_root, ports))
    properties = (lab_root / "test-lab/server.properties").read_text()
    password = next(line.split("=", 1)[1] for line in properties.splitlines() if line.startswith("rcon.password="))
    assert len(password) >= 24
    for path in out.rglob("*"):
        if path.is_file():
            assert password.encode() not in path.read_bytes(), path


def test_start_disabled_is_skip_after_list_and_provision(
    base_config: dict, preflight, lab_root: Path, ports: list[int]
) -> None:
    document, _ = run_lab(preflight, lab_config(base_config, lab_root, ports, start=False))
    result = entry(document, "lab_management")
    assert result["status"] == "SKIP" and "start is disabled: no live server was exercised" in result["detail"]
    assert result["versions"]["started"] is False
    assert (lab_root / "test-lab/lab.json").is_file() and not (lab_root / "test-lab/server.pid").exists()


def test_a_disabled_lab_is_skip(base_config: dict, preflight, lab_root: Path, ports: list[int]) -> None:
    document, _ = run_lab(preflight, lab_config(base_config, lab_root, ports, enabled=False))
    assert entry(document, "lab_management")["status"] == "SKIP"
    assert not any(lab_root.iterdir())


def failure(preflight, config: dict) -> dict:
    result = entry(preflight(config, checks=["lab_management"]).document, "lab_management")
    assert result["status"] == "FAIL"
    return result


def test_a_failing_list_fails(base_config: dict, preflight, lab_root: Path, ports: list[int]) -> None:
    result = failure(preflight, lab_config(base_config, lab_root, ports, misbehave="list-fails"))
    assert result["detail"] == "lab manager list failed (exit 3)"


def test_a_refused_rcon_login_fails_and_the_server_is_still_stopped(
    base_config: dict, preflight, lab_root: Path, ports: list[int]
) -> None:
    result = failure(preflight, lab_config(base_config, lab_root, ports, misbehave="wrong-password"))
    assert "refused the RCON password" in result["detail"]
    assert result["versions"]["started"] is True and result["versions"]["stopped"] is True
    assert port_state(ports[3]).free


def test_a_server_not_pinned_to_the_reserved_rcon_port_fails(
    base_config: dict, preflight, lab_root: Path, ports: list[int]
) -> None:
    result = failure(preflight, lab_config(base_config, lab_root, ports, misbehave="wrong-port", wait=1.5))
    assert f"nothing answered on the reserved RCON port 127.0.0.1:{ports[3]} within 1.5 s" in result["detail"]
    assert result["versions"]["started"] is False


def test_a_wrong_rcon_answer_fails(base_config: dict, preflight, lab_root: Path, ports: list[int]) -> None:
    result = failure(preflight, lab_config(base_config, lab_root, ports, misbehave="bad-answer"))
    assert "answered 'Unknown command: list', which does not match 'players online'" in result["detail"]


def test_a_server_that_does_not_stop_fails(base_config: dict, preflight, lab_root: Path, ports: list[int]) -> None:
    config = lab_config(base_config, lab_root, ports, misbehave="no-stop")
    config["timeouts"] = {"lab_stop": 1}
    result = failure(preflight, config)
    assert result["detail"] == f"the server still listens on {ports[2]}/{ports[3]} after stop"
    pid = int((lab_root / "test-lab/server.pid").read_text())
    assert alive(pid) and is_listening("127.0.0.1", ports[3])  # the lab_root fixture ends it


def test_occupied_lab_ports_fail_before_provisioning(
    base_config: dict, preflight, lab_root: Path, ports: list[int], listener: int
) -> None:
    config = {**base_config, "lab": lab_section(lab_root, ports[2], listener)}
    result = failure(preflight, config)
    assert f"lab.ports.rcon {listener} is not free before provisioning" in result["detail"]
    assert not (lab_root / "test-lab").exists()


def test_a_lab_needs_a_manager_and_reserved_ports(
    base_config: dict, preflight, lab_root: Path, ports: list[int]
) -> None:
    no_manager = {**base_config, "lab": {"enabled": True, "start": True, "ports": {"game": ports[2], "rcon": ports[3]}}}
    assert "no lab manager configured" in failure(preflight, no_manager)["detail"]
    no_ports = {**base_config, "lab": {**lab_section(lab_root, ports[2], ports[3]), "ports": {}}}
    assert "lab.ports.game is not reserved" in failure(preflight, no_ports)["detail"]


def test_the_reference_lab_manager_location_is_used_when_none_is_configured(
    tmp_path: Path, base_config: dict, preflight, lab_root: Path, ports: list[int]
) -> None:
    # A wrapper at tools/lab_server.py (the reference's path) is found relative to the working directory.
    (tmp_path / "tools").mkdir()
    manager = Path(__file__).with_name("lab_manager.py")
    (tmp_path / "tools/lab_server.py").write_text(
        f"import sys\nsys.path.insert(0, {str(manager.parent)!r})\nimport lab_manager\n"
        f"sys.exit(lab_manager.main(['--root', {str(lab_root)!r}, *sys.argv[1:]]))\n"
    )
    lab = {k: v for k, v in lab_section(lab_root, ports[2], ports[3]).items() if k != "manager"}
    result = entry(preflight({**base_config, "lab": lab}, checks=["lab_management"]).document, "lab_management")
    assert result["status"] == "PASS", result["detail"]
    assert result["versions"]["manager"] == [sys.executable, str(tmp_path / "tools/lab_server.py")]
    assert os.path.isfile(lab_root / "test-lab/console.log")
