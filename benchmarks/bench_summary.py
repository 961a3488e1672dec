"""summary.json speed and memory on a large run, against the floor measured in the same process.

Builds a run of N tool calls (default 20,000; each result ~2 kB, every 50th one 40 kB so it
goes to the gzip payload store) plus state, action and decision records, then prints:
the floor (read, JSON-parse and hash every trajectory byte once), ``summary.build`` time as a
ratio of the floor, and the Python heap peak of the summary pass (it streams: the peak grows
with the number of calls, not with the bytes).

    python benchmarks/bench_summary.py [--calls 20000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
import tracemalloc
from datetime import UTC, datetime
from pathlib import Path

from bench_import import floor_seconds  # the same floor as the import benchmark (sibling script)

from pytest_coldstart.analysis import summary
from pytest_coldstart.demo.facts import fixed
from pytest_coldstart.record import records
from pytest_coldstart.record.recorder import init_run
from pytest_coldstart.run.clock import FixedClock

BATCH = 2000


def build(run: Path, calls: int) -> None:
    clock = FixedClock(datetime(2026, 5, 1, 9, 0, tzinfo=UTC))
    recorder = init_run(
        run,
        run_id="bench",
        task_bytes=b"bench",
        task_source="inline",
        harness={"name": "bench", "model": "m", "provider": "p", "version": "1"},
        logging={"compression": "gzip"},
        clock=clock,
        **fixed(),
    )
    pending: list[dict] = []
    for n in range(calls):
        body = (f"row {n} of the tool output\n") * (2000 if n % 50 == 0 else 90)
        pending.append(
            {
                "record": "call",
                "call_id": f"c{n}",
                "tool": ("bash", "read", "bridge")[n % 3],
                "arguments": {"command": f"step {n}"},
            }
        )
        pending.append(
            {
                "record": "result",
                "call_id": f"c{n}",
                "status": "error" if n % 17 == 0 else "ok",
                "result": {"text": body},
                "duration_ms": n % 400,
            }
        )
        if n % 10 == 0:
            pending.append(
                records.state("observed", {"tick": n // 20, "hp": 10}, call_id=f"c{n}", returned_to_agent=True)
            )
            pending.append(records.action("requested", f"a{n}", tool="bridge"))
            pending.append(
                records.action("resolved", f"a{n}", tool="bridge", outcome="invalid" if n % 30 == 0 else "success")
            )
            pending.append(records.decision("next step", related_call_id=f"c{n}", tags=["bench"]))
        if len(pending) >= BATCH:
            recorder.appender.append_many([recorder.prepare(f) for f in pending])
            pending = []
    if pending:
        recorder.appender.append_many([recorder.prepare(f) for f in pending])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--keep", help="build the run here and keep it")
    args = parser.parse_args()
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-summary-"))
    run = base / "run"
    try:
        started = time.perf_counter()
        build(run, args.calls)
        size = (run / "trajectory.jsonl").stat().st_size
        print(
            f"run: {args.calls} calls, trajectory {size / 1e6:.1f} MB, built in {time.perf_counter() - started:.1f} s"
        )
        floor = floor_seconds(run / "trajectory.jsonl")
        tracemalloc.start()
        start = time.perf_counter()
        doc = summary.build(run)
        took = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        start = time.perf_counter()
        summary.build(run)
        untraced = time.perf_counter() - start
        print(f"floor (read + parse + hash the trajectory once): {floor:.2f} s")
        print(
            f"summary.build: {untraced:.2f} s = {untraced / floor:.1f}x the floor ({doc['records']['total']} records)"
        )
        print(f"summary heap peak: {peak / 1e6:.1f} MB for a {size / 1e6:.1f} MB trajectory (traced run: {took:.2f} s)")
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
