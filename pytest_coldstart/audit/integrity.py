"""Run integrity (R12): the audit includes every check of ``coldstart trace validate``.

``validate_run`` (pytest_coldstart.validate.run) checks the task and visibility hashes, the
trajectory's hash chain and order, one result per call, imports, artifacts, payloads, reviews
and the sealed anchor. It runs inside the audit's one read of trajectory.jsonl (the audit's
scanner observes the same lines). Validate and the audit record findings in one model
(``validate.findings.Findings``); each validate finding becomes an infra error of the audit's
``validate: file:line: problem`` - unless the audit already reported that very problem in its
own words. What a problem is about is a key, built here for both sides:

- ``declared(what, aspect)``: a declared file (``what`` as validate names it: "evidence
  answer", "imports[0]" ...) is outside the run (path), missing, or has another hash or size;
- ``document(file)``: a JSON document could not be read at all; ``schema(file, path)``: the
  value at a JSON path of it breaks its schema (e.g. an evidence declaration without sha256),
  ``schema_tree(file, path)``: any value at or under that path does (e.g. run.json logging);
- ``line(file, number, kind)``: one line of a reviews file is unusable (unparsed, version, shape);
- ``payload(problem)``: a stored payload does not verify; ``TRAJECTORY_MISSING``.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Any

from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.hashing import sha256_file
from pytest_coldstart.run.layout import TRAJECTORY
from pytest_coldstart.run.paths import resolve_inside
from pytest_coldstart.validate.findings import Finding, Findings, ValidationReport

Key = tuple[Any, ...]
ASPECTS = ("path", "missing", "hash", "size")
TRAJECTORY_MISSING: Key = ("trajectory", "missing")
#: validate codes about one line of a reviews file, by what made the line unusable.
LINE_KINDS = {
    "review.torn": "unparsed",
    "review.malformed": "unparsed",
    "version.unknown": "version",
    "review.shape": "shape",
}


def declared(what: str, *aspects: str) -> tuple[Key, ...]:
    return tuple(("declared", what, aspect) for aspect in aspects)


def evidence_check(name: str, what: str = "path") -> str:
    """How validate names its check of an evidence declaration's ``path`` or normalized view."""
    return f"evidence {name}" if what == "path" else f"evidence {name} {what}"


def document(relative: str) -> Key:
    return ("document", _posix(relative))


def schema(relative: str, path: str) -> Key:
    return ("schema", _posix(relative), path)


def schema_tree(relative: str, path: str) -> Key:
    return ("schema-tree", _posix(relative), path)


def line(relative: str, number: int, kind: str) -> Key:
    return ("line", _posix(relative), number, kind)


def payload(problem: str) -> Key:
    return ("payload", " ".join(problem.split()))  # as validate's findings normalise spaces


def key_of(finding: Finding) -> Key | None:
    """What a validate finding is about, when the audit may have reported it itself."""
    code = finding.code
    if finding.subject is not None and code.rpartition(".")[2] in ASPECTS:
        return declared(finding.subject, code.rpartition(".")[2])[0]
    if code == "trajectory.missing":
        return TRAJECTORY_MISSING
    if code in ("payload.missing", "payload.integrity") and finding.line is not None:
        return payload(finding.problem)
    if finding.line is None and code in ("document.malformed", "version.unknown"):
        return document(finding.file)
    if code.startswith("schema.") and finding.subject is not None:
        return schema(finding.file, finding.subject)
    if finding.line is not None and finding.file != TRAJECTORY and code in LINE_KINDS:
        return line(finding.file, finding.line, LINE_KINDS[code])
    return None


def covered(finding: Finding, keys: set[Key]) -> bool:
    """Whether the audit's own infra errors (about ``keys``) already report ``finding``."""
    key = key_of(finding)
    if key is None:
        return False
    if key in keys:
        return True
    if key[0] == "schema":  # a problem under a subtree the audit reported as a whole
        path, parent = None, key[2]
        while parent != path:
            path, parent = parent, _parent(parent)
            if ("schema-tree", key[1], path) in keys:
                return True
    return False


def _parent(path: str) -> str:
    """``path`` without its last step: ``.name``, or ``[...]`` from the first ``[`` after the previous
    ``]``. Found from the end: a regex anchored at the end rescans from every ``[``."""
    cut = len(path)
    if path.endswith("]"):
        bracket = path.find("[", path.rfind("]", 0, -1) + 1, len(path) - 1)
        cut = bracket if bracket >= 0 else cut
    dot = path.rfind(".")
    if dot > path.rfind("["):
        cut = min(cut, dot)
    return path[:cut]


def fold(report: ValidationReport, findings: Findings) -> None:
    """Every validate finding not already reported by the audit, as an infra error."""
    for finding in report.findings:
        if not covered(finding, findings.covered):
            findings.infra(f"validate: {finding.to_text()}")


def validate(root: Path, observer: Any, digests: dict[Path, tuple[str, int]]) -> ValidationReport:
    """``validate_run`` with the audit's scanner observing its read of the trajectory."""
    from pytest_coldstart.validate.run import validate_run  # lazily: the audit's import stays light

    return validate_run(root, observer=observer, digests=digests)


def file_hash(path: Path, digests: dict[Path, tuple[str, int]]) -> tuple[str, int]:
    """sha256/size of a run file, read at most once per audit (validate reuses it)."""
    if path not in digests:
        digests[path] = sha256_file(path)
    return digests[path]


def agent_file_hash(root: Path, relative: str, digests: dict[Path, tuple[str, int]]) -> str | None:
    """sha256 of a file an agent call wrote, for the provenance rules' byte comparisons; None
    when it is outside the run, not a regular file or refused (a sparse file, a file swapped for
    a FIFO): such a file cannot hold the bytes of evidence the audit could read."""
    try:
        path = resolve_inside(root, relative, what="agent-written file")
        return file_hash(path, digests)[0] if path.is_file() else None
    except (ColdstartError, OSError):
        return None


def _posix(relative: str) -> str:
    return PurePosixPath(str(relative).replace("\\", "/")).as_posix()
