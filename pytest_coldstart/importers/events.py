"""Small, bounded mark data taken from untrusted session entries."""

from __future__ import annotations

from typing import Any

from pytest_coldstart.run.hashing import sha256_bytes

PREVIEW_CHARS = 400


def preview_of(text: str) -> dict[str, Any]:
    """A short preview plus size and hash: the full text stays in the raw session copy."""
    raw = text.encode("utf-8", "surrogatepass")
    preview = text if len(text) <= PREVIEW_CHARS else text[: PREVIEW_CHARS // 2] + " ... " + text[-PREVIEW_CHARS // 2 :]
    return {"preview": preview, "size": len(raw), "sha256": sha256_bytes(raw)}


def scalars(source: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    """The listed keys whose values are JSON scalars (long strings previewed)."""
    out: dict[str, Any] = {}
    for key in keys:
        value = source.get(key)
        if isinstance(value, str) and len(value) > PREVIEW_CHARS:
            out[key] = preview_of(value)
        elif value is None or isinstance(value, (str, int, float, bool)):
            if key in source:
                out[key] = value
    return out
