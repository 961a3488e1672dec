"""Parallel audits: ``coldstart audit batch`` and pytest, 1 vs 2 (or --jobs) processes, cold cache.

Generates ``--runs`` runs of about ``--mb`` MB each (audit-dominated), then times, each with
an empty cache:
  batch --jobs 1 / --jobs N              (the process pool)
  batch --scheduler local                (a Dask LocalCluster of N workers, with --dask)
  pytest --coldstart-jobs 1 / N          (the plugin's pool)
  pytest serial / -n N                   (xdist, workers sharing the cache)
and the same pytest pair over ``--small`` tiny runs, where xdist's cost per item is larger
than the audit it spreads. Prints each speed-up with its goal (met/missed) and the machine's
load (the ratios need N idle cores).

    python benchmarks/bench_batch.py [--runs 8 --mb 25 --small 300 --jobs 2 --dask --formats 1,2 --repeat 3]

Every process runs as installed code does, with a bytecode cache (``installed.py``).
Each figure is printed for every format given (``--formats``, default both): version-1 runs
are the version-2 ones rewritten in the reference layout (``shapes.to_version_1``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def generate(root: Path, runs: int, megabytes: float, small: int, fmt: int = 2) -> None:
    from pytest_coldstart.demo.scenarios import RunBuilder, build_run

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from shapes import to_version_1

    calls = max(1, int(megabytes * 1024 * 1024 / 2800))
    built = []
    for number in range(runs):
        run = root / "big" / f"run-{number:03}"
        RunBuilder(run, run_id=f"big-{number}").passing().filler(calls, 2048).build()
        built.append(run)
    for number in range(small):
        run = root / "small" / f"run-{number:04}"
        build_run(run, "passing" if number % 3 else "pending_reviews")
        built.append(run)
    if fmt == 1:
        for run in built:
            to_version_1(run)


sys.path.insert(0, str(Path(__file__).resolve().parent))
from installed import installed_env  # noqa: E402 - a sibling module of the benchmarks

#: every timed process runs as installed code does (installed.py); set in main()
ENV: dict[str, str] = dict(os.environ)
REPEAT = [1]  # --repeat


def timed(command: list[str], cwd: Path, fresh: Callable[[], list[str]] = list) -> float:
    """Wall time of ``command`` (+ ``fresh()``: arguments new for each repeat, an empty cache);
    the best of REPEAT[0] runs, since a busy machine only ever makes a run slower."""
    best = float("inf")
    for _ in range(REPEAT[0]):
        started = time.perf_counter()
        done = subprocess.run([*command, *fresh()], cwd=cwd, capture_output=True, text=True, env=ENV)
        if done.returncode not in (0, 1, 2):
            sys.stderr.write(done.stdout[-2000:] + done.stderr[-2000:])
            raise SystemExit(f"{' '.join(command)}: exit {done.returncode}")
        best = min(best, time.perf_counter() - started)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=8, help="audit-dominated runs (default 8)")
    parser.add_argument("--mb", type=float, default=25, help="size of each of them in MB (default 25)")
    parser.add_argument("--small", type=int, default=300, help="tiny runs for the xdist comparison (default 300)")
    parser.add_argument("--jobs", type=int, default=2, help="processes to compare with 1 (default 2)")
    parser.add_argument("--dask", action="store_true", help="also time --scheduler local (extra [dask])")
    parser.add_argument("--formats", default="1,2", help="comma-separated run formats (default 1,2)")
    parser.add_argument("--repeat", type=int, default=1, help="time each command N times and keep the fastest")
    args = parser.parse_args()
    REPEAT[0] = max(1, args.repeat)
    pycache = Path(tempfile.mkdtemp(prefix="bench-batch-pycache-"))
    ENV.clear()
    ENV.update(installed_env(pycache))
    figures: list[tuple[str, float, float, float]] = []
    for fmt in (int(f) for f in args.formats.split(",")):
        one_format(args, fmt, figures)
    for label, first, second, goal in figures:
        print(f"{'met   ' if first / second >= goal else 'MISSED'} {label}: {first / second:.2f}x (goal >= {goal}x)")
    print(f"load at the end {os.getloadavg()[0]:.1f} (ratios need {args.jobs} idle cores)")
    shutil.rmtree(pycache, ignore_errors=True)
    return 0


def one_format(args: argparse.Namespace, fmt: int, figures: list[tuple[str, float, float, float]]) -> None:
    base = Path(tempfile.mkdtemp(prefix=f"bench-batch-v{fmt}-"))
    n = str(args.jobs)
    coldstart = [sys.executable, "-m", "pytest_coldstart"]
    pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"]
    try:
        generate(base, args.runs, args.mb, args.small, fmt)
        (base / "pytest.ini").write_text("[pytest]\n")
        caches = iter(range(100_000))

        def batch_cache() -> list[str]:  # an empty cache for every timed command
            return ["--cache-dir", str(base / f"cache-{next(caches)}")]

        def pytest_cache() -> list[str]:
            return [f"--coldstart-cache-dir={base / f'cache-{next(caches)}'}"]

        def compare(label: str, one: list[str], many: list[str], goal: float, fresh: Callable[[], list[str]]) -> None:
            label = f"v{fmt} {label}"
            first, second = timed(one, base, fresh), timed(many, base, fresh)
            figures.append((label, first, second, goal))
            print(f"{label:<44} {first:7.2f}s  {second:7.2f}s  {first / second:5.2f}x  (goal >= {goal}x)", flush=True)

        print(
            f"format {fmt}: {args.runs} runs of ~{args.mb} MB, {args.small} tiny runs, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"
        )
        print(f"{'what':<44} {'1':>8}  {n:>8}  ratio")
        big, small = str(base / "big"), str(base / "small")
        timed([*pytest, f"--coldstart-runs={small}", "-n", n], base)  # writes the bytecode cache (untimed)
        timed([*coldstart, "audit", "batch", small, "--jobs", n, "--no-cache"], base)
        batch = [*coldstart, "audit", "batch", big]
        compare(f"audit batch --jobs 1 vs {n}", [*batch, "--jobs", "1"], [*batch, "--jobs", n], 1.8, batch_cache)
        if args.dask:
            compare(
                f"audit batch --jobs 1 vs --scheduler local ({n})",
                [*batch, "--jobs", "1"],
                [*batch, "--scheduler", "local", "--jobs", n],
                1.0,
                batch_cache,
            )
        on_big, on_small = [*pytest, f"--coldstart-runs={big}"], [*pytest, f"--coldstart-runs={small}"]
        compare(
            f"pytest --coldstart-jobs 1 vs {n} (big runs)",
            on_big,
            [*on_big, f"--coldstart-jobs={n}"],
            1.8,
            pytest_cache,
        )
        compare(f"pytest serial vs -n {n} (big runs)", on_big, [*on_big, "-n", n], 1.7, pytest_cache)
        compare(f"pytest serial vs -n {n} ({args.small} tiny runs)", on_small, [*on_small, "-n", n], 1.0, pytest_cache)
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
