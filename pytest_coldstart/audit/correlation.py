"""Correlation before any flag: run identity on every record, one experiment scope,
imports/artifacts re-hashed, and the oracle against the ejected carts (the preflight contract
is ``preflight_contract``)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from pytest_coldstart.audit import integrity
from pytest_coldstart.audit.evidence.aliases import dimension_id
from pytest_coldstart.audit.evidence.inventory import (
    ItemError,
    carts_of,
    normalize_items,
    recorded_inventories,
    same_items,
)
from pytest_coldstart.audit.evidence.load import Evidence
from pytest_coldstart.audit.model import LOGGER, TESTMOD, Event, Findings
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.hashing import is_sha256, short
from pytest_coldstart.run.layout import RunDir
from pytest_coldstart.run.paths import resolve_inside

LISTED = 20


class RunIdCheck:
    """Called for every record that carries a run id: another run's record is not evidence."""

    def __init__(self, run_id: str, findings: Findings):
        self.run_id = run_id
        self.findings = findings
        self.mismatches = 0

    def __call__(self, where: str, value: Any) -> None:
        if value is None or value == self.run_id:
            return
        self.mismatches += 1
        if self.mismatches <= LISTED:
            self.findings.infra(
                f"{where}: belongs to run {str(value)[:80]!r}, not {self.run_id!r} (another run's record is not evidence)"
            )
        elif self.mismatches == LISTED + 1:
            self.findings.infra("more records from other runs are not listed")


def check_scope(
    evidence: Evidence, findings: Findings, trajectory_scopes: list[tuple[str, str, str]] | tuple[()] = ()
) -> None:
    """One experiment scope: every test-mod event that carries an instance or a dimension
    (whatever its name: restore bookkeeping and input attempts included) names the same one;
    so does every agent logger event, every lifecycle phase record of the trajectory and the
    fixture/restore reports. The projection already folded the aliases (instance/instance_id,
    dimension/dim)."""
    for key in ("instance", "dimension"):
        experiment = _one_scope(evidence.stream(TESTMOD), key, "test-mod", findings)
        logger = _one_scope(evidence.stream(LOGGER), key, "agent logger", findings, experiment)
        expected = experiment or logger
        if expected is None:
            continue
        outside = [(value, where) for field, value, where in trajectory_scopes if field == key and value != expected]
        for name in ("fixture", "restore"):
            document = evidence.documents.get(name)
            if isinstance(document, dict):
                # every spelling is checked: ``instance`` and ``instance_id`` naming two labs is no scope
                for alias in SCOPE_ALIASES[key]:
                    value = document.get(alias)
                    if isinstance(value, str) and key == "dimension":
                        value = dimension_id(value)
                    if isinstance(value, str) and value != expected:
                        spelled = "" if alias == key else f" as {alias}"
                        outside.append((value, f"the {name} report ({evidence.usable.get(name)}){spelled}"))
        for value, where in outside[:LISTED]:
            findings.infra(f"{where} names {key} {value!r}, not the experiment's {expected!r}")


SCOPE_ALIASES = {
    "instance": ("instance", "instance_id", "lab", "instanceId"),
    "dimension": ("dimension", "dim", "dimension_id"),
}


def _one_scope(
    events: list[Event], key: str, side: str, findings: Findings, experiment: str | None = None
) -> str | None:
    """The one value of ``key`` the events carry (None when none carries it); a mix, or a
    value other than ``experiment``, is an infra error naming the first event of each value."""
    first: dict[str, str] = {}
    for event in events:
        value = event.get(key)
        if value is not None:
            first.setdefault(str(value), f"{event.ref} {event.name}")
    if not first:
        return None
    values = sorted(first)
    if len(values) > 1:
        listed = ", ".join(f"{v} ({first[v]})" for v in values[:LISTED])
        findings.infra(f"{side} events mix {key}s: {listed}")
    if experiment is not None:
        outside = [v for v in values if v != experiment]
        if outside:
            listed = ", ".join(f"{v} ({first[v]})" for v in outside[:LISTED])
            findings.infra(f"{side} events name {key}(s) outside the test-mod experiment ({experiment}): {listed}")
        return experiment
    return values[0] if len(values) == 1 else None


def check_files(
    rundir: RunDir, manifest: dict[str, Any], findings: Findings, digests: dict[Path, tuple[str, int]]
) -> None:
    """imports/ and artifacts/ entries re-hashed against run.json."""
    for key in ("imports", "artifacts"):
        entries = manifest.get(key) or []
        if not isinstance(entries, list):
            findings.infra(f"run.json: {key} must be a list")
            continue
        for number, entry in enumerate(entries, 1):
            where = f"run.json {key}[{number}]"
            if not isinstance(entry, dict):
                findings.infra(f"{where}: must be an object")
                continue
            about = functools.partial(integrity.declared, f"{key}[{number - 1}]")  # validate counts from 0
            try:
                path = resolve_inside(rundir.root, entry.get("path"), what=f"{where} path")
            except ColdstartError as exc:
                findings.infra(f"{exc.problem} (never read)", *about("path"))
                continue
            if not path.is_file():
                findings.infra(f"{where}: {entry.get('path')} is missing", *about("missing"))
                continue
            expected = entry.get("sha256")
            if not is_sha256(expected):
                findings.infra(f"{where}: {entry.get('path')} has no recorded sha256 to verify", *about("hash"))
                continue
            actual, size = integrity.file_hash(path, digests)
            if actual != expected:
                findings.infra(
                    f"{where}: {entry.get('path')} hash changed (recorded {short(expected)}, actual {short(actual)})",
                    *about("hash", "size"),
                )
            elif entry.get("size") is not None and entry.get("size") != size:
                findings.infra(
                    f"{where}: {entry.get('path')} size changed (recorded {entry.get('size')!r}, actual {size})",
                    *about("size"),
                )


def check_oracle_against_testmod(evidence: Evidence, findings: Findings) -> None:
    """A verified oracle stands on the test mod: it covers every ejected cart, and where the test
    mod recorded a cart's inventory (at removal, else at ejection) the oracle lists the same
    items in the same order (seed §5: the oracle's refs resolve to independent game-side evidence;
    an oracle its evidence contradicts is not supported by it)."""
    oracle = evidence.documents.get("oracle")
    if not isinstance(oracle, dict) or str(oracle.get("status", "")).strip().lower() != "verified":
        return
    try:
        carts = carts_of(oracle)
    except ItemError:
        return  # an ambiguous oracle is answer_correct's finding
    if not isinstance(carts, list):
        return
    known = {c["uuid"].strip().lower(): c for c in carts if isinstance(c, dict) and isinstance(c.get("uuid"), str)}
    events = evidence.stream(TESTMOD)
    ejected = {
        e.get("uuid").strip().lower() for e in events if e.name == "cart_ejected" and isinstance(e.get("uuid"), str)
    }
    omitted = sorted(ejected - set(known))
    if omitted:
        findings.infra(f"the verified oracle omits ejected cart(s): {', '.join(omitted[:LISTED])}")
    seen = ejected | {
        e.get("uuid").strip().lower() for e in events if e.name == "cart_removed" and isinstance(e.get("uuid"), str)
    }
    unseen = sorted(set(known) - seen) if events else []
    if unseen:
        findings.infra(
            f"the verified oracle lists cart(s) the test mod never recorded: {', '.join(unseen[:LISTED])} "
            "(no cart_ejected or cart_removed names them: nothing independent stands behind them)"
        )
    recorded = recorded_inventories(events)
    disagreements = 0
    for uuid, cart in known.items():
        if uuid not in recorded:
            continue
        ref, inventory = recorded[uuid]
        try:
            claimed = normalize_items(cart.get("items"))
        except ItemError:
            continue  # a malformed oracle cart is answer_correct's finding
        if not same_items(claimed, inventory):
            disagreements += 1
            if disagreements <= LISTED:
                findings.infra(
                    f"the verified oracle's cart {uuid} disagrees with the test mod's inventory ({ref}): oracle "
                    f"[{', '.join(i.label(slot=True) for i in claimed)}], test mod [{', '.join(i.label(slot=True) for i in inventory)}]"
                )
