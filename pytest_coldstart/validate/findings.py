"""Findings of ``validate``: one problem at one place, with a stable code, and the report.

A finding is ``file:line: problem`` for people and ``{file, line, problem, code}`` for
machines (validation.schema.json). Codes are dotted and stable; a tool may key on them.
When one code repeats very often (a million calls without results), only the first
``PER_CODE`` findings of it are listed plus one ``<code>.more`` line; the totals are kept.

The audit collects its run-level findings in the same ``Findings`` (one model for both): a
finding the audit states in its own words has no file (``code`` "audit"), a ``kind`` (an
infra error, a fixture error, a pending reason, a review problem, information), what it is
``about`` (``audit.integrity`` keys, so the same problem found by validate is reported once)
and, when it concerns one required review, that review's id.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pytest_coldstart.run.textsafe import valid_text
from pytest_coldstart.run.versioning import CURRENT

PER_CODE = 100
#: What a finding means for the run: the report's infra_errors, fixture_errors,
#: pending_reasons, review_problems and information lists, in this order.
Kind = Literal["infra", "fixture", "pending", "review", "info"]
KINDS: tuple[Kind, ...] = ("infra", "fixture", "pending", "review", "info")
#: The code of a finding the audit states in its own words.
AUDIT_CODE = "audit"

#: Every code validate emits, with its meaning (docs and tools key on these).
CODES: dict[str, str] = {
    "run.missing": "the run directory does not exist (or is not a directory)",
    "run.created_at": "run.json created_at is not a timestamp",
    "run.location": "run.json moves a version-2 file away from its fixed name",
    "document.missing": "a required document (run.json, visibility.json, evidence.json) is missing",
    "document.malformed": "a document is unreadable, not UTF-8, not JSON, or not a JSON object",
    "version.unknown": "an unknown or future schemaVersion / schema string: not interpreted (fail closed)",
    "version.mixed": "a file or record of another version than run.json (migrate the whole run)",
    "schema.run": "run.json violates run.schema.json",
    "schema.visibility": "visibility.json violates visibility.schema.json",
    "schema.evidence": "evidence.json violates evidence.schema.json",
    "schema.record": "a trajectory record violates trajectory-record.schema.json",
    "trajectory.missing": "trajectory.jsonl is missing",
    "trajectory.empty": "trajectory.jsonl holds no record",
    "trajectory.torn": "the final line has no newline: an append did not complete",
    "trajectory.malformed": "a line is not UTF-8, not JSON, not an object, or too long",
    "trajectory.blank_line": "a blank line (the recorder never writes one)",
    "trajectory.header": "the first record is not the header, or a header appears later",
    "trajectory.run_id": "a record names another run",
    "trajectory.seq": "seq is not an integer or does not strictly increase",
    "trajectory.at": "at is not a timestamp or steps back in time",
    "trajectory.monotonic": "monotonic_ms decreases",
    "chain.prev": "prev is not the sha256 of the previous line: the hash chain is broken",
    "record.unknown_type": "an unknown record type",
    "record.unknown_phase": "an unknown phase",
    "record.unknown_actor": "an unknown actor",
    "record.unknown_status": "an unknown result status",
    "call.duplicate": "a call id is recorded twice",
    "call.no_result": "a call has no result",
    "result.unknown_call": "a result names no recorded call",
    "result.duplicate": "a second result for one call",
    "result.before_call": "a result comes before its call",
    "imports.before_run": "an imported session (or record) is older than the run: open the run before the session starts",
    "imports.incomplete": "an import stopped after its first records were appended (run.json imports[].complete is false)",
    "review.path": "the reviews file is declared outside the run directory",
    "review.torn": "reviews.jsonl ends with a torn line",
    "review.malformed": "a review line is not UTF-8, not JSON or not an object",
    "review.shape": "a review line breaks its schema or R3 (resolved: by, parseable at, non-blank evidence)",
    "review.seq": "review seq does not strictly increase",
    "payload.missing": "a stored payload ref has no file in payloads/",
    "payload.integrity": "payload bytes do not match their ref or their file name",
    "payload.name": "payloads/ holds something that is not a file named by its sha256",
    "visibility.count": "file_count disagrees with the files listed (or with run.json)",
    "seal.status": "status and seal disagree",
    "seal.count": "the trajectory's record count differs from the sealed count",
    "seal.head": "the last line's hash differs from the sealed head",
    "seal.file.added": "a file appeared after the seal",
    "evidence.version": "a declared evidence document carries a schemaVersion or schema this build does not read",
    "internal.error": "validate itself failed on this run (a bug: please report it)",
}
#: Checks of a declared file; each yields <prefix>.path | .missing | .hash | .size.
FILE_CHECKS = {
    "task": "task.md against run.json task",
    "visibility": "visibility.json against run.json visibility.sha256",
    "visibility.copy": "a visible file's copy against visibility.json",
    "imports": "an imported session against run.json imports[]",
    "artifacts": "an artifact against run.json artifacts[]",
    "evidence": "a declared evidence file against evidence.json",
    "evidence.normalized": "a normalized logger view against evidence.json",
    "seal.file": "a sealed file against run.json seal.files",
    "migrate.original": "a kept version-1 original against run.json migrated_from",
}
FILE_PROBLEMS = {
    "path": "absolute or outside the run (never read)",
    "missing": "missing",
    "hash": "sha256 differs or is not recorded",
    "size": "size differs",
}
for _prefix, _what in FILE_CHECKS.items():
    for _suffix, _problem in FILE_PROBLEMS.items():
        CODES[f"{_prefix}.{_suffix}"] = f"{_what}: {_problem}"


def documented(code: str) -> bool:
    """Whether ``code`` is one of CODES (or its ``.more`` summary)."""
    return code in CODES or (code.endswith(".more") and code[: -len(".more")] in CODES)


@dataclass(frozen=True)
class Finding:
    file: str
    line: int | None
    problem: str
    code: str
    #: For checks of a declared file: what was checked ("evidence answer", "imports[0]" ...),
    #: so a caller can tell which declaration a finding is about. Not part of the report.
    subject: str | None = field(default=None, compare=False, repr=False)
    kind: Kind = field(default="infra", compare=False)
    #: The required review this finding concerns (an unusable reviews-file line naming it,
    #: or why its resolution does not count yet).
    review: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        # A file name read from a folder may hold bytes that are not UTF-8: a finding is stored
        # (audit.json, validation reports), so it says them as \xff, never as lone surrogates.
        for name in ("file", "problem"):
            value = getattr(self, name)
            if isinstance(value, str) and not value.isprintable():
                object.__setattr__(self, name, valid_text(value))

    def to_text(self) -> str:
        if not self.file:  # stated by the audit in its own words
            return self.problem
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.problem}"

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "problem": self.problem, "code": self.code}


class Findings:
    """Collects findings in discovery order, capping each code at ``PER_CODE`` listed entries.

    ``add``/``add_about`` are validate's entry; ``infra``/``fixture``/``pending``/``review``/
    ``info`` the audit's (de-duplicated by text within a kind, never capped). ``covered`` holds
    what the audit's own infra errors are about, so a validate finding about the same thing is
    not reported a second time (``audit.integrity.fold``)."""

    def __init__(self, per_code: int = PER_CODE):
        self.items: list[Finding] = []
        self.by_code: Counter[str] = Counter()
        self.per_code = per_code
        self.covered: set[tuple[Any, ...]] = set()
        self._stated: set[tuple[Kind, str]] = set()

    # -- the audit's findings, in its own words ----------------------------------------------

    def state(self, kind: Kind, text: str, *about: tuple[Any, ...], review: str | None = None) -> None:
        """Record ``text`` once per kind; ``about``: the integrity keys it covers."""
        self.covered.update(about)
        if (kind, text) in self._stated:
            if review is not None and not any(f.review == review and f.problem == text for f in self.of(kind)):
                self.items.append(Finding("", None, text, AUDIT_CODE, kind=kind, review=review))
            return
        self._stated.add((kind, text))
        self.items.append(Finding("", None, text, AUDIT_CODE, kind=kind, review=review))

    def infra(self, text: str, *about: tuple[Any, ...], review: str | None = None) -> None:
        """An infra error; ``review``: the review id an unusable reviews-file line names."""
        self.state("infra", text, *about, review=review)

    def fixture(self, text: str) -> None:
        self.state("fixture", text)

    def pending(self, text: str) -> None:
        self.state("pending", text)

    def review(self, text: str, review: str | None = None) -> None:
        """A review problem; ``review``: the required review it keeps from counting."""
        self.state("review", text, review=review)

    def info(self, text: str) -> None:
        self.state("info", text)

    def of(self, kind: Kind) -> list[Finding]:
        return [finding for finding in self.items if finding.kind == kind]

    def texts(self, kind: Kind) -> list[str]:
        """The texts of one kind, each once, in the order found."""
        return list(dict.fromkeys(finding.to_text() for finding in self.of(kind)))

    @property
    def infra_errors(self) -> list[str]:
        return self.texts("infra")

    @property
    def fixture_errors(self) -> list[str]:
        return self.texts("fixture")

    @property
    def pending_reasons(self) -> list[str]:
        return self.texts("pending")

    @property
    def review_problems(self) -> list[str]:
        return self.texts("review")

    @property
    def information(self) -> list[str]:
        return self.texts("info")

    def about_review(self, kind: Kind, review_id: str) -> list[str]:
        """The texts of one kind that concern the required review ``review_id``."""
        return list(dict.fromkeys(f.to_text() for f in self.of(kind) if f.review == review_id))

    # -- validate's findings ---------------------------------------------------------------------

    def add(self, file: str, line: int | None, problem: str, code: str) -> None:
        self.by_code[code] += 1
        if self.by_code[code] <= self.per_code:
            self.items.append(Finding(file, line, " ".join(str(problem).split()), code))

    def add_about(self, subject: str, file: str, line: int | None, problem: str, code: str) -> None:
        """``add``, naming what was checked (``Finding.subject``)."""
        listed = len(self.items)
        self.add(file, line, problem, code)
        if len(self.items) > listed:
            self.items[-1] = replace(self.items[-1], subject=subject)

    def __len__(self) -> int:
        return sum(self.by_code.values())

    def listed(self) -> list[Finding]:
        out = list(self.items)
        for code, total in sorted(self.by_code.items()):
            if total > self.per_code:
                out.append(
                    Finding(
                        "(run)", None, f"{total - self.per_code} more finding(s) of {code} not listed", f"{code}.more"
                    )
                )
        return out


@dataclass
class ValidationReport:
    """The result of ``validate_run``: ``valid`` is true exactly when there is no finding."""

    run_dir: str
    run_id: str | None = None
    run_version: int | None = None
    findings: list[Finding] = field(default_factory=list)
    counts: dict[str, Any] = field(default_factory=dict)

    @property
    def valid(self) -> bool:
        return not self.findings

    def to_json(self) -> dict[str, Any]:
        return {
            "schemaVersion": CURRENT,
            "run_id": self.run_id,
            "run_version": self.run_version,
            "valid": self.valid,
            "findings": [f.to_json() for f in self.findings],
            "counts": dict(self.counts),
        }

    def to_text(self) -> str:
        lines = [f.to_text() for f in self.findings]
        total = self.counts.get("findings", len(self.findings))
        records = self.counts.get("records", 0)
        label = self.run_id or self.run_dir
        if self.valid:
            lines.append(f"valid: run {label}, {records} records, {self.counts.get('files_hashed', 0)} files hashed")
        else:
            lines.append(f"invalid: run {label}, {total} problem(s)")
        return "\n".join(lines) + "\n"
