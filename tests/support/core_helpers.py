"""Builders shared by the core tests: version-2 runs through the real recorder, version-1 runs
in the reference implementation's exact layout (research/reference-notes.md §1), the real
rom20 version-1 files, and a runner for the real ``coldstart`` CLI."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pytest_coldstart.record.recorder import Recorder, init_run
from pytest_coldstart.run.clock import FixedClock

START = datetime(2026, 9, 26, 6, 27, 17, 874000, tzinfo=UTC)
MACHINE = {
    "platform": "test",
    "os": "Linux",
    "os_release": "6",
    "machine": "x86_64",
    "python": "3.11",
    "implementation": "CPython",
    "executable_name": "python3",
}
REPO = {"root": "/repo", "commit": "0" * 40, "branch": "main", "dirty_entries": 0}
TOOL = {"name": "pytest-coldstart", "version": "0.1.0", "commit": None}
HARNESS = {"name": "pi", "version": "0.87.1", "model": "deepseek/deepseek-flash", "provider": "deepseek"}


def clock() -> FixedClock:
    return FixedClock(START)


def new_run(root: Path, run_id: str = "run-01", *, calls: int = 2, **options: Any) -> Path:
    """A valid version-2 run: init plus ``calls`` call/result pairs (deterministic clock)."""
    recorder = init_run(
        root,
        run_id=run_id,
        task_bytes=b"Operate the machine and report the carts.\n",
        task_source="inline",
        harness=HARNESS,
        clock=options.pop("clock", None) or clock(),
        machine=MACHINE,
        repo=REPO,
        tool=TOOL,
        **options,
    )
    for i in range(calls):
        recorder.call(f"c{i}", "bash", {"command": f"echo {i}"})
        recorder.result(f"c{i}", "ok", {"text": str(i)}, duration_ms=1.5)
    return Path(root)


def recorder(root: Path) -> Recorder:
    return Recorder(root, clock=FixedClock(datetime(2026, 9, 26, 7, 0, tzinfo=UTC)))


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def write_lines(path: Path, records: list[dict[str, Any]]) -> None:
    path.write_bytes(
        b"".join(json.dumps(r, separators=(",", ":"), ensure_ascii=False).encode() + b"\n" for r in records)
    )


def rechain(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Recompute ``prev`` for edited version-2 records (so only the intended problem remains)."""
    prev = None
    for record in records:
        record["prev"] = prev
        prev = hashlib.sha256(json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()
    return records


def edit_trajectory(run: Path, change, *, chain: bool = True) -> None:
    records = lines(run / "trajectory.jsonl")
    change(records)
    write_lines(run / "trajectory.jsonl", rechain(records) if chain else records)


def edit_json(path: Path, change) -> None:
    document = json.loads(path.read_text())
    change(document)
    path.write_text(json.dumps(document, indent=2) + "\n")


def codes(report) -> list[str]:
    return [f.code for f in report.findings]


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# -- version 1: the reference implementation's layout ------------------------------------------

V1_RUN = "mc-agent-coldstart-run/1"
V1_TRAJECTORY = "mc-agent-coldstart-trajectory/1"
V1_EVIDENCE = "mc-agent-coldstart-evidence/1"
V1_VISIBILITY = "mc-agent-coldstart-visibility/1"


def _v1_json(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def build_v1_run(root: Path, run_id: str = "ref-01") -> Path:
    """A run exactly as the reference run_trace.py writes it (init, import-pi, artifact, review)."""
    root.mkdir(parents=True)
    task = b"Operate the machine.\n"
    (root / "task.md").write_bytes(task)
    doc = b"# Toolkit\n"
    (root / "visibility/files/docs").mkdir(parents=True)
    (root / "visibility/files/docs/toolkit.md").write_bytes(doc)
    _v1_json(
        root / "visibility.json",
        {
            "schema": V1_VISIBILITY,
            "created_at": "2026-09-26T06:27:17.874Z",
            "cwd": "/repo",
            "roots": ["/repo/docs"],
            "exclude": [".git", "labs"],
            "file_count": 1,
            "files": [
                {
                    "path": "docs/toolkit.md",
                    "size": len(doc),
                    "sha256": sha(doc),
                    "copy": "visibility/files/docs/toolkit.md",
                }
            ],
            "missing": [],
        },
    )
    session = b'{"type":"session","version":3}\n'
    (root / "imports").mkdir()
    (root / "imports/agent-session.jsonl").write_bytes(session)
    jar = b"PK\x03\x04 logger jar"
    (root / "artifacts").mkdir()
    (root / "artifacts/001-logger.jar").write_bytes(jar)
    (root / "agent").mkdir()
    logger = b'{"event":"logger_armed","tick":0}\n'
    (root / "agent/logger.jsonl").write_bytes(logger)
    _v1_json(
        root / "run.json",
        {
            "schema": V1_RUN,
            "run_id": run_id,
            "created_at": "2026-09-26T06:27:17.874Z",
            "repo": {"root": "/repo", "commit": "1deb735", "branch": "main", "dirty_entries": 0},
            "harness": dict(HARNESS),
            "task": {
                "path": "task.md",
                "source": "task-minecart-rom.md",
                "sha256": sha(task),
                "player_uuid": "",
                "note": "exact bytes shown to the agent; no answer or prior solution is part of the run",
            },
            "trajectory": {"path": "trajectory.jsonl"},
            "visibility": {"path": "visibility.json", "file_count": 1},
            "imports": [
                {
                    "source": "/home/op/session.jsonl",
                    "path": "imports/agent-session.jsonl",
                    "sha256": sha(session),
                    "records": 2,
                    "imported_at": "2026-09-26T06:40:00.000Z",
                }
            ],
            "status": "open",
            "notes": ["cold start; fresh session"],
            "artifacts": [
                {
                    "label": "agent logger jar",
                    "source": "/work/logger.jar",
                    "path": "artifacts/001-logger.jar",
                    "sha256": sha(jar),
                    "size": len(jar),
                    "phase": "agent",
                    "at": "2026-09-26T06:43:21.317Z",
                }
            ],
        },
    )
    _v1_json(
        root / "evidence.json",
        {
            "schema": V1_EVIDENCE,
            "note": "declare external artifacts here before the audit; sha256 is checked when present",
            "agent_logger": {"path": "agent/logger.jsonl", "sha256": sha(logger)},
            "test_mod": None,
            "answer": None,
            "oracle": None,
            "fixture": None,
            "restore": None,
            "preflight": None,
        },
    )
    records = [
        {
            "schema": V1_TRAJECTORY,
            "record": "header",
            "run_id": run_id,
            "created_at": "2026-09-26T06:27:17.874Z",
            "harness": dict(HARNESS),
            "seq": 1,
        },
        {
            "schema": V1_TRAJECTORY,
            "record": "phase",
            "run_id": run_id,
            "phase": "prepare",
            "actor": "operator",
            "at": "2026-09-26T06:27:17.981Z",
            "note": "run created",
            "evidence": [f"task:{sha(task)[:12]}", "visibility:1 files"],
            "seq": 2,
        },
        {
            "record": "call",
            "call_id": "c1",
            "tool": "bash",
            "arguments": {"command": "javac LoggerMod.java"},
            "phase": "agent",
            "actor": "agent",
            "schema": V1_TRAJECTORY,
            "run_id": run_id,
            "at": "2026-09-26T06:35:00.000Z",
            "seq": 3,
        },
        {
            "record": "result",
            "call_id": "c1",
            "status": "ok",
            "actor": "agent",
            "result": {"text": "compiled"},
            "schema": V1_TRAJECTORY,
            "run_id": run_id,
            "at": "2026-09-26T06:35:01.000Z",
            "seq": 4,
        },
        {
            "record": "call",
            "call_id": "call_00_pi",
            "tool": "read",
            "arguments": {"path": "agent/logger.jsonl"},
            "phase": "agent",
            "actor": "agent",
            "at": "2026-09-26T06:36:00Z",
            "source": "import:pi",
            "model": "deepseek/deepseek-flash",
            "provider": "deepseek",
            "schema": V1_TRAJECTORY,
            "run_id": run_id,
            "seq": 5,
        },
        {
            "record": "result",
            "call_id": "call_00_pi",
            "status": "ok",
            "actor": "agent",
            "phase": "agent",
            "at": "2026-09-26T06:36:01Z",
            "tool_name": "read",
            "result": {"text": "{...}", "sha256": "0" * 64, "truncated": False},
            "source": "import:pi",
            "schema": V1_TRAJECTORY,
            "run_id": run_id,
            "seq": 6,
        },
        {
            "schema": V1_TRAJECTORY,
            "record": "mark",
            "name": "artifact",
            "actor": "agent",
            "phase": "agent",
            "at": "2026-09-26T06:43:21.317Z",
            "data": {"artifacts": ["artifacts/001-logger.jar"], "sha256": [sha(jar)]},
            "seq": 7,
        },
        {
            "schema": V1_TRAJECTORY,
            "record": "mark",
            "run_id": run_id,
            "name": "review",
            "actor": "reviewer",
            "at": "2026-09-26T07:03:53Z",
            "data": {
                "id": "machine_operated.causality",
                "status": "resolved",
                "by": "reviewer",
                "evidence": ["trajectory:c1"],
            },
            "seq": 8,
        },
    ]
    (root / "trajectory.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8"
    )
    review = {
        "id": "machine_operated.causality",
        "status": "resolved",
        "by": "reviewer",
        "at": "2026-09-26T07:03:53Z",
        "note": "watched the replay",
        "evidence": ["trajectory:c1"],
        "seq": 1,
    }
    (root / "reviews.jsonl").write_text(json.dumps(review, ensure_ascii=False) + "\n", encoding="utf-8")
    return root


def copy_rom20(shared: Path, root: Path) -> Path:
    """The real rom20 version-1 files (run.json, canonical trajectory, evidence.json) in a run dir."""
    source = shared / "corpus/real/rom20-coldstart/trajectory"
    root.mkdir(parents=True)
    shutil.copyfile(source / "run.json", root / "run.json")
    shutil.copyfile(source / "trajectory.canonical.jsonl", root / "trajectory.jsonl")
    shutil.copyfile(source / "evidence.json", root / "evidence.json")
    return root


# -- the real CLI -------------------------------------------------------------------------------


def cli(*args: str, cwd: Path | None = None, input: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "pytest_coldstart", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        input=input,
        env=env,
        timeout=120,
    )
