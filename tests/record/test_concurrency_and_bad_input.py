"""8 processes appending at once (Python API and CLI), the issue's list of bad inputs (each a
one-line error or a validate finding, never a traceback, never losing earlier records), and
fail-closed versions on every reader entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from core_helpers import build_v1_run, cli, edit_json, lines, new_run

from pytest_coldstart.validate.run import validate_run

API_WRITER = """
import sys
from pytest_coldstart.record.recorder import Recorder
run, name, pairs = sys.argv[1], sys.argv[2], int(sys.argv[3])
recorder = Recorder(run)
for i in range(pairs):
    recorder.call(f"{name}-{i}", "bash", {"i": i})
    recorder.result(f"{name}-{i}", "ok", {"text": str(i)})
"""

PAIRS = 25


def test_eight_processes_append_through_the_api_and_the_cli(tmp_path):
    run = new_run(tmp_path / "run", calls=0)
    writers = []
    for n in range(4):
        writers.append(subprocess.Popen([sys.executable, "-c", API_WRITER, str(run), f"api{n}", str(PAIRS)]))
    for n in range(4):
        stream = "".join(
            json.dumps(
                {"record": kind, "call_id": f"cli{n}-{i}", **({"tool": "bash"} if kind == "call" else {"status": "ok"})}
            )
            + "\n"
            for i in range(PAIRS)
            for kind in ("call", "result")
        )
        process = subprocess.Popen(
            [sys.executable, "-m", "pytest_coldstart", "trace", "record", "--run-dir", str(run), "--stdin"],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
        )
        process.stdin.write(stream)
        process.stdin.close()
        writers.append(process)
    assert [w.wait(timeout=300) for w in writers] == [0] * 8
    report = validate_run(run)
    assert report.valid, report.to_text()  # no duplicate seq, no torn line, an unbroken chain
    records = lines(run / "trajectory.jsonl")
    assert [r["seq"] for r in records] == list(range(1, len(records) + 1))
    assert len(records) == 2 + 8 * PAIRS * 2
    for writer in [f"api{n}" for n in range(4)] + [f"cli{n}" for n in range(4)]:
        mine = [r["call_id"] for r in records if r["record"] == "call" and r["call_id"].startswith(writer + "-")]
        assert mine == [f"{writer}-{i}" for i in range(PAIRS)]  # each writer's order is kept


def test_eight_single_call_processes_at_once(tmp_path):
    run = new_run(tmp_path / "run", calls=0)
    processes = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "pytest_coldstart",
                "trace",
                "call",
                "--run-dir",
                str(run),
                "--call-id",
                f"p{n}",
                "--tool",
                "bash",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(8)
    ]
    outputs = [p.communicate(timeout=120) for p in processes]
    assert [p.returncode for p in processes] == [0] * 8, outputs
    seqs = sorted(int(out.split("seq=")[1]) for out, _ in outputs)
    assert seqs == list(range(3, 11))
    assert [f.code for f in validate_run(run).findings] == ["call.no_result"] * 8


# -- bad input ---------------------------------------------------------------------------------


def one_line_error(result, code: int, *words: str) -> str:
    assert result.returncode == code, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    for word in words:
        assert word in result.stderr, result.stderr
    return result.stderr


@pytest.fixture
def run(tmp_path) -> Path:
    return new_run(tmp_path / "run", calls=1)


def unchanged(run: Path, before: bytes) -> None:
    assert (run / "trajectory.jsonl").read_bytes() == before


def test_malformed_json_argument(run):
    before = (run / "trajectory.jsonl").read_bytes()
    one_line_error(
        cli("trace", "call", "--run-dir", str(run), "--call-id", "x", "--tool", "t", "--arguments", "{bad"),
        64,
        "--arguments is not valid JSON",
    )
    one_line_error(
        cli("trace", "record", "--run-dir", str(run), "--json-text", "[1, 2"), 64, "--json-text is not valid JSON"
    )
    one_line_error(
        cli("trace", "mark", "--run-dir", str(run), "--name", "m", "--data", "NaN"), 64, "--data is not valid JSON"
    )
    unchanged(run, before)


def test_wrong_json_types(run):
    before = (run / "trajectory.jsonl").read_bytes()
    one_line_error(
        cli("trace", "record", "--run-dir", str(run), "--json-text", "[1, 2]"), 64, "a record must be a JSON object"
    )
    one_line_error(
        cli("trace", "record", "--run-dir", str(run), "--json-text", '{"record": "call", "call_id": 5, "tool": "t"}'),
        64,
        "needs a non-empty call_id",
    )
    unchanged(run, before)
    (run / "run.json").write_text("[]")
    one_line_error(
        cli("trace", "call", "--run-dir", str(run), "--call-id", "x", "--tool", "t"),
        1,
        "run.json",
        "expected a JSON object",
    )
    assert [f.code for f in validate_run(run).findings] == ["document.malformed"]


def test_non_utf8_bytes(run):
    before = (run / "trajectory.jsonl").read_bytes()
    (run / "run.json").write_bytes(b'{"schemaVersion": 2, "run_id": "\xff"}')
    one_line_error(
        cli("trace", "call", "--run-dir", str(run), "--call-id", "x", "--tool", "t"), 1, "run.json", "not UTF-8"
    )
    unchanged(run, before)
    finding = validate_run(run).findings[0]
    assert finding.file == "run.json" and "not UTF-8" in finding.problem


def test_non_utf8_line_in_the_trajectory_is_a_finding(run):
    with open(run / "trajectory.jsonl", "ab") as handle:
        handle.write(b'{"note": "\xfe\xff"}\n')
    finding = next(f for f in validate_run(run).findings if f.code == "trajectory.malformed")
    assert finding.line == 5 and finding.problem.startswith("not UTF-8")


def test_missing_run_directory(tmp_path):
    for args in (
        ["trace", "call", "--call-id", "x", "--tool", "t"],
        ["trace", "seal"],
        ["trace", "migrate"],
        ["trace", "evidence", "--name", "answer", "--path", "a.json"],
    ):
        one_line_error(
            cli(*args[:2], "--run-dir", str(tmp_path / "nope"), *args[2:]), 1, "run directory does not exist"
        )
    assert not (tmp_path / "nope").exists()


def test_second_init(run):
    before = {p: p.read_bytes() for p in run.rglob("*") if p.is_file()}
    one_line_error(
        cli(
            "trace",
            "init",
            "--run-dir",
            str(run),
            "--run-id",
            "again",
            "--task-text",
            "t",
            "--harness",
            "h",
            "--model",
            "m",
            "--provider",
            "p",
            "--harness-version",
            "1",
        ),
        1,
        "already exists",
    )
    assert {p: p.read_bytes() for p in run.rglob("*") if p.is_file()} == before


def test_duplicate_call_id_and_unknown_call(run):
    before = (run / "trajectory.jsonl").read_bytes()
    one_line_error(
        cli("trace", "call", "--run-dir", str(run), "--call-id", "c0", "--tool", "bash"),
        1,
        "trajectory.jsonl",
        "'c0' is already recorded",
    )
    one_line_error(
        cli("trace", "result", "--run-dir", str(run), "--call-id", "ghost", "--status", "ok"),
        1,
        "result for unknown call id 'ghost'",
    )
    one_line_error(
        cli("trace", "result", "--run-dir", str(run), "--call-id", "c0", "--status", "ok"), 1, "already has a result"
    )
    unchanged(run, before)


def test_non_json_result_is_kept_as_text(run):
    result = cli("trace", "call", "--run-dir", str(run), "--call-id", "c1", "--tool", "bash")
    assert result.returncode == 0
    result = cli(
        "trace", "result", "--run-dir", str(run), "--call-id", "c1", "--status", "ok", "--result", "{not json at all"
    )
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert lines(run / "trajectory.jsonl")[-1]["result"] == {"text": "{not json at all"}
    assert validate_run(run).valid


def test_review_with_no_evidence(run):
    one_line_error(
        cli(
            "trace",
            "review",
            "--run-dir",
            str(run),
            "--id",
            "machine_operated.causality",
            "--status",
            "resolved",
            "--by",
            "alice",
        ),
        64,
        "needs at least one non-blank --evidence",
    )
    one_line_error(
        cli(
            "trace",
            "review",
            "--run-dir",
            str(run),
            "--id",
            "machine_operated.causality",
            "--status",
            "resolved",
            "--by",
            "alice",
            "--evidence",
            " ",
        ),
        64,
        "--evidence",
    )
    assert (run / "reviews.jsonl").read_bytes() == b""
    # Written by hand, the same review is a validate finding.
    (run / "reviews.jsonl").write_text(
        json.dumps(
            {
                "schemaVersion": 2,
                "seq": 1,
                "id": "machine_operated.causality",
                "status": "resolved",
                "by": "alice",
                "at": "2026-09-26T08:00:00.000Z",
                "note": "",
                "evidence": [],
            }
        )
        + "\n"
    )
    assert [f.code for f in validate_run(run).findings] == ["review.shape"]


def test_bad_input_in_a_record_stream_keeps_earlier_records(run):
    stream = (
        json.dumps({"record": "mark", "name": "first"})
        + "\n"
        + "{broken\n"
        + json.dumps({"record": "mark", "name": "never"})
        + "\n"
    )
    result = cli("trace", "record", "--run-dir", str(run), "--stdin", input=stream)
    one_line_error(result, 1, "<stdin>:2")
    assert [r.get("name") for r in lines(run / "trajectory.jsonl")][-1] == "first"
    assert validate_run(run).valid


# -- unknown versions fail closed on every entry point -----------------------------------------


@pytest.fixture
def future_run(run) -> Path:
    edit_json(run / "run.json", lambda d: d.update(schemaVersion=3))
    return run


@pytest.mark.parametrize(
    "args",
    [
        ["call", "--call-id", "x", "--tool", "t"],
        ["result", "--call-id", "c0", "--status", "ok"],
        ["phase", "--phase", "agent", "--actor", "agent"],
        ["mark", "--name", "m"],
        ["record", "--json-text", '{"record": "mark", "name": "m"}'],
        ["decision", "--summary", "s"],
        ["evidence", "--name", "answer", "--path", "task.md"],
        ["review", "--id", "a.b", "--status", "pending", "--by", "x"],
        ["seal"],
        ["migrate"],
    ],
)
def test_future_run_version_is_refused_by_every_writer(future_run, args):
    before = (future_run / "trajectory.jsonl").read_bytes()
    one_line_error(
        cli("trace", args[0], "--run-dir", str(future_run), *args[1:]), 1, "run.json", "schemaVersion 3", "fail closed"
    )
    unchanged(future_run, before)


def test_future_run_version_in_validate(future_run):
    result = cli("trace", "validate", "--run-dir", str(future_run), "--json")
    assert result.returncode == 1 and [f["code"] for f in json.loads(result.stdout)["findings"]] == ["version.unknown"]


@pytest.mark.parametrize("name", ["evidence.json", "visibility.json"])
def test_future_document_versions_in_validate(run, name):
    edit_json(run / name, lambda d: d.update(schemaVersion=99))
    findings = validate_run(run).findings
    assert ("version.unknown", name) in [(f.code, f.file) for f in findings]
    assert "schemaVersion 99" in next(f for f in findings if f.code == "version.unknown").problem


def test_future_record_version_in_validate_and_in_a_version_1_run(run, tmp_path):
    with open(run / "trajectory.jsonl", "a") as handle:
        handle.write(json.dumps({"schemaVersion": 3, "record": "mark"}) + "\n")
    assert ("version.unknown", 5) in [(f.code, f.line) for f in validate_run(run).findings]
    v1 = build_v1_run(tmp_path / "v1")
    edit_json(v1 / "run.json", lambda d: d.update(schema="mc-agent-coldstart-run/2"))
    assert [f.code for f in validate_run(v1).findings] == ["version.unknown"]
