"""The recorder's Python API: init, record checks, artifacts, evidence, reviews, seal."""

from __future__ import annotations

import json
import os

import pytest
from core_helpers import HARNESS, MACHINE, REPO, TOOL, build_v1_run, clock, edit_json, lines, new_run, recorder

from pytest_coldstart.record.recorder import Recorder, init_run
from pytest_coldstart.record.seal import seal
from pytest_coldstart.run import schemas
from pytest_coldstart.run.errors import ColdstartError, ContainmentError, UsageError, VersionError
from pytest_coldstart.validate.run import validate_run


@pytest.fixture
def run(tmp_path):
    return new_run(tmp_path / "run", calls=1)


def test_init_writes_the_whole_run_directory(tmp_path):
    visible = tmp_path / "docs"
    visible.mkdir()
    (visible / "a.md").write_bytes(b"a")
    run = new_run(tmp_path / "run", calls=0, visible_roots=[str(visible)], notes=["cold start"], experiment_id="exp-1")
    names = sorted(str(p.relative_to(run)) for p in run.rglob("*") if p.is_file() and ".coldstart" not in p.parts)
    assert [n for n in names if not n.startswith("visibility/")] == [
        "evidence.json",
        "reviews.jsonl",
        "run.json",
        "task.md",
        "trajectory.jsonl",
        "visibility.json",
    ]
    assert next(n for n in names if n.startswith("visibility/files/")).endswith("/a.md")
    manifest = json.loads((run / "run.json").read_text())
    assert schemas.errors("run", manifest) == []
    assert (
        manifest["experiment_id"] == "exp-1" and manifest["notes"] == ["cold start"] and manifest["harness"] == HARNESS
    )
    assert manifest["created_at"] == "2026-09-26T06:27:17.874Z" and manifest["created_at_explicit"] is False
    assert manifest["visibility"]["file_count"] == 1 and (run / "task.md").read_bytes().startswith(b"Operate")
    assert [r["record"] for r in lines(run / "trajectory.jsonl")] == ["header", "phase"]
    assert json.loads((run / "evidence.json").read_text())["answer"] is None
    assert validate_run(run).valid


def test_second_init_never_overwrites(run):
    before = (run / "run.json").read_bytes()
    with pytest.raises(ColdstartError, match="already exists and is not empty"):
        new_run(run)
    assert (run / "run.json").read_bytes() == before


@pytest.mark.parametrize("run_id", ["", "a/b", "a\\b", "x\ny"])
def test_init_refuses_bad_run_ids(tmp_path, run_id):
    with pytest.raises(UsageError, match="invalid run id"):
        new_run(tmp_path / "run", run_id=run_id)
    assert not (tmp_path / "run").exists()


def test_explicit_creation_time_is_recorded_as_explicit(tmp_path):
    recorder_ = init_run(
        tmp_path / "r",
        run_id="r",
        task_bytes=b"t",
        task_source="inline",
        harness=HARNESS,
        created_at="2026-01-01T00:00:00Z",
        clock=clock(),
        machine=MACHINE,
        repo=REPO,
        tool=TOOL,
    )
    assert (
        recorder_.manifest["created_at"] == "2026-01-01T00:00:00.000Z"
        and recorder_.manifest["created_at_explicit"] is True
    )
    with pytest.raises(UsageError, match="is not a timestamp"):
        init_run(
            tmp_path / "s", run_id="s", task_bytes=b"t", task_source="inline", harness=HARNESS, created_at="someday"
        )


@pytest.mark.parametrize(
    "fields, words",
    [
        ({"record": "header"}, "cannot be appended"),
        ({"record": "bogus"}, "cannot be appended"),
        ([], "must be a JSON object"),
        ({"record": "mark", "name": "x", "seq": 9}, "'seq' is assigned by the recorder"),
        ({"record": "mark", "name": "x", "prev": None}, "'prev' is assigned"),
        ({"record": "mark", "name": "x", "run_id": "other"}, "does not match this run"),
        ({"record": "mark", "name": "x", "phase": "lunch"}, "unknown phase"),
        ({"record": "mark", "name": "x", "actor": "robot"}, "unknown actor"),
        ({"record": "call", "tool": "bash"}, "needs a non-empty call_id"),
        ({"record": "call", "call_id": "x", "tool": " "}, "needs a non-empty tool"),
        ({"record": "result", "call_id": "c0", "status": "maybe"}, "status must be one of"),
        ({"record": "phase", "actor": "operator"}, "needs a phase"),
        ({"record": "mark", "name": ""}, "needs a non-empty name"),
    ],
)
def test_records_are_checked_before_anything_is_written(run, fields, words):
    before = (run / "trajectory.jsonl").read_bytes()
    with pytest.raises(UsageError, match=words):
        recorder(run).append(fields)
    assert (run / "trajectory.jsonl").read_bytes() == before


def test_convenience_methods_write_protocol_records(run):
    rec = recorder(run)
    rec.phase("restore", "restore", instance="lab-a", note="copy restored", evidence=["restore:status"])
    rec.mark("fixture_ready", {"ready": True}, phase="prepare")
    rec.call("c1", "bash", {"command": "ls"}, phase="agent", actor="agent", tick=5, note="n")
    rec.result("c1", "open", duration_ms=2)
    records = lines(run / "trajectory.jsonl")[-4:]
    assert (
        records[0]["instance"] == "lab-a"
        and records[1]["data"] == {"ready": True}
        and records[2]["tick"] == 5
        and records[3]["status"] == "open"
    )
    assert validate_run(run).valid


def test_secrets_in_arguments_are_redacted(run):
    record = recorder(run).call("s1", "http", {"url": "https://x", "api_key": "sk-verysecretvalue123"})
    assert record["arguments"]["api_key"].startswith("<redacted sha256:")
    assert b"sk-verysecretvalue123" not in (run / "trajectory.jsonl").read_bytes()


def test_artifact_copies_hashes_and_marks(run, tmp_path):
    folder = tmp_path / "build"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.jar").write_bytes(b"a")
    (folder / "sub" / "b.txt").write_bytes(b"b")
    os.symlink(folder / "a.jar", folder / "link.jar")
    entries = recorder(run).artifact(folder, "build output")
    assert [e["path"] for e in entries] == ["artifacts/001-a.jar", "artifacts/002-b.txt"]  # symlinks are not followed
    assert (run / "artifacts/002-b.txt").read_bytes() == b"b"
    assert json.loads((run / "run.json").read_text())["artifacts"][1]["label"] == "build output"
    assert lines(run / "trajectory.jsonl")[-1]["name"] == "artifact"
    with pytest.raises(ColdstartError, match="missing or a symlink"):
        recorder(run).artifact(folder / "link.jar")
    assert validate_run(run).valid


def test_declare_evidence(run):
    (run / "test").mkdir()
    (run / "test/testmod.jsonl").write_bytes(b'{"event":"end"}\n')
    declaration = recorder(run).declare_evidence("test_mod", "test/testmod.jsonl")
    assert declaration["size"] == 16 and len(declaration["sha256"]) == 64
    assert json.loads((run / "evidence.json").read_text())["test_mod"]["path"] == "test/testmod.jsonl"
    with pytest.raises(UsageError, match="unknown evidence name"):
        recorder(run).declare_evidence("bogus", "test/testmod.jsonl")
    with pytest.raises(UsageError, match="agent_logger only"):
        recorder(run).declare_evidence("test_mod", "test/testmod.jsonl", normalized="test/testmod.jsonl")
    with pytest.raises(ColdstartError, match="file is missing"):
        recorder(run).declare_evidence("answer", "answer.json")
    for outside in ("/etc/hosts", "../x.json"):
        with pytest.raises(ContainmentError):
            recorder(run).declare_evidence("answer", outside)
    assert validate_run(run).valid


def test_review_rules(run):
    rec = recorder(run)
    with pytest.raises(UsageError, match="at least one non-blank --evidence"):
        rec.review("machine_operated.causality", "resolved", "alice", evidence=[])
    with pytest.raises(UsageError, match="at least one non-blank --evidence"):
        rec.review("machine_operated.causality", "resolved", "alice", evidence=["ok", " "])
    with pytest.raises(UsageError, match="non-blank reviewer"):
        rec.review("machine_operated.causality", "resolved", "  ", evidence=["trajectory:c0"])
    for nobody in ("-", "?", "N/A", "unknown", "none", "null"):
        with pytest.raises(UsageError, match="names no one"):
            rec.review("machine_operated.causality", "resolved", nobody, evidence=["trajectory:c0"])
    harness = rec.manifest["harness"]
    for agent in ("agent", harness["name"], harness["model"]):
        with pytest.raises(UsageError, match="the run's own agent"):
            rec.review("machine_operated.causality", "resolved", agent, evidence=["trajectory:c0"])
    with pytest.raises(UsageError, match="status must be one of"):
        rec.review("machine_operated.causality", "approved", "alice", evidence=["trajectory:c0"])
    with pytest.raises(UsageError, match="not a timestamp"):
        rec.review("machine_operated.causality", "resolved", "alice", evidence=["trajectory:c0"], at="later")
    assert (run / "reviews.jsonl").read_bytes() == b""
    first = rec.review("machine_operated.causality", "pending", "alice", evidence=[])
    second = rec.review(
        "machine_operated.causality",
        "resolved",
        "alice",
        evidence=["trajectory:c0"],
        note="seen",
        at="2026-09-26T07:30:00Z",
    )
    assert (first["seq"], second["seq"]) == (1, 2) and second["at"] == "2026-09-26T07:30:00.000Z"
    assert lines(run / "trajectory.jsonl")[-1]["data"]["id"] == "machine_operated.causality"
    assert validate_run(run).valid


def test_sealed_run_refuses_appends_but_takes_reviews(run):
    sealed = seal(run)
    assert sealed["trajectory"]["records"] == 5 and {f["path"] for f in sealed["files"]} >= {
        "task.md",
        "trajectory.jsonl",
        "evidence.json",
    }
    with pytest.raises(ColdstartError, match="run is sealed"):
        recorder(run).call("late", "bash")
    with pytest.raises(ColdstartError, match="already sealed"):
        seal(run)
    (run / "answer.json").write_text("{}")
    with pytest.raises(ColdstartError, match="declare evidence before"):
        recorder(run).declare_evidence("answer", "answer.json")
    (run / "answer.json").unlink()
    recorder(run).review("agent_read_log.linkage", "rejected", "bob", evidence=["trajectory:c0"])
    assert validate_run(run).valid


def test_version_1_run_must_be_migrated_before_appending(tmp_path):
    run = build_v1_run(tmp_path / "v1")
    with pytest.raises(ColdstartError, match="coldstart trace migrate"):
        Recorder(run)


def test_unknown_version_run_fails_closed(run):
    edit_json(run / "run.json", lambda d: d.update(schemaVersion=3))
    with pytest.raises(VersionError, match="schemaVersion 3"):
        Recorder(run)


def test_missing_run_directory(tmp_path):
    with pytest.raises(ColdstartError, match="run directory does not exist"):
        Recorder(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ColdstartError, match="no run.json"):
        Recorder(tmp_path / "empty")
