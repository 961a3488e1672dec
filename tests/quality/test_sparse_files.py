"""Sparse files in a run: ``truncate -s 1T agent/x`` costs the agent nothing and made every
reader spend hours on zeros (the cache key hashed it, validate hashed it against the seal,
the line reader looked for a newline in it, the writers copied it). Each is now refused at
open (``run.holes``) and named; nothing reads past the bytes the run really stores.

Every test here would run for hours on the code before the fix: a terabyte hole at 2 GB/s."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from fuzz_hostile import HostileMutation
from fuzz_strategies import run_files, template, workspace
from test_fuzz_hostile import EXIT_INTERNAL, _cli, judge_everywhere

from pytest_coldstart.record.recorder import Recorder

TERABYTE = 0  # SPARSE_SIZES[0]: 1 TiB
FILES = run_files(template("open"))
#: New files nothing declares; the payload store is strict: any stray file there is a finding.
NEW = ("agent/sparse.jsonl", "artifacts/sparse.jsonl", "sparse.jsonl", "payloads/sparse.jsonl")


def _named(report: dict) -> bool:
    return "sparse file" in json.dumps(report)


@pytest.mark.parametrize("keep_head", [False, True])
@pytest.mark.parametrize("target", FILES)
@pytest.mark.parametrize("name", ["sealed", "open"])
def test_a_sparse_run_file_is_named_and_never_passes(name, target, keep_head):
    with workspace(name) as (run, outside):
        HostileMutation("sparse_file", target, (TERABYTE, keep_head)).apply(run)
        assert (run / target).stat().st_size == 1 << 40
        report = judge_everywhere(run, outside / "report")  # audit, validate, summary, compare, an append
        code, stdout, stderr = _cli("trace", "validate", "--run-dir", str(run))
    assert report["overall"] != "PASS", (target, report["overall"])
    assert _named(report), (target, json.dumps(report)[:2000])
    assert code == 1 and "sparse file" in stdout + stderr, (target, stdout, stderr)


@pytest.mark.parametrize("target", NEW)
@pytest.mark.parametrize("name", ["sealed", "open"])
def test_a_new_sparse_file_costs_nothing_and_changes_only_what_it_should(name, target):
    """Added to a sealed run it is a change (not PASS); in an open run's workspace nothing reads
    it, so the verdict stands - and no command hangs on it."""
    with workspace(name) as (run, outside):
        HostileMutation("sparse_file", target, (TERABYTE, False)).apply(run)
        report = judge_everywhere(run, outside / "report")
        for args in (
            ("audit", "run", "--run-dir", str(run), "--out", str(outside / "out"), "--json"),
            ("compare", str(run)),
            ("export", "--format", "atif", "--out", str(outside / "run.atif.json"), str(run)),
            ("report", "--html", str(outside / "lab.html"), str(run)),
            ("review", "todo", str(run)),
        ):
            code, _, stderr = _cli(*args)
            assert code != EXIT_INTERNAL and "internal error" not in stderr, (args, stderr)
    if name == "sealed" or target.startswith("payloads/"):
        assert report["overall"] != "PASS"
    else:
        assert report["overall"] == "PASS", report["overall"]


def test_pytest_over_a_lab_with_sparse_files_reports_them_as_failures(tmp_path):
    lab = tmp_path / "lab"
    lab.mkdir()
    for name, target in (("sealed", "trajectory.jsonl"), ("open", "oracle.json"), ("sealed", "agent/big.bin")):
        with workspace(name) as (run, _):
            HostileMutation("sparse_file", target, (TERABYTE, True)).apply(run)
            run.rename(lab / f"{name}-{target.replace('/', '-')}")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rA", f"--coldstart-runs={lab}"],
        capture_output=True, text=True, timeout=600, cwd=tmp_path,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 1, output[-3000:]
    assert "INTERNALERROR" not in output and "Traceback" not in output, output[-3000:]
    assert "3 FAIL" in output and "sparse file" in output, output[-3000:]


# -- writers: a sparse source never becomes real bytes in the run ---------------------------


@pytest.fixture
def sparse_source(tmp_path: Path) -> Path:
    source = tmp_path / "source" / "session.jsonl"
    source.parent.mkdir()
    with open(source, "wb") as handle:
        handle.write(b'{"type":"session"}\n')
        handle.truncate(1 << 40)
    return source


def _init(run: Path, *visible: Path) -> Path:
    roots = [a for root in visible for a in ("--visible-root", str(root))]
    code, _, stderr = _cli("trace", "init", "--run-dir", str(run), "--run-id", "sparse", "--task-text", "t",
                           "--harness", "pi", "--model", "m", "--provider", "p", "--harness-version", "1", *roots)  # fmt: skip
    assert code == 0, stderr
    return run


def _stored(run: Path) -> int:
    return sum(p.stat().st_blocks * 512 for p in run.rglob("*") if p.is_file())


def test_an_artifact_or_import_from_a_sparse_source_is_refused_and_writes_nothing(tmp_path, sparse_source):
    run = _init(tmp_path / "run")
    before = (run / "trajectory.jsonl").read_bytes(), (run / "run.json").read_bytes(), _stored(run)
    with pytest.raises(OSError, match="sparse file"):
        Recorder(run).artifact(sparse_source)
    code, _, stderr = _cli("trace", "import-pi", "--run-dir", str(run), "--session", str(sparse_source))
    assert code == 1 and "sparse file" in stderr, stderr
    code, _, stderr = _cli("trace", "artifact", "--run-dir", str(run), "--path", str(sparse_source.parent))
    assert code == 1 and "sparse file" in stderr, stderr
    assert ((run / "trajectory.jsonl").read_bytes(), (run / "run.json").read_bytes()) == before[:2]
    assert not any((run / "artifacts").iterdir()) if (run / "artifacts").exists() else True
    assert _stored(run) < before[2] + (1 << 20)


def test_a_sparse_visible_file_is_recorded_as_skipped_and_a_sparse_run_is_not_sealed(tmp_path, sparse_source):
    (sparse_source.parent / "notes.md").write_text("hello\n")
    run = _init(tmp_path / "run", sparse_source.parent)
    visibility = json.loads((run / "visibility.json").read_text())
    assert [f["path"].rsplit("/", 1)[-1] for f in visibility["files"]] == ["notes.md"]
    assert any("sparse file" in s["reason"] for s in visibility["skipped"]), visibility["skipped"]
    with open(run / "agent.bin", "wb") as handle:
        handle.truncate(1 << 40)
    code, _, stderr = _cli("trace", "seal", "--run-dir", str(run))
    assert code == 1 and "sparse file" in stderr, stderr
    assert json.loads((run / "run.json").read_text()).get("seal") is None
