"""Contract versions (seed 003 as we apply it).

Every document and record we write carries an integer ``schemaVersion`` (current: 2).
Version 1 is the reference implementation's format, recognised by its ``schema`` string and
dual-read through explicit translators (``pytest_coldstart.run.v1``). Anything else fails closed.
"""

from __future__ import annotations

from typing import Any

from pytest_coldstart._version import __version__
from pytest_coldstart.run.errors import VersionError

CURRENT = 2
READABLE = (1, 2)

#: The reference implementation's schema strings, by document kind.
V1_SCHEMAS = {
    "run": "mc-agent-coldstart-run/1",
    "trajectory": "mc-agent-coldstart-trajectory/1",
    "evidence": "mc-agent-coldstart-evidence/1",
    "visibility": "mc-agent-coldstart-visibility/1",
    "audit": "mc-agent-coldstart-audit/1",
    "validation": "mc-agent-coldstart-validation/1",
    "answer": "mc-agent-coldstart-answer/1",
    "oracle": "mc-agent-coldstart-oracle/1",
    "preflight": "mc-agent-harness-preflight/1",
    "harness-config": "mc-agent-harness-config/1",
    "logger": "mc-agent-coldstart-logger/1",
    "testmod": "mc-agent-auditmod/1",
}

#: Kinds whose reference documents carried no version marker at all (review lines), or that
#: third parties write (answer, oracle, fixture payloads): an unmarked document reads as v1.
UNMARKED_IS_V1 = {"review", "answer", "oracle", "harness-config"}


def incompatible(kind: str, found: Any) -> str:
    return (
        f"{kind} has schemaVersion {found!r}; pytest-coldstart {__version__} reads versions "
        f"{', '.join(map(str, READABLE))} only (fail closed: upgrade pytest-coldstart or migrate the file)"
    )


def version_of(document: Any, kind: str, label: str | None = None) -> int:
    """Return 1 or 2 for a readable ``document`` of ``kind``; raise VersionError otherwise."""
    where = label or kind
    if not isinstance(document, dict):
        raise VersionError(f"{kind} must be a JSON object", where)
    if "schemaVersion" in document:
        found = document["schemaVersion"]
        if type(found) is not int or found not in READABLE:  # no bool, no 2.0
            raise VersionError(incompatible(kind, found), where)
        return found
    schema = document.get("schema")
    expected = V1_SCHEMAS.get(kind)
    if schema is not None or (expected is None and "schema" in document):
        if schema == expected and expected is not None:
            return 1
        if expected is None:
            raise VersionError(
                f"{kind} declares schema {schema!r}, which pytest-coldstart {__version__} does not know "
                f"({kind} documents carry no schema string, or an integer schemaVersion {CURRENT}); refusing to guess",
                where,
            )
        raise VersionError(
            f"{kind} declares schema {schema!r}, expected {expected!r} (version 1) or an integer "
            f"schemaVersion {CURRENT}; refusing to guess",
            where,
        )
    if kind in UNMARKED_IS_V1:
        return 1
    raise VersionError(f"{kind} carries no schemaVersion (and no version-1 schema string)", where)


def is_version(value: Any, version: int) -> bool:
    """``value`` is exactly the integer ``version`` (no bool, no float such as 2.0)."""
    return type(value) is int and value == version


def require_current(record: Any, kind: str, label: str | None = None) -> None:
    """Writers that continue a file (appenders) refuse to follow a record of another version."""
    found = record.get("schemaVersion", "missing") if isinstance(record, dict) else "missing"
    if not is_version(found, CURRENT):
        raise VersionError(
            f"last {kind} has schemaVersion {found!r}; pytest-coldstart {__version__} appends only after version "
            f"{CURRENT} records (fail closed: upgrade pytest-coldstart or migrate the file)",
            label or kind,
        )


#: Evidence documents declared in evidence.json whose version markers every reader checks
#: (the audit's loader and ``validate`` alike), by evidence name -> document kind.
EVIDENCE_DOCUMENTS = {
    "answer": "answer",
    "oracle": "oracle",
    "preflight": "preflight",
    "fixture": "fixture",
    "restore": "restore",
}


def evidence_version(name: str, document: Any, label: str) -> int | None:
    """The version of an evidence document, VersionError when it is unknown (fail closed).

    Kinds with a reference (version 1) format are always checked; lab-written fixture and
    restore reports need no marker, but one they carry (``schemaVersion`` or ``schema``) must
    be one this build reads. None: an unmarked fixture or restore report."""
    kind = EVIDENCE_DOCUMENTS[name]
    if kind in V1_SCHEMAS or not isinstance(document, dict) or "schemaVersion" in document or "schema" in document:
        return version_of(document, kind, label)
    return None
