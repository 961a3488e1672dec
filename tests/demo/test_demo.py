"""`coldstart demo`: complete sample bundles, byte-identical on every regeneration."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bundle_helpers import all_bytes, run_cli

from pytest_coldstart.demo import research as demo_research
from pytest_coldstart.demo.generate import INDEX, generate
from pytest_coldstart.demo.scenarios import SCENARIOS, story
from pytest_coldstart.record import taxonomy
from pytest_coldstart.run import jsonio, payloads, schemas
from pytest_coldstart.run.vocabulary import EVIDENCE_NAMES, FLAGS, RECORD_TYPES
from pytest_coldstart.validate.run import validate_run


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
        assert {line["event"] for line in lines if line["record"] == "state"} == {
            "observed",
            "repeated",
            "changed",
            "unavailable",
        }
        assert {line["event"] for line in lines if line["record"] == "action"} == {
            "requested",
            "accepted",
            "rejected",
            "resolved",
            "timeout",
        }
        assert {line["event"] for line in lines if line["record"] == "session"} == {"start", "flush", "end"}
        assert {line["event"] for line in lines if line["record"] == "decision"} == set(taxonomy.DECISION_EVENTS)
        assert any(line.get("redacted") for line in lines) and any(line.get("missing_reason") for line in lines)
        decisions = [line for line in lines if line["record"] == "decision"]
        assert any(d["related_state_hash"] and d["related_call_id"] for d in decisions)
        states = {line["state_hash"] for line in lines if line["record"] == "state" and line["state_hash"]}
        assert all(d["related_state_hash"] in states for d in decisions if d["related_state_hash"])
        manifest = json.loads((run / "run.json").read_text())
        assert manifest["status"] == "sealed" and manifest["logging"]["redaction"]["hash_keys"] == [
            "player_id",
            "profile_id",
        ]
        summary = json.loads((run / "summary.json").read_text())
        assert summary["outcome"]["overall"] == json.loads((run / "audit" / "audit.json").read_text())["overall"]
        assert summary["states"]["repeated_consecutive"] == 1 and summary["actions"]["invalid_rate"]["numerator"] == 1


def _audit(run: Path) -> dict:
    return json.loads((run / "audit" / "audit.json").read_text())


def test_research_bundles_are_complete_cold_start_runs(demo: Path) -> None:
    """The passing story (every evidence file declared and hashed, the agent arms its logger,
    actuates the machine, reads its log back) plus the harness's extra records."""
    for name in ("research-full", "research-preview"):
        run = demo / name
        evidence = json.loads((run / "evidence.json").read_text())
        declared = {key for key in EVIDENCE_NAMES if evidence.get(key)}
        assert declared == {"test_mod", "agent_logger", "answer", "oracle", "fixture", "restore"}, name
        for key in declared:
            assert (run / evidence[key]["path"]).is_file() and len(evidence[key]["sha256"]) == 64
        lines = [line.value for line in jsonio.iter_jsonl(run / "trajectory.jsonl")]
        calls = [line["call_id"] for line in lines if line["record"] == "call"]
        story_calls = [
            c
            for c in calls
            if c in ("c-write-logger", "c-build-logger", "c-start-logger", "c-actuate", "c-read-log", "c-write-answer")
        ]
        assert story_calls == [
            "c-write-logger",
            "c-build-logger",
            "c-start-logger",
            "c-actuate",
            "c-read-log",
            "c-write-answer",
        ], name
        assert (
            calls.index("c-build-failed-1")
            < calls.index("c-build-logger")
            < calls.index("c-use-wrong-block")
            < calls.index("c-actuate")
            < calls.index("c-poll-status")
        )
        # Inserted records sit between the story's records: times never decrease, the story keeps its own.
        times = [line["at"] for line in lines]
        assert times == sorted(times)
        assert next(line for line in lines if line["record"] == "call" and line["call_id"] == "c-actuate")[
            "at"
        ] == story.at(10)
        resolved = {
            json.loads(entry)["id"]
            for entry in (run / "reviews.jsonl").read_text().splitlines()
            if json.loads(entry)["status"] == "resolved"
        }
        assert resolved == {
            "machine_operated.causality",
            "logger_armed_before_activation.running",
            "answer_correct.oracle_independence",
        }
        manifest = json.loads((run / "run.json").read_text())
        assert (
            manifest["created_at"] <= manifest["ended_at"] < story.at(60)
        )  # one clock: declarations, reviews and seal follow the story


def test_research_full_passes_and_preview_is_pending_on_the_read_back(demo: Path) -> None:
    full, preview = _audit(demo / "research-full"), _audit(demo / "research-preview")
    assert full["overall"] == "PASS" and full["failure_class"] is None
    assert [f["status"] for f in full["flags"]] == ["PASS"] * len(FLAGS)
    assert not full["infra_errors"] and not full["pending_reasons"] and not full["review_problems"]
    # Preview-only retention kept 160 characters of the logger read-back: the audit cannot see
    # the captured carts in the bundle and asks a reviewer instead of guessing.
    assert preview["overall"] == "PENDING" and preview["failure_class"] is None and not preview["infra_errors"]
    statuses = {f["flag"]: f["status"] for f in preview["flags"]}
    assert statuses == {**dict.fromkeys(FLAGS, "PASS"), "agent_read_log": "PENDING"}
    read_log = next(f for f in preview["flags"] if f["flag"] == "agent_read_log")
    assert [r["id"] for r in read_log["required_review"]] == ["agent_read_log.linkage"] and "c-read-log" in read_log[
        "summary"
    ]
    notes = {
        name: json.loads((demo / name / "run.json").read_text())["notes"]
        for name in ("research-full", "research-preview")
    }
    assert "audited PASS by design" in notes["research-full"][1]
    assert (
        "audited PENDING by design" in notes["research-preview"][1]
        and "agent_read_log.linkage" in notes["research-preview"][1]
    )
    index = {run["name"]: run["overall"] for run in jsonio.read_json_object(demo / INDEX)["runs"]}
    assert index["research-full"] == "PASS" and index["research-preview"] == "PENDING"


def test_compare_groups_the_research_bundles_by_harness_and_model(demo: Path) -> None:
    done = run_cli(
        "compare", str(demo / "research-full"), str(demo / "research-preview"), str(demo / "passing"), "--json"
    )
    assert done.returncode == 0, done.stderr
    rows = {row["run_id"]: row for row in json.loads(done.stdout)["runs"]}
    groups = {(row["harness"], row["model"]) for row in rows.values()}
    assert len(groups) == 3
    for name, options in demo_research.BUNDLES.items():
        assert (rows[name]["harness"], rows[name]["model"]) == (options["harness"]["name"], options["harness"]["model"])
    assert rows["research-full"]["outcome"] == "PASS" and rows["research-preview"]["outcome"] == "PENDING"
    # The second model needed one more failed build: the table shows it.
    assert rows["research-preview"]["calls"] == rows["research-full"]["calls"] + 1
    assert rows["research-preview"]["errors"] == rows["research-full"]["errors"] + 1


def test_full_and_preview_payload_modes(demo: Path) -> None:
    full_refs = [
        ref
        for line in jsonio.iter_jsonl(demo / "research-full" / "trajectory.jsonl")
        for _, ref in payloads.iter_refs(line.value)
    ]
    preview_refs = [
        ref
        for line in jsonio.iter_jsonl(demo / "research-preview" / "trajectory.jsonl")
        for _, ref in payloads.iter_refs(line.value)
    ]
    assert full_refs and all(ref["stored"] and ref["compression"] == "gzip" for ref in full_refs)
    for ref in full_refs:
        problem, data = payloads.read_ref(demo / "research-full", ref)
        assert problem is None and len(data) == ref["size"]
    read_back = next(
        line.value
        for line in jsonio.iter_jsonl(demo / "research-full" / "trajectory.jsonl")
        if line.value["record"] == "result" and line.value["call_id"] == "c-read-log"
    )
    problem, data = payloads.read_ref(
        demo / "research-full", read_back["result_payload"]
    )  # the logger read-back, kept whole
    assert problem is None and all(cart["uuid"].encode() in data for cart in story.CARTS)
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
