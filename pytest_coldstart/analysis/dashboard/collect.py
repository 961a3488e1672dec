"""What the dashboard knows of one run: its audit report (``audits.audit_of``), its comparison row
(``compare.row_of``: harness, model, calls, error rate, duration) and its task.

A run's task is identified by the sha256 that run.json records for the task file; its label is
the task file's first non-blank line (read only when it is a regular file inside the run, at most
4 KiB), else the short hash. Nothing here raises on a broken run: unknown values are None.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_coldstart.analysis.audits import AuditedRun, audit_of
from pytest_coldstart.analysis.compare import find_runs, row_of
from pytest_coldstart.run.errors import ColdstartError, ContainmentError
from pytest_coldstart.run.layout import RunDir
from pytest_coldstart.run.paths import resolve_inside

TASK_LABEL_CHARS = 80
TASK_READ_BYTES = 4096


@dataclass(frozen=True)
class RunView:
    audited: AuditedRun
    row: dict[str, Any]
    task_key: str | None
    task_label: str | None
    created_at: str | None


def _inside_regular_file(root: Path, relative: str) -> Path | None:
    """The stated file when it is a regular file inside the run, reached through no symlink;
    else None (a NUL, ``..``, an absolute path or a link is refused by ``resolve_inside``)."""
    try:
        path = resolve_inside(root, relative, what="task path")
        return path if stat.S_ISREG(os.lstat(path).st_mode) else None
    except (ContainmentError, OSError, ValueError):
        return None


def _first_line(path: Path) -> str | None:
    try:
        with open(path, "rb") as handle:
            head = handle.read(TASK_READ_BYTES)
    except OSError:
        return None
    for line in head.decode("utf-8", "replace").splitlines():
        text = line.strip().lstrip("#").strip()
        if text:
            return text[:TASK_LABEL_CHARS]
    return None


def task_of(root: Path, manifest: dict[str, Any]) -> tuple[str | None, str | None]:
    """(identity, label) of the run's task, from run.json's task entry."""
    task = manifest.get("task")
    if not isinstance(task, dict):
        return None, None
    digest = task.get("sha256") if isinstance(task.get("sha256"), str) else None
    relative = task.get("path") if isinstance(task.get("path"), str) else None
    label = None
    if relative is not None:
        path = _inside_regular_file(root, relative)
        label = _first_line(path) if path is not None else None
    if label is None and digest is not None:
        label = f"task {digest[:12]}"
    return digest or label, label


def view_of(run_dir: Path, *, fresh: bool = False) -> RunView:
    audited = audit_of(run_dir, fresh=fresh)
    row = row_of(run_dir)
    try:
        manifest = RunDir(run_dir).load_manifest_fields()
    except ColdstartError:
        manifest = {}
    key, label = task_of(run_dir, manifest)
    created = manifest.get("created_at")
    return RunView(audited, row, key, label, created if isinstance(created, str) else None)


def collect(paths: list[str | Path], *, fresh: bool = False) -> list[RunView]:
    """Every run below ``paths`` (as ``coldstart compare`` finds them), in path order."""
    return [view_of(run, fresh=fresh) for run in find_runs(paths)]
