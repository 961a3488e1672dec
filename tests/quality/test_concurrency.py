"""8 CLI processes x 500 appends each: unique, increasing seq and an unbroken hash chain."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pytest_coldstart.record.recorder import init_run
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.hashing import sha256_bytes

PROCESSES = 8
APPENDS = 500


@pytest.mark.slow
def test_eight_cli_writers_append_4000_records(tmp_path):
    run = tmp_path / "run"
    init_run(
        run,
        run_id="conc",
        task_bytes=b"t",
        task_source="inline",
        harness={"name": "h", "model": "m", "provider": "p", "version": "1"},
    )
    writers = []
    for n in range(PROCESSES):
        records = "".join(
            json.dumps({"record": "call", "call_id": f"p{n}-{i}", "tool": "bash", "arguments": {"i": i}}) + "\n"
            for i in range(APPENDS)
        )
        process = subprocess.Popen(
            [sys.executable, "-m", "pytest_coldstart", "trace", "record", "--run-dir", str(run), "--stdin"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        writers.append((process, records))
    for process, records in writers:
        process.stdin.write(records)
        process.stdin.close()
    for process, _ in writers:
        out = process.stdout.read()
        assert process.wait() == 0, process.stderr.read()
        assert len(out.splitlines()) == APPENDS
    seqs, call_ids, prev = [], set(), None
    for line in jsonio.iter_jsonl(run / "trajectory.jsonl"):
        record = line.value
        assert record["prev"] == prev
        prev = sha256_bytes(line.raw)
        seqs.append(record["seq"])
        if record["record"] == "call":
            call_ids.add(record["call_id"])
    assert len(call_ids) == PROCESSES * APPENDS
    assert seqs == list(range(1, len(seqs) + 1))
