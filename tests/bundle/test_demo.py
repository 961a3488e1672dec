"""`coldstart demo`: complete sample bundles, byte-identical on every regeneration."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bundle_helpers import all_bytes, run_cli

from pytest_coldstart import jsonio, payloads, schemas, taxonomy
from pytest_coldstart.demo import INDEX, generate
from pytest_coldstart.scenarios import SCENARIOS
from pytest_coldstart.validate import validate_run
from pytest_coldstart.vocabulary import RECORD_TYPES


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("demo") / "runs"
    done = run_cli("demo", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith(f"runs written to {out}")
    return out


def test_regeneration_is_byte_identical(demo: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    generate(again)
    first, second = all_bytes(demo), all_bytes(again)
    assert sorted(first) == sorted(second)
    for name in first:
        assert first[name] == second[name], name
    # Regenerating in place replaces exactly the demo's runs, with the same bytes.
    (again / "research-full" / "stray.txt").write_text("left by a user")
    generate(again)
    assert all_bytes(again) == second


def test_demo_writes_every_scenario_and_the_research_bundles(demo: Path) -> None:
    index = jsonio.read_json_object(demo / INDEX)
    names = [run["name"] for run in index["runs"]]
    assert names == sorted(SCENARIOS) + ["research-full", "research-preview"]
    by_name = {run["name"]: run for run in index["runs"]}
    for name, scenario in SCENARIOS.items():
        assert by_name[name]["overall"] == scenario.overall, name
        assert (demo / name / "audit" / "audit.json").is_file()
    assert not any(path.name == ".coldstart" for path in demo.rglob("*"))  # private state is not part of a sample
    assert not any(path.name.startswith(".demo-build-") for path in demo.iterdir())


def test_research_bundles_are_valid_and_exercise_every_family(demo: Path) -> None:
    for name in ("research-full", "research-preview"):
        run = demo / name
        report = validate_run(run)
        assert report.valid, report.to_text()
        lines = [line.value for line in jsonio.iter_jsonl(run / "trajectory.jsonl")]
        assert {line["record"] for line in lines} == set(RECORD_TYPES)
        for line in lines:
            assert schemas.errors("trajectory-record", line) == [], line
        assert {line["event"] for line in lines if line["record"] == "state"} == {"observed", "repeated", "changed", "unavailable"}
        assert {line["event"] for line in lines if line["record"] == "action"} == {"requested", "accepted", "rejected", "resolved", "timeout"}
        assert {line["event"] for line in lines if line["record"] == "session"} == {"start", "flush", "end"}
        assert {line["event"] for line in lines if line["record"] == "decision"} == set(taxonomy.DECISION_EVENTS)
        assert any(line.get("redacted") for line in lines) and any(line.get("missing_reason") for line in lines)
        decisions = [line for line in lines if line["record"] == "decision"]
        assert any(d["related_state_hash"] and d["related_call_id"] for d in decisions)
        states = {line["state_hash"] for line in lines if line["record"] == "state" and line["state_hash"]}
        assert all(d["related_state_hash"] in states for d in decisions if d["related_state_hash"])
        manifest = json.loads((run / "run.json").read_text())
        assert manifest["status"] == "sealed" and manifest["logging"]["redaction"]["hash_keys"] == ["player_id", "profile_id"]
        summary = json.loads((run / "summary.json").read_text())
        assert summary["outcome"]["overall"] == json.loads((run / "audit" / "audit.json").read_text())["overall"]
        assert summary["states"]["repeated_consecutive"] == 1 and summary["actions"]["invalid_rate"]["numerator"] == 1


def test_full_and_preview_payload_modes(demo: Path) -> None:
    full_refs = [ref for line in jsonio.iter_jsonl(demo / "research-full" / "trajectory.jsonl") for _, ref in payloads.iter_refs(line.value)]
    preview_refs = [ref for line in jsonio.iter_jsonl(demo / "research-preview" / "trajectory.jsonl") for _, ref in payloads.iter_refs(line.value)]
    assert full_refs and all(ref["stored"] and ref["compression"] == "gzip" for ref in full_refs)
    for ref in full_refs:
        problem, data = payloads.read_ref(demo / "research-full", ref)
        assert problem is None and len(data) == ref["size"]
    assert preview_refs and all(not ref["stored"] and ref["missing_reason"] for ref in preview_refs)
    assert not (demo / "research-preview" / "payloads").exists()
    salted = json.loads((demo / "research-preview" / "run.json").read_text())["logging"]["redaction"]
    assert salted["digest"] == "hmac-sha256" and salted["salt"]["env"] == "COLDSTART_DEMO_SALT"
    assert "<redacted hmac-sha256:" in (demo / "research-preview" / "trajectory.jsonl").read_text()


def test_demo_refuses_a_foreign_directory(tmp_path: Path) -> None:
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("precious")
    done = run_cli("demo", "--out", str(foreign))
    assert done.returncode == 1 and "refusing to overwrite" in done.stderr
    assert [p.name for p in foreign.iterdir()] == ["notes.txt"]
