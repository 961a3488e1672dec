"""Adversarial runs built with the real ``coldstart trace`` CLI, as the judges attack the audit:
a clean PASS base run recorded command by command (the agent working in workspace/, recorded
with ``trace init --agent-cwd``), then one edit each, each audited with ``coldstart audit run``
and its verdict taken from a sentence of the protocol (seed 000)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from core_helpers import cli

from pytest_coldstart.demo.scenarios import story

CALLS = [  # (call id, at, tool, arguments, result text, result at)
    ("c-write-logger", 5.0, "write", {"path": "logger/RomLogger.java", "content": "class RomLogger {}"}, "wrote", 5.2),
    (
        "c-start-logger",
        7.0,
        "bash",
        {"command": "lab start --mod romlogger.jar --log ../agent/romlog.jsonl"},
        "started",
        8.0,
    ),
    ("c-actuate", 10.0, "bridge", {"command": "player Romuser use once"}, "used note block", 12.0),
    ("c-read-log", 20.0, "read", {"path": "../agent/romlog.jsonl"}, None, 20.3),
    ("c-write-answer", 22.0, "write", {"path": "../answer.json"}, "wrote answer.json", 22.2),
]


def ok(result, code: int = 0) -> str:
    assert result.returncode == code, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    return result.stdout


def trace(run: Path, *args: str) -> str:
    return ok(cli("trace", args[0], "--run-dir", str(run), *args[1:]))


def write(run: Path, relative: str, data: bytes) -> None:
    path = run / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def jsonl(events: list[dict]) -> bytes:
    return b"".join(json.dumps(e).encode() + b"\n" for e in events)


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """The clean PASS run, recorded with the CLI only."""
    run = tmp_path_factory.mktemp("adversarial") / "base"
    ok(
        cli(
            "trace", "init", "--run-dir", str(run), "--run-id", "cli-base", "--task-text", "Operate the machine.",
            "--harness", "pi", "--model", "m", "--provider", "p", "--harness-version", "1",
            "--created-at", story.at(0), "--agent-cwd", str(run / "workspace"),
        )
    )  # fmt: skip
    phase = {"record": "phase", "phase": "agent", "actor": "harness", "at": story.at(4)}
    trace(run, "record", "--json-text", json.dumps(phase))
    logger = story.logger_events("cli-base")
    for call_id, at, tool, arguments, text, result_at in CALLS:
        trace(
            run,
            "call",
            "--call-id",
            call_id,
            "--tool",
            tool,
            "--arguments",
            json.dumps(arguments),
            "--at",
            story.at(at),
        )
        text = text or "".join(json.dumps(e) + "\n" for e in logger if e["event"] == "cart_observed")
        trace(
            run,
            "result",
            "--call-id",
            call_id,
            "--status",
            "ok",
            "--result",
            json.dumps({"text": text}),
            "--at",
            story.at(result_at),
        )
    phase = {"record": "phase", "phase": "audit", "actor": "operator", "at": story.at(25)}
    trace(run, "record", "--json-text", json.dumps(phase))
    files = {
        "test_mod": ("test/testmod.jsonl", jsonl(story.testmod_events("cli-base"))),
        "agent_logger": ("agent/romlog.jsonl", jsonl(logger)),
        "answer": ("answer.json", json.dumps(story.answer("cli-base")).encode()),
        "oracle": ("oracle.json", json.dumps(story.oracle("cli-base")).encode()),
        "fixture": ("fixture/ready.json", json.dumps(story.fixture()).encode()),
        "restore": ("restore/verify.json", json.dumps(story.restore()).encode()),
    }
    for name, (relative, data) in files.items():
        write(run, relative, data)
        trace(run, "evidence", "--name", name, "--path", relative)
    for review in story.reviews():
        evidence = [arg for ref in review["evidence"] for arg in ("--evidence", ref)]
        trace(run, "review", "--id", review["id"], "--status", "resolved", "--by", review["by"], *evidence)
    return run


def audit(run: Path, code: int) -> dict:
    return json.loads(ok(cli("audit", "run", "--run-dir", str(run), "--json"), code))


def edited(base: Path, tmp_path: Path) -> Path:
    run = tmp_path / "run"
    shutil.copytree(base, run, symlinks=True)
    return run


def flags(report: dict) -> dict[str, str]:
    return {f["flag"]: f["status"] for f in report["flags"]}


def test_the_cli_base_run_is_a_clean_pass(base):
    report = audit(base, 0)
    assert report["overall"] == "PASS", report
    explained = ok(cli("audit", "explain", "--run-dir", str(base)))
    assert "agent working directory: " + str(base / "workspace") in explained
    assert "trajectory:c-write-answer (agent, write tool)" in explained


def test_an_oracle_copied_from_the_answer_fails(base, tmp_path):
    """ "An oracle copied from the agent's answer fails" (seed §6)."""
    run = edited(base, tmp_path)
    trace(
        run,
        "call",
        "--call-id",
        "c-forge",
        "--tool",
        "bash",
        "--arguments",
        json.dumps({"command": "cp ../answer.json ../oracle.json"}),
    )
    trace(run, "result", "--call-id", "c-forge", "--status", "ok")
    report = audit(run, 1)
    assert report["failure_class"] == "AGENT_FAIL" and flags(report)["answer_correct"] == "FAIL"
    assert "agent call c-forge writes it (cp)" in next(
        f["summary"] for f in report["flags"] if f["flag"] == "answer_correct"
    )
    assert "AGENT_FAIL: oracle evidence is agent-written" in ok(cli("audit", "explain", "--run-dir", str(run)))


def test_the_oracle_declared_at_the_answer_fails(base, tmp_path):
    run = edited(base, tmp_path)
    trace(run, "evidence", "--name", "oracle", "--path", "answer.json")
    report = audit(run, 1)
    assert report["failure_class"] == "AGENT_FAIL" and flags(report)["answer_correct"] == "FAIL"


def test_an_agent_written_test_mod_log_is_infra(base, tmp_path):
    """The test mod is the independent side (seed §5): the agent writing it leaves none."""
    run = edited(base, tmp_path)
    trace(
        run,
        "call",
        "--call-id",
        "c-forge",
        "--tool",
        "bash",
        "--arguments",
        json.dumps({"command": "cd .. && echo '{}' >> ./test//testmod.jsonl"}),
    )
    trace(run, "result", "--call-id", "c-forge", "--status", "ok")
    report = audit(run, 1)
    assert report["failure_class"] == "INFRA_ERROR"
    assert any("test_mod evidence is agent-written" in text for text in report["infra_errors"])


def test_an_unverified_fixture_keeps_the_oracle_pending(base, tmp_path):
    """ "When the fixture is new or unverified, the oracle stays pending" (seed §6)."""
    run = edited(base, tmp_path)
    write(run, "fixture/new.json", b'{"status": "unverified"}')
    trace(run, "evidence", "--name", "fixture", "--path", "fixture/new.json")
    report = audit(run, 2)
    assert (report["overall"], report["failure_class"]) == ("PENDING", None)
    assert flags(report)["answer_correct"] == "PENDING"


def test_a_restore_on_another_instance_is_infra(base, tmp_path):
    """ "test-mod events must not mix instances or dimensions" (seed §5), restore included."""
    run = edited(base, tmp_path)
    trace(run, "phase", "--phase", "restore", "--actor", "restore", "--instance", "lab-b")
    report = audit(run, 1)
    assert report["failure_class"] == "INFRA_ERROR"
    assert any("names instance 'lab-b'" in text for text in report["infra_errors"])


def test_a_review_citing_a_call_that_does_not_exist_keeps_pending(base, tmp_path):
    """ "a well-formed entry whose refs do not resolve keeps the flag PENDING" (seed §5)."""
    run = edited(base, tmp_path)
    trace(
        run,
        "review",
        "--id",
        "machine_operated.causality",
        "--status",
        "resolved",
        "--by",
        "x",
        "--evidence",
        "trajectory:c-nope",
    )
    report = audit(run, 2)
    assert flags(report)["machine_operated"] == "PENDING" and report["review_problems"]


def test_a_read_of_the_test_side_file_of_the_same_name_is_not_a_logger_read(base, tmp_path):
    """Test-side-only observation is a broken run (seed §6): the read names test/romlog.jsonl."""
    run = edited(base, tmp_path)
    write(run, "test/romlog.jsonl", (run / "test/testmod.jsonl").read_bytes())
    trace(run, "evidence", "--name", "test_mod", "--path", "test/romlog.jsonl")
    trace(run, "record", "--json-text", json.dumps({"record": "phase", "phase": "agent", "actor": "harness"}))
    trace(
        run,
        "call",
        "--call-id",
        "c-peek",
        "--tool",
        "read",
        "--arguments",
        json.dumps({"path": "../test/romlog.jsonl"}),
    )
    text = " ".join(f"{c['uuid']} {json.dumps(c['items'])}" for c in story.CARTS)
    trace(run, "result", "--call-id", "c-peek", "--status", "ok", "--result", json.dumps({"text": text}))
    report = audit(run, 0)  # the honest read of agent/romlog.jsonl still stands
    assert report["overall"] == "PASS"
    assert any("read the test mod's own file" in text for text in report["information"])
