"""The run.json a new run starts with (``init_run`` writes it; appends then update it)."""

from __future__ import annotations

from typing import Any

from pytest_coldstart.run import layout
from pytest_coldstart.run.clock import Clock
from pytest_coldstart.run.versioning import CURRENT

TASK_NOTE = "exact bytes shown to the agent; no answer or prior solution is part of the run"
HARNESS_KEYS = ("name", "version", "model", "provider")


def initial_manifest(
    *,
    run_id: str,
    experiment_id: str | None,
    created: str,
    created_explicit: bool,
    harness: dict[str, str],
    task: dict[str, Any],
    visibility: dict[str, Any],
    clock: Clock,
    logging: dict[str, Any],
    notes: list[str],
    machine: dict[str, Any] | None,
    repo: dict[str, Any] | None,
    tool: dict[str, Any] | None,
) -> dict[str, Any]:
    """``task``: source, sha256, size of task.md; ``visibility``: sha256, file_count of
    visibility.json. ``machine``/``repo``/``tool`` default to this machine's (probed here)."""
    from pytest_coldstart.run import environment  # init only: appends never pay for it

    return {
        "schemaVersion": CURRENT,
        "run_id": run_id,
        "experiment_id": experiment_id,
        "created_at": created,
        "created_at_explicit": created_explicit,
        "tool": tool if tool is not None else environment.tool(),
        "environment": machine if machine is not None else environment.machine(),
        "repo": repo if repo is not None else environment.repo(),
        "harness": {key: harness.get(key, "") for key in HARNESS_KEYS},
        "task": {
            "path": layout.TASK_MD,
            "source": task["source"],
            "sha256": task["sha256"],
            "size": task["size"],
            "note": TASK_NOTE,
        },
        "visibility": {
            "path": layout.VISIBILITY_JSON,
            "sha256": visibility["sha256"],
            "file_count": visibility["file_count"],
        },
        "trajectory": {"path": layout.TRAJECTORY},
        "evidence": {"path": layout.EVIDENCE_JSON},
        "reviews": {"path": layout.REVIEWS},
        "clock": {
            "monotonic_origin_ns": clock.monotonic_ns(),
            "boot_id": environment.boot_id() if machine is None else None,
        },
        "logging": logging,
        "imports": [],
        "artifacts": [],
        "notes": list(notes or []),
        "status": "open",
        "ended_at": None,
        "duration_ms": None,
        "seal": None,
    }
