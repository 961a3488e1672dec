"""Crash safety: writers killed with SIGKILL mid-storm lose nothing that was acknowledged."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pytest_coldstart.record.recorder import Recorder, init_run
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.hashing import sha256_bytes
from pytest_coldstart.validate.run import validate_run

WRITER = """
import sys
from pytest_coldstart.record.recorder import Recorder
recorder = Recorder(sys.argv[1])
name = sys.argv[2]
for i in range(100000):
    written = recorder.call(f"{name}-{i}", "bash", {"command": "echo " + "x" * (i % 300)})
    sys.stdout.write(f"{written['call_id']} {written['seq']}\\n")
    sys.stdout.flush()
"""


def new_run(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    init_run(
        run,
        run_id="crash",
        task_bytes=b"task",
        task_source="inline",
        harness={"name": "h", "model": "m", "provider": "p", "version": "1"},
    )
    return run


def count_lines(path: Path) -> int:
    with open(path, "rb") as handle:
        return sum(1 for _ in handle)


def wait_for_lines(path: Path, at_least: int, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while count_lines(path) < at_least:
        assert time.monotonic() < deadline, "writers made no progress"
        time.sleep(0.05)


def chain_problems(path: Path) -> list[str]:
    problems, prev, last_seq = [], None, 0
    for line in jsonio.iter_jsonl(path):
        record = line.value
        if record["prev"] != prev:
            problems.append(f"line {line.number}: chain broken")
        if record["seq"] <= last_seq:
            problems.append(f"line {line.number}: seq not increasing")
        prev, last_seq = sha256_bytes(line.raw), record["seq"]
    return problems


@pytest.mark.slow
def test_sigkill_writers_mid_storm_lose_no_acknowledged_record(tmp_path):
    run = new_run(tmp_path)
    rng = random.Random(7)
    acknowledged: dict[str, int] = {}
    for round_number in range(3):
        writers = [
            subprocess.Popen(
                [sys.executable, "-c", WRITER, str(run), f"r{round_number}w{n}"], stdout=subprocess.PIPE, text=True
            )
            for n in range(4)
        ]
        # Kill at a random moment once the storm is really under way (load-independent).
        wait_for_lines(run / "trajectory.jsonl", at_least=count_lines(run / "trajectory.jsonl") + 40)
        time.sleep(rng.random() * 0.3)
        for writer in writers:
            os.kill(writer.pid, signal.SIGKILL)
        for writer in writers:
            out, _ = writer.communicate()
            for line in out.splitlines():
                parts = line.split()
                if len(parts) == 2:  # a half-printed acknowledgement is not an acknowledgement
                    acknowledged[parts[0]] = int(parts[1])
    assert len(acknowledged) > 50, "the writers should have made progress before being killed"
    on_disk = {}
    for line in jsonio.iter_jsonl(run / "trajectory.jsonl"):
        if line.value["record"] == "call":
            on_disk[line.value["call_id"]] = line.value["seq"]
    missing = [call_id for call_id in acknowledged if call_id not in on_disk]
    assert missing == []
    assert all(on_disk[call_id] == seq for call_id, seq in acknowledged.items())
    assert chain_problems(run / "trajectory.jsonl") == []
    # The runs' calls have no results (the writers were killed), which validate reports;
    # but no structural finding about lines, seq or the chain.
    structural = [f for f in validate_run(run).findings if "result" not in f.problem]
    assert structural == []
    # The run is still writable after the crashes.
    Recorder(run).call("after-crash", "bash")


def test_torn_final_line_is_named_by_validate_and_refused_by_appends(tmp_path):
    run = new_run(tmp_path)
    recorder = Recorder(run)
    for i in range(5):
        recorder.call(f"c{i}", "bash")
        recorder.result(f"c{i}", "ok")
    path = run / "trajectory.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    full = len(lines)
    # Simulate a crash in the middle of writing one more line.
    with open(path, "ab") as handle:
        handle.write(b'{"schemaVersion":2,"run_id":"crash","seq":13,"at":"2026-')
    report = validate_run(run)
    assert not report.valid
    torn = [f for f in report.findings if "torn" in f.problem]
    assert len(torn) == 1 and torn[0].line == full + 1
    with pytest.raises(Exception) as caught:
        Recorder(run).call("c-new", "bash")
    assert "torn" in str(caught.value)
    # Nothing before the torn line was touched.
    assert path.read_bytes().splitlines(keepends=True)[:full] == lines
