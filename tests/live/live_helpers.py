"""Helpers of the live-capture tests: runs opened with the CLI, hook payloads replayed through it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "live"
HOOKS = EXAMPLES / "claude-code-hooks.jsonl"
SESSION = EXAMPLES / "claude-code-session.jsonl"
CREATED = "2026-12-03T09:00:00.000Z"


def coldstart(
    *args: str, input: bytes | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "pytest_coldstart", *args],
        input=input,
        capture_output=True,
        env={**os.environ, **(env or {})},
        timeout=120,
    )


def new_run(root: Path, name: str = "run") -> Path:
    run = root / name
    task = root / "task.md"
    task.write_text("Operate the machine and report every cart.\n")
    done = coldstart(
        "trace", "init", "--run-dir", str(run), "--run-id", name, "--task-file", str(task),
        "--harness", "claude-code", "--model", "claude-sonnet-4-6", "--provider", "anthropic",
        "--harness-version", "2.1.90", "--created-at", CREATED,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return run


def payloads(path: Path = HOOKS) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def replay(
    run: Path | None, items: list[dict[str, Any]], harness: str = "claude-code", env: dict[str, str] | None = None
) -> list[subprocess.CompletedProcess[bytes]]:
    """Each payload through ``coldstart hook`` as the harness would call it; every exit must be 0
    with nothing on stdout (Claude Code feeds a hook's stdout to the agent)."""
    done = []
    for item in items:
        args = ["hook", harness] + (["--run-dir", str(run)] if run is not None else [])
        result = coldstart(*args, input=json.dumps(item).encode(), env=env)
        assert result.returncode == 0 and result.stdout == b"", (item, result)
        done.append(result)
    return done


def records(run: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run / "trajectory.jsonl").read_text().splitlines()]


def of_kind(run: Path, kind: str) -> list[dict[str, Any]]:
    return [r for r in records(run) if r["record"] == kind]


def audit(run: Path) -> dict[str, Any]:
    done = coldstart("audit", "run", "--run-dir", str(run), "--json")
    assert done.returncode in (0, 1, 2), done.stderr
    return json.loads(done.stdout)
