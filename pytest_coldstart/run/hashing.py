"""Streaming SHA-256 helpers (1 MiB blocks, never the whole file in memory)."""

from __future__ import annotations

import hashlib
from pathlib import Path

BLOCK = 1 << 20


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: str | Path, *, follow_symlinks: bool = False) -> tuple[str, int]:
    """Return (hex digest, size in bytes). Like every run read: a regular file only, not
    through a symlink unless ``follow_symlinks`` (operator inputs); OSError otherwise."""
    from pytest_coldstart.run.jsonio import open_regular  # lazily: jsonio is not needed to hash bytes

    digest = hashlib.sha256()
    size = 0
    with open_regular(path, follow_symlinks=follow_symlinks) as handle:
        while block := handle.read(BLOCK):
            digest.update(block)
            size += len(block)
    return digest.hexdigest(), size


def short(digest: str | None) -> str:
    return (digest or "")[:12]


def is_sha256(value: object) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)
