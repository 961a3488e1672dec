"""A run's current verdict, audited at most once.

Every reader of a verdict outside ``audit batch`` and pytest (``audit run``, ``compare``,
``summary``, ``review``, ``report``, ``export``) asks ``current_report``, which tries in order:
1. the run's stored ``audit/audit.json`` when ``currency.stored_report`` accepts it (the run's
   own report, written from exactly the run's present inputs by this audit code);
2. the content-addressed audit cache (``audit.cache``: the same one ``audit batch``, pool and
   Dask workers and pytest sessions use);
3. a fresh audit in memory, stored into that cache for the next reader.
``fresh=True`` skips 1 and 2 (and stores nothing): the audit runs again whatever is on disk.
A report of an internal error is never cached: it may come from a transient fault.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pytest_coldstart.run.errors import ColdstartError

if TYPE_CHECKING:
    from pytest_coldstart.audit.cache import AuditCache

Source = Literal["stored", "cached", "audited"]


def default_cache() -> AuditCache:
    """The CLI's audit cache (``$COLDSTART_CACHE_DIR``, else ``~/.cache/pytest-coldstart``);
    memory only when ``COLDSTART_NO_CACHE`` is set to a non-empty value."""
    from pytest_coldstart.audit.cache import AuditCache, default_directory
    from pytest_coldstart.run.errors import UsageError

    if os.environ.get("COLDSTART_NO_CACHE"):
        return AuditCache(None)
    try:
        return AuditCache(default_directory())
    except UsageError:  # an unusable cache folder costs time, never the verdict
        return AuditCache(None)


def audited(run_dir: Path, cache: AuditCache | None) -> tuple[dict[str, Any], Source]:
    """The audit of ``run_dir`` through ``cache`` (an ``AuditCache``; None: no cache)."""
    from pytest_coldstart.audit.engine import audit_run

    if cache is None or not run_dir.is_dir():  # nothing to key: the audit names what is missing
        return audit_run(run_dir, write=False), "audited"
    try:
        key = cache.key(run_dir)
    except (OSError, ColdstartError):
        return audit_run(run_dir, write=False), "audited"  # an unreadable run: the audit names it
    fresh: list[dict[str, Any]] = []

    def compute() -> dict[str, Any]:
        fresh.append(audit_run(run_dir, write=False))
        return fresh[0]

    try:
        report = cache.get_or_compute("audit", key, compute, recheck=lambda: cache.key(run_dir))
    except OSError:  # an unusable cache folder costs time, never the verdict
        return (fresh[0] if fresh else audit_run(run_dir, write=False)), "audited"
    return report, ("audited" if fresh else "cached")


def current_report(
    run_dir: str | Path, *, fresh: bool = False, cache: AuditCache | None = None
) -> tuple[dict[str, Any], Source]:
    """(the run's current audit report, where it came from); never raises on a broken run."""
    from pytest_coldstart.audit.currency import stored_report

    root = Path(run_dir)
    if fresh:
        return audited(root, None)
    document, _ = stored_report(root, None)
    if document is not None:
        return document, "stored"
    return audited(root, default_cache() if cache is None else cache)
