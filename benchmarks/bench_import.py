"""Import speed and memory: a generated pi session of N tool calls (default 50,000) into a fresh run.

Prints records/s of ``import_session`` (goal: >= 20,000 records/s, DESIGN §8) and, as the
baseline measured in the same process, the floor: reading, JSON-parsing and hashing the
session file once. The reference implementation re-reads the trajectory on every append
(quadratic: 15 s for 2,000 records, 271 s for 8,000). Each size is imported in a child
process of its own, so its peak RSS is the import's alone: it must not grow with the
session (goal: <= 150 MB + 4x the largest record), shown at N/5 and N calls.

    python benchmarks/bench_import.py [--calls 50000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pytest_coldstart.importers.pipeline import import_session
from pytest_coldstart.record.recorder import init_run
from pytest_coldstart.run import jsonio

GOAL = 20_000
RSS_BASE_MB = 150


def write_session(path: Path, calls: int) -> None:
    """A pi v3 session: one user prompt, then an assistant toolCall + toolResult per call."""
    start = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)

    def at(step: int) -> str:
        return (start + timedelta(milliseconds=10 * step)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"

    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps({"type": "session", "version": 3, "id": "bench", "timestamp": at(0), "cwd": "/w"}) + "\n")
        out.write(
            json.dumps(
                {
                    "type": "message",
                    "id": "u0",
                    "parentId": None,
                    "timestamp": at(1),
                    "message": {"role": "user", "content": "go"},
                }
            )
            + "\n"
        )
        parent = "u0"
        for n in range(calls):
            call_id, a_id, r_id = f"toolu_{n:08d}", f"a{n:07x}", f"r{n:07x}"
            assistant = {
                "type": "message",
                "id": a_id,
                "parentId": parent,
                "timestamp": at(2 + 2 * n),
                "message": {
                    "role": "assistant",
                    "stopReason": "toolUse",
                    "model": "m",
                    "provider": "p",
                    "content": [
                        {
                            "type": "toolCall",
                            "id": call_id,
                            "name": "bash",
                            "arguments": {"command": f"echo {n} && ls -la src/"},
                        }
                    ],
                },
            }
            result = {
                "type": "message",
                "id": r_id,
                "parentId": a_id,
                "timestamp": at(3 + 2 * n),
                "message": {
                    "role": "toolResult",
                    "toolCallId": call_id,
                    "toolName": "bash",
                    "isError": n % 17 == 0,
                    "content": [{"type": "text", "text": f"{n}\ntotal 8\n-rw-r--r-- 1 dev dev 120 main.py\n"}],
                },
            }
            out.write(json.dumps(assistant) + "\n")
            out.write(json.dumps(result) + "\n")
            parent = r_id


def floor_seconds(path: Path) -> float:
    began = time.perf_counter()
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for raw in handle:
            digest.update(raw)
            jsonio.loads(raw)
    return time.perf_counter() - began


def child(session: Path, run: Path) -> None:
    """One import in this process; prints its figures as JSON (peak RSS = this import's)."""
    init_run(
        run,
        run_id="bench",
        task_bytes=b"bench",
        task_source="inline",
        harness={"name": "pi", "version": "0", "model": "m", "provider": "p"},
        created_at="2026-05-01T08:00:00Z",
    )
    floor = floor_seconds(session)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    began, cpu = time.perf_counter(), time.process_time()
    summary = import_session(run, "pi", session)
    took, cpu = time.perf_counter() - began, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    records = json.loads((run / "run.json").read_text())["imports"][0]["records"]
    with open(run / "trajectory.jsonl", "rb") as lines:
        largest = max(len(line) for line in lines)
    print(
        json.dumps(
            {
                "records": records,
                "took": took,
                "cpu": cpu,
                "floor": floor,
                "summary": summary,
                "rss_before": before,
                "rss_peak": peak,
                "largest": largest,
            }
        )
    )


def measure(work: Path, calls: int, run: Path) -> dict[str, float]:
    session = work / f"session-{calls}.jsonl"
    write_session(session, calls)
    done = subprocess.run(
        [sys.executable, __file__, "--child", str(session), str(run)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    if done.returncode != 0:
        raise SystemExit(f"the import of {calls} calls failed: {done.stderr.strip()}")
    return {**json.loads(done.stdout), "mb": session.stat().st_size / 1e6, "calls": calls}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=50_000)
    parser.add_argument("--keep", help="keep the run directory here instead of a temporary one")
    parser.add_argument("--child", nargs=2, metavar=("SESSION", "RUN"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(Path(args.child[0]), Path(args.child[1]))
        return 0
    work = Path(tempfile.mkdtemp(prefix="bench-import-"))
    try:
        small = measure(work, max(1, args.calls // 5), work / "small")
        big = measure(work, args.calls, Path(args.keep) if args.keep else work / "run")
        rate, small_rate = big["records"] / big["took"], small["records"] / small["took"]
        print(big["summary"])
        print(f"session: {args.calls} calls, {big['mb']:.1f} MB")
        print(f"floor (read + parse + hash the session once): {big['floor']:.2f} s")
        print(
            f"import: {big['records']} records in {big['took']:.2f} s = {rate:,.0f} records/s "
            f"({big['took'] / big['floor']:.1f}x the floor); goal >= {GOAL:,} records/s: {'MET' if rate >= GOAL else 'MISSED'}"
        )
        print(
            f"cpu time of this process: {big['cpu']:.2f} s = {big['records'] / big['cpu']:,.0f} records/s "
            "(the importing process; wall time also counts other processes sharing the machine)"
        )
        print(
            f"linearity: {small_rate:,.0f} records/s at {small['records']} records, {rate:,.0f} at {big['records']} "
            f"(ratio {rate / small_rate:.2f}; a quadratic importer falls towards 0.1)"
        )
        largest = max(small["largest"], big["largest"])
        goal = RSS_BASE_MB + 4 * largest / 2**20
        met = big["rss_peak"] <= goal and small["rss_peak"] <= goal
        for one in (small, big):
            print(
                f"peak RSS: {one['rss_peak']:.0f} MB at {one['calls']:,} calls ({one['mb']:.1f} MB session; "
                f"{one['rss_before']:.0f} MB before the import)"
            )
        print(
            f"peak RSS growth: {big['rss_peak'] - small['rss_peak']:+.0f} MB for {big['mb'] - small['mb']:.1f} MB more session "
            f"(largest record {largest:,} bytes); goal <= {goal:.0f} MB at every size: {'MET' if met else 'MISSED'}"
        )
        return 0 if rate >= GOAL and met else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
