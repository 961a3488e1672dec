"""Streaming SHA-256 helpers (1 MiB blocks, never the whole file in memory)."""

from __future__ import annotations

import hashlib
from pathlib import Path

BLOCK = 1 << 20


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: str | Path) -> tuple[str, int]:
    """Return (hex digest, size in bytes)."""
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as handle:
        while block := handle.read(BLOCK):
            digest.update(block)
            size += len(block)
    return digest.hexdigest(), size


def short(digest: str | None) -> str:
    return (digest or "")[:12]


def is_sha256(value: object) -> bool:
    return (
        isinstance(value, str)
        and len(value) == 64
        and all(c in "0123456789abcdef" for c in value)
    )
