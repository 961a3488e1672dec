"""The visibility snapshot: every document the agent could see, hashed and (if small) copied.

A name that is not UTF-8 is recorded (and its copy stored) under ``textsafe.storable_name``
(``b%ffd.md``): the record stays valid JSON, and the bytes are still hashed and copied."""

from __future__ import annotations

import contextlib
import os
import shutil
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from pytest_coldstart.run.hashing import sha256_bytes, sha256_file
from pytest_coldstart.run.layout import VISIBILITY_FILES
from pytest_coldstart.run.textsafe import storable_name
from pytest_coldstart.run.versioning import CURRENT
from pytest_coldstart.run.walk import paths_below

COPY_LIMIT = 5 * 1024 * 1024
DEFAULT_EXCLUDES = (".git", ".coldstart", "__pycache__", ".venv", "node_modules", "*.pyc", "*.session.jsonl")


def _excluded(relative: Path, patterns: tuple[str, ...]) -> bool:
    return any(fnmatch(part, pattern) for part in relative.parts for pattern in patterns)


def _entry(
    path: Path, relative_to_root: Path, cwd: Path, run_root: Path, run_real: Path
) -> dict[str, Any] | str | None:
    """The snapshot entry of one path: a dict, a reason it is skipped, or None (not a file)."""
    resolved = path.resolve()
    if resolved == run_real or run_real in resolved.parents:
        return None
    if path.is_symlink():
        return "symlink (not followed)"
    if not path.is_file():
        return None
    try:
        shown = storable_name(resolved.relative_to(cwd).as_posix())
    except ValueError:
        outside = sha256_bytes(os.fsencode(resolved))[:16]
        shown = f"_external/{outside}/{storable_name(relative_to_root.as_posix())}"
    digest, size = sha256_file(path)
    entry: dict[str, Any] = {"path": shown, "size": size, "sha256": digest, "copy": None}
    if size > COPY_LIMIT:
        entry["note"] = f"larger than {COPY_LIMIT} bytes: hashed, not copied"
        return entry
    copy = f"{VISIBILITY_FILES}/{shown}"
    target = run_root / copy
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target, follow_symlinks=False)
    except OSError as exc:  # e.g. the copy's path would be too long: the hash still records it
        with contextlib.suppress(OSError):
            target.unlink()
        entry["note"] = f"hashed, not copied ({exc.strerror or exc})"
        return entry
    entry["copy"] = copy
    return entry


def snapshot(run_root: Path, roots: list[str], excludes: list[str], created_at: str) -> dict[str, Any]:
    """Hash every regular file under ``roots`` (symlinks are recorded, never followed)."""
    patterns = tuple(DEFAULT_EXCLUDES) + tuple(excludes)
    cwd = Path.cwd().resolve()
    run_real = run_root.resolve()
    files: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    missing: list[str] = []
    for root in roots:
        base = Path(root)
        if not base.exists():
            missing.append(storable_name(root))
            continue
        candidates = [base] if base.is_file() else sorted(paths_below(base))
        for path in candidates:
            relative_to_root = path.relative_to(base) if path != base else Path(path.name)
            if _excluded(relative_to_root, patterns):
                continue
            try:
                entry = _entry(path, relative_to_root, cwd, run_root, run_real)
            except OSError as exc:  # a name too long to open, a file gone or unreadable: said, not fatal
                entry = None
                skipped.append({"path": storable_name(path), "reason": f"unreadable ({exc.strerror or exc})"})
            if isinstance(entry, str):
                skipped.append({"path": storable_name(path), "reason": entry})
            elif entry is not None:
                files.append(entry)
    files.sort(key=lambda e: e["path"])
    return {
        "schemaVersion": CURRENT,
        "created_at": created_at,
        "roots": [storable_name(root) for root in roots],
        "exclude": list(patterns),
        "file_count": len(files),
        "files": files,
        "skipped": skipped,
        "missing": missing,
        "note": None if roots else "no visible roots were declared (use --visible-root)",
    }
