"""The audit reads trajectory.jsonl once (validate's pass feeds the audit's scanner) and
reports each problem once.

- On mutated runs (byte flips, deleted, duplicated, swapped and blank lines, truncations,
  removed files) of three fixed templates, validate_run's findings and the audit's verdict,
  flags and findings are those the two-pass implementation gave (data/single_pass_golden.json),
  except that a validate finding the audit already reports in its own words is not repeated.
- On every scenario, the validate report computed inside the audit equals validate_run's.
- Every validate finding is in the audit (R12): verbatim, or as the audit's own message about
  the same declaration, file or line.
- audit_run opens trajectory.jsonl once and reads each of its bytes once.
"""

from __future__ import annotations

import json
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from audit_helpers import builder, statuses
from read_counter import count_reads

from pytest_coldstart.audit import audit_run, integrity
from pytest_coldstart.demo.scenarios import SCENARIOS, build_run
from pytest_coldstart.record.seal import seal
from pytest_coldstart.run import jsonio
from pytest_coldstart.validate.run import validate_run

sys.path.insert(0, str(Path(__file__).resolve().parent))
import single_pass_cases as cases
from corpus import corpus_root

GOLDEN = json.loads(cases.GOLDEN.read_text(encoding="utf-8"))


def _shared() -> Path | None:
    root = corpus_root()
    return None if root is None else root.parent


def _case(case_id: str):
    """v1 cases are built from the external corpus: they run with --coldstart-corpus only."""
    return pytest.param(case_id, marks=pytest.mark.corpus) if case_id.startswith("v1-") else case_id


@lru_cache(maxsize=1)
def _specs(shared: Path | None) -> tuple[dict[str, dict[str, bytes]], dict[str, tuple[str, dict[str, Any]]]]:
    stored = cases.templates(shared)
    return stored, {case_id: (name, spec) for case_id, name, spec in cases.cases(stored)}


def materialize(shared: Path | None, case_id: str, target: Path) -> Path:
    stored, specs = _specs(shared)
    name, spec = specs[case_id]
    return cases.materialize(cases.mutate(stored[name], spec), target)


def audited(run: Path, monkeypatch) -> tuple[dict[str, Any], Any, set]:
    """audit_run's report, the validate report computed inside it, and what the audit's own
    infra errors are about (``integrity`` keys)."""
    seen: dict[str, Any] = {}
    fold = integrity.fold

    def watched(validation, findings):
        seen.update(validation=validation, covered=set(findings.covered))
        fold(validation, findings)

    with monkeypatch.context() as patch:
        patch.setattr(integrity, "fold", watched)
        report = audit_run(run, write=False)
    return report, seen.get("validation"), seen.get("covered", set())


def assert_reported_once(run: Path, monkeypatch) -> tuple[dict[str, Any], Any]:
    """validate inside the audit is validate_run; each of its findings is in the audit exactly
    once: verbatim, or said by the audit itself (its key is what an own message is about)."""
    report, inside, covered = audited(run, monkeypatch)
    alone = validate_run(run)
    assert inside.to_json() == alone.to_json()
    infra = report["infra_errors"]
    assert len(infra) == len(set(infra))
    for finding in alone.findings:
        verbatim = f"validate: {finding.to_text()}" in infra
        assert verbatim != integrity.covered(finding, covered), (finding, infra)
    if alone.findings:  # R12
        assert report["failure_class"] == "INFRA_ERROR"
    return report, alone


# -- the same findings as the two-pass audit --------------------------------------------------------


@pytest.mark.parametrize("case_id", [_case(c) for c in sorted(GOLDEN)])
def test_mutated_runs_give_the_findings_of_the_two_pass_audit(case_id, tmp_path, monkeypatch):
    run = materialize(_shared(), case_id, tmp_path / "run")
    now = cases.outcome_of(*assert_reported_once(run, monkeypatch))
    before = GOLDEN[case_id]
    assert now["validate"] == before["validate"]  # validate_run: byte for byte
    for key, value in before["audit"].items():
        if key != "infra_errors":
            assert now["audit"][key] == value, key
    dropped = [text for text in before["audit"]["infra_errors"] if text not in now["audit"]["infra_errors"]]
    assert [t for t in now["audit"]["infra_errors"] if t not in dropped] == now["audit"]["infra_errors"]
    assert set(now["audit"]["infra_errors"]) <= set(before["audit"]["infra_errors"])  # nothing new
    # What went is a validate finding the audit reports itself (or its own trajectory run_id
    # message, which validate's trajectory.run_id finding now states alone).
    for text in dropped:
        assert text.startswith("validate: ") or "belongs to run" in text, text


def test_the_golden_cases_cover_each_kind_of_damage():
    kinds = {case_id.split("-")[2] for case_id in GOLDEN if "unchanged" not in case_id}
    assert kinds == set(cases.KINDS)
    assert {case_id.split("-")[0] for case_id in GOLDEN} == set(cases.TEMPLATES)
    dropped = sum(
        1 for before in GOLDEN.values() for text in before["audit"]["infra_errors"] if text.startswith("validate: ")
    )
    assert dropped > 100


# -- every scenario: validate inside the audit is validate_run ---------------------------------------


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenarios_validate_inside_the_audit_as_alone(name, tmp_path, monkeypatch):
    scenario = SCENARIOS[name]
    run = build_run(tmp_path / "run", name)
    if name == "unknown_version":  # the audit stops at run.json, before validating
        report, inside, _ = audited(run, monkeypatch)
        assert inside is None
    else:
        report, _ = assert_reported_once(run, monkeypatch)
    assert (report["overall"], report["failure_class"]) == (scenario.overall, scenario.failure_class)
    assert statuses(report) == scenario.flags


# -- one open, one read -----------------------------------------------------------------------------

READ_ONCE = [
    c for c in sorted(GOLDEN) if c.endswith("unchanged") or (c.endswith("trajectory.jsonl") and "-remove-" not in c)
]


@pytest.mark.parametrize("case_id", [_case(c) for c in READ_ONCE])
def test_the_trajectory_is_opened_and_read_once(case_id, tmp_path, monkeypatch):
    run = materialize(_shared(), case_id, tmp_path / "run")
    size = (run / "trajectory.jsonl").stat().st_size
    tally = count_reads(monkeypatch, run / "trajectory.jsonl")
    report = audit_run(run, write=False)
    assert (tally.opens, tally.bytes) == (1, size), report["infra_errors"]
    assert report["refs"]  # the cited records are quoted all the same


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_scenario_reads_its_trajectory_once(name, tmp_path, monkeypatch):
    run = build_run(tmp_path / "run", name)
    if name == "passing":
        seal(run)  # a sealed run also needs the whole-file hash: taken in the same read
    size = (run / "trajectory.jsonl").stat().st_size
    tally = count_reads(monkeypatch, run / "trajectory.jsonl")
    audit_run(run, write=False)
    assert (tally.opens, tally.bytes) == ((0, 0) if name == "unknown_version" else (1, size))


# -- each problem once --------------------------------------------------------------------------------


def _payload_missing(root: Path) -> None:
    for path in (root / "payloads").iterdir():
        path.unlink()


def _big_read(b):
    b.passing().call("c-read-log", "result")["result"] = {"text": "captured " * 4000}
    return b


def _add_import(root: Path) -> None:
    (root / "imports" / "session.jsonl").write_text('{"type": "message"}\n')
    manifest = jsonio.read_json(root / "run.json")
    manifest["imports"].append({"source": "s", "path": "imports/session.jsonl", "sha256": "1" * 64, "size": 19})
    (root / "run.json").write_text(json.dumps(manifest))


def _review_line(line: bytes):
    def append(root: Path) -> None:
        with open(root / "reviews.jsonl", "ab") as handle:
            handle.write(line)

    return append


ONCE = {
    # name: (configure, words in the audit's one message, validate code it replaces)
    "evidence hash": (
        lambda b: b.passing().tamper("test/testmod.jsonl", lambda d: d.replace(b'"tick":301', b'"tick":302')),
        ("evidence test_mod", "sha256 mismatch"),
        "evidence.hash",
    ),
    "evidence missing": (
        lambda b: b.passing().after_build(lambda r: (r / "oracle.json").unlink()),
        ("evidence oracle", "missing"),
        "evidence.missing",
    ),
    "evidence absolute": (
        lambda b: b.passing().edit_json("evidence.json", lambda e: e["answer"].update(path="/etc/passwd")),
        ("evidence answer", "absolute"),
        "evidence.path",
    ),
    "evidence without sha256": (
        lambda b: b.passing().edit_json("evidence.json", lambda e: e["answer"].pop("sha256")),
        ("evidence answer", "no sha256"),
        "evidence.hash",
    ),
    "evidence.json malformed": (
        lambda b: b.passing().after_build(lambda r: (r / "evidence.json").write_text("{")),
        ("evidence.json", "malformed"),
        "document.malformed",
    ),
    "import changed": (lambda b: b.passing().after_build(_add_import), ("imports", "hash changed"), "imports.hash"),
    "review line": (
        lambda b: b.passing().after_build(_review_line(b"[1]\n")),
        ("reviews.jsonl:4", "expected a JSON object"),
        "review.malformed",
    ),
    "review shape": (
        lambda b: b.passing().after_build(
            _review_line(
                b'{"schemaVersion":2,"seq":9,"id":"machine_operated.causality","status":"resolved","by":" ","at":"2026-01-01T12:00:00.000Z","note":"","evidence":["x"]}\n'
            )
        ),
        ("reviews.jsonl:4", "non-blank reviewer"),
        "review.shape",
    ),
    "trajectory missing": (
        lambda b: b.passing().after_build(lambda r: (r / "trajectory.jsonl").unlink()),
        ("trajectory.jsonl", "missing"),
        "trajectory.missing",
    ),
    "payload missing": (
        lambda b: _big_read(b).after_build(_payload_missing),
        ("payload payloads/", "missing from the store"),
        "payload.missing",
    ),
    "logging settings": (
        lambda b: b.passing().edit_json("run.json", lambda m: m["logging"].update(compression="zip")),
        ("logging", "compression"),
        "schema.run",
    ),
}


@pytest.mark.parametrize("name", sorted(ONCE))
def test_each_problem_is_reported_once(name, tmp_path, monkeypatch):
    configure, words, code = ONCE[name]
    run = configure(builder(tmp_path)).build()
    report, validation = assert_reported_once(run, monkeypatch)
    assert code in [f.code for f in validation.findings]  # validate finds it ...
    about = [text for text in report["infra_errors"] if all(w in text for w in words)]
    assert len(about) == 1 and not about[0].startswith("validate: "), report[
        "infra_errors"
    ]  # ... the audit says it once
    replaced = [f for f in validation.findings if f.code == code]
    assert all(f"validate: {f.to_text()}" not in report["infra_errors"] for f in replaced)
    assert report["failure_class"] == "INFRA_ERROR"
