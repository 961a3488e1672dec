"""End to end through the real ``coldstart`` CLI (subprocess)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from importer_helpers import run_cli

CREATED = "2026-01-01T00:00:00Z"


def _init(run: Path) -> None:
    done = run_cli(
        "trace",
        "init",
        "--run-dir",
        str(run),
        "--run-id",
        run.name,
        "--task-text",
        "fix it",
        "--harness",
        "pi",
        "--model",
        "m",
        "--provider",
        "p",
        "--harness-version",
        "0.73.1",
        "--created-at",
        CREATED,
    )
    assert done.returncode == 0, done.stderr


def test_import_pi_from_the_environment_then_validate(samples: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    _init(run)
    env = {"PI_SESSION_FILE": str(samples / "pi-v3-branched.jsonl")}
    done = run_cli("trace", "import-pi", "--run-dir", str(run), env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("imported pi session pi-v3-branched.jsonl as imports/pi-v3-branched.jsonl")
    assert "6 calls (5 ok, 1 error, 0 open; 2 on abandoned branches)" in done.stdout
    again = run_cli(
        "trace", "import", "--run-dir", str(run), "--format", "pi", "--session", str(samples / "pi-v3-branched.jsonl")
    )
    assert again.returncode == 1 and "already imported" in again.stderr and "Traceback" not in again.stderr
    check = run_cli("trace", "validate", "--run-dir", str(run), "--json")
    assert check.returncode == 0, check.stdout
    assert json.loads(check.stdout)["valid"] is True


def test_import_codex_and_claude_with_a_phase(samples: Path, tmp_path: Path) -> None:
    for name, fmt in (("codex-rollout-basic", "codex"), ("claude-code-basic", "claude-code")):
        run = tmp_path / name
        _init(run)
        done = run_cli(
            "trace",
            "import",
            "--run-dir",
            str(run),
            "--format",
            fmt,
            "--session",
            str(samples / f"{name}.jsonl"),
            "--phase",
            "prepare",
        )
        assert done.returncode == 0, done.stderr
        imported = [json.loads(line) for line in (run / "trajectory.jsonl").read_text().splitlines()][2:]
        assert {r["phase"] for r in imported if r["record"] != "result"} == {"prepare"}
        assert run_cli("trace", "validate", "--run-dir", str(run)).returncode == 0


def test_bad_session_is_one_line_and_writes_nothing(samples: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    _init(run)
    lines = (samples / "pi-v3-basic.jsonl").read_bytes().split(b"\n")
    lines[4] = b'{"type": "message", oops'
    session = tmp_path / "bad.jsonl"
    session.write_bytes(b"\n".join(lines))
    before = (run / "trajectory.jsonl").read_bytes(), (run / "run.json").read_bytes()
    done = run_cli("trace", "import-pi", "--run-dir", str(run), "--session", str(session))
    assert done.returncode == 1
    assert done.stderr.strip().count("\n") == 0 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"coldstart: {session}:5: malformed JSON")
    assert ((run / "trajectory.jsonl").read_bytes(), (run / "run.json").read_bytes()) == before
    assert os.listdir(run / "imports") == []


def test_usage_errors_exit_64(samples: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    _init(run)
    unknown = run_cli(
        "trace", "import", "--run-dir", str(run), "--format", "nope", "--session", str(samples / "pi-v3-basic.jsonl")
    )
    assert unknown.returncode == 64 and "unknown session format 'nope'" in unknown.stderr
    missing = run_cli("trace", "import-pi", "--run-dir", str(run), env={"PI_SESSION_FILE": ""})
    assert missing.returncode == 64 and "PI_SESSION_FILE" in missing.stderr
