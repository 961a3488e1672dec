"""The real ``coldstart preflight`` command line, end to end (subprocesses)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from preflight_helpers import entry, lab_section

from pytest_coldstart.record.trajectory import iter_records
from pytest_coldstart.run import schemas
from pytest_coldstart.run.hashing import sha256_file
from pytest_coldstart.run.layout import RunDir

REPO = Path(__file__).resolve().parents[2]
FAST = "harness_identity,terminal,filesystem,ports"
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


def coldstart(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "pytest_coldstart", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def write_config(tmp_path: Path, document: dict) -> Path:
    path = tmp_path / "harness.json"
    path.write_text(json.dumps(document))
    return path


def test_list_names_every_builtin_in_order(tmp_path: Path) -> None:
    done = coldstart("preflight", "list", cwd=tmp_path)
    assert done.returncode == 0
    assert [line.split()[0] for line in done.stdout.splitlines()] == BUILTIN_IDS
    listed = json.loads(coldstart("preflight", "list", "--json", cwd=tmp_path).stdout)
    assert [c["id"] for c in listed] == BUILTIN_IDS and all(c["proves"] for c in listed)


def test_the_local_example_runs_as_a_new_user_would_run_it(tmp_path: Path, ports: list[int]) -> None:
    # The example's fixed ports may be taken by another test run on this machine: move them.
    done = coldstart(
        "preflight",
        "run",
        "--config",
        str(REPO / "examples/harness-local.json"),
        "--out",
        str(tmp_path / "out"),
        "--checks",
        FAST + ",build_install,bridge_cli,lab_management",
        "--set",
        f"ports.api={ports[0]}",
        "--set",
        f"ports.mod={ports[1]}",
        "--set",
        f"ports.range=[{min(ports[:2])},{max(ports[:2])}]",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "overall: PASS (5 PASS, 0 FAIL, 2 SKIP)" in done.stdout
    document = json.loads((tmp_path / "out/preflight.json").read_text())
    assert schemas.errors("preflight", document) == []
    assert document["harness"] == {
        "name": "local-python",
        "model": "example-model",
        "provider": "example-provider",
        "command": "python3",
        "version_output": document["harness"]["version_output"],
    }
    assert document["config"]["overrides"][0] == {"key": "ports.api", "value": ports[0]}
    assert (tmp_path / "out/preflight.md").read_text().startswith("# Harness preflight - local-python")
    for check in document["checks"]:
        for evidence in check["evidence"]:
            if evidence["kind"] in ("command", "transcript", "file"):
                assert sha256_file(tmp_path / "out" / evidence["path"])[0] == evidence["sha256"]


def test_the_reference_config_loads_and_runs_its_fast_subset(tmp_path: Path) -> None:
    done = coldstart(
        "preflight",
        "run",
        "--config",
        str(REPO / "examples/harness-pi.json"),
        "--out",
        str(tmp_path / "out"),
        "--checks",
        "terminal,filesystem",
        "--json",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["config"]["source_version"] == 1 and document["harness"]["model"] == "deepseek-flash"


def test_a_failed_check_exits_1(tmp_path: Path, base_config: dict) -> None:
    config = write_config(tmp_path, {**base_config, "command": "definitely-not-a-harness"})
    done = coldstart(
        "preflight",
        "run",
        "--config",
        str(config),
        "--out",
        str(tmp_path / "out"),
        "--checks",
        "harness_identity,terminal",
        cwd=tmp_path,
    )
    assert done.returncode == 1
    assert "FAIL  harness_identity" in done.stdout and "overall: FAIL" in done.stdout


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--checks", "ports,warp_drive"], "unknown check 'warp_drive'"),
        (["--skip", "warp_drive"], "unknown check 'warp_drive'"),
        (["--set", "build.java"], "expected KEY=VALUE"),
        (["--set", "name.first=x"], "name is a string, not an object"),
        (["--set", "lab.rcon_password=hunter2"], "looks like a credential"),
        (["--run-dir", "no-such-run"], "--run-dir: run directory does not exist"),
        (["--bogus"], "unrecognized arguments"),
    ],
)
def test_usage_errors_exit_64_with_one_line(tmp_path: Path, base_config: dict, extra: list[str], message: str) -> None:
    config = write_config(tmp_path, base_config)
    done = coldstart("preflight", "run", "--config", str(config), "--out", str(tmp_path / "out"), *extra, cwd=tmp_path)
    assert done.returncode == 64, done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr
    assert "hunter2" not in done.stderr


def test_a_bad_config_or_busy_out_exits_64(tmp_path: Path, base_config: dict) -> None:
    missing = coldstart("preflight", "run", "--config", "absent.json", "--out", "out", cwd=tmp_path)
    assert missing.returncode == 64 and "absent.json: harness config cannot be read" in missing.stderr
    config = write_config(tmp_path, base_config)
    (tmp_path / "out").mkdir()
    (tmp_path / "out/previous.txt").write_text("x")
    busy = coldstart("preflight", "run", "--config", str(config), "--out", "out", "--checks", "terminal", cwd=tmp_path)
    assert busy.returncode == 64 and "--out is not empty" in busy.stderr
    forced = coldstart(
        "preflight", "run", "--config", str(config), "--out", "out", "--checks", "terminal", "--force", cwd=tmp_path
    )
    assert forced.returncode == 0


def git_repo(path: Path) -> str:
    path.mkdir()
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "init", "-q"], cwd=path, check=True)
    (path / "README").write_text("lab\n")
    subprocess.run([*git, "add", "README"], cwd=path, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "init"], cwd=path, check=True)
    return subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=path, check=True, capture_output=True, text=True
    ).stdout.strip()


def test_run_dir_mark_and_the_audit_cross_check_accept_a_live_preflight(
    tmp_path: Path, base_config: dict, lab_root: Path, ports: list[int]
) -> None:
    repo = tmp_path / "repo"
    commit = git_repo(repo)
    run = tmp_path / "run"
    init = coldstart(
        "trace",
        "init",
        "--run-dir",
        str(run),
        "--run-id",
        "pf-1",
        "--task-text",
        "operate the machine",
        "--harness",
        "test-harness",
        "--model",
        "test-model",
        "--provider",
        "test-provider",
        "--harness-version",
        "1",
        cwd=repo,
    )
    assert init.returncode == 0, init.stderr
    config = write_config(tmp_path, {**base_config, "lab": lab_section(lab_root, ports[2], ports[3])})
    done = coldstart(
        "preflight",
        "run",
        "--config",
        str(config),
        "--out",
        str(run / "preflight"),
        "--run-dir",
        str(run),
        "--checks",
        "harness_identity,ports,lab_management",
        cwd=repo,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    report = run / "preflight/preflight.json"
    document = json.loads(report.read_text())
    assert document["environment"]["repo"] == commit and document["environment"]["run_dir"] == str(run)
    lab = entry(document, "lab_management")["versions"]
    assert lab["serverPort"] == ports[2] and lab["rconPort"] == ports[3] and lab["started"] is True
    mark = list(iter_records(RunDir(run)))[-1].value
    assert mark["record"] == "mark" and mark["name"] == "harness_preflight" and mark["actor"] == "operator"
    assert mark["data"] == {
        "overall": "PASS",
        "report": "preflight/preflight.json",
        "report_sha256": sha256_file(report)[0],
        "checks": {"harness_identity": "PASS", "ports": "PASS", "lab_management": "PASS"},
    }
    declared = coldstart(
        "trace",
        "evidence",
        "--run-dir",
        str(run),
        "--name",
        "preflight",
        "--path",
        "preflight/preflight.json",
        cwd=repo,
    )
    assert declared.returncode == 0, declared.stderr
    assert coldstart("trace", "validate", "--run-dir", str(run), cwd=repo).returncode == 0

    from pytest_coldstart.audit.engine import audit_run

    problems = [e for e in audit_run(run, write=False)["infra_errors"] if "preflight" in str(e)]
    assert problems == []


def test_the_audit_cross_check_rejects_a_preflight_whose_lab_was_skipped(
    tmp_path: Path, base_config: dict, lab_root: Path, ports: list[int]
) -> None:
    repo = tmp_path / "repo"
    git_repo(repo)
    run = tmp_path / "run"
    coldstart(
        "trace",
        "init",
        "--run-dir",
        str(run),
        "--run-id",
        "pf-2",
        "--task-text",
        "t",
        "--harness",
        "test-harness",
        "--model",
        "test-model",
        "--provider",
        "test-provider",
        "--harness-version",
        "1",
        cwd=repo,
    )
    config = write_config(tmp_path, {**base_config, "lab": lab_section(lab_root, ports[2], ports[3], start=False)})
    done = coldstart(
        "preflight",
        "run",
        "--config",
        str(config),
        "--out",
        str(run / "preflight"),
        "--run-dir",
        str(run),
        "--checks",
        "harness_identity,ports,lab_management",
        cwd=repo,
    )
    assert done.returncode == 0  # PASS overall: SKIP does not fail a preflight ...
    coldstart(
        "trace",
        "evidence",
        "--run-dir",
        str(run),
        "--name",
        "preflight",
        "--path",
        "preflight/preflight.json",
        cwd=repo,
    )

    from pytest_coldstart.audit.engine import audit_run

    problems = [e for e in audit_run(run, write=False)["infra_errors"] if "preflight" in str(e)]
    assert any("lab_management" in str(p) for p in problems)  # ... but it is no live lab for the audit
