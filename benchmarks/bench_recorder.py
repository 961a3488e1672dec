"""Recorder and validate benchmark (issue 2). Prints, for this machine and this run:

1. append throughput through the Python API (``Recorder.call``/``result``: one locked,
   fsynced, hash-chained line each), and bulk ``append_many`` throughput for comparison;
2. the median latency of one ``coldstart trace call`` process (the way harnesses call it, once
   per tool call; goal <= 100 ms including process start), next to ``python -c pass`` as the
   baseline measured in the same run, plus the process's CPU time (less sensitive to a busy
   machine than wall time), with and without a bytecode cache;
3. ``validate`` time on 100k and 1M records, the ratio (10 = linear), and the floor: reading,
   JSON-parsing and hashing every line once in the same process.

Usage: python benchmarks/bench_recorder.py [--quick] [--keep DIR]
(--quick: 20k/200k records and fewer repetitions; the ratio is still printed.)
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from installed import installed_env

from pytest_coldstart.record.recorder import Recorder, init_run
from pytest_coldstart.run import jsonio

HARNESS = {"name": "bench", "version": "1", "model": "m", "provider": "p"}
FIXED = {
    "machine": {"platform": "bench"},
    "repo": {"root": "", "commit": "", "branch": "", "dirty_entries": 0},
    "tool": {"name": "pytest-coldstart", "version": "bench", "commit": None},
}


def new_run(path: Path) -> Recorder:
    return init_run(
        path, run_id=path.name, task_bytes=b"benchmark task\n", task_source="inline", harness=HARNESS, **FIXED
    )


def api_throughput(root: Path, pairs: int) -> tuple[float, float]:
    """(records/s one record per append, records/s with append_many batches of 1000)."""
    recorder = new_run(root / "api")
    start = time.perf_counter()
    for i in range(pairs):
        recorder.call(f"c{i}", "bash", {"command": f"echo {i}"})
        recorder.result(f"c{i}", "ok", {"text": f"{i}\n"}, duration_ms=1.0)
    single = 2 * pairs / (time.perf_counter() - start)
    bulk = new_run(root / "bulk")
    records = []
    for i in range(20 * pairs):
        records.append(
            bulk.prepare({"record": "call", "call_id": f"c{i}", "tool": "bash", "arguments": {"command": f"echo {i}"}})
        )
        records.append(
            bulk.prepare({"record": "result", "call_id": f"c{i}", "status": "ok", "result": {"text": f"{i}\n"}})
        )
    start = time.perf_counter()
    for offset in range(0, len(records), 1000):
        bulk.appender.append_many(records[offset : offset + 1000])
    return single, len(records) / (time.perf_counter() - start)


def _timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) for one process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"benchmark command failed: {' '.join(command)}: {process.stderr.read().decode()}")
    process.stderr.close()
    return wall, usage.ru_utime + usage.ru_stime


def cli_latency(root: Path, repeat: int) -> dict[str, float]:
    """Medians over ``repeat`` processes. As installed (bytecode cached, in a private pycache
    prefix so the checkout stays clean), and with PYTHONDONTWRITEBYTECODE=1 (every module
    compiled from source in every process, as in some sandboxes)."""
    run = root / "cli"
    new_run(run)
    script = Path(sys.executable).with_name("coldstart")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "pytest_coldstart"]
    cached = installed_env(root / "pycache")
    uncached = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}

    def call(name: str, env: dict[str, str]) -> tuple[float, float]:
        return _timed(
            [
                *command,
                "trace",
                "call",
                "--run-dir",
                str(run),
                "--call-id",
                name,
                "--tool",
                "bash",
                "--arguments",
                '{"command": "ls"}',
            ],
            env,
        )

    call("warm-up", cached)  # writes the bytecode cache
    base = [_timed([sys.executable, "-c", "pass"], cached) for _ in range(repeat)]
    warm = [call(f"cached-{i}", cached) for i in range(repeat)]
    cold = [call(f"uncached-{i}", uncached) for i in range(repeat)]
    return {
        "baseline_wall": statistics.median(w for w, _ in base),
        "call_wall": statistics.median(w for w, _ in warm),
        "call_wall_min": min(w for w, _ in warm),
        "call_cpu": statistics.median(c for _, c in warm),
        "nocache_wall": statistics.median(w for w, _ in cold),
        "nocache_cpu": statistics.median(c for _, c in cold),
    }


def build_trajectory(path: Path, records: int) -> None:
    """A run with ``records`` lines (call/result pairs after init), written in bulk."""
    recorder = new_run(path)
    batch = []
    for i in range((records - 2) // 2):
        batch.append(
            recorder.prepare(
                {
                    "record": "call",
                    "call_id": f"call-{i:07d}",
                    "tool": "bash",
                    "arguments": {"command": f"grep -n pattern file_{i}.py"},
                    "phase": "agent",
                    "actor": "agent",
                }
            )
        )
        batch.append(
            recorder.prepare(
                {
                    "record": "result",
                    "call_id": f"call-{i:07d}",
                    "status": "ok",
                    "result": {"text": f"{i}: a matching line of output\n"},
                    "duration_ms": 12.5,
                }
            )
        )
        if len(batch) >= 20000:
            recorder.appender.append_many(batch, check_calls=False)
            batch = []
    if batch:
        recorder.appender.append_many(batch, check_calls=False)


def floor_seconds(path: Path) -> float:
    start = time.perf_counter()
    for line in jsonio.iter_jsonl(path / "trajectory.jsonl"):
        hashlib.sha256(line.raw).hexdigest()
    return time.perf_counter() - start


VALIDATE_CHILD = """
import sys, time
from pytest_coldstart.validate.run import validate_run
start = time.perf_counter()
report = validate_run(sys.argv[1])
print(time.perf_counter() - start, report.valid)
"""


def validate_in_child(path: Path) -> tuple[float, float]:
    """(seconds inside validate_run, peak RSS of the validating process in MB)."""
    process = subprocess.Popen([sys.executable, "-c", VALIDATE_CHILD, str(path)], stdout=subprocess.PIPE, text=True)
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.stdout.close()
    if os.waitstatus_to_exitcode(status) != 0 or not out.strip().endswith("True"):
        raise SystemExit(f"validating {path} failed or found the benchmark run invalid: {out.strip()}")
    seconds = out.split()[0]
    return float(seconds), usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--keep", help="build the runs in this directory and keep them")
    args = parser.parse_args()
    small, large = (20_000, 200_000) if args.quick else (100_000, 1_000_000)
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-recorder-"))
    root.mkdir(parents=True, exist_ok=True)
    try:
        single, bulk = api_throughput(root, 100 if args.quick else 250)
        print(f"append, Python API, one fsynced record per call: {single:,.0f} records/s")
        print(f"append, Python API, append_many (1000 per batch): {bulk:,.0f} records/s")
        latency = cli_latency(root, 10 if args.quick else 30)
        print(
            f"`coldstart trace call` process: median {latency['call_wall'] * 1000:.1f} ms wall (min {latency['call_wall_min'] * 1000:.1f} ms), "
            f"{latency['call_cpu'] * 1000:.1f} ms CPU; baseline `python -c pass` {latency['baseline_wall'] * 1000:.1f} ms; goal <= 100 ms"
        )
        print(
            f"  without a bytecode cache (PYTHONDONTWRITEBYTECODE=1): median {latency['nocache_wall'] * 1000:.1f} ms wall, "
            f"{latency['nocache_cpu'] * 1000:.1f} ms CPU"
        )
        times = {}
        for count in (small, large):
            path = root / f"validate-{count}"
            build_trajectory(path, count)
            size = (path / "trajectory.jsonl").stat().st_size
            floor = floor_seconds(path)
            times[count], peak = validate_in_child(path)
            print(
                f"validate {count:,} records ({size / 1e6:.0f} MB): {times[count]:.2f} s ({times[count] / count * 1e6:.1f} us/record), "
                f"peak RSS {peak:.0f} MB; floor (read + parse + hash each line) {floor:.2f} s; validate/floor {times[count] / floor:.1f}x"
            )
            if not args.keep:
                shutil.rmtree(path)
        print(f"validate time ratio {large:,} / {small:,} records: {times[large] / times[small]:.1f} (10.0 = linear)")
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
