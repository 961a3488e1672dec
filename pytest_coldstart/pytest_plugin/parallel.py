"""Whether ``-n N`` can pay for itself over these runs, said in the terminal summary.

xdist spreads the audits over N workers (each run audited once in all, through the shared
cache) but costs about ``XDIST_ITEM_MS`` of CPU per test item; a run is several items. When
the audit time it saves per run, estimated from the runs' size with the audit's measured speed,
is smaller than that cost, the summary says so with the figures (docs/scale.md).
"""

from __future__ import annotations

import os
from pathlib import Path

from pytest_coldstart.run.walk import walk

#: xdist's CPU cost per item on the project machine (benchmarks/bench_pytest.py).
XDIST_ITEM_MS = 1.6
#: The audit's speed: fixed cost per run and per byte (benchmarks/bench_shapes.py, bench_pytest.py).
AUDIT_RUN_MS = 3.0
AUDIT_NS_PER_BYTE = 30.0
OUTCOMES = ("passed", "failed", "skipped", "xfailed", "xpassed", "error")


def run_bytes(run: Path) -> int:
    total = 0
    for folder, _dirs, files in walk(run):
        for name in files:
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
            except OSError:
                continue
    return total


def xdist_note(runs: list[Path], items: int, workers: int) -> str | None:
    """The sentence for the summary when ``-n workers`` costs more than it saves, else None."""
    if workers < 2 or not runs or items <= 0:
        return None
    mean_bytes = sum(run_bytes(run) for run in runs) / len(runs)
    audit_ms = AUDIT_RUN_MS + mean_bytes * AUDIT_NS_PER_BYTE / 1e6
    saved_ms = audit_ms * (1 - 1 / workers)
    cost_ms = items / len(runs) * XDIST_ITEM_MS
    if saved_ms >= cost_ms:
        return None
    return (
        f"coldstart: -n {workers} cannot pay for itself here: about {audit_ms:.1f} ms of audit per run "
        f"({len(runs)} runs of {mean_bytes / 1024:.0f} KiB on average) saves {saved_ms:.1f} ms, xdist costs "
        f"about {cost_ms:.1f} ms per run ({items / len(runs):.1f} items x {XDIST_ITEM_MS} ms); "
        f"run serially with --coldstart-jobs {workers} instead (docs/scale.md)"
    )
