"""A run is audited at most once across commands (audit/verdict.py): the stored report while it
is current, else the shared audit cache, else an audit that fills the cache."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from pytest_coldstart.analysis.audits import audit_of
from pytest_coldstart.audit import engine, verdict
from pytest_coldstart.audit.cache import AuditCache
from pytest_coldstart.cli.main import main
from pytest_coldstart.demo.scenarios import build_run


@pytest.fixture
def audits(monkeypatch) -> list[Path]:
    """Every real audit of the test, by run directory."""
    seen: list[Path] = []
    real = engine._audit

    def counted(root: Path, answer: Any, oracle: Any) -> Any:
        seen.append(root)
        return real(root, answer, oracle)

    monkeypatch.setattr(engine, "_audit", counted)
    return seen


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("COLDSTART_CACHE_DIR", str(directory))
    monkeypatch.delenv("COLDSTART_NO_CACHE", raising=False)
    return directory


def test_a_run_is_audited_once_then_served_from_the_cache(tmp_path: Path, cache_dir: Path, audits) -> None:
    run = build_run(tmp_path / "run", "passing")
    first = audit_of(run)
    second = audit_of(run)
    assert (first.source, second.source) == ("audited", "cached")
    assert first.report == second.report and first.report["overall"] == "PASS"
    assert len(audits) == 1 and list((cache_dir / "audit").rglob("*.json"))
    copy = tmp_path / "elsewhere" / "run"  # content-addressed: a copy is the same entry
    shutil.copytree(run, copy)
    assert audit_of(copy).source == "cached" and len(audits) == 1


def test_fresh_trusts_nothing_on_disk(tmp_path: Path, cache_dir: Path, audits) -> None:
    run = build_run(tmp_path / "run", "passing")
    assert main(["audit", "run", "--run-dir", str(run)]) == 0
    assert audit_of(run).source == "stored"
    assert audit_of(run, fresh=True).source == "audited"
    assert len(audits) == 2


def test_one_changed_byte_is_audited_again_and_judged_on_its_own(tmp_path: Path, cache_dir: Path, audits) -> None:
    run = build_run(tmp_path / "run", "passing")
    assert main(["audit", "run", "--run-dir", str(run)]) == 0
    (run / "answer.json").write_text(json.dumps({"answer": "tampered"}), "utf-8")
    after = audit_of(run)
    assert after.source == "audited" and after.report["overall"] == "FAIL" and len(audits) == 2


def test_audit_run_reuses_the_cache_and_no_cache_audits_again(tmp_path: Path, cache_dir: Path, audits) -> None:
    run = build_run(tmp_path / "run", "passing")
    assert main(["audit", "run", "--run-dir", str(run)]) == 0
    written = (run / "audit" / "audit.json").read_bytes()
    assert main(["audit", "run", "--run-dir", str(run)]) == 0
    assert len(audits) == 1 and (run / "audit" / "audit.json").read_bytes() == written
    assert main(["audit", "run", "--run-dir", str(run), "--no-cache"]) == 0
    assert len(audits) == 2 and (run / "audit" / "audit.json").read_bytes() == written


def test_the_views_after_audit_run_and_summary_audit_nothing(tmp_path: Path, cache_dir: Path, audits, capsys) -> None:
    """summary.json is derived, never an input: writing it leaves the stored report current."""
    run = build_run(tmp_path / "run", "passing")
    assert main(["audit", "run", "--run-dir", str(run)]) == 0
    assert main(["trace", "summary", "--run-dir", str(run)]) == 0
    out = tmp_path / "out"
    out.mkdir()
    for args in (
        ["compare", str(run)],
        ["review", "todo", "--json", str(run)],
        ["report", "--html", str(out / "lab.html"), str(run)],
        ["export", "--format", "atif", "--out", str(out / "run.atif.json"), str(run)],
    ):
        assert main(args) == 0, args
    assert len(audits) == 1
    assert "PASS" in capsys.readouterr().out


def test_an_internal_error_is_never_cached(tmp_path: Path, cache_dir: Path, monkeypatch) -> None:
    run = build_run(tmp_path / "run", "passing")
    monkeypatch.setattr(engine, "_audit", lambda *a: (_ for _ in ()).throw(MemoryError("transient")))
    report, source = verdict.current_report(run)
    assert source == "audited" and any("internal audit error" in p for p in report["infra_errors"])
    assert not list((cache_dir / "audit").rglob("*.json"))
    monkeypatch.undo()
    monkeypatch.setenv("COLDSTART_CACHE_DIR", str(cache_dir))
    assert verdict.current_report(run)[0]["overall"] == "PASS"


def test_an_unusable_cache_costs_time_never_the_verdict(tmp_path: Path, monkeypatch) -> None:
    run = build_run(tmp_path / "run", "passing")
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder should be", "utf-8")
    monkeypatch.setenv("COLDSTART_CACHE_DIR", str(blocked))
    report, source = verdict.current_report(run)
    assert (report["overall"], source) == ("PASS", "audited")
    monkeypatch.setenv("COLDSTART_NO_CACHE", "1")
    assert verdict.default_cache().directory is None


def test_a_missing_run_is_never_keyed(tmp_path: Path, cache_dir: Path) -> None:
    report, source = verdict.audited(tmp_path / "absent", AuditCache(cache_dir))
    assert source == "audited" and report["overall"] == "FAIL" and not (cache_dir / "audit").exists()


def test_hashing_a_run_never_waits_on_a_fifo_or_follows_a_link(tmp_path: Path, cache_dir: Path) -> None:
    """The cache key reads every byte of the run: a FIFO (even one swapped in after the walk
    listed a file) is refused at once, a symlink is keyed by its target text, never followed."""
    from pytest_coldstart.audit import digest

    run = build_run(tmp_path / "run", "passing")
    os.mkfifo(run / "artifacts" / "pipe")
    (run / "artifacts" / "link").symlink_to("/etc/passwd")
    with pytest.raises(OSError):
        digest.file_sha256(run / "artifacts" / "pipe")
    with pytest.raises(OSError):
        digest.file_sha256(run / "artifacts" / "link")
    assert verdict.current_report(run)[1] == "audited" and verdict.current_report(run)[1] == "cached"
