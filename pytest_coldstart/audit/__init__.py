"""The audit engine (DESIGN §6): ``audit_run(run_dir) -> report dict``."""

from pytest_coldstart.audit.digest import audit_inputs_digest
from pytest_coldstart.audit.engine import audit_run

__all__ = ["audit_inputs_digest", "audit_run"]
