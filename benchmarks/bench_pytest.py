"""pytest over thousands of runs: the plugin's overhead per run beyond the audit, and -n 2.

Generates ``--runs`` (default 2000) small runs: one of every catalogue scenario built by
``pytest_coldstart.scenarios``, copied round-robin (each copy is its own run directory with its
own cache key). Then, each in a fresh process, it measures
  audit     = ``audit_run`` on every run (the audit itself, nothing else),
  startup   = pytest with the plugin over an empty runs folder (paid once, not per run),
  serial    = ``pytest --coldstart-runs=DIR`` (cold, in-memory audit cache),
  xdist     = the same with ``-n 2`` (cold; workers share audits through the on-disk cache),
  warm      = serial again over a warm on-disk cache (what an unchanged CI lab costs),
and prints (serial - startup - audit) / runs (goal <= 20 ms, DESIGN §8) and serial / xdist.

pytest's own failure summary is quadratic in the number of failures (each failure scans every
teardown report), so the timed sessions use ``--tb=line``; ``--default-tb`` adds one session
with pytest's default to show that cost. Figures are printed, never asserted.

    python benchmarks/bench_pytest.py --runs 2000
    python benchmarks/bench_pytest.py --runs 200 --calls 2000    # bigger runs
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

AUDIT_ONLY = """
import sys, time
from pathlib import Path
from pytest_coldstart.audit import audit_run
runs = sorted(p.parent for p in Path(sys.argv[1]).glob("*/run.json"))
audit_run(runs[0], write=False)  # imports and first-use caches are not per-run work
started = time.perf_counter()
for run in runs:
    audit_run(run, write=False)
print(time.perf_counter() - started)
"""


def generate(target: Path, count: int, calls: int) -> list[str]:
    from pytest_coldstart.scenarios import SCENARIOS, RunBuilder

    models = target.parent / "models"
    names = sorted(SCENARIOS)
    for name in names:
        scenario = SCENARIOS[name]
        builder = scenario.configure(RunBuilder(models / name, run_id=scenario.run_id))
        builder.filler(calls, 1024).build() if calls else builder.build()
    for number in range(count):
        name = names[number % len(names)]
        shutil.copytree(models / name, target / f"run-{number:05d}-{name}", symlinks=True)
    shutil.rmtree(models)
    return names


def timed(command: list[str], cwd: Path) -> tuple[float, str]:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 1, 5):  # 5: no tests (the empty-folder baseline)
        sys.exit(f"{' '.join(command)} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    return elapsed, lines[-1] if lines else ""


def pytest_command(runs: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "pytest", f"--coldstart-runs={runs}", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", *extra]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--calls", type=int, default=0, help="extra agent calls per run (bigger runs: the audit dominates)")
    parser.add_argument("--default-tb", action="store_true", help="also time one session with pytest's default --tb")
    parser.add_argument("--keep", metavar="DIR", help="generate into DIR and keep it")
    args = parser.parse_args()
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-pytest-"))
    runs, empty, work = base / "runs", base / "empty", base / "work"
    for folder in (empty, work):
        folder.mkdir(parents=True, exist_ok=True)
    try:
        started = time.perf_counter()
        names = generate(runs, args.runs, args.calls)
        size = sum(p.stat().st_size for p in runs.rglob("*") if p.is_file()) / args.runs / 1024
        print(f"generated {args.runs} runs ({len(names)} scenarios, {size:.0f} KiB each) in {time.perf_counter() - started:.1f}s")

        done = subprocess.run([sys.executable, "-c", AUDIT_ONLY, str(runs)], capture_output=True, text=True, check=True)
        audit = float(done.stdout.strip().splitlines()[-1])
        startup, _ = timed(pytest_command(empty), work)
        serial, serial_line = timed(pytest_command(runs, "--tb=line"), work)
        xdist, xdist_line = timed(pytest_command(runs, "--tb=line", "-n", "2"), work)
        cache = base / "cache"
        timed(pytest_command(runs, "--tb=line", f"--coldstart-cache-dir={cache}"), work)
        warm, _ = timed(pytest_command(runs, "--tb=line", f"--coldstart-cache-dir={cache}"), work)

        per_run = (serial - startup - audit) / args.runs * 1000
        print(f"audit only        {audit:8.2f} s  ({audit / args.runs * 1000:.2f} ms per run)")
        print(f"pytest startup    {startup:8.2f} s  (once per session)")
        print(f"pytest serial     {serial:8.2f} s  {serial_line}")
        print(f"pytest -n 2       {xdist:8.2f} s  {xdist_line}")
        print(f"pytest warm cache {warm:8.2f} s  ({(warm - startup) / args.runs * 1000:.2f} ms per run, no audit)")
        print(f"overhead beyond the audit: {per_run:.2f} ms per run (goal <= 20 ms)  {'OK' if per_run <= 20 else 'ABOVE GOAL'}")
        print(f"-n 2 speedup: {serial / xdist:.2f}x on {os.cpu_count()} CPU(s)")
        if args.default_tb:
            default, _ = timed(pytest_command(runs), work)
            print(f"pytest serial, default --tb: {default:.2f} s ({(default - startup - audit) / args.runs * 1000:.2f} ms per run)")
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
