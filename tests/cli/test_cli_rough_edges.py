"""The CLI's rough edges (issue 17): audits that never create or change what they only read,
help for every option a user must understand, usage errors that show the right usage, and the
shape check of `trace evidence` (a warning while recording; the audit stays the judge)."""

from __future__ import annotations

import json
import shutil
import stat
from pathlib import Path

import pytest
from bundle_helpers import run_cli

from pytest_coldstart.demo.scenarios import build_run


def _state(root: Path) -> dict[str, tuple[bytes, int, float]]:
    """Every file and folder below root: bytes (files), mode, mtime."""
    found = {}
    for path in sorted([root, *root.rglob("*")]):
        info = path.lstat()
        data = path.read_bytes() if path.is_file() and not path.is_symlink() else b""
        found[path.relative_to(root).as_posix()] = (data, info.st_mode, info.st_mtime)
    return found


def test_audit_of_a_missing_run_dir_is_a_usage_error_that_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "labs" / "run-01"
    done = run_cli("audit", "run", "--run-dir", str(missing))
    assert done.returncode == 64, done.stderr
    assert "no such run directory" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "labs").exists()
    # and trace init can still open it afterwards
    init = run_cli(
        "trace", "init", "--run-dir", str(missing), "--run-id", "r", "--task-text", "t",
        "--harness", "pi", "--model", "m", "--provider", "p", "--harness-version", "1",
    )  # fmt: skip
    assert init.returncode == 0, init.stderr


@pytest.mark.parametrize("name", ["passing", "pending_reviews", "tampered_hashes", "late_logger"])
def test_audit_with_out_elsewhere_reads_a_read_only_run_and_changes_nothing(name: str, tmp_path: Path) -> None:
    run = build_run(tmp_path / "run", name)
    for path in [run, *run.rglob("*")]:  # read-only (root may still write: the snapshot is the proof)
        mode = path.stat().st_mode
        path.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    before = _state(run)
    try:
        done = run_cli("audit", "run", "--run-dir", str(run), "--out", str(tmp_path / "reports"), "--json")
        explain = run_cli("audit", "explain", "--run-dir", str(run))
        validate = run_cli("trace", "validate", "--run-dir", str(run))
        assert done.returncode in (0, 1, 2), done.stderr
        assert explain.returncode == 0 and validate.returncode in (0, 1), (explain.stderr, validate.stderr)
        assert json.loads(done.stdout)["run_id"]
        assert (tmp_path / "reports" / "audit.json").is_file()
        assert _state(run) == before
    finally:
        for path in [run, *run.rglob("*")]:
            path.chmod(path.stat().st_mode | stat.S_IWUSR)


def test_options_users_must_understand_have_help() -> None:
    init = run_cli("trace", "init", "--help").stdout
    for option in ("--run-id", "--task-file", "--task-text", "--harness", "--model", "--provider",
                   "--harness-version", "--note", "--experiment-id", "--payload-mode"):  # fmt: skip
        line = next(text for text in init.splitlines() if text.strip().startswith(option))
        described = line.split(option, 1)[1].split(maxsplit=1)
        following = init.splitlines()[init.splitlines().index(line) + 1]
        assert len(described) > 1 or following.startswith(" " * 10), f"trace init {option} has no help"
    explain = run_cli("audit", "explain", "--help").stdout
    assert "Show what the audit would read" in explain
    review = " ".join(run_cli("trace", "review", "--help").stdout.split())
    assert "REQUIRED for --status resolved" in review


@pytest.mark.parametrize(
    "argv, usage",
    [
        (["audit", "run", "--run-dir", "x", "--bogus"], "usage: coldstart audit run"),
        (["trace", "validate", "--run-dir", "x", "--nope", "1"], "usage: coldstart trace validate"),
        (["compare", "runs", "--wat"], "usage: coldstart compare"),
        (["demo", "--out", "x", "--wat"], "usage: coldstart demo"),
    ],
)
def test_a_bad_option_prints_the_usage_of_its_own_command(argv: list[str], usage: str) -> None:
    done = run_cli(*argv)
    assert done.returncode == 64
    assert done.stderr.startswith(usage), done.stderr
    assert "unrecognized arguments" in done.stderr


def test_trace_evidence_warns_about_the_first_problem_and_still_declares(tmp_path: Path) -> None:
    run = build_run(tmp_path / "run", "passing")
    shutil.rmtree(run / "audit", ignore_errors=True)
    manifest = json.loads((run / "run.json").read_text())
    assert manifest.get("status") != "sealed"  # evidence is declared on an open run
    good = run_cli("trace", "evidence", "--run-dir", str(run), "--name", "test_mod", "--path", "test/testmod.jsonl")
    assert good.returncode == 0 and good.stderr == "", good.stderr
    with open(run / "test" / "extra.jsonl", "w", encoding="utf-8") as out:
        out.write('{"event": "end", "tick": 1}\n{"event": "end", "tick": "soon"}\n')
    bad = run_cli("trace", "evidence", "--run-dir", str(run), "--name", "test_mod", "--path", "test/extra.jsonl")
    assert bad.returncode == 0, bad.stderr
    assert bad.stderr.startswith("coldstart: warning: evidence test_mod test/extra.jsonl: line 2: $.tick")
    assert len(bad.stderr.splitlines()) == 1
    assert json.loads((run / "evidence.json").read_text())["test_mod"]["path"] == "test/extra.jsonl"
