"""Audit speed and memory against the floor (DESIGN §8).

Generates a valid run of about ``--mb`` megabytes (default 200) with the scenario builder
(the passing story plus ordinary agent calls; ``--seal`` seals it, as a finished run is),
then, in a fresh child process, measures
  floor  = reading, JSON-parsing and hashing every byte of the run once, and
  audit  = pytest_coldstart.audit.audit_run on the same run (validate included: its one read
           of the trajectory feeds the audit's scanner),
and prints audit/floor (goal <= 3x), the same in CPU seconds (the machine may be shared), and
the child's peak RSS against half the run's size plus 150 MB. Ratios are measured in the same
process, never asserted in unit tests.

    python benchmarks/bench_audit.py --mb 20 [--seal]
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
from pathlib import Path

RESULT_BYTES = 4096


def generate(target: Path, megabytes: float, sealed: bool) -> Path:
    from pytest_coldstart.demo.scenarios import RunBuilder
    from pytest_coldstart.record.seal import seal

    calls = max(1, int(megabytes * 1024 * 1024 / (RESULT_BYTES + 700)))
    started = time.perf_counter()
    run = RunBuilder(target, run_id="bench-audit").passing().filler(calls, RESULT_BYTES).build()
    if sealed:
        seal(run)
    print(f"generated {calls} filler calls in {time.perf_counter() - started:.1f}s", file=sys.stderr)
    return run


def run_files(run: Path) -> list[Path]:
    return sorted(
        p for p in run.rglob("*") if p.is_file() and p.relative_to(run).parts[0] not in (".coldstart", "audit")
    )


def floor(run: Path) -> float:
    """Read, parse and hash every byte of the run once (the cost no audit can avoid)."""
    started = time.perf_counter()
    for path in run_files(run):
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            if path.suffix == ".jsonl":
                for line in handle:
                    digest.update(line)
                    if line.strip():
                        json.loads(line)
            else:
                data = handle.read()
                digest.update(data)
                if path.suffix == ".json" or path.parent.name == "payloads":
                    json.loads(data)
        digest.hexdigest()
    return time.perf_counter() - started


def cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def own_peak_mb() -> float:
    """This process's peak RSS. VmHWM belongs to the process image, so it starts afresh at exec;
    ru_maxrss on Linux keeps the high-water mark of the parent at fork (a benchmark that grew
    while generating runs would lend its size to every child)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(run: Path, repeat: int) -> None:
    from pytest_coldstart.audit import audit_run

    floor(run)  # warm the page cache so both timings read from memory
    floors, audits, floor_cpu, audit_cpu = [], [], [], []
    report = None
    for _ in range(repeat):
        started, spent = time.perf_counter(), cpu()
        floor(run)
        floors.append(time.perf_counter() - started)
        floor_cpu.append(cpu() - spent)
        started, spent = time.perf_counter(), cpu()
        report = audit_run(run, write=False)
        audits.append(time.perf_counter() - started)
        audit_cpu.append(cpu() - spent)
    own = own_peak_mb()
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(
        json.dumps(
            {
                "floor_s": min(floors),
                "audit_s": min(audits),
                "floor_cpu": min(floor_cpu),
                "audit_cpu": min(audit_cpu),
                "peak_rss_mb": own,
                "child_peak_rss_mb": children,
                "overall": report["overall"],
            }
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=200.0, help="approximate run size in MB (default 200)")
    parser.add_argument("--dir", help="where to generate the run (default: a temporary directory)")
    parser.add_argument("--keep", action="store_true", help="keep the generated run")
    parser.add_argument("--repeat", type=int, default=3, help="measure N times, keep the best (default 3)")
    parser.add_argument(
        "--seal", action="store_true", help="seal the generated run (the seal lists the trajectory's hash)"
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(Path(args.child), args.repeat)
        return 0
    base = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="bench-audit-"))
    run = base / "run"
    try:
        if not run.exists():
            generate(run, args.mb, args.seal)
        size_mb = sum(p.stat().st_size for p in run_files(run)) / (1024 * 1024)
        done = subprocess.run(
            [sys.executable, __file__, "--child", str(run), "--repeat", str(args.repeat)],
            capture_output=True,
            text=True,
            check=True,
        )
        result = json.loads(done.stdout.strip().splitlines()[-1])
        ratio = result["audit_s"] / result["floor_s"]
        rss_goal = size_mb / 2 + 150
        sealed = "sealed" if json.loads((run / "run.json").read_text()).get("seal") else "open"
        print(f"run size            {size_mb:9.1f} MB  ({sealed} run, verdict {result['overall']})")
        print(f"floor               {result['floor_s']:9.2f} s   (read + JSON-parse + sha256 of every byte)")
        print(f"audit               {result['audit_s']:9.2f} s")
        print(f"audit / floor       {ratio:9.2f} x   wall time (goal <= 3x: {'met' if ratio <= 3 else 'NOT met'})")
        print(
            f"audit / floor CPU   {result['audit_cpu'] / result['floor_cpu']:9.2f} x   CPU seconds ({result['floor_cpu']:.2f} s floor, "
            f"{result['audit_cpu']:.2f} s audit, all processes)"
        )
        peak = max(result["peak_rss_mb"], result["child_peak_rss_mb"])
        print(
            f"peak RSS            {peak:9.1f} MB  largest process (goal <= {rss_goal:.0f} MB = size/2 + 150: {'met' if peak <= rss_goal else 'NOT met'})"
        )
    finally:
        if not args.keep and not args.dir:
            shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
