"""``validate`` for the files a run's documents point at: every declared hash re-checked.

Task, visibility copies, imports, artifacts, evidence declarations (and their normalized
views), the payload store, the sealed file manifest and the originals kept by ``migrate``.
Every path must stay inside the run directory (absolute paths, ``..`` and symlinks refused,
and never read). Each file is hashed at most once per validation (``Context.digest``).
"""

from __future__ import annotations

import gzip
import hashlib
import zlib
from pathlib import Path
from typing import Any

from pytest_coldstart.run import jsonio, layout, payloads
from pytest_coldstart.run.errors import ColdstartError, ContainmentError, VersionError
from pytest_coldstart.run.hashing import BLOCK, sha256_file, short
from pytest_coldstart.run.jsonfields import list_or_empty, object_or_empty
from pytest_coldstart.run.layout import RunDir
from pytest_coldstart.run.paths import resolve_inside
from pytest_coldstart.run.versioning import EVIDENCE_DOCUMENTS, evidence_version
from pytest_coldstart.run.vocabulary import EVIDENCE_NAMES
from pytest_coldstart.validate.findings import Findings


class Context:
    """One validation: the run directory, the findings and a cache of file digests."""

    def __init__(self, root: Path, findings: Findings):
        self.root = root
        self.rundir = RunDir(root)
        self.findings = findings
        self.hashed = 0
        self._digests: dict[str, tuple[str, int] | None] = {}
        self._known: dict[str, tuple[str, int]] = {}
        self._unreadable: dict[str, str] = {}  # why a file that is there could not be hashed

    def known(self, path: str | Path, digest: tuple[str, int]) -> None:
        """(sha256, size) of a file whose bytes were already read (``path`` as ``inside``
        returns it), so it is not read again."""
        self._known[str(path)] = digest

    def add(self, file: str, line: int | None, problem: str, code: str, subject: str | None = None) -> None:
        if subject is None:
            self.findings.add(file, line, problem, code)
        else:
            self.findings.add_about(subject, file, line, problem, code)

    def inside(self, relative: Any, what: str, document: str, code: str) -> Path | None:
        """The contained path, or None after a finding (never followed outside the run)."""
        try:
            return resolve_inside(self.root, relative, what=what)
        except ContainmentError as exc:
            self.add(document, None, exc.problem, code + ".path", what)
            return None

    def digest(self, path: Path) -> tuple[str, int] | None:
        """(sha256, size) of a regular file, hashed once; None when missing or unreadable."""
        key = str(path)
        if key not in self._digests:
            try:
                regular = path.is_file()
                self._digests[key] = (self._known.get(key) or sha256_file(path)) if regular else None
                self.hashed += regular
            except OSError as exc:
                self._digests[key] = None
                self._unreadable[key] = f"is unreadable ({exc.strerror or exc})"
        return self._digests[key]

    def check_file(
        self, relative: Any, sha256: Any, size: Any, *, what: str, document: str, code: str, require_hash: bool = True
    ) -> None:
        """``relative`` exists inside the run and has the declared sha256 (and size)."""
        path = self.inside(relative, what, document, code)
        if path is None:
            return
        found = self.digest(path)
        if found is None:
            state = self._unreadable.get(str(path)) or ("is a directory, not a file" if path.is_dir() else "is missing")
            self.add(str(relative), None, f"{what} {state} (declared in {document})", code + ".missing", what)
            return
        digest, actual = found
        if isinstance(sha256, str):
            if sha256 != digest:
                self.add(
                    str(relative),
                    None,
                    f"{what}: sha256 {short(digest)} does not match {short(sha256)} declared in {document} (the file changed)",
                    code + ".hash",
                    what,
                )
        elif require_hash:
            self.add(document, None, f"{what} has no sha256 to re-check", code + ".hash", what)
        if isinstance(size, int) and not isinstance(size, bool) and size != actual:
            self.add(
                str(relative), None, f"{what}: {actual} bytes, but {document} declares {size}", code + ".size", what
            )


def check_task(ctx: Context, manifest: dict[str, Any]) -> None:
    task = manifest.get("task")
    if not isinstance(task, dict):
        return  # the schema finding names it
    ctx.check_file(
        task.get("path", layout.TASK_MD),
        task.get("sha256"),
        task.get("size"),
        what="task file",
        document=layout.RUN_JSON,
        code="task",
    )


def check_visibility_copies(ctx: Context, document: dict[str, Any], label: str) -> None:
    files = document.get("files")
    if not isinstance(files, list):
        return
    count = document.get("file_count")
    if isinstance(count, int) and not isinstance(count, bool) and count != len(files):
        ctx.add(label, None, f"file_count {count} but {len(files)} files are listed", "visibility.count")
    for index, entry in enumerate(files):
        if isinstance(entry, dict) and entry.get("copy") is not None:
            ctx.check_file(
                entry["copy"],
                entry.get("sha256"),
                entry.get("size"),
                what=f"visible file copy files[{index}]",
                document=label,
                code="visibility.copy",
            )


def check_imports(ctx: Context, manifest: dict[str, Any], created_at: Any, early: dict[str, tuple[int, str]]) -> None:
    from pytest_coldstart.run.clock import parse_at

    entries = manifest.get("imports")
    if not isinstance(entries, list):
        return
    reported: set[str] = set()
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            continue
        path = entry.get("path")
        ctx.check_file(
            path,
            entry.get("sha256"),
            entry.get("size"),
            what=f"imports[{index}]",
            document=layout.RUN_JSON,
            code="imports",
        )
        if entry.get("complete") is False:
            ctx.add(
                layout.RUN_JSON,
                None,
                f"the import of {path} did not complete (imports[{index}].complete is false): the trajectory may "
                "hold only part of the session; import it into a new run",
                "imports.incomplete",
            )
        started = parse_at(entry.get("session_started_at"))
        if created_at is not None and started is not None and started < created_at:
            reported.add(str(path))
            ctx.add(
                layout.RUN_JSON,
                None,
                f"imported session {path} started at {entry.get('session_started_at')}, before the run was created "
                f"({manifest.get('created_at')}): open the run before the session starts",
                "imports.before_run",
            )
    for where, (line, at) in early.items():
        if where in reported:
            continue
        ctx.add(
            layout.TRAJECTORY,
            line,
            f"imported record from {where} at {at} precedes the run's creation ({manifest.get('created_at')}): open the run before the session starts",
            "imports.before_run",
        )


def check_artifacts(ctx: Context, manifest: dict[str, Any], version: int) -> None:
    entries = manifest.get("artifacts")
    if not isinstance(entries, list):
        return
    for index, entry in enumerate(entries):
        if isinstance(entry, dict):
            ctx.check_file(
                entry.get("path"),
                entry.get("sha256"),
                entry.get("size"),
                what=f"artifacts[{index}]",
                document=layout.RUN_JSON,
                code="artifacts",
                require_hash=version >= 2,
            )


def check_evidence(ctx: Context, evidence: dict[str, Any], version: int) -> None:
    for name in EVIDENCE_NAMES:
        declaration = evidence.get(name)
        if not isinstance(declaration, dict) or "path" not in declaration:
            continue
        what = f"evidence {name}"
        ctx.check_file(
            declaration["path"],
            declaration.get("sha256"),
            declaration.get("size"),
            what=what,
            document=layout.EVIDENCE_JSON,
            code="evidence",
            require_hash=version >= 2,
        )
        if name in EVIDENCE_DOCUMENTS:
            _check_document_version(ctx, name, declaration["path"], what)
        if declaration.get("normalized") is not None:
            ctx.check_file(
                declaration["normalized"],
                declaration.get("normalized_sha256"),
                None,
                what=f"{what} normalized view",
                document=layout.EVIDENCE_JSON,
                code="evidence.normalized",
            )


def _check_document_version(ctx: Context, name: str, relative: Any, what: str) -> None:
    """An evidence document's own version marker (``run.versioning.evidence_version``, the
    audit's rule): unknown -> a finding. Unreadable or malformed documents are the audit's
    to report (validate checks their bytes against their declaration above)."""
    try:
        path = resolve_inside(ctx.root, relative, what=what)
        document = jsonio.read_json(path, what=str(relative))
    except ColdstartError:
        return
    try:
        evidence_version(name, document, str(relative))
    except VersionError as exc:
        ctx.add(str(relative), None, exc.problem, "evidence.version", what)


def check_payloads(
    ctx: Context, refs: dict[tuple[Any, Any], tuple[int, dict[str, Any]]], limit: int = payloads.HARD_CAP
) -> None:
    """Every stored ref resolves to bytes with its hash; every file in payloads/ is named by its hash.
    ``limit`` (the run's max_payload_bytes, ``payloads.read_limit``) bounds what is read, streamed."""
    verified: set[str] = set()
    for (digest, compression), (line, ref) in refs.items():
        problem, _data = payloads.read_ref(ctx.root, ref, limit=limit, keep=False)
        name = payloads.stored_name(str(digest), str(compression)) if isinstance(digest, str) else repr(digest)
        if problem is None:
            ctx.hashed += 1
            verified.add(name)
            continue
        present = isinstance(digest, str) and (ctx.root / layout.PAYLOADS / name).is_file()
        ctx.add(
            layout.TRAJECTORY,
            line,
            f"payload {layout.PAYLOADS}/{name}: {problem}",
            "payload.integrity" if present else "payload.missing",
        )
    folder = ctx.root / layout.PAYLOADS
    if not folder.is_dir() or folder.is_symlink():
        return
    for path in sorted(folder.iterdir()):
        name = path.name
        if name in verified or (name.startswith(".") and name.endswith(".tmp")):
            continue
        label = f"{layout.PAYLOADS}/{name}"
        parsed = payloads.parse_stored_name(name)
        if parsed is None or path.is_symlink() or not path.is_file():
            ctx.add(
                label,
                None,
                "not a payload: the store holds only regular files named <sha256> or <sha256>.gz",
                "payload.name",
            )
            continue
        actual = _stored_digest(path, parsed[1], limit)
        ctx.hashed += 1
        if actual == _OVER_LIMIT:
            ctx.add(
                label, None, f"payload holds more than the {limit}-byte limit (not read further)", "payload.integrity"
            )
        elif actual != parsed[0]:
            ctx.add(
                label,
                None,
                f"payload bytes hash to {short(actual) if actual else 'nothing readable'}, not to the name they are stored under",
                "payload.integrity",
            )


_OVER_LIMIT = "over the limit"


def _stored_digest(path: Path, compression: str, limit: int) -> str | None:
    """sha256 of a stored payload's original bytes, streamed; _OVER_LIMIT past ``limit`` bytes
    (a decompression bomb costs at most ``limit`` bytes of work), None when unreadable."""
    digest = hashlib.sha256()
    seen = 0
    try:
        with jsonio.open_regular(path) as raw, gzip.GzipFile(fileobj=raw) if compression == "gzip" else raw as handle:
            while block := handle.read(BLOCK):
                seen += len(block)
                if seen > limit:
                    return _OVER_LIMIT
                digest.update(block)
    except (OSError, EOFError, zlib.error):
        return None
    return digest.hexdigest()


def check_seal(ctx: Context, manifest: dict[str, Any], records: int, head: str | None) -> None:
    from pytest_coldstart.record.seal import sealable_files

    seal, status = manifest.get("seal"), manifest.get("status")
    if (status == "sealed") != isinstance(seal, dict):
        ctx.add(
            layout.RUN_JSON,
            None,
            f"status is {status!r} but seal is {'present' if isinstance(seal, dict) else 'absent'}",
            "seal.status",
        )
    if not isinstance(seal, dict):
        return
    anchor = object_or_empty(seal.get("trajectory"))
    if isinstance(anchor.get("records"), int) and anchor["records"] != records:
        ctx.add(
            layout.TRAJECTORY,
            None,
            f"{records} records, but the seal anchors {anchor['records']} (records were added or removed after the seal)",
            "seal.count",
        )
    if isinstance(anchor.get("head"), str) and anchor["head"] != head:
        ctx.add(
            layout.TRAJECTORY,
            None,
            f"last line hashes to {short(head) if head else 'nothing'}, not to the sealed head {short(anchor['head'])}",
            "seal.head",
        )
    sealed: set[str] = set()
    for index, entry in enumerate(list_or_empty(seal.get("files"))):
        if not isinstance(entry, dict):
            continue
        sealed.add(str(entry.get("path")))
        ctx.check_file(
            entry.get("path"),
            entry.get("sha256"),
            entry.get("size"),
            what=f"sealed file seal.files[{index}]",
            document=layout.RUN_JSON,
            code="seal.file",
        )
    for relative in sealable_files(ctx.rundir):
        if relative not in sealed:
            ctx.add(relative, None, "file added after the seal (not in run.json seal.files)", "seal.file.added")


def check_originals(ctx: Context, manifest: dict[str, Any]) -> None:
    origin = manifest.get("migrated_from")
    if not isinstance(origin, dict) or not isinstance(origin.get("files"), list):
        return
    for index, entry in enumerate(origin["files"]):
        if isinstance(entry, dict):
            ctx.check_file(
                entry.get("path"),
                entry.get("sha256"),
                entry.get("size"),
                what=f"version-1 original migrated_from.files[{index}]",
                document=layout.RUN_JSON,
                code="migrate.original",
            )
