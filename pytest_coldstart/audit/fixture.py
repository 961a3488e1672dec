"""Rulings R6/R7 on the run's prerequisites: the test mod's log must be declared (else
INFRA_ERROR); the fixture (initialisation) and the restore must be faithful - anything but an
explicit ready/ok answer is FIXTURE_INVALID - and an undeclared one keeps the run PENDING."""

from __future__ import annotations

from typing import Any

from pytest_coldstart.audit.evidence.load import Evidence
from pytest_coldstart.audit.model import Findings

FIXTURE_OK = ("ready", "ok", "valid", "pass", "passed")
RESTORE_OK = ("ok", "verified", "pass", "passed", "success")


def _status(payload: dict[str, Any]) -> str | None:
    value = payload.get("status")
    return value.strip().lower() if isinstance(value, str) else None


def check_fixture(evidence: Evidence, findings: Findings) -> None:
    if not evidence.declared("test_mod"):
        # R6: without the independent test mod's log nothing game-side can be judged.
        findings.infra("no test-mod evidence is declared: the independent (game-side) record of the run is missing")
    if not evidence.declared("fixture"):
        findings.pending(
            "no fixture evidence is declared: the run cannot be judged until initialisation is shown faithful"
        )
    elif "fixture" in evidence.documents:
        payload = evidence.documents["fixture"]
        status, ready = _status(payload), payload.get("ready")
        valid = (
            (ready is True or status in FIXTURE_OK) and ready is not False and (status is None or status in FIXTURE_OK)
        )
        if not valid:
            findings.fixture(
                f"fixture ({evidence.usable['fixture']}) is not valid: ready={ready!r}, status={payload.get('status')!r}"
            )
    if not evidence.declared("restore"):
        findings.pending("no restore-verification evidence is declared")
    elif "restore" in evidence.documents:
        payload = evidence.documents["restore"]
        if _status(payload) not in RESTORE_OK:
            findings.fixture(
                f"restore verification ({evidence.usable['restore']}) did not pass: status={payload.get('status')!r}"
            )
