"""xdist and the audit cache: same outcomes with -n 2, every run audited once per input state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from plugin_helpers import LAB, outcomes

from pytest_coldstart.audit.cache import AuditCache, entry_key
from pytest_coldstart.run import schemas

COUNTING_CONFTEST = """
import os
import pytest_coldstart.audit as audit_module

_real = audit_module.audit_run

def _counting(run_dir, **kwargs):
    with open({log!r}, "a") as handle:
        handle.write(f"{{os.getpid()}} {{os.path.basename(str(run_dir))}}\\n")
    return _real(run_dir, **kwargs)

def pytest_configure(config):
    audit_module.audit_run = _counting

def pytest_unconfigure(config):
    audit_module.audit_run = _real
"""


@pytest.fixture
def audit_log(pytester: pytest.Pytester) -> Path:
    """Every real audit_run call of the inner sessions (controller and workers) is logged here."""
    log = pytester.path / "audits.log"
    pytester.makeconftest(COUNTING_CONFTEST.format(log=str(log)))
    return log


def _audited(log: Path) -> list[str]:
    if not log.exists():
        return []
    return sorted(line.split()[1] for line in log.read_text().splitlines())


def test_two_workers_give_the_same_outcomes_and_audit_each_run_once(
    pytester: pytest.Pytester, lab, audit_log: Path
) -> None:
    lab()
    serial = outcomes(pytester.runpytest("--coldstart-runs=runs", "-rA", "--coldstart-cache-dir=other-cache"))
    assert _audited(audit_log) == sorted(LAB)

    # Cold cache, no pytest cache: the controller hands both workers one shared directory.
    audit_log.unlink()
    parallel = pytester.runpytest("--coldstart-runs=runs", "-rA", "-n", "2", "-p", "no:cacheprovider")
    assert outcomes(parallel) == serial
    assert _audited(audit_log) == sorted(LAB)  # once per run, not once per worker
    assert parallel.stdout.str().count("coldstart: 7 runs") == 1  # the run table prints on the controller only

    # The pytest cache persists audits: the workers of the next sessions reuse them.
    pytester.runpytest("--coldstart-runs=runs")
    audit_log.unlink()
    again = pytester.runpytest("--coldstart-runs=runs", "-rA", "-n", "2")
    assert outcomes(again) == serial
    assert _audited(audit_log) == []

    reviews = pytester.path / "runs" / "pending_reviews" / "reviews.jsonl"
    reviews.write_bytes(reviews.read_bytes() + b"\n")  # any change of an input invalidates that run only
    pytester.runpytest("--coldstart-runs=runs", "-rA", "-n", "2")
    assert _audited(audit_log) == ["pending_reviews"]


def test_cache_entries_match_their_schema_and_broken_entries_are_recomputed(tmp_path: Path, coldstart_run) -> None:
    run = coldstart_run().build()
    cache = AuditCache(tmp_path / "cache")
    calls: list[int] = []

    def compute() -> dict:
        calls.append(1)
        return {"schemaVersion": 2, "overall": "PASS", "flags": []}

    key = entry_key(run, "digest-1")
    assert cache.get_or_compute("audit", key, compute) == compute()
    calls.clear()
    (entry,) = (tmp_path / "cache" / "audit").rglob("*.json")
    assert schemas.errors("audit-cache-entry", json.loads(entry.read_text())) == []
    fresh = AuditCache(tmp_path / "cache")
    assert fresh.get_or_compute("audit", key, compute)["overall"] == "PASS" and not calls  # read from disk
    future_report = {
        "schemaVersion": 2,
        "kind": "audit",
        "key": key,
        "value": {"schemaVersion": 3, "overall": "PASS", "flags": []},
    }
    foreign = {
        "schemaVersion": 2,
        "kind": "audit",
        "key": "0" * 64,
        "value": {"schemaVersion": 2, "overall": "PASS", "flags": []},
    }
    future_entry = {**foreign, "schemaVersion": 3, "key": key}
    for damage in (
        b"{not json",
        json.dumps(foreign).encode(),
        json.dumps(future_entry).encode(),
        json.dumps(future_report).encode(),
    ):
        entry.write_bytes(damage)
        assert AuditCache(tmp_path / "cache").get_or_compute("audit", key, compute)["overall"] == "PASS"
    assert len(calls) == 4  # neither a torn, foreign or future entry nor a future report is trusted
    assert entry_key(run, "digest-2") != key and entry_key(run, "digest-1") == key
