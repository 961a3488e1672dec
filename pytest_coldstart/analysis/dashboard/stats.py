"""Rates with Wilson score intervals (the dashboard's pass/fail/pending rates per group).

The Wilson interval stays inside [0, 1] and is honest for small groups and for rates of 0 or 1,
where the normal approximation collapses to a zero-width interval.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

Z95 = 1.959963984540054
OUTCOMES = ("PASS", "FAIL", "PENDING")


def wilson(successes: int, total: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of ``successes / total`` (None when ``total`` is 0)."""
    if total <= 0:
        return None
    p = successes / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact at the edges (no rounding residue)
    high = 1.0 if successes == total else min(1.0, centre + half)
    return (low, high)


def rates(statuses: Iterable[str]) -> dict[str, Any]:
    """Counts of PASS/FAIL/PENDING among ``statuses``, each with its rate and Wilson interval."""
    counts = dict.fromkeys(OUTCOMES, 0)
    total = 0
    for status in statuses:
        total += 1
        if status in counts:
            counts[status] += 1
    out: dict[str, Any] = {"n": total}
    for name in OUTCOMES:
        interval = wilson(counts[name], total)
        out[name] = {
            "count": counts[name],
            "rate": round(counts[name] / total, 6) if total else None,
            "low": None if interval is None else round(interval[0], 6),
            "high": None if interval is None else round(interval[1], 6),
        }
    return out
