"""Eight hook processes at once (parallel tool calls of several agents) lose and tear nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from live_helpers import coldstart, new_run, of_kind

WRITERS, CALLS = 8, 12
#: one writer: CALLS PreToolUse/PostToolUse pairs, each a separate `coldstart hook` process
WRITER = """
import json, subprocess, sys
writer, run = sys.argv[1], sys.argv[2]
for i in range(1, int(sys.argv[3]) + 1):
    base = {"session_id": "s" + writer, "tool_name": "Bash", "tool_input": {"n": i}, "tool_use_id": f"w{writer}-{i}"}
    for event in ({"hook_event_name": "PreToolUse"}, {"hook_event_name": "PostToolUse", "tool_response": {"stdout": "ok"}}):
        done = subprocess.run([sys.executable, "-m", "pytest_coldstart", "hook", "claude-code", "--run-dir", run],
                              input=json.dumps({**base, **event}).encode(), capture_output=True)
        if done.returncode or done.stdout or done.stderr:
            sys.exit(f"hook {i}: {done}")
"""


def test_eight_concurrent_hooks_keep_every_record(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    env = {**os.environ, "COLDSTART_HOOK_BUDGET": "60"}
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(w), str(run), str(CALLS)], env=env, stderr=subprocess.PIPE)
        for w in range(WRITERS)
    ]
    for writer in writers:
        _, err = writer.communicate(timeout=600)
        assert writer.returncode == 0, err
    calls = of_kind(run, "call")
    assert sorted(c["call_id"] for c in calls) == sorted(
        f"w{w}-{i}" for w in range(WRITERS) for i in range(1, CALLS + 1)
    )
    assert len(of_kind(run, "result")) == WRITERS * CALLS
    lines = (run / "trajectory.jsonl").read_text().splitlines()
    assert [json.loads(line)["seq"] for line in lines] == list(range(1, len(lines) + 1))
    assert coldstart("trace", "validate", "--run-dir", str(run)).returncode == 0
