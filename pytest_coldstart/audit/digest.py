"""``audit_inputs_digest``: a cheap key that changes whenever any file the audit may read
changes (for the pytest plugin's shared xdist cache, and for ``currency``: is a stored audit
report still the verdict of its run).

Instead of hashing every byte it digests, for every file and symlink of the run (except the
derived ``audit/`` output and the private ``.coldstart/`` state), its path, size, inode,
mtime_ns and ctime_ns (ctime cannot be set back by a user; the derived ``summary.json``
is skipped too), plus the audit code's own files,
so a code change also invalidates cached reports.
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

from pytest_coldstart._version import __version__
from pytest_coldstart.run.layout import AUDIT_DIR, STATE_DIR, SUMMARY_JSON

_SKIP_TOP = {AUDIT_DIR, STATE_DIR}


@lru_cache(maxsize=1)
def _code_digest() -> str:
    digest = hashlib.sha256(__version__.encode())
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        stat = path.stat()
        digest.update(f"{path.relative_to(package)}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def audit_inputs_digest(run_dir: str | Path) -> str:
    root = Path(run_dir)
    digest = hashlib.sha256(_code_digest().encode())
    for current, dirs, files in os.walk(root):
        relative = Path(current).relative_to(root)
        if relative == Path("."):
            dirs[:] = [d for d in dirs if d not in _SKIP_TOP]
            files = [f for f in files if f != SUMMARY_JSON]  # derived from the audit, never its input
        dirs.sort()
        for name in sorted(files) + [d for d in dirs if (Path(current) / d).is_symlink()]:
            path = Path(current) / name
            try:
                stat = path.lstat()
            except OSError:
                continue
            target = os.readlink(path) if path.is_symlink() else ""
            digest.update(
                f"{(relative / name).as_posix()}\0{stat.st_size}\0{stat.st_ino}\0{stat.st_mtime_ns}\0{stat.st_ctime_ns}\0{target}\n".encode(
                    "utf-8", "surrogateescape"
                )
            )
    return digest.hexdigest()
