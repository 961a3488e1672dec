"""Seal anchors: a sealed run pinned from outside the run.

The seal inside run.json (record count, head hash, every file's sha256) stops a reader who
only has the run from changing one byte unnoticed, but not the run's own writer: it can set
run.json back to open, cut the last trajectory lines and seal again, and the result is a valid
run. An **anchor** is the seal's fingerprint kept somewhere that writer cannot reach (a CI log,
a JUnit property, a ledger file, a signature by a key the lab holds)::

    {"schemaVersion": 2, "kind": "coldstart-anchor", "run_id": ..., "sealed_at": ...,
     "trajectory": {"records": N, "head": <sha256 of the last line>},
     "manifest_sha256": <sha256 of run.json's bytes as sealed>}

``manifest_sha256`` pins run.json, and run.json's seal pins every sealed file by sha256, so an
anchor pins the run's sealed bytes. ``compare`` recomputes the run's side from its files
(the trajectory is counted and its last line hashed directly, never taken from run.json) and
names every difference. Schema: ``run/schemas/anchor.schema.json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_coldstart.record.trajectory import read_last_line
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.errors import ColdstartError, UsageError
from pytest_coldstart.run.hashing import sha256_bytes
from pytest_coldstart.run.layout import RUN_JSON, TRAJECTORY, RunDir
from pytest_coldstart.run.versioning import CURRENT

KIND = "coldstart-anchor"
#: the fields a signature covers (``signature`` and a ledger's ``appended_at`` are not signed)
SIGNED = ("schemaVersion", "kind", "run_id", "sealed_at", "trajectory", "manifest_sha256")
MAX_ANCHOR_BYTES = 64 * 1024


def of_manifest(manifest_bytes: bytes) -> dict[str, Any] | None:
    """The anchor a sealed run.json states (None when it is not sealed): no trajectory read."""
    try:
        manifest = jsonio.loads(manifest_bytes)
    except (ValueError, RecursionError):
        return None
    seal = manifest.get("seal") if isinstance(manifest, dict) else None
    if not isinstance(seal, dict) or manifest.get("status") != "sealed":
        return None
    stated = seal.get("trajectory")
    trajectory: dict[str, Any] = stated if isinstance(stated, dict) else {}
    return {
        "schemaVersion": CURRENT,
        "kind": KIND,
        "run_id": manifest.get("run_id"),
        "sealed_at": seal.get("sealed_at"),
        "trajectory": {"records": trajectory.get("records"), "head": trajectory.get("head")},
        "manifest_sha256": sha256_bytes(manifest_bytes),
    }


def of_run(run_dir: str | Path) -> dict[str, Any] | None:
    """The anchor of a sealed run as its run.json states it (None: unsealed or unreadable)."""
    try:
        with jsonio.open_bytes(RunDir(run_dir).run_json, RUN_JSON) as handle:
            data = handle.read(jsonio.MAX_DOCUMENT_BYTES + 1)
    except ColdstartError:
        return None
    return of_manifest(data) if len(data) <= jsonio.MAX_DOCUMENT_BYTES else None


def one_line(anchor: dict[str, Any]) -> str:
    """The anchor as one compact JSON line (what ``trace seal`` prints and a ledger holds)."""
    return json.dumps(anchor, ensure_ascii=False, separators=(",", ":"))


def signing_input(anchor: dict[str, Any]) -> bytes:
    """The bytes a signature covers: a fixed prefix, then the signed fields as canonical JSON."""
    return b"pytest-coldstart anchor v2\n" + jsonio.canonical_bytes({k: anchor.get(k) for k in SIGNED})


def check_shape(value: Any, label: str) -> dict[str, Any]:
    """An anchor document checked against its schema (UsageError naming ``label`` if not)."""
    if not isinstance(value, dict):
        raise UsageError(f"an anchor must be a JSON object, got {jsonio.type_name(value)}", label)
    version = value.get("schemaVersion")
    if type(version) is not int or version != CURRENT:
        raise UsageError(
            f"anchor schemaVersion {version!r} is not supported by this version (expected {CURRENT})", label
        )
    from pytest_coldstart.run import schemas

    problems = schemas.errors("anchor", value)
    if problems:
        raise UsageError(f"not an anchor ({problems[0]})", label)
    return value


def parse(text_or_path: str) -> tuple[dict[str, Any], str]:
    """``--anchor A``: the printed JSON line itself, or a file holding it. Returns (anchor, label)."""
    if text_or_path.lstrip()[:1] in ("{", "["):
        label = "--anchor"
        data = text_or_path.encode("utf-8")
    else:
        label = text_or_path
        try:
            with jsonio.open_bytes(text_or_path, label, follow_symlinks=True) as handle:
                data = handle.read(MAX_ANCHOR_BYTES + 1)
        except ColdstartError as exc:
            raise UsageError(exc.problem, label) from None
        if len(data) > MAX_ANCHOR_BYTES:
            raise UsageError(f"larger than {MAX_ANCHOR_BYTES} bytes: not an anchor", label)
    try:
        value = jsonio.parse_json_bytes(data.strip(), label)
    except ColdstartError as exc:
        raise UsageError(exc.problem, label) from None
    return check_shape(value, label), label


def current_state(run_dir: str | Path) -> tuple[dict[str, Any], list[str]]:
    """What the run holds now, recomputed from its files: (state, problems reading it)."""
    rundir = RunDir(run_dir)
    problems: list[str] = []
    state: dict[str, Any] = {"run_id": None, "manifest_sha256": None, "records": None, "head": None, "sealed": False}
    try:
        with jsonio.open_bytes(rundir.run_json, RUN_JSON) as handle:
            manifest_bytes = handle.read(jsonio.MAX_DOCUMENT_BYTES + 1)
        state["manifest_sha256"] = sha256_bytes(manifest_bytes)
        stated = of_manifest(manifest_bytes)
        state["sealed"] = stated is not None
        manifest = jsonio.loads(manifest_bytes)
        state["run_id"] = manifest.get("run_id") if isinstance(manifest, dict) else None
    except (ColdstartError, ValueError, RecursionError) as exc:
        problems.append(f"{RUN_JSON}: {getattr(exc, 'problem', None) or 'malformed JSON'}")
    try:
        state["records"] = _count_lines(rundir.trajectory)
        last = read_last_line(rundir.trajectory)
        state["head"] = sha256_bytes(last) if last is not None else None
    except ColdstartError as exc:
        problems.append(f"{TRAJECTORY}: {exc.problem}")
    return state, problems


def _count_lines(path: Path) -> int:
    """Non-blank lines, a torn last line included: any line cut or added changes the count.
    Read in bounded pieces: a hostile line of any length is never held whole."""
    count = 0
    content = False  # the current line holds a non-blank byte
    with jsonio.open_bytes(path, TRAJECTORY) as handle:
        while piece := handle.readline(1 << 20):
            if not content and piece.strip():
                content = True
            if piece.endswith(b"\n"):
                count += content
                content = False
    return count + content


def compare(anchor: dict[str, Any], run_dir: str | Path, source: str) -> list[str]:
    """Every way the run differs from ``anchor`` (from ``source``), as sentences; [] = it matches."""
    state, problems = current_state(run_dir)
    out = [f"anchor ({source}): cannot read {p}" for p in problems]
    if state["run_id"] is not None and state["run_id"] != anchor["run_id"]:
        out.append(f"anchor ({source}) is for run {anchor['run_id']!r}, this run is {state['run_id']!r}")
        return out
    expected = anchor["trajectory"]
    if state["records"] is not None and state["records"] != expected["records"]:
        change = "cut" if state["records"] < expected["records"] else "added"
        out.append(
            f"anchor ({source}): {TRAJECTORY} has {state['records']} records, the anchor says {expected['records']} "
            f"(records were {change} after the seal)"
        )
    if state["head"] is not None and state["head"] != expected["head"]:
        out.append(
            f"anchor ({source}): the trajectory's last line hashes to {state['head'][:16]}..., the anchor says "
            f"{expected['head'][:16]}... (the trajectory changed after the seal)"
        )
    if state["manifest_sha256"] is not None and state["manifest_sha256"] != anchor["manifest_sha256"]:
        why = "it is no longer sealed" if not state["sealed"] else "its seal, file list or fields were edited"
        out.append(
            f"anchor ({source}): {RUN_JSON} hashes to {state['manifest_sha256'][:16]}..., the anchor says "
            f"{anchor['manifest_sha256'][:16]}... (run.json changed after the seal: {why})"
        )
    return out
