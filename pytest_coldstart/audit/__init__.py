"""The audit engine (DESIGN §6): ``audit_run(run_dir) -> report dict``.

The engine is imported on first use: importing a submodule (the cache the pytest plugin loads
in every session) must not pay for the whole engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pytest_coldstart.audit.digest import audit_inputs_digest
    from pytest_coldstart.audit.engine import audit_run

__all__ = ["audit_inputs_digest", "audit_run"]


def __getattr__(name: str) -> Any:
    if name == "audit_run":
        from pytest_coldstart.audit.engine import audit_run

        return audit_run
    if name == "audit_inputs_digest":
        from pytest_coldstart.audit.digest import audit_inputs_digest

        return audit_inputs_digest
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
