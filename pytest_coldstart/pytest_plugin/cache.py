"""On-disk cache of audit results, shared by pytest-xdist workers and by later sessions.

An entry is keyed by the sha256 of (this package's code, the resolved run directory, the
digest of every input the audit reads). Changing one byte of a run, or of our code, changes the
key, so a stale verdict is never served. Writers take a per-key file lock and write atomically;
a reader that finds a broken or foreign entry recomputes instead of trusting it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from pytest_coldstart.run import jsonio
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.versioning import CURRENT, is_version

Compute = Callable[[], dict[str, Any]]

_FINGERPRINT: str | None = None
#: Parts of the package that cannot change an audit report (the outer layers, importers ...).
_NOT_AUDIT = ("cli", "pytest_plugin", "importers", "preflight", "demo", "analysis", "ext")


def code_fingerprint() -> str:
    """sha256 over the sources the audit depends on: a new audit rule invalidates old entries."""
    global _FINGERPRINT
    if _FINGERPRINT is None:
        digest = hashlib.sha256()
        package = Path(__file__).resolve().parents[1]
        sources = [*package.rglob("*.py"), *package.rglob("*.json")]
        for path in sorted(p for p in sources if p.relative_to(package).parts[0] not in _NOT_AUDIT):
            digest.update(path.relative_to(package).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
        _FINGERPRINT = digest.hexdigest()
    return _FINGERPRINT


def _current_report(value: dict[str, Any]) -> bool:
    """Serve only reports of the version this audit writes (fail closed on any other)."""
    from pytest_coldstart.audit.report import SCHEMA_VERSION

    version = value.get("schemaVersion")
    return isinstance(version, int) and not isinstance(version, bool) and version == SCHEMA_VERSION


def entry_key(run_dir: Path, inputs_digest: str) -> str:
    material = "\0".join((code_fingerprint(), str(run_dir.resolve()), inputs_digest))
    return hashlib.sha256(material.encode("utf-8", "surrogateescape")).hexdigest()


class AuditCache:
    """get/compute of JSON values per (kind, key); ``directory=None`` keeps them in memory only."""

    def __init__(self, directory: Path | None):
        self.directory = directory
        self._memory: dict[tuple[str, str], dict[str, Any]] = {}
        self.hits = 0
        self.computed = 0

    def _paths(self, kind: str, key: str) -> tuple[Path, Path]:
        assert self.directory is not None
        folder = self.directory / kind / key[:2]
        return folder / f"{key}.json", folder / f"{key}.lock"

    def _read(self, kind: str, key: str) -> dict[str, Any] | None:
        if (kind, key) in self._memory:
            return self._memory[(kind, key)]
        if self.directory is None:
            return None
        entry_path, _ = self._paths(kind, key)
        try:
            entry = jsonio.read_json_object(entry_path)
        except ColdstartError:
            return None
        if not is_version(entry.get("schemaVersion"), CURRENT) or entry.get("kind") != kind or entry.get("key") != key:
            return None
        value = entry.get("value")
        if not isinstance(value, dict) or not _current_report(value):
            return None
        self._memory[(kind, key)] = value
        return value

    def _store(self, kind: str, key: str, value: dict[str, Any]) -> None:
        self._memory[(kind, key)] = value
        if self.directory is None:
            return
        entry_path, _ = self._paths(kind, key)
        try:
            data = jsonio.dumps_line({"schemaVersion": CURRENT, "kind": kind, "key": key, "value": value})
            entry_path.parent.mkdir(parents=True, exist_ok=True)
            # Atomic (readers never see half an entry) but not fsynced: the cache is derived
            # data, a lost entry is recomputed, and an fsync per run dominated cold xdist runs.
            fd, temp = tempfile.mkstemp(prefix=f".{key[:16]}.", suffix=".tmp", dir=entry_path.parent)
        except (OSError, ValueError):
            return  # an unwritable cache costs time, never correctness
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(temp, entry_path)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(temp)

    def get_or_compute(self, kind: str, key: str, compute: Compute) -> dict[str, Any]:
        """The cached value, or compute it once under the key's lock (other workers wait)."""
        value = self._read(kind, key)
        if value is not None:
            self.hits += 1
            return value
        if self.directory is None:
            return self._compute(kind, key, compute)
        _, lock_path = self._paths(kind, key)
        lock_path.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(os.fspath(lock_path)):
            value = self._read(kind, key)
            if value is not None:
                self.hits += 1
                return value
            return self._compute(kind, key, compute)

    def compute_if_free(self, kind: str, key: str, compute: Compute) -> bool:
        """Compute unless cached or another process holds the key: the xdist share-out step."""
        if self._read(kind, key) is not None or self.directory is None:
            return False
        _, lock_path = self._paths(kind, key)
        lock_path.parent.mkdir(parents=True, exist_ok=True)
        lock = FileLock(os.fspath(lock_path))
        try:
            lock.acquire(timeout=0)
        except Timeout:
            return False
        try:
            if self._read(kind, key) is not None:
                return False
            self._compute(kind, key, compute)
            return True
        finally:
            lock.release()

    def _compute(self, kind: str, key: str, compute: Compute) -> dict[str, Any]:
        value = compute()
        self.computed += 1
        self._store(kind, key, value)
        return value
