"""Whether a stored ``audit/audit.json`` is the current verdict of its run.

A report on disk is only evidence of what the audit said about the bytes it read then. When
the audit writes its report into the run's own ``audit/`` folder it also writes
``audit/currency.json`` (``record``): the run id, the sha256 of the audit.json it stands for,
and ``audit_inputs_digest`` of the run taken just before the audit read it. audit.json itself
stays byte-identical for identical runs (the digest covers inodes and times, so it lives
beside the report, not in it). Readers that show a stored verdict (``summary``, ``compare``)
accept it only when ``stored_report`` does:
- audit.json is an audit report of a version this build reads (an integer ``schemaVersion``,
  no 2.0) that matches the audit schema, and its ``run_id`` is the run's own (not foreign);
- currency.json is readable, version 2, names the same run and exactly these audit.json bytes;
- its inputs digest equals the run's digest now: any file added, removed, rewritten or touched
  since, or a change of the audit code, makes the report stale.
Otherwise the caller re-audits: a verdict is never taken from a stale or foreign file. A
report written with ``--answer``/``--oracle`` overrides or to another folder gets no
currency file (it judged other inputs, or is not the run's own).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pytest_coldstart.audit.digest import audit_inputs_digest
from pytest_coldstart.run import jsonio, layout, schemas
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.hashing import sha256_bytes
from pytest_coldstart.run.versioning import CURRENT, is_version, version_of

AUDIT_JSON = f"{layout.AUDIT_DIR}/audit.json"
CURRENCY_JSON = f"{layout.AUDIT_DIR}/currency.json"


def record(out: Path, report: dict[str, Any], digest: str | None) -> None:
    """After audit.json was written to ``out``: write (or, with no digest, remove) currency.json."""
    target = out / "currency.json"
    if digest is None:
        try:
            os.unlink(target)
        except FileNotFoundError:
            pass
        return
    written = (out / "audit.json").read_bytes()
    document = {
        "schemaVersion": CURRENT,
        "run_id": report.get("run_id"),
        "audit_sha256": sha256_bytes(written),
        "inputs_digest": digest,
    }
    jsonio.write_json_atomic(target, document)


def stored_report(run_dir: str | Path, run_id: Any) -> tuple[dict[str, Any] | None, str]:
    """(report, "") when audit/audit.json is the current verdict of this run, else (None, why).
    ``run_id`` None: the one run.json names."""
    root = Path(run_dir)
    if run_id is None:
        try:
            run_id = layout.RunDir(root).load_manifest().get("run_id")
        except (ColdstartError, OSError) as exc:
            return None, exc.one_line() if isinstance(exc, ColdstartError) else f"{layout.RUN_JSON}: unreadable"
    try:
        with jsonio.open_bytes(root / AUDIT_JSON, AUDIT_JSON) as handle:
            data = handle.read(jsonio.MAX_DOCUMENT_BYTES + 1)
        document = jsonio.parse_json_bytes(data, AUDIT_JSON)
        version = version_of(document, "audit", AUDIT_JSON)
    except (ColdstartError, OSError) as exc:
        return None, exc.one_line() if isinstance(exc, ColdstartError) else f"{AUDIT_JSON}: unreadable"
    if version != CURRENT or not schemas.is_valid("audit", document):
        return None, f"{AUDIT_JSON} is not a version-{CURRENT} audit report"
    if not isinstance(run_id, str) or document.get("run_id") != run_id:
        return None, f"{AUDIT_JSON} is the report of another run"
    try:
        currency = jsonio.read_json_object(root / CURRENCY_JSON, what=CURRENCY_JSON)
    except ColdstartError as exc:
        return None, f"the audit's inputs are not recorded ({exc.one_line()})"
    if not is_version(currency.get("schemaVersion"), CURRENT) or not schemas.is_valid("currency", currency):
        return None, f"{CURRENCY_JSON} is not a version-{CURRENT} currency record"
    if currency["run_id"] != run_id or currency["audit_sha256"] != sha256_bytes(data):
        return None, f"{CURRENCY_JSON} stands for another report"
    if currency["inputs_digest"] != audit_inputs_digest(root):
        return None, f"{AUDIT_JSON} is stale: the run (or the audit code) changed since it was written"
    return document, ""
