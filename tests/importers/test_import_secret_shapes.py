"""Every default credential shape seeded into pi, Claude Code and Codex sessions (tool
arguments, results, messages) reaches neither the stored copy in imports/, nor the trajectory,
payloads, summary or audit report (issue 16.4). Through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from importer_helpers import CREATED, run_cli
from secret_shapes import SHAPES, leaks

TEXT = "\n".join(text for _, text, _ in SHAPES)
SECRETS = [secret for _, _, secret in SHAPES]
FORMATS = {"pi-v3-basic": "pi", "claude-code-basic": "claude-code", "codex-rollout-basic": "codex"}


def seed(value: Any) -> Any:
    """Every tool argument object gains the shapes; every text, output and content string too."""
    if isinstance(value, list):
        return [seed(item) for item in value]
    if not isinstance(value, dict):
        return value
    out = {}
    for key, item in value.items():
        if key in ("arguments", "input") and isinstance(item, dict):
            out[key] = {**seed(item), "note": TEXT}
        elif key == "arguments" and isinstance(item, str) and item.startswith("{"):
            out[key] = json.dumps({**json.loads(item), "note": TEXT})  # Codex: arguments as a JSON string
        elif key in ("text", "output", "content", "stdout") and isinstance(item, str):
            out[key] = f"{item}\n{TEXT}"
        else:
            out[key] = seed(item)
    return out


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_shapes_in_sessions_reach_no_file(name: str, samples: Path, tmp_path: Path) -> None:
    fmt = FORMATS[name]
    lines = [seed(json.loads(line)) for line in (samples / f"{name}.jsonl").read_text("utf-8").splitlines()]
    session = tmp_path / f"{name}.jsonl"
    session.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    raw = session.read_text("utf-8")
    assert all(json.dumps(secret)[1:-1] in raw for secret in SECRETS)  # the seeding worked
    run, reports = tmp_path / "run", tmp_path / "reports"
    init = run_cli("trace", "init", "--run-dir", str(run), "--run-id", "shapes", "--task-text", "t",
                   "--harness", fmt, "--model", "m", "--provider", "p", "--harness-version", "1",
                   "--created-at", CREATED)  # fmt: skip
    assert init.returncode == 0, init.stderr
    done = run_cli("trace", "import", "--run-dir", str(run), "--format", fmt, "--session", str(session))
    assert done.returncode == 0, done.stderr
    assert "were redacted" in done.stdout
    assert run_cli("trace", "summary", "--run-dir", str(run)).returncode == 0
    audit = run_cli("audit", "run", "--run-dir", str(run), "--out", str(reports), "--json")
    assert audit.returncode in (0, 1, 2), audit.stderr
    assert list((run / "imports").iterdir())
    assert leaks(run, SECRETS) == [] and leaks(reports, SECRETS) == []
