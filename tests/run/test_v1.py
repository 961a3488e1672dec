"""Version 1 (the reference implementation's files): each translator on its own, the layout
readers, and validate with version-1 semantics on a run in the reference layout and on the
real rom20 files."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from core_helpers import V1_TRAJECTORY, build_v1_run, codes, copy_rom20, edit_json

from pytest_coldstart.run import schemas, v1
from pytest_coldstart.run.errors import VersionError
from pytest_coldstart.run.layout import RunDir
from pytest_coldstart.validate.run import validate_run

V1_MANIFEST = {
    "schema": "mc-agent-coldstart-run/1",
    "run_id": "r1",
    "created_at": "2026-09-26T06:27:17.874Z",
    "repo": {"root": "/repo", "commit": "abc", "branch": "main", "dirty_entries": 0},
    "harness": {"name": "pi", "version": "1", "model": "m", "provider": "p"},
    "task": {"path": "task.md", "source": "inline", "sha256": "a" * 64, "player_uuid": "u", "note": "n"},
    "trajectory": {"path": "trajectory.jsonl"},
    "visibility": {"path": "visibility.json", "file_count": 0},
    "imports": [],
    "status": "open",
    "notes": [],
}


def test_manifest_translator():
    original = copy.deepcopy(V1_MANIFEST)
    out = v1.manifest_to_current(original)
    assert original == V1_MANIFEST  # never modified in place
    assert out["schemaVersion"] == 2 and out["translated_from"] == 1 and "schema" not in out
    assert out["task"]["player_uuid"] == "u"  # unknown v1 keys are data: kept
    assert out["artifacts"] == [] and out["seal"] is None and out["status"] == "open"
    assert out["tool"]["name"] == "mc-agent run_trace.py"
    assert schemas.errors("run", out) == []
    out["task"]["sha256"] = "changed"
    assert V1_MANIFEST["task"]["sha256"] == "a" * 64  # a deep copy


def test_evidence_translator_keeps_extra_keys():
    document = {
        "schema": "mc-agent-coldstart-evidence/1",
        "note": "x",
        "test_mod": {"path": "t.jsonl", "sha256": "b" * 64, "raw": "r.jsonl", "raw_sha256": "c" * 64},
        "answer": None,
    }
    out = v1.evidence_to_current(document)
    assert out == {
        "schemaVersion": 2,
        "translated_from": 1,
        "note": "x",
        "test_mod": document["test_mod"],
        "answer": None,
    }
    assert out["test_mod"] is not document["test_mod"]
    assert schemas.errors("evidence", out) == []


def test_visibility_translator():
    document = {
        "schema": "mc-agent-coldstart-visibility/1",
        "created_at": "2026-09-26T06:27:17.874Z",
        "cwd": "/repo",
        "roots": ["/repo"],
        "exclude": [],
        "file_count": 0,
        "files": [],
        "missing": [],
    }
    out = v1.visibility_to_current(document)
    assert out["schemaVersion"] == 2 and out["cwd"] == "/repo" and "schema" not in out
    assert schemas.errors("visibility", out) == []


def test_trajectory_record_translator_header_and_call():
    header = {
        "schema": V1_TRAJECTORY,
        "record": "header",
        "run_id": "r1",
        "created_at": "2026-09-26T06:27:17.874Z",
        "harness": {"name": "pi"},
        "seq": 1,
    }
    out = v1.trajectory_record_to_current(header)
    assert out["at"] == "2026-09-26T06:27:17.874Z" and out["prev"] is None and out["monotonic_ms"] is None
    assert list(out)[:10] == [
        "schemaVersion",
        "translated_from",
        "run_id",
        "seq",
        "at",
        "monotonic_ms",
        "record",
        "call_id",
        "parent_id",
        "prev",
    ]
    call = {
        "record": "call",
        "call_id": "c1",
        "tool": "bash",
        "arguments": {"a": 1},
        "source": "import:pi",
        "schema": V1_TRAJECTORY,
        "seq": 5,
    }
    out = v1.trajectory_record_to_current(call)
    assert out["run_id"] is None and out["at"] is None and out["source"] == "import:pi" and out["arguments"] == {"a": 1}
    assert schemas.errors("trajectory-record", out) == []


def test_review_translator():
    entry = {
        "id": "x.y",
        "status": "resolved",
        "by": "a",
        "at": "2026-09-26T07:03:53Z",
        "note": "",
        "evidence": ["trajectory:c1"],
        "seq": 1,
    }
    out = v1.review_to_current(entry)
    assert out["schemaVersion"] == 2 and out["translated_from"] == 1 and out["evidence"] == ["trajectory:c1"]
    assert schemas.errors("review", out) == []


def test_layout_readers_translate_version_1(tmp_path):
    run = RunDir(build_v1_run(tmp_path / "v1"))
    assert run.manifest_version() == 1
    assert run.load_manifest()["translated_from"] == 1
    assert run.load_evidence()["agent_logger"]["path"] == "agent/logger.jsonl"
    assert run.load_visibility()["file_count"] == 1


@pytest.mark.parametrize("reader", ["load_manifest", "load_evidence", "load_visibility"])
def test_layout_readers_fail_closed_on_unknown_versions(tmp_path, reader):
    run = build_v1_run(tmp_path / "v1")
    name = {"load_manifest": "run.json", "load_evidence": "evidence.json", "load_visibility": "visibility.json"}[reader]
    edit_json(run / name, lambda d: (d.pop("schema"), d.update(schemaVersion=3)))
    with pytest.raises(VersionError) as caught:
        getattr(RunDir(run), reader)()
    assert "schemaVersion 3" in str(caught.value) and name in str(caught.value)


# -- validate with version-1 semantics ---------------------------------------------------------


def test_reference_layout_run_validates(tmp_path):
    report = validate_run(build_v1_run(tmp_path / "v1"))
    assert report.valid, report.to_text()
    assert report.run_version == 1 and report.counts["records"] == 8 and report.counts["reviews"] == 1


def test_reference_layout_problems_are_found(tmp_path):
    run = build_v1_run(tmp_path / "v1")
    records = [json.loads(line) for line in (run / "trajectory.jsonl").read_text().splitlines()]
    records[2]["run_id"] = "other"
    records[4]["record"] = "decision"
    records[5]["at"] = "tomorrow"
    records[6]["seq"] = 3
    (run / "trajectory.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    report = validate_run(run)
    assert sorted((f.code, f.line) for f in report.findings) == [
        ("record.unknown_type", 5),
        ("result.unknown_call", 6),
        ("trajectory.at", 6),
        ("trajectory.run_id", 3),
        ("trajectory.seq", 7),
    ]


def test_version_1_record_without_time_or_run_id_is_fine(tmp_path):
    run = build_v1_run(tmp_path / "v1")
    records = [json.loads(line) for line in (run / "trajectory.jsonl").read_text().splitlines()]
    del records[6]["at"]
    assert "run_id" not in records[6]
    (run / "trajectory.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    assert validate_run(run).valid


def test_version_1_run_id_alias_is_checked(tmp_path):
    run = build_v1_run(tmp_path / "v1")
    records = [json.loads(line) for line in (run / "trajectory.jsonl").read_text().splitlines()]
    records[6]["runId"] = "another-run"
    (run / "trajectory.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    assert [(f.code, f.line) for f in validate_run(run).findings] == [("trajectory.run_id", 7)]


def test_mixed_versions_in_a_version_1_trajectory(tmp_path):
    run = build_v1_run(tmp_path / "v1")
    with open(run / "trajectory.jsonl", "a") as handle:
        handle.write(json.dumps({"schemaVersion": 2, "record": "mark", "name": "x"}) + "\n")
        handle.write(json.dumps({"schema": "mc-agent-coldstart-trajectory/7", "record": "mark", "name": "x"}) + "\n")
    assert [(f.code, f.line) for f in validate_run(run).findings] == [("version.mixed", 9), ("version.unknown", 10)]


def test_version_1_absolute_evidence_path_is_a_finding(tmp_path):
    run = build_v1_run(tmp_path / "v1")
    edit_json(run / "evidence.json", lambda d: d.update(answer={"path": "/abs/answer.json", "sha256": "a" * 64}))
    report = validate_run(run)
    assert [(f.code, f.file) for f in report.findings] == [("evidence.path", "evidence.json")]
    assert "absolute" in report.findings[0].problem


def test_version_1_hash_rules(tmp_path):
    run = build_v1_run(tmp_path / "v1")
    # v1 compared artifact hashes only when declared, but always compared import hashes.
    edit_json(run / "run.json", lambda d: (d["artifacts"][0].pop("sha256"), d["imports"][0].pop("sha256")))
    report = validate_run(run)
    assert ("imports.hash", "run.json") in [(f.code, f.file) for f in report.findings]
    assert "artifacts.hash" not in codes(report)


def test_version_1_visibility_copies_are_checked(tmp_path):
    run = build_v1_run(tmp_path / "v1")
    (run / "visibility/files/docs/toolkit.md").write_bytes(b"# ToolkiT\n")
    assert codes(validate_run(run)) == ["visibility.copy.hash"]


def test_version_2_review_line_in_a_version_1_run(tmp_path):
    run = build_v1_run(tmp_path / "v1")
    with open(run / "reviews.jsonl", "a") as handle:
        handle.write(
            json.dumps(
                {
                    "schemaVersion": 2,
                    "seq": 2,
                    "id": "a.b",
                    "status": "pending",
                    "by": "x",
                    "at": "2026-09-26T08:00:00.000Z",
                    "note": "",
                    "evidence": [],
                }
            )
            + "\n"
        )
    assert [(f.code, f.line) for f in validate_run(run).findings] == [("version.mixed", 2)]


def test_version_1_review_resolved_without_evidence(tmp_path):
    run = build_v1_run(tmp_path / "v1")
    (run / "reviews.jsonl").write_text(
        json.dumps({"id": "a.b", "status": "resolved", "by": "x", "at": "not-a-time", "evidence": []}) + "\n"
    )
    problems = [f.problem for f in validate_run(run).findings if f.code == "review.shape"]
    assert any("$.evidence" in p for p in problems) and any("not a parseable time" in p for p in problems)


def test_real_rom20_files_read_and_validate(shared_dir: Path, tmp_path):
    run = copy_rom20(shared_dir, tmp_path / "rom20")
    report = validate_run(run)
    assert report.run_version == 1 and report.run_id == "rom20-20260926T063100Z"
    assert report.counts["records"] == 347 and report.counts["calls"] == 165 and report.counts["results"] == 165
    # The trajectory itself is sound; what is reported is what was not copied (task, visibility,
    # import, 11 artifacts) and the absolute Windows evidence paths of the derived run.
    assert not [f for f in report.findings if f.file == "trajectory.jsonl"]
    by_code = report.counts["findings_by_code"]
    assert by_code == {
        "artifacts.missing": 11,
        "document.missing": 1,
        "evidence.path": 7,
        "evidence.normalized.path": 1,
        "imports.missing": 1,
        "task.missing": 1,
    }
    assert all("is absolute" in f.problem for f in report.findings if f.code.startswith("evidence."))
    manifest = RunDir(run).load_manifest()
    assert manifest["harness"]["model"] == "deepseek/deepseek-flash" and len(manifest["artifacts"]) == 11
