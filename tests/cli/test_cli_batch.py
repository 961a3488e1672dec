"""``coldstart audit batch`` and ``coldstart cache``: the real CLI over generated runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from core_helpers import cli

from pytest_coldstart.audit import audit_run
from pytest_coldstart.audit.batch import Outcome, discover, report_dir, worst_exit
from pytest_coldstart.demo.scenarios import build_run

SCENARIOS = ("passing", "pending_reviews", "answer_mismatch")


@pytest.fixture
def labs(tmp_path: Path) -> Path:
    root = tmp_path / "labs"
    for number, name in enumerate(SCENARIOS):
        build_run(root / f"group-{number % 2}" / name, name)
    return root


def test_batch_audits_every_run_once_writes_reports_and_exits_with_the_worst_status(labs: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = cli("audit", "batch", str(labs), "--jobs", "2", "--cache-dir", str(cache), "--json")
    assert first.returncode == 1, first.stderr  # one FAIL among PASS and PENDING
    document = json.loads(first.stdout)
    assert document["runs"] == 3 and document["counts"] == {"FAIL": 1, "PASS": 1, "PENDING": 1}
    assert document["failure_classes"] == {"AGENT_FAIL": 1}
    assert [o["cached"] for o in document["outcomes"]] == [False, False, False]
    assert "[" not in first.stderr  # no progress bar when stderr is not a terminal
    for outcome in document["outcomes"]:
        run = Path(outcome["run"])
        written = json.loads((run / "audit" / "audit.json").read_text())
        assert written == audit_run(run, write=False)  # the report the audit gives, byte for byte in content
        assert outcome["overall"] == written["overall"]
    again = cli("audit", "batch", str(labs), "--cache-dir", str(cache), "--json")
    assert [o["cached"] for o in json.loads(again.stdout)["outcomes"]] == [True, True, True]
    table = cli("audit", "batch", str(labs / "group-0"), "--cache-dir", str(cache), "--jobs", "1")
    assert table.returncode == 1
    assert "audited 2 runs" in table.stdout and "slowest runs" in table.stdout and "AGENT_FAIL" in table.stdout


def test_runs_whose_audit_folder_cannot_be_written_are_reported_into_out(labs: Path, tmp_path: Path) -> None:
    run = labs / "group-0" / "passing"
    (run / "audit").write_text("a file where audit/ would go: the report cannot be written inside the run\n")
    refused = cli("audit", "batch", str(run), "--no-cache")
    assert refused.returncode == 1 and "use --out" in refused.stdout
    out = tmp_path / "reports"
    done = cli("audit", "batch", str(labs / "group-0"), "--no-cache", "--out", str(out))
    assert json.loads((out / "passing" / "audit.json").read_text())["overall"] == "PASS", done.stdout
    assert (out / "answer_mismatch" / "audit.md").is_file()


def test_an_audit_folder_that_is_a_symlink_is_never_written_through(labs: Path, tmp_path: Path) -> None:
    """The run's own ``ln -s /elsewhere audit``: batch refuses it as ``audit run`` does."""
    run, outside = labs / "group-0" / "passing", tmp_path / "outside"
    outside.mkdir()
    shutil.rmtree(run / "audit", ignore_errors=True)
    (run / "audit").symlink_to(outside)
    refused = cli("audit", "batch", str(run), "--no-cache")
    assert refused.returncode == 1 and "symlink" in refused.stdout and "use --out" in refused.stdout
    assert list(outside.iterdir()) == []
    out = tmp_path / "reports"
    done = cli("audit", "batch", str(run), "--no-cache", "--out", str(out))
    assert done.returncode == 0 and (out / "passing" / "audit.json").is_file() and list(outside.iterdir()) == []


def test_usage_errors_exit_64(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    assert cli("audit", "batch", str(tmp_path / "empty")).returncode == 64
    assert cli("audit", "batch", str(tmp_path / "missing")).returncode == 64
    assert cli("audit", "batch", str(tmp_path / "empty"), "--jobs", "0").returncode == 64


def test_cache_info_and_prune(labs: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cli("audit", "batch", str(labs), "--cache-dir", str(cache), "--jobs", "1")
    info = cli("cache", "info", "--cache-dir", str(cache))
    assert info.returncode == 0 and "reports         3" in info.stdout and "current code    3" in info.stdout
    assert "removed 0" in cli("cache", "prune", "--cache-dir", str(cache)).stdout
    assert cli("cache", "prune", "--all", "--cache-dir", str(cache)).returncode == 0
    assert "reports         0" in cli("cache", "info", "--cache-dir", str(cache)).stdout
    assert "empty" in cli("cache", "info", "--cache-dir", str(tmp_path / "none")).stdout


def test_discovery_reports_and_exit_order(labs: Path, tmp_path: Path) -> None:
    shutil.copytree(labs / "group-0", tmp_path / "copy")
    shutil.move(tmp_path / "copy", labs / "group-0" / "passing" / "nested-is-not-searched")
    runs = discover([labs])
    assert [r.name for r in runs] == ["answer_mismatch", "passing", "pending_reviews"]
    run = labs / "group-1" / "pending_reviews"
    assert report_dir(run, [labs], None) == run / "audit"
    assert report_dir(run, [labs], tmp_path / "o") == tmp_path / "o" / "group-1" / "pending_reviews"
    assert worst_exit([0, 2, 0]) == 2 and worst_exit([2, 1, 0]) == 1 and worst_exit([1, 70]) == 70
    assert Outcome("r", None, None, 0.0, False, None, "boom").exit_code == 70
