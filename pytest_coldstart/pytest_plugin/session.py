"""Per-session state: which run directories to collect, and their audits (through the cache).

Why the audit runs at collection: item names (``review-<id>``) depend on the reviews the audit
requires, and xdist demands that every worker collect the same items. Auditing once per run
per session is unavoidable anyway (the items report its result), so collection does it and the
items reuse it. The on-disk cache turns the second worker's (and the next session's) audit
into a digest computation plus one JSON read; ``share_out`` lets xdist workers split the
audits of a cold cache between them instead of waiting on each other in lockstep.
"""

from __future__ import annotations

import fnmatch
import functools
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pytest_coldstart.audit.audit_report import AuditReport, ReportFormatError
from pytest_coldstart.audit.cache import AuditCache
from pytest_coldstart.pytest_plugin.outcomes import one_line
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.layout import RUN_JSON
from pytest_coldstart.run.walk import walk


@dataclass
class RunInfo:
    """One run directory and its audit report (or why there is none)."""

    run_dir: Path
    report: AuditReport | None
    error: str | None
    key: str | None
    seconds: float = 0.0  # what this process spent obtaining the report (audit or cache read)

    @property
    def run_id(self) -> str:
        if self.report is not None and self.report.run_id is not None:
            return self.report.run_id
        return self.run_dir.name


def _audit(run_dir: Path) -> dict[str, Any]:
    from pytest_coldstart.audit import audit_run

    report = audit_run(run_dir, write=False)
    if not isinstance(report, dict):
        raise TypeError(f"audit_run returned {type(report).__name__}, not a report")
    return report


def typed(run_dir: Path, document: dict[str, Any], key: str | None) -> RunInfo:
    """The run with its report typed; a document that is not an audit report is no report."""
    flags = document.get("flags")
    if not isinstance(flags, list) or not flags:
        return RunInfo(run_dir, None, "the audit report lists no flags", key)
    try:
        return RunInfo(run_dir, AuditReport.from_json(document), None, key)
    except ReportFormatError as exc:
        return RunInfo(run_dir, None, f"the audit report could not be turned into items: {exc.one_line()}", key)


def _failure(exc: BaseException) -> str:
    if isinstance(exc, ColdstartError):
        return exc.one_line()
    return one_line(f"{type(exc).__name__}: {exc}")


class ColdstartSession:
    """Stored in ``config.stash``; no module-level state (pytester runs share the module)."""

    def __init__(self, roots: list[Path], targets: list[Path], cache: AuditCache, norecurse: list[str]):
        self.roots = roots
        self.targets = targets
        self.cache = cache
        self.norecurse = norecurse
        self._runs: dict[Path, RunInfo] = {}
        self._keys: dict[Path, str | None] = {}
        #: applied to every report after the (cached) audit: the seal-anchor check (anchor.py)
        self.post_audit: Callable[[Path, dict[str, Any]], dict[str, Any]] | None = None
        self._spent: dict[Path, float] = {}  # audit time spent before load() (share_out)

    # -- which directories ---------------------------------------------------------------

    def wants(self, run_dir: Path) -> bool:
        """Collect this run: it lies under a --coldstart-runs root or a path argument, or an argument points into it."""
        run_dir = run_dir.resolve()
        if any(run_dir == root or root in run_dir.parents for root in self.roots):
            return True
        return any(
            target == run_dir or run_dir in target.parents or target in run_dir.parents for target in self.targets
        )

    def discover(self, paths: list[Path]) -> list[Path]:
        """Run directories at or below ``paths`` (sorted, pruned like pytest's walk)."""
        found: set[Path] = set()
        for start in paths:
            start = start.resolve()
            owner = next((p for p in (start, *start.parents) if (p / RUN_JSON).is_file()), None)
            if owner is not None:
                found.add(owner)
                continue
            for folder, dirs, _files in walk(start):
                here = Path(folder)
                if (here / RUN_JSON).is_file():
                    found.add(here)
                    dirs[:] = []
                    continue
                dirs[:] = [d for d in dirs if not any(fnmatch.fnmatch(d, pat) for pat in self.norecurse)]
        return sorted(run for run in found if self.wants(run))

    # -- audits --------------------------------------------------------------------------

    def _key(self, run_dir: Path) -> str | None:
        if run_dir not in self._keys:
            try:
                self._keys[run_dir] = self.cache.key(run_dir)
            except Exception:
                self._keys[run_dir] = None
        return self._keys[run_dir]

    def load(self, run_dir: Path) -> RunInfo:
        """The run's audit: memoised per session, shared through the cache. Never raises."""
        run_dir = run_dir.resolve()
        if run_dir in self._runs:
            return self._runs[run_dir]
        import pytest_coldstart.audit.engine  # noqa: F401 - imported before the clock starts: not this run's time

        started = time.perf_counter()
        key = self._key(run_dir)
        try:
            if key is None:
                report = _audit(run_dir)
            else:
                report = self.cache.get_or_compute(
                    "audit", key, lambda: _audit(run_dir), recheck=lambda: self.cache.key(run_dir)
                )
            if self.post_audit is not None:
                report = self.post_audit(run_dir, report)
            info = typed(run_dir, report, key)
        except Exception as exc:
            info = RunInfo(run_dir, None, f"the audit could not run: {_failure(exc)}", key)
        info.seconds = self._spent.pop(run_dir, 0.0) + time.perf_counter() - started
        self._runs[run_dir] = info
        return info

    def audit_in_pool(self, runs: list[Path], jobs: int) -> int:
        """--coldstart-jobs: audit the cache misses in ``jobs`` processes (``audit.batch``),
        so collection then reads every report from the cache; the number audited."""
        if jobs < 2 or len(runs) < 2 or self.cache.directory is None:
            return 0
        from pytest_coldstart.audit.batch import process_pool, run_batch

        with process_pool(min(jobs, len(runs))) as pool:
            outcomes = run_batch(
                [r.resolve() for r in runs], pool, cache_dir=self.cache.directory, targets=lambda r: None
            )
            return sum(not outcome.cached for outcome in outcomes)

    def share_out(self, runs: list[Path], worker: int, workers: int) -> int:
        """xdist: audit the cache misses this worker can lock, starting at its own offset."""
        if not runs or workers < 2:
            return 0
        start = len(runs) * worker // workers
        done = 0
        for run_dir in runs[start:] + runs[:start]:
            run_dir = run_dir.resolve()
            started = time.perf_counter()
            try:
                key = self.cache.compute_if_free("audit", run_dir, functools.partial(_audit, run_dir))
            except Exception:
                continue
            finally:
                self._spent[run_dir] = self._spent.get(run_dir, 0.0) + time.perf_counter() - started
            if key is not None:
                self._keys[run_dir] = key
                done += 1
        return done


STASH = pytest.StashKey[ColdstartSession]()
