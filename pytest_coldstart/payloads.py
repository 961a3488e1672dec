"""Content-addressed payload store (``payloads/<sha256>``) for large values.

A record keeps a preview, the size and the hash; the full value is in the store (always in
``full`` mode; in ``preview`` mode only the preview is kept and the record says so).
"""

from __future__ import annotations

import os
from typing import Any

from pytest_coldstart import jsonio
from pytest_coldstart.hashing import sha256_bytes
from pytest_coldstart.layout import PAYLOADS, RunDir

DEFAULT_SETTINGS = {"payload_mode": "full", "inline_max_bytes": 16384, "preview_chars": 2000, "compression": "none"}


def preview_text(data: str, limit: int) -> str:
    if len(data) <= limit:
        return data
    half = max(1, limit // 2)
    return data[:half] + f"\n... [{len(data) - 2 * half} characters elided] ...\n" + data[-half:]


class PayloadStore:
    def __init__(self, rundir: RunDir, settings: dict[str, Any] | None = None):
        self.rundir = rundir
        self.settings = {**DEFAULT_SETTINGS, **(settings or {})}

    def shrink(self, value: Any) -> tuple[Any, dict[str, Any] | None]:
        """Return (inline value, None) for small values, or (None, payload ref) for large ones."""
        data = jsonio.canonical_bytes(value)
        if len(data) <= int(self.settings["inline_max_bytes"]):
            return value, None
        digest = sha256_bytes(data)
        stored = self.settings["payload_mode"] == "full"
        if stored:
            self.put(digest, data)
        text = data.decode("utf-8")
        ref = {
            "sha256": digest,
            "size": len(data),
            "encoding": "json",
            "stored": stored,
            "preview": preview_text(text, int(self.settings["preview_chars"])),
        }
        if not stored:
            ref["missing_reason"] = "preview-only mode: the full payload was not kept"
        return None, ref

    def put(self, digest: str, data: bytes) -> None:
        directory = self.rundir.root / PAYLOADS
        directory.mkdir(exist_ok=True)
        target = directory / digest
        if target.exists():
            return
        jsonio.write_bytes_atomic(target, data)

    def load(self, ref: dict[str, Any]) -> Any:
        """The full value behind a ref; ColdstartError when missing or altered."""
        from pytest_coldstart.errors import ColdstartError
        from pytest_coldstart.paths import resolve_inside

        digest = ref.get("sha256") if isinstance(ref, dict) else None
        path = resolve_inside(self.rundir.root, f"{PAYLOADS}/{digest}", what="payload")
        try:
            data = path.read_bytes()
        except OSError:
            raise ColdstartError("payload is missing from the store", f"{PAYLOADS}/{digest}") from None
        if sha256_bytes(data) != digest:
            raise ColdstartError("payload bytes do not match their hash", f"{PAYLOADS}/{digest}")
        return jsonio.parse_json_bytes(data, f"{PAYLOADS}/{digest}")


def exists(rundir: RunDir, digest: str) -> bool:
    return os.path.isfile(rundir.root / PAYLOADS / digest)
