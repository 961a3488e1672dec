"""migrate_run: a version-1 run becomes a valid version-2 run; the original bytes are kept."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from core_helpers import build_v1_run, copy_rom20, edit_json, lines, new_run, recorder

import pytest_coldstart.record.migrate as migrate_module
from pytest_coldstart.record.migrate import migrate_run
from pytest_coldstart.run.errors import ColdstartError, VersionError
from pytest_coldstart.validate.run import validate_run

NAMES = ("run.json", "trajectory.jsonl", "evidence.json", "visibility.json", "reviews.jsonl")


def snapshot(run: Path) -> dict[str, bytes]:
    """Every file's bytes, except the private lock state (.coldstart/)."""
    return {
        str(p.relative_to(run)): p.read_bytes()
        for p in sorted(run.rglob("*"))
        if p.is_file() and ".coldstart" not in p.parts
    }


@pytest.fixture
def v1_run(tmp_path: Path) -> Path:
    return build_v1_run(tmp_path / "v1")


def test_migrated_run_validates_and_keeps_the_originals(v1_run):
    before = {name: (v1_run / name).read_bytes() for name in NAMES}
    old = [json.loads(line) for line in before["trajectory.jsonl"].splitlines()]
    summary = migrate_run(v1_run)
    assert summary.startswith("migrated run ref-01 from version 1 to 2: 8 records")
    report = validate_run(v1_run)
    assert report.valid, report.to_text()
    assert report.run_version == 2
    manifest = json.loads((v1_run / "run.json").read_text())
    origin = manifest["migrated_from"]
    assert origin["version"] == 1 and {f["original"] for f in origin["files"]} == set(NAMES)
    for entry in origin["files"]:
        kept = (v1_run / entry["path"]).read_bytes()
        assert kept == before[entry["original"]]
        assert entry["sha256"] == hashlib.sha256(kept).hexdigest() and entry["size"] == len(kept)
    new = lines(v1_run / "trajectory.jsonl")
    assert [r["seq"] for r in new] == [r["seq"] for r in old]
    assert new[2]["at"] == "2026-09-26T06:35:00.000Z" and new[4]["at"] == "2026-09-26T06:36:00.000Z"  # same instant
    assert all(r["schemaVersion"] == 2 and r["migrated_from"] == 1 and r["monotonic_ms"] is None for r in new)
    assert all(r["run_id"] == "ref-01" for r in new)  # v1 marks without run_id get the run's
    assert new[0]["prev"] is None and all(r["prev"] for r in new[1:])
    assert new[4]["source"] == "import:pi" and new[4]["arguments"] == {"path": "agent/logger.jsonl"}
    review = json.loads((v1_run / "reviews.jsonl").read_text())
    assert review["schemaVersion"] == 2 and review["evidence"] == ["trajectory:c1"]
    assert manifest["task"]["size"] == 21 and manifest["visibility"]["sha256"]


def test_migrated_run_accepts_new_records(v1_run):
    migrate_run(v1_run)
    rec = recorder(v1_run)
    rec.call("after", "bash")
    rec.result("after", "ok")
    assert validate_run(v1_run).valid


def test_tampering_with_a_kept_original_is_found(v1_run):
    migrate_run(v1_run)
    path = v1_run / "originals/trajectory.jsonl"
    path.write_bytes(path.read_bytes().replace(b"javac", b"JAVAC"))
    assert [f.code for f in validate_run(v1_run).findings] == ["migrate.original.hash"]


def test_second_migration_is_refused(v1_run):
    migrate_run(v1_run)
    before = snapshot(v1_run)
    with pytest.raises(ColdstartError, match="already migrated from version 1"):
        migrate_run(v1_run)
    assert snapshot(v1_run) == before


def test_version_2_run_is_refused(tmp_path):
    run = new_run(tmp_path / "v2")
    before = snapshot(run)
    with pytest.raises(ColdstartError, match="already version 2"):
        migrate_run(run)
    assert snapshot(run) == before


def test_unknown_version_fails_closed(v1_run):
    edit_json(v1_run / "run.json", lambda d: (d.pop("schema"), d.update(schemaVersion=5)))
    before = snapshot(v1_run)
    with pytest.raises(VersionError, match="schemaVersion 5"):
        migrate_run(v1_run)
    assert snapshot(v1_run) == before


def test_malformed_version_1_trajectory_changes_nothing(v1_run):
    with open(v1_run / "trajectory.jsonl", "ab") as handle:
        handle.write(b"{broken\n")
    before = snapshot(v1_run)
    with pytest.raises(ColdstartError) as caught:
        migrate_run(v1_run)
    assert caught.value.one_line().startswith("trajectory.jsonl:9: malformed JSON")
    assert snapshot(v1_run) == before and not (v1_run / "originals").exists()


def test_record_without_seq_is_refused(v1_run):
    records = [json.loads(line) for line in (v1_run / "trajectory.jsonl").read_text().splitlines()]
    del records[3]["seq"]
    (v1_run / "trajectory.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    with pytest.raises(ColdstartError, match="seq None is not an integer"):
        migrate_run(v1_run)
    assert not (v1_run / "originals").exists()


def test_record_without_time_takes_the_previous_time_and_says_so(v1_run):
    records = [json.loads(line) for line in (v1_run / "trajectory.jsonl").read_text().splitlines()]
    del records[6]["at"]
    (v1_run / "trajectory.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    migrate_run(v1_run)
    new = lines(v1_run / "trajectory.jsonl")
    assert new[6]["at"] == new[5]["at"] and set(new[6]["missing_reason"]) == {"monotonic_ms", "at"}
    assert validate_run(v1_run).valid


def test_interrupted_migration_resumes_from_the_originals(v1_run, monkeypatch):
    before = {name: (v1_run / name).read_bytes() for name in NAMES}
    real_replace = os.replace

    def crash_on_run_json(src, dst):
        if Path(dst).name == "run.json" and Path(dst).parent == v1_run:
            raise OSError("simulated crash")
        return real_replace(src, dst)

    monkeypatch.setattr(migrate_module.os, "replace", crash_on_run_json)
    with pytest.raises(OSError):
        migrate_run(v1_run)
    monkeypatch.setattr(migrate_module.os, "replace", real_replace)
    # Half done: version-2 trajectory, version-1 run.json, originals kept, no temp file left.
    assert (v1_run / "run.json").read_bytes() == before["run.json"]
    assert not list(v1_run.glob(".*.tmp"))
    migrate_run(v1_run)
    assert validate_run(v1_run).valid
    for name in NAMES:
        assert (v1_run / "originals" / name).read_bytes() == before[name]


def test_evidence_declared_inside_version_1_run_json(v1_run):
    declaration = json.loads((v1_run / "evidence.json").read_text())["agent_logger"]
    (v1_run / "evidence.json").unlink()
    edit_json(v1_run / "run.json", lambda d: d.update(evidence={"agent_logger": declaration}))
    migrate_run(v1_run)
    evidence = json.loads((v1_run / "evidence.json").read_text())
    assert evidence["agent_logger"] == declaration and evidence["schemaVersion"] == 2
    assert validate_run(v1_run).valid


def test_real_rom20_run_migrates(shared_dir, tmp_path):
    run = copy_rom20(shared_dir, tmp_path / "rom20")
    before = validate_run(run).counts["findings_by_code"]
    summary = migrate_run(run)
    assert "347 records" in summary
    report = validate_run(run)
    assert report.run_version == 2
    assert not [f for f in report.findings if f.file == "trajectory.jsonl"]
    # The same document-level problems as before migration (nothing hidden, nothing invented).
    assert report.counts["findings_by_code"] == before
