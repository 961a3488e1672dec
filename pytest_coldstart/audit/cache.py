"""The content-addressed audit cache, shared by the CLI (``coldstart audit batch``), pytest
(serial or xdist workers), pool and Dask workers, and later sessions.

An entry's key is the sha256 of the one code fingerprint (``digest.code_fingerprint``) and
the content digest of the run's inputs (``digest.audit_content_digest``): equal content gives
the same entry wherever the run lies (copied to shared storage, another machine), and one
changed byte of a run, or of the audit's code, gives another key, so a stale verdict is never
served. Finding the content digest reads every byte once; it is remembered under the run's
stat digest (``inputs/``), so asking again about an unchanged run costs a stat walk.

Writers take a per-key file lock and write atomically (a temporary file renamed into
place); a reader that finds a broken, foreign or future entry recomputes instead of trusting
it. Layout under the cache directory: ``audit/<key[:2]>/<key>.json`` (schema
audit-cache-entry), ``inputs/<stat[:2]>/<stat>`` (a content digest), ``code/<state>`` (the
fingerprint of a package state). Derived data: deleting the directory is always safe.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import socket
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from pytest_coldstart.audit.digest import audit_content_digest, audit_inputs_digest, code_fingerprint
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.errors import ColdstartError, UsageError
from pytest_coldstart.run.textsafe import path_text
from pytest_coldstart.run.versioning import CURRENT, is_version
from pytest_coldstart.run.walk import paths_below

#: This host in temporary names (.KEY.HOST.PID.RANDOM.tmp), so a sweep can tell a dead writer's.
_HOST = re.sub(r"[^A-Za-z0-9-]", "-", socket.gethostname())[:64] or "host"
_TEMP = re.compile(r"\.(?P<host>[A-Za-z0-9-]+)\.(?P<pid>\d+)\.[^.]+\.tmp$")
ORPHAN_AGE = 3600.0

Compute = Callable[[], dict[str, Any]]
_HEX = frozenset("0123456789abcdef")
INTERNAL_ERROR = "internal audit error"  # the engine's own words (audit.engine.audit_report)


def default_directory() -> Path:
    """``$COLDSTART_CACHE_DIR``, else ``$XDG_CACHE_HOME/pytest-coldstart`` (``~/.cache/...``)."""
    explicit = os.environ.get("COLDSTART_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pytest-coldstart"


def _hex64(text: str) -> bool:
    return len(text) == 64 and set(text) <= _HEX


def _current_report(value: dict[str, Any]) -> bool:
    """Serve only reports of the version this audit writes (fail closed on any other)."""
    from pytest_coldstart.audit.audit_report import SCHEMA_VERSION

    version = value.get("schemaVersion")
    return isinstance(version, int) and not isinstance(version, bool) and version == SCHEMA_VERSION


def is_internal_error(report: dict[str, Any]) -> bool:
    """A report of an internal audit error: never stored, since it may come from a transient
    fault (memory, the disk) rather than from the run."""
    problems = report.get("infra_errors")
    return isinstance(problems, list) and any(isinstance(p, str) and INTERNAL_ERROR in p for p in problems)


def entry_key(run_dir: Path, inputs_digest: str) -> str:
    """The entry of a run whose inputs have ``inputs_digest`` (no location in it: relocatable;
    ``run_dir`` is kept for callers of the old signature)."""
    material = "\0".join(("coldstart audit entry 2", code_fingerprint(), inputs_digest))
    return hashlib.sha256(material.encode("utf-8", "surrogateescape")).hexdigest()


class AuditCache:
    """get/compute of JSON values per (kind, key); ``directory=None`` keeps them in memory only.
    A computed report of an internal error is returned but not kept (``is_internal_error``)."""

    def __init__(self, directory: Path | None):
        self.directory = directory
        self._memory: dict[tuple[str, str], dict[str, Any]] = {}
        self.hits = 0
        self.computed = 0
        if directory is not None:
            prepare(directory)
            code_fingerprint(directory)  # remembered there for the next process

    def key(self, run_dir: Path) -> str:
        """The entry key of ``run_dir`` as it is now (content-addressed; see the module doc).
        A memory-only cache (no directory: one session, nothing to relocate) keeps one entry per
        run directory and state, keyed by the stat digest: no byte of the run is read for it."""
        if self.directory is None:
            return entry_key(run_dir, f"{audit_inputs_digest(run_dir)}\0{run_dir.resolve()}")
        return entry_key(run_dir, self.content_digest(run_dir))

    def content_digest(self, run_dir: Path) -> str:
        """``audit_content_digest(run_dir)``, remembered under the run's stat digest."""
        if self.directory is None:
            return audit_content_digest(run_dir)
        stat = audit_inputs_digest(run_dir)
        memo = self.directory / "inputs" / stat[:2] / stat
        with contextlib.suppress(OSError, UnicodeDecodeError):
            known = memo.read_text(encoding="ascii").strip()
            if _hex64(known):
                return known
        content = audit_content_digest(run_dir)
        if audit_inputs_digest(run_dir) == stat:  # nothing changed while it was read
            _write_atomically(memo, (content + "\n").encode("ascii"))
        return content

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
            entry = {"schemaVersion": CURRENT, "kind": kind, "key": key, "code": code_fingerprint(), "value": value}
            data = jsonio.dumps_line(entry)
        except ValueError:
            return
        _write_atomically(entry_path, data)

    def get_or_compute(
        self, kind: str, key: str, compute: Compute, recheck: Callable[[], str] | None = None
    ) -> dict[str, Any]:
        """The cached value, or compute it once under the key's lock (other workers wait).
        ``recheck()``: the key again once computed; a value whose inputs changed meanwhile is
        returned but never stored (a writer swapping bytes under the audit cannot file one
        state's verdict under another's key)."""
        value = self._read(kind, key)
        if value is not None:
            self.hits += 1
            return value
        if self.directory is None:
            return self._compute(kind, key, compute, recheck)
        _, lock_path = self._paths(kind, key)
        try:
            lock_path.parent.mkdir(parents=True, exist_ok=True)
            lock = FileLock(os.fspath(lock_path))
            lock.acquire()
        except OSError:  # a full or read-only cache costs time, never the verdict
            return self._compute(kind, key, compute, recheck)
        try:
            value = self._read(kind, key)
            if value is not None:
                self.hits += 1
                return value
            return self._compute(kind, key, compute, recheck)
        finally:
            lock.release()

    def compute_if_free(self, kind: str, run_dir: Path, compute: Compute) -> str | None:
        """The xdist share-out step: unless another process holds the run, find its key (the
        content digest, remembered for the others) and compute the entry unless it is cached;
        returns the key when this process computed it, else None. The run is claimed by its
        stat digest before any byte is hashed, so the workers split the hashing too."""
        if self.directory is None:
            return None
        stat = audit_inputs_digest(run_dir)
        claim = self.directory / "inputs" / stat[:2] / f"{stat}.lock"
        with _held(claim) as held:
            if not held:
                return None
            key = entry_key(run_dir, self.content_digest(run_dir))
            if self._read(kind, key) is not None:
                return None
            _, lock_path = self._paths(kind, key)
            with _held(lock_path) as entry_held:
                if not entry_held or self._read(kind, key) is not None:
                    return None
                self._compute(kind, key, compute, lambda: entry_key(run_dir, self.content_digest(run_dir)))
                return key

    def _compute(
        self, kind: str, key: str, compute: Compute, recheck: Callable[[], str] | None = None
    ) -> dict[str, Any]:
        value = compute()
        self.computed += 1
        if is_internal_error(value):
            return value
        if recheck is not None:
            try:
                same = recheck() == key
            except (OSError, ValueError):
                same = False
            if not same:
                return value  # the run changed while it was audited: the verdict of no one state
        self._store(kind, key, value)
        return value


def prepare(directory: Path) -> None:
    """A cache folder that cannot be one is a usage error, named at once - not an infra error
    of every run audited."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        reason = None if directory.is_dir() else "it is not a directory"
    except FileExistsError:
        reason = "it is not a directory"
    except OSError as exc:
        reason = exc.strerror or str(exc)
    if reason is not None:
        raise UsageError(f"the audit cache directory {path_text(directory)} cannot be used ({reason})")


@contextlib.contextmanager
def _held(lock_path: Path) -> Iterator[bool]:
    """Whether this process took the file lock at ``lock_path`` without waiting (held inside);
    False too where the lock cannot be made (the run is then audited the ordinary way)."""
    try:
        lock_path.parent.mkdir(parents=True, exist_ok=True)
        lock = FileLock(os.fspath(lock_path))
        lock.acquire(timeout=0)
    except (Timeout, OSError):
        yield False
        return
    try:
        yield True
    finally:
        lock.release()


def _write_atomically(path: Path, data: bytes) -> None:
    """Atomic (readers never see half a file) but not fsynced: the cache is derived data, a lost
    entry is recomputed, and an fsync per run dominated cold xdist runs. Failures are ignored:
    an unwritable cache costs time, never correctness."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=f".{path.name[:16]}.{_HOST}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temp)


def sweep_orphans(directory: Path) -> int:
    """Remove the temporary files of writers that died mid-write (a worker killed between
    mkstemp and rename): a dead process of this host, or any writer's after ORPHAN_AGE seconds.
    The count removed; a file in use by a live writer is never touched."""
    removed = 0
    now = time.time()
    for path in (p for p in paths_below(directory) if p.name.endswith(".tmp")):
        match = _TEMP.search(path.name)
        try:
            dead = match is not None and match.group("host") == _HOST and not _alive(int(match.group("pid")))
            if dead or now - path.stat().st_mtime > ORPHAN_AGE:
                path.unlink()
                removed += 1
        except OSError:
            continue
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists but is not ours to signal
    return True


@dataclass
class CacheInfo:
    directory: Path
    entries: int = 0  # audit reports
    current: int = 0  # ... written by the audit code running now
    entry_bytes: int = 0
    memos: int = 0  # inputs/ and code/ memo files
    stale: list[Path] = field(default_factory=list)  # entries of other code, broken entries


def _entries(directory: Path) -> Iterator[Path]:
    """The entry files ``audit/??/*.json``: real folders and files only. A symlinked shard
    (``audit/cd -> /elsewhere``) is never entered: prune would delete what it points at."""
    audit = directory / "audit"
    if audit.is_symlink() or not audit.is_dir():
        return
    found = []
    with contextlib.suppress(OSError), os.scandir(audit) as shards:
        for shard in shards:
            if len(shard.name) != 2 or not shard.is_dir(follow_symlinks=False):
                continue
            with contextlib.suppress(OSError), os.scandir(shard.path) as files:
                found += [Path(f.path) for f in files if f.name.endswith(".json") and f.is_file(follow_symlinks=False)]
    yield from sorted(found)


def _memos(directory: Path) -> Iterator[Path]:
    """The inputs/ and code/ memo files (not the claim locks beside them)."""
    for folder in ("inputs", "code"):
        if (directory / folder).is_dir():
            yield from (p for p in paths_below(directory / folder) if p.is_file() and p.suffix != ".lock")


def inspect(directory: Path) -> CacheInfo:
    """Counts and sizes; an entry is stale when another code fingerprint (or none) wrote it."""
    info = CacheInfo(directory)
    current = code_fingerprint(directory)
    for path in _entries(directory):
        info.entries += 1
        with contextlib.suppress(OSError):
            info.entry_bytes += path.stat().st_size
        try:
            code = jsonio.read_json_object(path).get("code")
        except ColdstartError:
            code = None
        if code == current:
            info.current += 1
        else:
            info.stale.append(path)
    info.memos = sum(1 for _ in _memos(directory))
    return info


def prune(directory: Path, *, everything: bool = False) -> int:
    """Remove stale entries (all entries and memos with ``everything``); the count removed."""
    info = inspect(directory)
    doomed = list(_entries(directory)) if everything else info.stale
    if everything:
        doomed += list(_memos(directory))
    removed = sweep_orphans(directory)
    for path in doomed:
        with contextlib.suppress(OSError):
            path.unlink()
            removed += 1
        with contextlib.suppress(OSError):
            path.with_suffix(".lock").unlink()
    return removed
