"""JUnit properties of an item (``item.user_properties``), plain strings only.

Plain strings because reports cross the xdist channel before pytest's junitxml writes them
(a Path there crashes the worker). Dashboards should key on these, not on node ids.
"""

from __future__ import annotations

import json

PREFIX = "coldstart."


def properties(
    *, run_id: str, kind: str, check: str, status: str, failure_class: object, overall: object, evidence: list[str]
) -> list[tuple[str, str]]:
    """``kind`` is validate, flag, review or run; the pinned key is coldstart.<kind>."""
    return [
        (PREFIX + "run_id", run_id),
        (PREFIX + kind, check),
        (PREFIX + "status", status),
        (PREFIX + "failure_class", failure_class if isinstance(failure_class, str) else ""),
        (PREFIX + "overall", overall if isinstance(overall, str) else ""),
        (PREFIX + "evidence", json.dumps([e for e in evidence if isinstance(e, str)], ensure_ascii=False)),
    ]


def reasons(values: list[str]) -> tuple[str, str]:
    """The ``run`` item's reasons (why FAIL, why PENDING) as a JSON list of strings."""
    return (PREFIX + "reasons", json.dumps(values, ensure_ascii=False))


def lookup(user_properties: list[tuple[str, object]] | tuple[tuple[str, object], ...], name: str) -> str | None:
    for key, value in user_properties:
        if key == PREFIX + name:
            return value if isinstance(value, str) else str(value)
    return None
