"""Facts about the recording machine and repository, for run manifests and reports."""

from __future__ import annotations

import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

from pytest_coldstart._version import __version__


def machine() -> dict[str, Any]:
    return {
        "platform": platform.platform(),
        "os": platform.system(),
        "os_release": platform.release(),
        "machine": platform.machine(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "executable_name": Path(sys.executable).name,
    }


def _git(cwd: Path, *args: str) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def repo(cwd: Path | None = None) -> dict[str, Any]:
    cwd = cwd or Path.cwd()
    status = _git(cwd, "status", "--porcelain")
    return {
        "root": str(cwd),
        "commit": _git(cwd, "rev-parse", "HEAD"),
        "branch": _git(cwd, "rev-parse", "--abbrev-ref", "HEAD"),
        "dirty_entries": len(status.splitlines()) if status else 0,
    }


def tool() -> dict[str, Any]:
    package_dir = Path(__file__).resolve().parents[1]
    return {
        "name": "pytest-coldstart",
        "version": __version__,
        "commit": _git(package_dir, "rev-parse", "HEAD") or None,
    }


def boot_id() -> str | None:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return None
