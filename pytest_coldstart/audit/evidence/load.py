"""Evidence declarations (evidence.json): containment, hash re-check, loading.

A declared file that is absolute, escapes the run (``..``, symlinks), is missing, unreadable
or hash-mismatched is an INFRA_ERROR and is never used (R5). The external streams are read
through ``aliases.project``; unknown event names are reported as information.

The agent logger, three ways:
- plain: ``path`` + ``sha256`` of the logger's own output;
- with a normalized view: ``path``/``sha256`` is the raw output (hashed, kept), ``normalized``/
  ``normalized_sha256`` the view the flags read; every view record carries ``source_sha256``
  equal to the raw file's hash;
- only a normalized view exists (the raw bytes were not kept, e.g. the published rom20
  package): ``path``/``sha256`` is the view and ``raw_sha256`` (optionally ``raw``, a
  run-relative name) names the absent raw output; every record must carry ``source_sha256``
  equal to ``raw_sha256`` (else INFRA_ERROR), a present ``raw`` file must hash to it, and the
  report says the raw bytes are absent. A view declared without ``raw_sha256`` is refused.
Basenames of ``path``, ``normalized``, ``raw`` and ``original_path`` are the logger's names
for agent_read_log ("the call names the logger file").
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import TYPE_CHECKING, Any

from pytest_coldstart.audit import integrity
from pytest_coldstart.audit.evidence import aliases
from pytest_coldstart.audit.evidence.aliases import ALIASES
from pytest_coldstart.audit.evidence.reader import read_hashed
from pytest_coldstart.audit.evidence.streams import StreamReading
from pytest_coldstart.audit.model import LOGGER, TESTMOD, Event, Findings
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.hashing import is_sha256, short
from pytest_coldstart.run.layout import EVIDENCE_JSON, REVIEWS, RunDir
from pytest_coldstart.run.paths import resolve_inside
from pytest_coldstart.run.versioning import evidence_version

if TYPE_CHECKING:  # typing only: correlation reads the loaded evidence
    from pytest_coldstart.audit.correlation import RunIdCheck

DOCUMENT_KINDS = {"answer": "answer", "oracle": "oracle", "preflight": "preflight"}
STREAM_KINDS = {
    "test_mod": (TESTMOD, "testmod", aliases.TESTMOD_EVENTS),
    "agent_logger": (LOGGER, "logger", aliases.LOGGER_EVENTS),
}


@dataclass
class Evidence:
    declarations: dict[str, Any] = field(default_factory=dict)
    version: int = 2
    usable: dict[str, str] = field(default_factory=dict)  # name -> run-relative path read
    events: dict[str, list[Event]] = field(default_factory=dict)  # stream -> events
    documents: dict[str, Any] = field(default_factory=dict)  # name -> parsed document
    logger_names: set[str] = field(default_factory=set)
    testmod_names: set[str] = field(default_factory=set)
    root: Path | None = None  # the run directory
    review_file: Path | None = None
    review_declaration: dict[str, Any] | None = None
    seq_index: dict[str, dict[int, tuple[int, int]]] = field(default_factory=dict)  # stream -> seq -> (line, offset)
    line_index: dict[str, dict[int, int]] = field(default_factory=dict)  # stream -> line -> offset
    hashes: dict[str, str] = field(default_factory=dict)  # name -> sha256 of the declared path's bytes
    #: every sha256 standing for the agent logger's bytes: its file, a normalized view's, the raw
    #: output a view-only declaration names (``raw_sha256``): none may be test-side bytes
    logger_hashes: list[str] = field(default_factory=list)
    provenance: Any = None  # provenance.Provenance, once the trajectory was scanned
    states: dict[str, str] = field(default_factory=dict)  # fixture/restore -> verified|invalid|pending

    def declared(self, name: str) -> bool:
        return self.declarations.get(name) is not None

    def stream(self, stream: str) -> list[Event]:
        return self.events.get(stream, [])


def basename(path: object) -> str | None:
    if not isinstance(path, str) or not path.strip():
        return None
    text = path.replace("\\", "/")
    return PurePosixPath(text).name.lower() or None


def load_evidence(
    rundir: RunDir,
    run_id: str,
    findings: Findings,
    overrides: dict[str, str] | None = None,
    run_id_check: RunIdCheck | None = None,
    digests: dict[Path, tuple[str, int]] | None = None,
) -> Evidence:
    """The declared evidence, read once; ``digests`` receives (sha256, size) of each file read."""
    evidence = Evidence(root=rundir.root)
    try:
        document = rundir.load_evidence()
    except ColdstartError as exc:
        findings.infra(f"evidence.json: {exc.problem}", integrity.document(EVIDENCE_JSON))
        return evidence
    evidence.version = 1 if document.get("translated_from") == 1 else 2
    for name, value in document.items():
        if name in ("schemaVersion", "translated_from", "schema", "note") or value is None:
            continue
        if name in ("agent_logger", "test_mod", "answer", "oracle", "fixture", "restore", "preflight", "review"):
            evidence.declarations[name] = value
    for name, path in (overrides or {}).items():
        evidence.declarations[name] = {"path": path, "source": "cli-override"}
        findings.info(f"{name}: taken from the command-line override {path!r}; no declared hash to re-check")
    loader = _Loader(rundir, run_id, findings, evidence, run_id_check, {} if digests is None else digests)
    for name in ("test_mod", "agent_logger"):
        loader.stream(name)
    for name in ("answer", "oracle", "fixture", "restore", "preflight"):
        loader.document(name)
    loader.review_file()
    return evidence


def check_hash(
    findings: Findings,
    version: int,
    name: str,
    decl: dict[str, Any],
    actual: str,
    size: int,
    key: str = "sha256",
    declaration: str | None = None,
) -> bool:
    """Compare a declaration's hash (and size) with the bytes read; report and refuse on mismatch.
    ``declaration``: its name in evidence.json (default ``name``), for the keys of ``integrity``."""
    declaration = declaration or name
    about = functools.partial(
        integrity.declared,
        integrity.evidence_check(declaration, "normalized view" if key == "normalized_sha256" else "path"),
    )
    field = integrity.schema(EVIDENCE_JSON, f"$.{declaration}.{key}")  # validate's schema check of the same value
    expected = decl.get(key)
    if expected is None:
        if decl.get("source") == "cli-override":
            return True
        if version == 1:
            findings.info(f"evidence {name}: no {key} declared (version-1 run), so the bytes were not re-checked")
            return True
        findings.infra(
            f"evidence {name}: the declaration carries no {key}; its bytes cannot be verified", *about("hash"), field
        )
        return False
    if not is_sha256(expected):
        findings.infra(
            f"evidence {name}: {key} {str(expected)[:70]!r} is not a lowercase sha256", *about("hash"), field
        )
        return False
    if expected != actual:
        findings.infra(
            f"evidence {name}: {key} mismatch (declared {short(expected)}, actual {short(actual)}); the file changed after it was declared",
            *about("hash", "size"),
        )
        return False
    declared_size = decl.get("size") if key == "sha256" else None
    if declared_size is not None and declared_size != size:
        findings.infra(f"evidence {name}: size mismatch (declared {declared_size!r}, actual {size})", *about("size"))
        return False
    return True


class _Loader(StreamReading):
    def __init__(
        self,
        rundir: RunDir,
        run_id: str,
        findings: Findings,
        evidence: Evidence,
        run_id_check: RunIdCheck | None,
        digests: dict[Path, tuple[str, int]],
    ) -> None:
        self.rundir = rundir
        self.run_id = run_id
        self.findings = findings
        self.evidence = evidence
        self.run_id_check = run_id_check
        self.digests = digests

    # -- paths and hashes ----------------------------------------------------------------

    def contained(
        self, label: str, relative: object, about: tuple[str, ...] = (), field: str | None = None
    ) -> Path | None:
        """The path inside the run (absolute, ``..`` and symlinks refused), or None after reporting.
        ``about``: the declarations this path is, as validate names them; ``field``: where
        evidence.json holds it."""
        keys = [key for what in about for key in integrity.declared(what, "path")]
        if field is not None and not (isinstance(relative, str) and relative.strip()):
            keys.append(integrity.schema(EVIDENCE_JSON, field))  # no path at all: validate's schema says so too
        if isinstance(relative, str) and (PureWindowsPath(relative).drive or PurePosixPath(relative).is_absolute()):
            self.findings.infra(
                f"{label}: path {relative!r} is absolute; declare evidence relative to the run directory (never read)",
                *keys,
            )
            return None
        try:
            return resolve_inside(self.rundir.root, relative, what=label)
        except ColdstartError as exc:
            self.findings.infra(f"{exc.problem} (never read)", *keys)
            return None

    def resolve(self, name: str, relative: object, what: str = "path") -> Path | None:
        """The contained, existing file, or None after reporting an infra error."""
        label = f"evidence {name}" if what == "path" else f"evidence {name} ({what})"
        subject = integrity.evidence_check(name, what)
        about = (subject, "reviews file") if name == "review" else (subject,)  # validate checks a reviews path twice
        target = self.contained(label, relative, about, f"$.{name}.{'path' if what == 'path' else 'normalized'}")
        if target is None:
            return None
        if not target.exists():
            self.findings.infra(f"{label}: file {relative!r} is missing", *integrity.declared(subject, "missing"))
            return None
        if not target.is_file():
            self.findings.infra(f"{label}: {relative!r} is not a regular file", *integrity.declared(subject, "missing"))
            return None
        return target

    def declaration(self, name: str) -> dict[str, Any] | None:
        value = self.evidence.declarations.get(name)
        if value is None:
            return None
        if not isinstance(value, dict):
            self.findings.infra(
                f"evidence.json: declaration {name!r} must be an object, got {jsonio.type_name(value)}",
                integrity.schema(EVIDENCE_JSON, f"$.{name}"),
            )
            return None
        return value

    def hash_ok(self, name: str, decl: dict[str, Any], actual: str, size: int, key: str = "sha256") -> bool:
        return check_hash(self.findings, self.evidence.version, name, decl, actual, size, key, name.partition(" ")[0])

    # -- external streams ----------------------------------------------------------------

    def stream(self, name: str) -> None:
        decl = self.declaration(name)
        if decl is None:
            return
        stream, kind, known = STREAM_KINDS[name]
        names = self.evidence.logger_names if name == "agent_logger" else self.evidence.testmod_names
        for key in ("path", "normalized", "raw", "original_path"):
            base = basename(decl.get(key))
            if base:
                names.add(base)
        if name == "agent_logger" and decl.get("normalized") is not None:
            self._normalized_logger(decl)
            return
        path = self.resolve(name, decl.get("path"))
        if path is None:
            return
        events, source_hashes, sha, size = self._read_stream(name, path, stream, kind, known)
        if events is None or not self.hash_ok(name, decl, sha, size):
            self._forget(stream)
            return
        if name == "agent_logger" and not self._source_rule(decl, events, source_hashes, path):
            self._forget(stream)
            return
        self.evidence.usable[name] = decl["path"]
        self.evidence.events[stream] = events
        self.evidence.hashes[name] = sha
        if name == "agent_logger":
            raw_sha = decl.get("raw_sha256")  # checked by _source_rule
            self.evidence.logger_hashes = [sha, *([raw_sha] if isinstance(raw_sha, str) else [])]

    # -- JSON documents ------------------------------------------------------------------

    def document(self, name: str) -> None:
        decl = self.declaration(name)
        if decl is None:
            return
        path = self.resolve(name, decl.get("path"))
        if path is None:
            return
        try:
            data, sha = read_hashed(path)
        except (OSError, ValueError) as exc:
            self.findings.infra(f"evidence {name}: unreadable ({getattr(exc, 'strerror', None) or exc})")
            return
        self.digests[path] = (sha, len(data))
        if not self.hash_ok(name, decl, sha, len(data)):
            return
        try:
            value = jsonio.parse_json_bytes(data, decl["path"])
        except ColdstartError as exc:
            self.findings.infra(f"evidence {name}: {exc.one_line()}")
            return
        if not isinstance(value, dict):
            self.findings.infra(
                f"evidence {name}: {decl['path']}: expected a JSON object, got {jsonio.type_name(value)}"
            )
            return
        try:
            evidence_version(name, value, decl["path"])  # the rule validate applies too
        except ColdstartError as exc:
            self.findings.infra(f"evidence {name}: {exc.one_line()}")
            return
        for key in ALIASES["run_id"] if self.run_id_check is not None else ():
            if isinstance(value.get(key), str):  # every spelling: run_id right beside runId wrong is no one run
                self.run_id_check(f"evidence {name}", value[key])
        self.evidence.usable[name] = decl["path"]
        self.evidence.documents[name] = value
        self.evidence.hashes[name] = sha

    def review_file(self) -> None:
        decl = self.declaration("review")
        if decl is None:
            if self.evidence.declarations.get("review") is not None:
                return  # malformed declaration already reported
            default = self.rundir.root / REVIEWS
            if default.is_symlink():
                self.findings.infra(
                    f"{REVIEWS}: is a symlink (never followed)", *integrity.declared("reviews file", "path")
                )
            elif default.is_file():
                self.evidence.review_file = default
            return
        path = self.resolve("review", decl.get("path"))
        if path is not None:
            self.evidence.review_file = path
            self.evidence.review_declaration = decl
