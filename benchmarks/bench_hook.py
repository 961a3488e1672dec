"""Wall time of one `coldstart hook claude-code` invocation, interpreter start included.

A harness runs the hook once per event, synchronously; the goal is a median of at most 50 ms.
Baselines measured in the same run: a bare `python -c pass` (interpreter start, the floor of
any hook written in Python) and `coldstart trace call` (the hand-typed recorder command).
Every process runs as installed code does: with a bytecode cache (a private one here, so the
checkout stays clean), even where the environment sets PYTHONDONTWRITEBYTECODE (then every
module would be compiled from source in every process: see bench_recorder for that figure).

    python benchmarks/bench_hook.py [--events 200] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOAL_MS = 50.0


sys.path.insert(0, str(Path(__file__).resolve().parent))
from installed import installed_env  # noqa: E402 - a sibling module of the benchmarks

ENV: dict[str, str] = dict(os.environ)  # set in main(): as installed code runs


def _time(argv: list[str], payload: bytes | None) -> float:
    started = time.perf_counter()
    done = subprocess.run(argv, input=payload, capture_output=True, env=ENV)
    elapsed = (time.perf_counter() - started) * 1000
    if done.returncode != 0 or done.stderr:
        raise SystemExit(f"{argv[:5]} failed: {done.stderr.decode()[:300]}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=200, help="hook invocations (half PreToolUse, half PostToolUse)")
    parser.add_argument("--quick", action="store_true", help="40 events")
    args = parser.parse_args()
    events = 40 if args.quick else args.events
    python = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        ENV.clear()
        ENV.update(installed_env(root / "pycache"))
        (root / "task.md").write_text("the task\n")
        subprocess.run(
            [python, "-m", "pytest_coldstart", "trace", "init", "--run-dir", str(root / "run"), "--run-id", "bench",
             "--task-file", str(root / "task.md"), "--harness", "claude-code", "--model", "m", "--provider", "p",
             "--harness-version", "1"],
            check=True, capture_output=True, env=ENV,
        )  # fmt: skip
        run = str(root / "run")
        hook = [python, "-m", "pytest_coldstart", "hook", "claude-code", "--run-dir", run]
        floor, hooks, calls = [], [], []
        for n in range(events // 2):
            floor.append(_time([python, "-c", "pass"], None))
            base = {"session_id": "s", "cwd": "/w", "tool_name": "Bash", "tool_input": {"command": f"echo {n}"}}
            pre = {**base, "hook_event_name": "PreToolUse", "tool_use_id": f"t{n}"}
            post = {
                **base,
                "hook_event_name": "PostToolUse",
                "tool_use_id": f"t{n}",
                "tool_response": {"stdout": str(n)},
            }
            hooks.append(_time(hook, json.dumps(pre).encode()))
            hooks.append(_time(hook, json.dumps(post).encode()))
            calls.append(
                _time([python, "-m", "pytest_coldstart", "trace", "call", "--run-dir", run, "--call-id", f"c{n}",
                       "--tool", "bash", "--arguments", "{}"], None)
            )  # fmt: skip
    median = statistics.median(hooks)
    load = os.getloadavg()[0]
    print(f"machine load average (1 min): {load:.2f} on {os.cpu_count()} cores")
    print(f"python -c pass (interpreter start): median {statistics.median(floor):.1f} ms")
    print(f"coldstart trace call:               median {statistics.median(calls):.1f} ms")
    print(f"coldstart hook claude-code:         median {median:.1f} ms, p90 {sorted(hooks)[int(len(hooks) * 0.9)]:.1f} ms"
          f" over {len(hooks)} events; {median / statistics.median(floor):.1f}x the interpreter start")  # fmt: skip
    met = median <= GOAL_MS
    print(f"goal: median <= {GOAL_MS:.0f} ms including interpreter start: {'met' if met else 'MISSED'}")
    return 0 if met or args.quick else 1  # --quick is a smoke run: too few events to judge


if __name__ == "__main__":
    raise SystemExit(main())
