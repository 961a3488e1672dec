"""Rulings R6/R7 (revised) on the run's prerequisites.

The test mod's log must be declared (else INFRA_ERROR). The fixture (initialisation) and the
restore are judged by the state their report states (docs/protocol.md "Fixture and restore
states"):

=========  ===========================================================  ==============================
report     state                                                        outcome
=========  ===========================================================  ==============================
fixture    ``ready: true`` or status ready/ok/valid/pass/passed/verified  verified
fixture    status invalid/failed/fail/error/mismatch/corrupt(ed)/broken,   FIXTURE_INVALID
           ``valid: false`` or ``verified: false`` with a failed status
fixture    new, unverified, pending, ``ready: false``, no status, other    PENDING (the oracle stays pending)
restore    status ok/verified/pass/passed/success                          verified
restore    status failed/fail/error/invalid/mismatch/corrupt(ed)/broken    FIXTURE_INVALID
restore    running, pending, unverified, no status, other                  PENDING (the oracle stays pending)
(either)   not declared                                                     PENDING (run-level reason)
=========  ===========================================================  ==============================

``status`` may be spelled ``result`` (the reference's alias). A report that says both (ready
true, status failed) is invalid: a failure anywhere in it wins. The state of each is kept in
``evidence.states`` for answer_correct, which never claims correctness while either is pending.
"""

from __future__ import annotations

from typing import Any

from pytest_coldstart.audit.evidence.load import Evidence
from pytest_coldstart.audit.model import Findings

FIXTURE_OK = ("ready", "ok", "valid", "pass", "passed", "verified")
RESTORE_OK = ("ok", "verified", "pass", "passed", "success")
FAILED = ("invalid", "failed", "fail", "error", "mismatch", "corrupt", "corrupted", "broken", "unfaithful")
VERIFIED, INVALID, PENDING = "verified", "invalid", "pending"


def _status(payload: dict[str, Any]) -> str | None:
    value = payload.get("status", payload.get("result"))
    return value.strip().lower() if isinstance(value, str) else None


def fixture_state(payload: dict[str, Any]) -> str:
    status, ready = _status(payload), payload.get("ready")
    if status in FAILED:
        return INVALID
    if ready is True and (status is None or status in FIXTURE_OK):
        return VERIFIED
    if ready is None and status in FIXTURE_OK:
        return VERIFIED
    return PENDING


def restore_state(payload: dict[str, Any]) -> str:
    status = _status(payload)
    if status in FAILED:
        return INVALID
    return VERIFIED if status in RESTORE_OK else PENDING


def check_fixture(evidence: Evidence, findings: Findings) -> None:
    if not evidence.declared("test_mod"):
        # R6: without the independent test mod's log nothing game-side can be judged.
        findings.infra("no test-mod evidence is declared: the independent (game-side) record of the run is missing")
    for name, judge, what in (
        ("fixture", fixture_state, "fixture"),
        ("restore", restore_state, "restore verification"),
    ):
        if not evidence.declared(name):
            evidence.states[name] = PENDING
            findings.pending(
                "no fixture evidence is declared: the run cannot be judged until initialisation is shown faithful"
                if name == "fixture"
                else "no restore-verification evidence is declared"
            )
            continue
        payload = evidence.documents.get(name)
        if not isinstance(payload, dict):
            continue  # unusable: already an infra error
        state = judge(payload)
        evidence.states[name] = state
        shown = f"ready={payload.get('ready')!r}, status={payload.get('status', payload.get('result'))!r}"
        if state == INVALID:
            verb = "is not valid" if name == "fixture" else "did not pass"
            findings.fixture(f"{what} ({evidence.usable[name]}) {verb}: {shown}")
        elif state == PENDING:
            findings.pending(
                f"{what} ({evidence.usable[name]}) is not verified yet ({shown}): the oracle stays pending"
            )
