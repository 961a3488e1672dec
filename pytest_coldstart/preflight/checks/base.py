"""What a preflight check is, and what it returns.

A check is any object with a unique ``id`` (``[a-z][a-z0-9_]*``), a one-line ``proves`` text and
``run(context) -> CheckResult``. Third-party checks return the same ``CheckResult``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from pytest_coldstart.preflight.context import Context

PASS = "PASS"
FAIL = "FAIL"
SKIP = "SKIP"
STATUSES = (PASS, FAIL, SKIP)


@dataclass
class CheckResult:
    """The outcome of one check. ``evidence`` entries and ``versions`` must be JSON values."""

    status: str
    detail: str
    evidence: list[dict[str, Any]] = field(default_factory=list)
    versions: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def passed(cls, detail: str, evidence: list[dict[str, Any]] | None = None, **versions: Any) -> CheckResult:
        return cls(PASS, detail, list(evidence or []), dict(versions))

    @classmethod
    def failed(cls, detail: str, evidence: list[dict[str, Any]] | None = None, **versions: Any) -> CheckResult:
        return cls(FAIL, detail, list(evidence or []), dict(versions))

    @classmethod
    def skipped(cls, detail: str, evidence: list[dict[str, Any]] | None = None, **versions: Any) -> CheckResult:
        return cls(SKIP, detail, list(evidence or []), dict(versions))

    @classmethod
    def verdict(
        cls, ok: bool, detail: str, evidence: list[dict[str, Any]] | None = None, **versions: Any
    ) -> CheckResult:
        return cls(PASS if ok else FAIL, detail, list(evidence or []), dict(versions))


@runtime_checkable
class Check(Protocol):
    id: str
    proves: str

    def run(self, context: Context) -> CheckResult: ...
