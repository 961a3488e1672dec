"""Content-addressed payload store (``payloads/``) for large values and raw responses.

A value whose serialized form is larger than ``inline_max_bytes`` leaves the record: the record
keeps ``<key>: null`` plus ``<key>_payload``, a *ref*::

    {"sha256": HEX, "size": N, "encoding": "json"|"text", "compression": "none"|"gzip",
     "stored": true|false, "preview": "...", ["missing_reason": "..."]}

``sha256`` and ``size`` describe the ORIGINAL bytes (canonical JSON for ``json``, the UTF-8
string for ``text``), so a digest means the same thing whatever the compression, machine or
zlib version. The stored file is named by that digest: ``payloads/<sha256>`` when uncompressed,
``payloads/<sha256>.gz`` when gzip-compressed (deterministic gzip: mtime 0). ``stored`` is false
in preview-only mode and for values above ``max_payload_bytes``; ``missing_reason`` says why.
"""

from __future__ import annotations

import gzip
import io
import re
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pytest_coldstart.run import jsonio
from pytest_coldstart.run.errors import ColdstartError, UsageError
from pytest_coldstart.run.hashing import is_sha256, sha256_bytes
from pytest_coldstart.run.layout import PAYLOADS, RunDir
from pytest_coldstart.run.paths import ensure_folder, resolve_inside

PAYLOAD_MODES = ("full", "preview")
COMPRESSIONS = ("none", "gzip")
ENCODINGS = ("json", "text")
REF_KEYS = ("sha256", "size", "encoding", "compression", "stored", "preview")

DEFAULT_SETTINGS: dict[str, Any] = {
    "payload_mode": "full",
    "inline_max_bytes": 16384,
    "preview_chars": 2000,
    "compression": "none",
    "max_payload_bytes": 64 * 1024 * 1024,
}

_STORED_NAME = re.compile(r"^([0-9a-f]{64})(\.gz)?$")


def preview_text(data: str, limit: int) -> str:
    """Head and tail of ``data`` with the elided count in between (never longer than needed)."""
    if len(data) <= limit:
        return data
    half = max(1, limit // 2)
    return data[:half] + f"\n... [{len(data) - 2 * half} characters elided] ...\n" + data[-half:]


def check_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """Settings merged with the defaults; UsageError for values this version does not know."""
    merged = {**DEFAULT_SETTINGS, **{k: v for k, v in settings.items() if k in DEFAULT_SETTINGS}}
    if merged["payload_mode"] not in PAYLOAD_MODES:
        raise UsageError(f"payload_mode {merged['payload_mode']!r} is not one of {', '.join(PAYLOAD_MODES)}")
    if merged["compression"] not in COMPRESSIONS:
        raise UsageError(f"compression {merged['compression']!r} is not one of {', '.join(COMPRESSIONS)}")
    for key in ("inline_max_bytes", "preview_chars"):
        if isinstance(merged[key], bool) or not isinstance(merged[key], int) or merged[key] < 0:
            raise UsageError(f"{key} must be a non-negative integer")
    cap = merged["max_payload_bytes"]
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 0):
        raise UsageError("max_payload_bytes must be a non-negative integer or null")
    return merged


def stored_name(digest: str, compression: str) -> str:
    return digest + (".gz" if compression == "gzip" else "")


def parse_stored_name(name: str) -> tuple[str, str] | None:
    """``'<hex>.gz'`` -> (hex, 'gzip'); ``'<hex>'`` -> (hex, 'none'); anything else -> None."""
    match = _STORED_NAME.match(name)
    if not match:
        return None
    return match.group(1), "gzip" if match.group(2) else "none"


def is_ref(value: Any) -> bool:
    return isinstance(value, dict) and all(key in value for key in REF_KEYS)


def iter_refs(record: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield (key, ref) for every ``<key>_payload`` ref at the top level of a record."""
    for key, value in record.items():
        if isinstance(key, str) and key.endswith("_payload") and is_ref(value):
            yield key[: -len("_payload")], value


def encode(value: Any) -> tuple[bytes, str]:
    """The original bytes of a value: a string as UTF-8 text, anything else as canonical JSON."""
    if isinstance(value, str):
        return value.encode("utf-8"), "text"
    return jsonio.canonical_bytes(value), "json"


def decode(data: bytes, encoding: str, label: str) -> Any:
    if encoding == "text":
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ColdstartError(f"payload text is not UTF-8 (byte {exc.start})", label) from None
    return jsonio.parse_json_bytes(data, label)


class PayloadStore:
    def __init__(self, rundir: RunDir, settings: dict[str, Any] | None = None):
        self.rundir = rundir
        self.settings = check_settings(settings or {})

    def shrink(self, value: Any) -> tuple[Any, dict[str, Any] | None]:
        """Return (inline value, None) for small values, or (None, payload ref) for large ones."""
        data, encoding = encode(value)
        if len(data) <= int(self.settings["inline_max_bytes"]):
            return value, None
        return None, self.put(data, encoding)

    def put(self, data: bytes, encoding: str) -> dict[str, Any]:
        """Store ``data`` (unless the mode or the size cap forbids it) and return its ref."""
        digest = sha256_bytes(data)
        cap = self.settings["max_payload_bytes"]
        missing = None
        if self.settings["payload_mode"] != "full":
            missing = "preview-only mode: the full payload was not kept"
        elif cap is not None and len(data) > cap:
            missing = f"payload of {len(data)} bytes exceeds max_payload_bytes ({cap}): not kept"
        compression = "none"
        if missing is None:
            blob = data
            if self.settings["compression"] == "gzip":
                packed = gzip.compress(data, compresslevel=6, mtime=0)
                if len(packed) < len(data):
                    blob, compression = packed, "gzip"
            self._write(stored_name(digest, compression), blob)
        text = data.decode("utf-8", errors="replace")
        ref: dict[str, Any] = {
            "sha256": digest,
            "size": len(data),
            "encoding": encoding,
            "compression": compression,
            "stored": missing is None,
            "preview": preview_text(text, int(self.settings["preview_chars"])),
        }
        if missing is not None:
            ref["missing_reason"] = missing
        return ref

    def _write(self, name: str, blob: bytes) -> None:
        directory = ensure_folder(self.rundir.root, PAYLOADS)  # a symlinked payloads/ is refused
        target = directory / name
        if not target.exists():  # content-addressed: the same bytes are already there
            try:
                jsonio.write_bytes_atomic(target, blob)
            except OSError as exc:  # before the record is appended: nothing of it is kept
                raise ColdstartError(f"nothing was recorded: {exc.strerror or exc}", target) from None

    def load(self, ref: dict[str, Any]) -> Any:
        """The full value behind a ref; ColdstartError when not stored, missing or altered."""
        return decode(self.load_bytes(ref), ref.get("encoding", "json"), self._label(ref))

    def load_bytes(self, ref: dict[str, Any]) -> bytes:
        problem, data = read_ref(self.rundir.root, ref, limit=read_limit(self.settings))
        if problem is not None:
            raise ColdstartError(problem, self._label(ref))
        assert data is not None
        return data

    @staticmethod
    def _label(ref: Any) -> str:
        digest = ref.get("sha256") if isinstance(ref, dict) else None
        return f"{PAYLOADS}/{digest}"


#: No stored payload is ever read beyond this many (decompressed) bytes, whatever the run's
#: settings say (``max_payload_bytes: null`` included): a ref's own ``size`` is never trusted.
HARD_CAP = 256 * 1024 * 1024
_CHUNK = 1024 * 1024


def read_limit(settings: Any) -> int:
    """The most bytes a reader takes from one stored payload of a run with these ``logging``
    settings: its ``max_payload_bytes`` (the writer stored nothing larger; the default when
    absent or unusable), never above HARD_CAP."""
    cap = (
        settings.get("max_payload_bytes", DEFAULT_SETTINGS["max_payload_bytes"]) if isinstance(settings, dict) else None
    )
    if cap is None and isinstance(settings, dict) and "max_payload_bytes" in settings:
        return HARD_CAP
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 0:
        cap = DEFAULT_SETTINGS["max_payload_bytes"]
    return min(cap, HARD_CAP)


def read_ref(
    root: str | Path, ref: Any, *, limit: int | None = None, keep: bool = True
) -> tuple[str | None, bytes | None]:
    """(problem, None) or (None, original bytes) for a ref, checking size and hash.

    Used by the loader and by ``validate`` (payload-store integrity). Memory and work are bounded
    by the real limits, never by the ref: a ref whose ``size`` exceeds ``limit`` (``read_limit``
    of the run's settings; HARD_CAP by default) is refused unread, and the stored file is
    decompressed as a stream that stops one chunk past ``size``, so a gzip bomb behind a huge
    ``size`` costs at most ``limit`` bytes. With ``keep=False`` nothing is held (bytes None on
    success): validate only needs the verdict.
    """
    if not is_ref(ref):
        return "payload ref lacks one of " + ", ".join(REF_KEYS), None
    digest, size, compression = ref["sha256"], ref["size"], ref["compression"]
    if not is_sha256(digest):
        return "payload ref sha256 is not a lowercase sha256 hex digest", None
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        return "payload ref size is not a non-negative integer", None
    if compression not in COMPRESSIONS or ref["encoding"] not in ENCODINGS:
        return f"payload ref has unknown encoding {ref['encoding']!r} or compression {compression!r}", None
    if ref["stored"] is not True:
        return "payload was not stored (" + str(ref.get("missing_reason") or "no reason given") + ")", None
    bound = HARD_CAP if limit is None else min(limit, HARD_CAP)
    if size > bound:
        return f"payload ref size {size} exceeds the {bound}-byte limit for stored payloads (never read)", None
    try:
        path = resolve_inside(Path(root), f"{PAYLOADS}/{stored_name(digest, compression)}", what="payload")
        with jsonio.open_regular(path) as handle:
            if compression == "gzip":
                with gzip.GzipFile(fileobj=handle) as unpacked:
                    total, hasher, chunks = _stream(unpacked, size, keep)
            else:
                total, hasher, chunks = _stream(handle, size, keep)
    except ColdstartError as exc:
        return exc.problem, None
    except FileNotFoundError:
        return "payload is missing from the store", None
    except (OSError, EOFError, zlib.error, io.UnsupportedOperation) as exc:
        return f"payload is unreadable ({type(exc).__name__})", None
    if total != size:
        return f"payload holds {'more' if total > size else 'fewer'} bytes than its ref's size {size}", None
    if hasher.hexdigest() != digest:
        return "payload bytes do not match their sha256", None
    return None, b"".join(chunks) if keep else None


def _stream(source: Any, size: int, keep: bool) -> tuple[int, Any, list[bytes]]:
    """Read ``source`` in chunks up to one chunk past ``size``: (bytes seen, sha256, chunks)."""
    import hashlib

    hasher = hashlib.sha256()
    chunks: list[bytes] = []
    total = 0
    while total <= size:
        chunk = source.read(min(_CHUNK, size + 1 - total))
        if not chunk:
            break
        total += len(chunk)
        hasher.update(chunk)
        if keep:
            chunks.append(chunk)
    return total, hasher, chunks


def exists(rundir: RunDir, digest: str, compression: str = "none") -> bool:
    return (rundir.root / PAYLOADS / stored_name(digest, compression)).is_file()
