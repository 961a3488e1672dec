"""``coldstart audit batch DIR…``: audit every run below the folders, on every core (or a Dask
cluster), through the shared audit cache; a progress bar on a terminal, a summary table, the
worst status as exit code (0 PASS, 2 PENDING, 1 FAIL or an unwritable report, 70 internal;
64 usage)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, TextIO

from pytest_coldstart.cli.text import json_text

SLOWEST = 5


def register(sub: Any) -> None:
    p = sub.add_parser(
        "batch",
        help="audit every run below some folders, in parallel, through the audit cache",
        description="Audit every run directory below DIR... (a process pool, default all cores; or a Dask "
        "cluster). Exit with the worst status: 0 PASS, 2 PENDING, 1 FAIL, 70 internal error, 64 usage.",
    )
    p.add_argument("dirs", nargs="+", metavar="DIR", help="folders holding run directories (searched recursively)")
    p.add_argument("--jobs", type=int, help="worker processes (default: all cores)")
    p.add_argument("--out", help="write each report under DIR/<run path> instead of <run>/audit (read-only runs)")
    p.add_argument("--cache-dir", help="audit cache (default: $COLDSTART_CACHE_DIR or ~/.cache/pytest-coldstart)")
    p.add_argument("--no-cache", action="store_true", help="audit every run, read and write no cache")
    p.add_argument("--scheduler", help="run on Dask: tcp://HOST:8786, or 'local' for a LocalCluster (extra [dask])")
    p.add_argument("--json", action="store_true", help="print one JSON document (outcomes and counts) on stdout")
    p.set_defaults(handler=cmd_batch)


def _cache_dir(args: argparse.Namespace) -> Path | None:
    from pytest_coldstart.audit.cache import default_directory, prepare

    if args.no_cache:
        return None
    directory = Path(args.cache_dir).resolve() if args.cache_dir else default_directory()
    prepare(directory)  # a folder that cannot be the cache is named once, not per run
    return directory


def cmd_batch(args: argparse.Namespace) -> int:
    from pytest_coldstart.audit import batch
    from pytest_coldstart.run.errors import UsageError

    roots = [Path(d).resolve() for d in args.dirs]
    for root, given in zip(roots, args.dirs, strict=True):
        if not root.is_dir():
            raise UsageError(f"{given}: not a directory")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    runs = batch.discover(roots)
    if not runs:
        raise UsageError(f"no run directory (with run.json) below {', '.join(args.dirs)}")
    out = Path(args.out).resolve() if args.out else None
    cache_dir = _cache_dir(args)
    started = time.perf_counter()
    outcomes: list[batch.Outcome] = []
    bar = Progress(len(runs), sys.stderr)
    with _executor(args, len(runs)) as (executor, where):
        for outcome in batch.run_batch(
            runs, executor, cache_dir=cache_dir, targets=lambda run: batch.report_dir(run, roots, out)
        ):
            outcomes.append(outcome)
            bar.step()
    bar.close()
    wall = time.perf_counter() - started
    if args.json:
        sys.stdout.write(json_text(_document(outcomes, wall, where, cache_dir)) + "\n")
    else:
        sys.stdout.write(summary(outcomes, wall, where, cache_dir))
    return batch.worst_exit(o.exit_code for o in outcomes)


class _executor:
    """The executor for ``args`` (None: this process), as a context manager."""

    def __init__(self, args: argparse.Namespace, runs: int):
        self.args, self.runs = args, runs
        self._close: list[Any] = []

    def __enter__(self) -> tuple[Any, str]:
        if self.args.scheduler:
            from pytest_coldstart.audit.cluster import connect

            client, where = connect(self.args.scheduler, self.args.jobs)
            self._close.append(client)
            return client.get_executor(), where
        jobs = min(self.args.jobs or os.cpu_count() or 1, self.runs)
        if jobs <= 1:
            return None, "1 process"
        from pytest_coldstart.audit.batch import process_pool

        pool = process_pool(jobs)
        self._close.append(pool)
        return pool, f"{jobs} processes"

    def __exit__(self, *exc: object) -> None:
        for thing in reversed(self._close):
            if hasattr(thing, "shutdown"):
                thing.shutdown()
            else:
                thing.close()


class Progress:
    """A one-line bar on a terminal (nothing when the stream is not a TTY)."""

    def __init__(self, total: int, stream: TextIO):
        self.total, self.done, self.stream = total, 0, stream
        self.live = stream.isatty()
        self._last = 0.0

    def step(self) -> None:
        self.done += 1
        now = time.monotonic()
        if self.live and (now - self._last > 0.1 or self.done == self.total):
            self._last = now
            filled = 30 * self.done // self.total
            self.stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total} runs")
            self.stream.flush()

    def close(self) -> None:
        if self.live:
            self.stream.write("\n")
            self.stream.flush()


def _status(outcome: Any) -> str:
    return outcome.overall if outcome.overall is not None else "ERROR"


def summary(outcomes: list[Any], wall: float, where: str, cache_dir: Path | None) -> str:
    from pytest_coldstart.cli.text import safe

    statuses = Counter(_status(o) for o in outcomes)
    classes = Counter(o.failure_class for o in outcomes if o.failure_class)
    cached = sum(o.cached for o in outcomes)
    lines = [
        f"audited {len(outcomes)} runs in {wall:.1f}s on {where} ({cached} from the cache"
        f"{'' if cache_dir is None else f' {cache_dir}'})",
        "",
        f"  {'status':<14} {'runs':>6}",
    ]
    lines += [f"  {name:<14} {statuses[name]:>6}" for name in ("PASS", "PENDING", "FAIL", "ERROR") if statuses[name]]
    if classes:
        lines += ["", f"  {'failure class':<22} {'runs':>6}"]
        lines += [f"  {safe(name):<22} {count:>6}" for name, count in sorted(classes.items())]
    slowest = sorted(outcomes, key=lambda o: -o.seconds)[:SLOWEST]
    lines += ["", "  slowest runs"]
    lines += [f"  {o.seconds:8.2f}s  {_status(o):<8} {safe(o.run)}" for o in slowest]
    problems = [o for o in outcomes if o.error]
    for o in problems[:SLOWEST]:
        lines.append(f"  error: {safe(o.run)}: {safe(o.error)}")
    if len(problems) > SLOWEST:
        lines.append(f"  ... {len(problems) - SLOWEST} more errors (--json lists them all)")
    return "\n".join(lines) + "\n"


def _document(outcomes: list[Any], wall: float, where: str, cache_dir: Path | None) -> dict[str, Any]:
    return {
        "runs": len(outcomes),
        "seconds": round(wall, 3),
        "executor": where,
        "cache_dir": str(cache_dir) if cache_dir is not None else None,
        "counts": dict(sorted(Counter(_status(o) for o in outcomes).items())),
        "failure_classes": dict(sorted(Counter(o.failure_class for o in outcomes if o.failure_class).items())),
        "outcomes": sorted((o.as_dict() for o in outcomes), key=lambda d: d["run"]),
    }
