"""Run integrity (R12): the audit includes every check of ``coldstart trace validate``.

``validate_run`` (pytest_coldstart.validate) checks the task and visibility hashes, the
trajectory's hash chain and order, one result per call, imports, artifacts, payloads, reviews
and the sealed anchor; each of its findings becomes an infra error of the audit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytest_coldstart.hashing import sha256_file
from pytest_coldstart.layout import RunDir


def external_validator():
    """``validate_run``, imported lazily (the audit never pays for it at import time)."""
    from pytest_coldstart.validate import validate_run

    return validate_run


def findings_of(report: Any) -> list[str]:
    """Validate findings as one-line texts ``validate: file:line: problem``."""
    out = []
    for finding in getattr(report, "findings", None) or []:
        get = finding.get if isinstance(finding, dict) else (lambda k, f=finding: getattr(f, k, None))
        where = get("file") or ""
        if get("line") is not None:
            where = f"{where}:{get('line')}"
        out.append(f"validate: {where}: {get('problem')}" if where else f"validate: {get('problem')}")
    return out


def file_hash(rundir: RunDir, path: Path, hashes: dict[str, tuple[str, int]]) -> tuple[str, int]:
    """sha256/size of a run file, computed at most once per audit."""
    key = path.relative_to(rundir.root).as_posix()
    if key not in hashes:
        hashes[key] = sha256_file(path)
    return hashes[key]
