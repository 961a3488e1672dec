"""Audit many runs at once: every core of this machine (a process pool) or a Dask cluster.

``discover(paths)`` lists the run directories below some folders; ``audit_one`` audits one
of them through the shared audit cache (``audit.cache``: a run whose inputs and code were
audited before, by anyone, is not audited again) and writes its ``audit/`` (or the same
files under ``out``); ``run_batch`` feeds the runs to an executor a window at a time and
yields one small ``Outcome`` per run as it completes. Reports never travel back to the
caller: each is written by the worker that made it (report files and cache entry), so the
batch holds a few outcomes, not the reports of 10,000 runs.

Any ``concurrent.futures.Executor`` will do: a ``ProcessPoolExecutor`` here, or the
executor of a ``distributed.Client`` (``audit.cluster``), whose workers read the runs from
a path they share.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.layout import AUDIT_DIR, RUN_JSON, STATE_DIR
from pytest_coldstart.run.walk import walk

#: Exit-code severity: an internal error outranks FAIL, which outranks PENDING, then PASS.
SEVERITY = {0: 0, 2: 1, 1: 2, 70: 3}
EXIT = {"PASS": 0, "FAIL": 1, "PENDING": 2}


@dataclass(frozen=True)
class Outcome:
    """What the batch keeps of one run (the report itself stays on disk)."""

    run: str
    overall: str | None  # PASS / FAIL / PENDING, None when the audit could not run
    failure_class: str | None
    seconds: float  # the worker's wall time for this run (key, audit or cache read, write)
    cached: bool  # served by the cache: not audited again
    report_dir: str | None
    error: str | None = None

    @property
    def exit_code(self) -> int:
        if self.overall is None:
            return 70
        return EXIT.get(self.overall, 70) if self.error is None else max(1, EXIT.get(self.overall, 70))

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def discover(paths: Iterable[Path]) -> list[Path]:
    """Run directories (holding run.json) at or below ``paths``; a run's own folders are not
    searched further, symlinked folders are not followed."""
    found: set[Path] = set()
    for start in paths:
        start = Path(start).resolve()
        if (start / RUN_JSON).is_file():
            found.add(start)
            continue
        for folder, dirs, _files in walk(start):
            here = Path(folder)
            if (here / RUN_JSON).is_file():
                found.add(here)
                dirs[:] = []
                continue
            dirs[:] = sorted(d for d in dirs if d not in (AUDIT_DIR, STATE_DIR) and not d.startswith("."))
    return sorted(found)


def report_dir(run: Path, roots: list[Path], out: Path | None) -> Path:
    """``<run>/audit``, or with ``out`` the run's path below its root, under ``out``."""
    if out is None:
        return run / AUDIT_DIR
    for root in roots:
        if run == root:
            return out / run.name
        if root in run.parents:
            return out / run.relative_to(root)
    return out / run.name


def audit_one(run: str, cache_dir: str | None, target: str | None) -> Outcome:
    """Audit ``run`` through the cache at ``cache_dir`` and write the report into ``target``
    (None: write nothing). Top-level and picklable: pool and Dask workers call it."""
    import pytest_coldstart.audit as audit_module
    from pytest_coldstart.audit.cache import AuditCache
    from pytest_coldstart.audit.report import write_report

    started = time.perf_counter()
    run_dir = Path(run)
    cache = AuditCache(Path(cache_dir) if cache_dir else None)
    try:
        key = cache.key(run_dir)
        report = cache.get_or_compute(
            "audit", key, lambda: audit_module.audit_run(run_dir, write=False), recheck=lambda: cache.key(run_dir)
        )
    except Exception as exc:  # the audit never raises on bad input; this is our bug or the disk
        return Outcome(run, None, None, time.perf_counter() - started, False, None, f"{type(exc).__name__}: {exc}")
    written = None
    error = None
    if target is not None:
        try:
            write_report(report, Path(target))
            written = target
        except OSError as exc:
            error = f"cannot write the report to {target} ({exc.strerror or exc}); use --out"
        except ColdstartError as exc:  # audit/ is a symlink: never written through
            error = f"cannot write the report to {target} ({exc}); use --out"
    overall = report.get("overall")
    return Outcome(
        run,
        overall if isinstance(overall, str) else None,
        report.get("failure_class") if isinstance(report.get("failure_class"), str) else None,
        time.perf_counter() - started,
        cache.hits > 0,
        written,
        error,
    )


def run_batch(
    runs: list[Path],
    executor: Executor | None,
    *,
    cache_dir: Path | None,
    targets: Callable[[Path], Path | None],
    window: int = 64,
) -> Iterator[Outcome]:
    """Outcomes in completion order; at most ``window`` runs in flight (``executor=None``:
    one after the other in this process)."""
    cache = str(cache_dir) if cache_dir is not None else None

    def target_of(run: Path) -> str | None:
        found = targets(run)
        return str(found) if found is not None else None

    if executor is None:
        for run in runs:
            yield audit_one(str(run), cache, target_of(run))
        return
    pending: set[Future[Outcome]] = set()
    todo = iter(runs)
    exhausted = False
    while pending or not exhausted:
        while not exhausted and len(pending) < window:
            following = next(todo, None)
            if following is None:
                exhausted = True
                break
            pending.add(executor.submit(audit_one, str(following), cache, target_of(following)))
        if not pending:
            break
        done, pending = wait(pending, return_when=FIRST_COMPLETED)
        for future in done:
            yield future.result()
    if cache_dir is not None:
        from pytest_coldstart.audit.cache import sweep_orphans

        sweep_orphans(cache_dir)  # a worker killed mid-write left its temporary file


def worst_exit(codes: Iterable[int]) -> int:
    worst = 0
    for code in codes:
        if SEVERITY.get(code, 3) > SEVERITY.get(worst, 3):
            worst = code
    return worst


def warm() -> None:
    """Pool initializer: the engine imported and the schema checks compiled once per worker,
    not once per run."""
    import pytest_coldstart.audit.engine  # noqa: F401 - imported lazily elsewhere
    from pytest_coldstart.run import schemas

    for kind in ("run", "visibility", "evidence", "review", "trajectory-record"):
        schemas.check(kind)


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` audit processes. Warmed here first, so that workers forked from
    this process start with the engine imported and the schemas compiled (each would otherwise
    pay that before its first run, in parallel but on top of its share); a spawned worker warms
    itself (``initializer``)."""
    warm()
    return ProcessPoolExecutor(max_workers=workers, initializer=warm)
