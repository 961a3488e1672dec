"""``coldstart audit run|explain`` end to end, through the real CLI in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pytest_coldstart.demo.scenarios import build_run


def cli(*args, cwd=None):
    done = subprocess.run(
        [sys.executable, "-m", "pytest_coldstart", "audit", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("runs")
    return {
        name: build_run(base / name, name) for name in ("passing", "pending_reviews", "omitted_cart", "unknown_version")
    }


@pytest.mark.parametrize(
    "name, code", [("passing", 0), ("pending_reviews", 2), ("omitted_cart", 1), ("unknown_version", 1)]
)
def test_exit_codes(runs, name, code):
    done = cli("run", "--run-dir", runs[name])
    assert done.returncode == code, done.stderr
    assert done.stdout.startswith("overall: ")
    assert (runs[name] / "audit" / "audit.json").is_file()


def test_json_output_is_the_report(runs, tmp_path):
    done = cli("run", "--run-dir", runs["pending_reviews"], "--json", "--out", tmp_path / "out")
    assert done.returncode == 2
    report = json.loads(done.stdout)
    assert report == json.loads((tmp_path / "out" / "audit.json").read_text())
    assert report["schemaVersion"] == 2 and report["overall"] == "PENDING"
    assert [r["id"] for r in report["required_reviews"]] == [
        "machine_operated.causality",
        "logger_armed_before_activation.running",
        "answer_correct.oracle_independence",
    ]


def test_usage_errors_exit_64(runs):
    assert cli("run").returncode == 64
    done = cli("run", "--run-dir", runs["passing"], "--out", runs["passing"] / "test")
    assert done.returncode == 64 and "inside the run directory" in done.stderr


def test_garbage_run_is_a_report_not_a_traceback(tmp_path):
    (tmp_path / "run.json").write_bytes(b"\x00\xff garbage")
    done = cli("run", "--run-dir", tmp_path)
    assert done.returncode == 1 and "INFRA_ERROR" in done.stdout


def test_answer_override(runs, tmp_path):
    run = build_run(tmp_path / "run", "passing")
    answer = json.loads((run / "answer.json").read_text())
    answer["carts"].pop()
    (run / "alt-answer.json").write_text(json.dumps(answer))
    done = cli("run", "--run-dir", run, "--answer", "alt-answer.json", "--json")
    report = json.loads(done.stdout)
    assert done.returncode == 1 and "omits" in report["flags"][4]["summary"]
    assert any("override" in text for text in report["information"])
    done = cli("run", "--run-dir", run, "--answer", tmp_path / "elsewhere.json", "--json")
    assert done.returncode == 1 and "leaves the run directory" in done.stdout


def test_explain(runs):
    done = cli("explain", "--run-dir", runs["passing"])
    assert done.returncode == 0
    assert "test_mod      test/testmod.jsonl [present sha256=" in done.stdout and "hash ok" in done.stdout
    assert "preflight     (not declared)" in done.stdout


def test_explain_without_a_run_is_one_line(tmp_path):
    done = cli("explain", "--run-dir", tmp_path / "nothing")
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1


def test_hostile_strings_are_escaped_in_the_summary(tmp_path):
    from pytest_coldstart.demo.scenarios import RunBuilder

    b = RunBuilder(tmp_path / "run").passing()
    for record in b.records:
        if record.get("call_id") == "c-actuate":
            record["call_id"] = "c-\x1b[31mred"
    b.reviews[0]["evidence"] = ["trajectory:c-\x1b[31mred", "testmod:seq5"]
    done = cli("run", "--run-dir", b.build())
    assert "\x1b" not in done.stdout and "\\x1b[31mred" in done.stdout
