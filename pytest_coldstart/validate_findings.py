"""Findings of ``validate``: one problem at one place, with a stable code, and the report.

A finding is ``file:line: problem`` for people and ``{file, line, problem, code}`` for
machines (validation.schema.json). Codes are dotted and stable; a tool may key on them.
When one code repeats very often (a million calls without results), only the first
``PER_CODE`` findings of it are listed plus one ``<code>.more`` line; the totals are kept.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from pytest_coldstart.versioning import CURRENT

PER_CODE = 100


@dataclass(frozen=True)
class Finding:
    file: str
    line: int | None
    problem: str
    code: str

    def to_text(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.problem}"

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "problem": self.problem, "code": self.code}


class Findings:
    """Collects findings in discovery order, capping each code at ``PER_CODE`` listed entries."""

    def __init__(self, per_code: int = PER_CODE):
        self.items: list[Finding] = []
        self.by_code: Counter[str] = Counter()
        self.per_code = per_code

    def add(self, file: str, line: int | None, problem: str, code: str) -> None:
        self.by_code[code] += 1
        if self.by_code[code] <= self.per_code:
            self.items.append(Finding(file, line, " ".join(str(problem).split()), code))

    def __len__(self) -> int:
        return sum(self.by_code.values())

    def listed(self) -> list[Finding]:
        out = list(self.items)
        for code, total in sorted(self.by_code.items()):
            if total > self.per_code:
                out.append(Finding("(run)", None, f"{total - self.per_code} more finding(s) of {code} not listed", f"{code}.more"))
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
