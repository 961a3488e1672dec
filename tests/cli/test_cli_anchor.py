"""``coldstart trace seal --ledger/--key`` and ``coldstart audit run --anchor/--ledger/--public-key``
through the real CLI (issue 16.7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from anchor_helpers import openssl_keys, reopen_and_cut, ssh_keys
from core_helpers import cli

from pytest_coldstart.demo.scenarios import build_run
from pytest_coldstart.run import schemas


def _open_run(tmp_path: Path, name: str = "run") -> Path:
    return build_run(tmp_path / name, "passing")


def _seal(run: Path, *extra: str) -> dict:
    done = cli("trace", "seal", "--run-dir", str(run), "--json", *extra)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])


def _audit(run: Path, *extra: str) -> tuple[int, dict]:
    done = cli("audit", "run", "--run-dir", str(run), "--json", *extra)
    assert "Traceback" not in done.stderr
    return done.returncode, json.loads(done.stdout) if done.stdout.strip() else {}


def test_seal_prints_the_anchor_as_its_last_line(tmp_path: Path) -> None:
    run = _open_run(tmp_path)
    done = cli("trace", "seal", "--run-dir", str(run))
    assert done.returncode == 0, done.stderr
    summary, line = done.stdout.splitlines()
    assert summary.startswith("sealed ") and "head " in summary
    printed = json.loads(line)
    assert schemas.errors("anchor", printed) == []
    assert printed["run_id"] == "scenario-passing" and printed["trajectory"]["records"] == 27


def test_a_ledgered_run_passes_and_the_undone_seal_fails(tmp_path: Path) -> None:
    run = _open_run(tmp_path)
    book = tmp_path / "ledger.jsonl"
    printed = _seal(run, "--ledger", str(book))
    entry = json.loads(book.read_text())
    assert {k: v for k, v in entry.items() if k != "appended_at"} == printed
    code, report = _audit(run, "--ledger", str(book))
    assert code == 0 and report["overall"] == "PASS"
    assert any("match the anchor" in i for i in report["information"])
    reopen_and_cut(run)
    assert _audit(run)[0] == 0  # without the anchor the tampered run still passes
    code, report = _audit(run, "--ledger", str(book))
    assert code == 1 and report["overall"] == "FAIL" and report["failure_class"] == "INFRA_ERROR"
    assert any("records were cut after the seal" in e for e in report["infra_errors"])
    assert any("it is no longer sealed" in e for e in report["infra_errors"])
    written = json.loads((run / "audit" / "audit.json").read_text())
    assert written["failure_class"] == "INFRA_ERROR"
    text = cli("audit", "run", "--run-dir", str(run), "--ledger", str(book))
    assert text.returncode == 1 and "infra error: anchor (" in text.stdout


def test_audit_with_an_anchor_line_or_file(tmp_path: Path) -> None:
    run = _open_run(tmp_path)
    printed = _seal(run)
    path = tmp_path / "anchor.json"
    path.write_text(json.dumps(printed) + "\n")
    assert _audit(run, "--anchor", str(path))[0] == 0
    assert _audit(run, "--anchor", json.dumps(printed))[0] == 0
    (run / "trajectory.jsonl").write_bytes((run / "trajectory.jsonl").read_bytes()[:-1] + b" \n")
    code, report = _audit(run, "--anchor", str(path))
    assert code == 1 and any("the trajectory changed after the seal" in e for e in report["infra_errors"])


def test_a_ledger_without_the_run_fails_it(tmp_path: Path) -> None:
    other = _open_run(tmp_path, "other")
    manifest = json.loads((other / "run.json").read_text())
    book = tmp_path / "ledger.jsonl"
    _seal(other, "--ledger", str(book))
    run = build_run(tmp_path / "late", "late_logger")
    _seal(run)
    code, report = _audit(run, "--ledger", str(book))
    assert code == 1 and report["failure_class"] == "INFRA_ERROR"
    assert any(
        f"no anchor for run 'scenario-late-logger' in {book}" in e and manifest["run_id"] in e
        for e in report["infra_errors"]
    )


@pytest.mark.parametrize("maker", [openssl_keys, ssh_keys])
def test_signed_seal_and_verified_audit(tmp_path: Path, maker) -> None:
    private, public = maker(tmp_path)
    run = _open_run(tmp_path)
    book = tmp_path / "ledger.jsonl"
    printed = _seal(run, "--key", str(private), "--ledger", str(book))
    assert printed["signature"]["algorithm"] == "ed25519"
    assert _audit(run, "--ledger", str(book), "--public-key", str(public))[0] == 0
    forged = {**printed, "manifest_sha256": "0" * 64}
    code, report = _audit(run, "--anchor", json.dumps(forged), "--public-key", str(public))
    assert code == 1 and any("does not verify" in e for e in report["infra_errors"])
    _, stranger = maker(tmp_path, "stranger")
    code, report = _audit(run, "--ledger", str(book), "--public-key", str(stranger))
    assert code == 1 and any("not by the given public key" in e for e in report["infra_errors"])


def test_a_bad_key_refuses_before_sealing(tmp_path: Path) -> None:
    run = _open_run(tmp_path)
    bad = tmp_path / "bad.pem"
    bad.write_text("not a key\n")
    done = cli("trace", "seal", "--run-dir", str(run), "--key", str(bad))
    assert done.returncode == 64 and "bad.pem" in done.stderr and "Traceback" not in done.stderr
    assert json.loads((run / "run.json").read_text())["status"] == "open"
    done = cli("trace", "seal", "--run-dir", str(run), "--ledger", str(tmp_path / "no" / "ledger.jsonl"))
    assert done.returncode == 64 and "folder does not exist" in done.stderr
    assert json.loads((run / "run.json").read_text())["status"] == "open"


@pytest.mark.parametrize(
    "args, words",
    [
        (["--anchor", "{"], "malformed JSON"),
        (["--anchor", "absent.json"], "file is missing"),
        (["--ledger", "absent.jsonl"], "does not exist"),
        (["--anchor", "{}", "--ledger", "x.jsonl"], "not allowed with argument"),
        (["--public-key", "k.pub"], "give --anchor or --ledger"),
    ],
)
def test_bad_anchor_options_are_usage_errors(tmp_path: Path, args: list[str], words: str) -> None:
    run = _open_run(tmp_path)
    done = cli("audit", "run", "--run-dir", str(run), *args, cwd=tmp_path)
    assert done.returncode == 64, done.stdout + done.stderr
    assert words in done.stderr and "Traceback" not in done.stderr


def test_an_unknown_ledger_version_fails_closed(tmp_path: Path) -> None:
    run = _open_run(tmp_path)
    printed = _seal(run)
    book = tmp_path / "ledger.jsonl"
    book.write_text(json.dumps({**printed, "schemaVersion": 3}) + "\n")
    done = cli("audit", "run", "--run-dir", str(run), "--ledger", str(book))
    assert done.returncode == 64 and "ledger.jsonl:1" in done.stderr and "schemaVersion 3" in done.stderr
