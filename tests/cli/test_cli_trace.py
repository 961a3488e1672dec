"""Every ``coldstart trace`` subcommand through the real CLI (a subprocess), as a user runs it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from core_helpers import build_v1_run, cli, lines

from pytest_coldstart.run import schemas


def ok(result, *words: str) -> str:
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in result.stdout, result.stdout
    return result.stdout


@pytest.fixture(scope="module")
def session_run(tmp_path_factory) -> Path:
    """One run built step by step with the CLI (the tests below read what it produced)."""
    base = tmp_path_factory.mktemp("cli")
    run = base / "run-01"
    (base / "task.md").write_bytes(b"Operate the machine.\n")
    (base / "docs").mkdir()
    (base / "docs" / "guide.md").write_text("# guide\n")
    ok(
        cli(
            "trace",
            "init",
            "--run-dir",
            str(run),
            "--run-id",
            "run-01",
            "--task-file",
            str(base / "task.md"),
            "--harness",
            "pi",
            "--model",
            "m",
            "--provider",
            "p",
            "--harness-version",
            "1",
            "--visible-root",
            str(base / "docs"),
            "--note",
            "fresh session",
            "--created-at",
            "2026-09-26T06:00:00Z",
        ),
        "run run-01 created at 2026-09-26T06:00:00.000Z",
        "visible files 1",
    )
    ok(
        cli("trace", "phase", "--run-dir", str(run), "--phase", "agent", "--actor", "harness", "--instance", "lab-a"),
        "phase seq=3",
    )
    ok(
        cli(
            "trace",
            "call",
            "--run-dir",
            str(run),
            "--call-id",
            "c1",
            "--tool",
            "bash",
            "--arguments",
            '{"command": "javac Logger.java"}',
            "--tick",
            "4",
        ),
        "call seq=4",
    )
    ok(
        cli(
            "trace",
            "result",
            "--run-dir",
            str(run),
            "--call-id",
            "c1",
            "--status",
            "ok",
            "--result",
            '{"text": "compiled"}',
            "--duration-ms",
            "12.5",
        ),
        "result seq=5",
    )
    ok(cli("trace", "call", "--run-dir", str(run), "--call-id", "c2", "--tool", "bash"), "call seq=6")
    ok(
        cli(
            "trace",
            "result",
            "--run-dir",
            str(run),
            "--call-id",
            "c2",
            "--status",
            "error",
            "--result",
            "plain text, not JSON",
            "--error",
            "exit 1",
        ),
        "result seq=7",
    )
    ok(
        cli("trace", "mark", "--run-dir", str(run), "--name", "fixture_ready", "--data", '{"ready": true}'),
        "mark seq=8",
    )
    ok(
        cli(
            "trace",
            "record",
            "--run-dir",
            str(run),
            "--json-text",
            '{"record": "call", "call_id": "c3", "tool": "read", "arguments": {}}',
        ),
        "call seq=9",
    )
    (base / "records.jsonl").write_text(json.dumps({"record": "result", "call_id": "c3", "status": "ok"}) + "\n")
    ok(cli("trace", "record", "--run-dir", str(run), "--json", str(base / "records.jsonl")), "result seq=10")
    ok(
        cli(
            "trace",
            "record",
            "--run-dir",
            str(run),
            "--stdin",
            input=json.dumps({"record": "mark", "name": "from stdin"}) + "\n",
        ),
        "mark seq=11",
    )
    ok(
        cli(
            "trace",
            "decision",
            "--run-dir",
            str(run),
            "--summary",
            "build the logger first",
            "--call-id",
            "c1",
            "--tag",
            "plan",
        ),
        "decision seq=12",
    )
    (base / "logger.jar").write_bytes(b"jar")
    ok(
        cli(
            "trace",
            "artifact",
            "--run-dir",
            str(run),
            "--path",
            str(base / "logger.jar"),
            "--label",
            "agent logger jar",
        ),
        "artifact artifacts/001-logger.jar sha256 ",
    )
    (run / "answer.json").write_text('{"carts": []}')
    ok(
        cli("trace", "evidence", "--run-dir", str(run), "--name", "answer", "--path", "answer.json"),
        "evidence answer answer.json sha256 ",
    )
    ok(
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
            "--note",
            "watched",
            "--evidence",
            "trajectory:c1",
        ),
        "review machine_operated.causality resolved seq=1",
    )
    return run


def test_the_cli_built_run_is_valid(session_run):
    out = ok(cli("trace", "validate", "--run-dir", str(session_run)), "valid: run run-01")
    assert out.count("\n") == 1


def test_validate_json_output_matches_its_schema(session_run):
    document = json.loads(ok(cli("trace", "validate", "--run-dir", str(session_run), "--json")))
    assert document["valid"] is True and document["run_id"] == "run-01" and schemas.errors("validation", document) == []


def test_cli_records_have_the_protocol_fields(session_run):
    records = lines(session_run / "trajectory.jsonl")
    by_seq = {r["seq"]: r for r in records}
    assert by_seq[3]["phase"] == "agent" and by_seq[3]["actor"] == "harness" and by_seq[3]["instance"] == "lab-a"
    assert (
        by_seq[4]["arguments"] == {"command": "javac Logger.java"}
        and by_seq[4]["tick"] == 4
        and by_seq[4]["actor"] == "agent"
    )
    assert by_seq[5]["duration_ms"] == 12.5 and by_seq[5]["result"] == {"text": "compiled"}
    assert (
        by_seq[7]["result"] == {"text": "plain text, not JSON"} and by_seq[7]["error"] == "exit 1"
    )  # protocol: kept as text
    assert by_seq[12]["record"] == "decision" and by_seq[12]["related_call_id"] == "c1"
    manifest = json.loads((session_run / "run.json").read_text())
    assert (
        manifest["created_at_explicit"] is True
        and manifest["notes"] == ["fresh session"]
        and manifest["task"]["source"] == "task.md"
    )


def test_seal_then_validate(session_run, tmp_path):
    import shutil

    run = tmp_path / "sealed"
    shutil.copytree(session_run, run)
    out = ok(cli("trace", "seal", "--run-dir", str(run)), "sealed ", "head ")
    assert "trajectory 16 records" in out
    ok(cli("trace", "validate", "--run-dir", str(run)), "valid:")
    (run / "answer.json").write_text('{"carts": [0]}')
    result = cli("trace", "validate", "--run-dir", str(run))
    assert result.returncode == 1 and "answer.json: sealed file seal.files" in result.stdout


@pytest.mark.parametrize(
    "command, session, calls",
    [(["import-pi"], "pi-v3-basic.jsonl", 6), (["import", "--format", "claude-code"], "claude-code-basic.jsonl", 6)],
)
def test_import_pi_and_import(tmp_path, shared_dir, command, session, calls):
    run = tmp_path / "run"
    ok(
        cli(
            "trace",
            "init",
            "--run-dir",
            str(run),
            "--run-id",
            "imp",
            "--task-text",
            "t",
            "--harness",
            "pi",
            "--model",
            "m",
            "--provider",
            "p",
            "--harness-version",
            "1",
            "--created-at",
            "2026-08-01T00:00:00Z",
        )
    )
    ok(
        cli(
            "trace", *command, "--run-dir", str(run), "--session", str(shared_dir / "corpus/harness-sessions" / session)
        )
    )
    report = json.loads(cli("trace", "validate", "--run-dir", str(run), "--json").stdout)
    assert [f["code"] for f in report["findings"]] == [] and report["counts"]["calls"] == calls


def test_session_older_than_the_run_is_a_validate_finding(tmp_path, shared_dir):
    run = tmp_path / "run"
    ok(
        cli(
            "trace",
            "init",
            "--run-dir",
            str(run),
            "--run-id",
            "late",
            "--task-text",
            "t",
            "--harness",
            "pi",
            "--model",
            "m",
            "--provider",
            "p",
            "--harness-version",
            "1",
            "--created-at",
            "2026-11-01T00:00:00Z",
        )
    )
    ok(
        cli(
            "trace",
            "import-pi",
            "--run-dir",
            str(run),
            "--session",
            str(shared_dir / "corpus/harness-sessions/pi-v3-basic.jsonl"),
        )
    )
    report = json.loads(cli("trace", "validate", "--run-dir", str(run), "--json").stdout)
    before_run = [f for f in report["findings"] if f["code"] == "imports.before_run"]
    assert before_run and all("open the run before the session starts" in f["problem"] for f in before_run)
    assert any("imports/pi-v3-basic.jsonl" in f["problem"] for f in before_run)
    # The step back in time is one finding, at the first imported record.
    assert [f["line"] for f in report["findings"] if f["code"] == "trajectory.at"] == [3]


def test_migrate_through_the_cli(tmp_path):
    run = build_v1_run(tmp_path / "v1")
    ok(cli("trace", "validate", "--run-dir", str(run)), "valid:")
    ok(cli("trace", "migrate", "--run-dir", str(run)), "migrated run ref-01 from version 1 to 2")
    ok(cli("trace", "validate", "--run-dir", str(run)), "valid:")
    again = cli("trace", "migrate", "--run-dir", str(run))
    assert again.returncode == 1 and again.stderr.startswith("coldstart: run.json: run was already migrated")


def test_usage_errors_exit_64(tmp_path):
    for args in (
        ["trace", "validate"],
        ["trace", "call", "--run-dir", str(tmp_path)],
        ["trace", "bogus"],
        ["trace", "result", "--run-dir", "x", "--call-id", "c", "--status", "maybe"],
    ):
        result = cli(*args)
        assert result.returncode == 64 and "Traceback" not in result.stderr, args


def test_validate_of_a_broken_run_exits_1_with_file_line_findings(session_run, tmp_path):
    import shutil

    run = tmp_path / "broken"
    shutil.copytree(session_run, run)
    with open(run / "trajectory.jsonl", "ab") as handle:
        handle.write(b'{"torn": ')
    result = cli("trace", "validate", "--run-dir", str(run))
    assert result.returncode == 1
    assert result.stdout.splitlines()[0].startswith("trajectory.jsonl:16: torn final line")
    result = cli("trace", "validate", "--run-dir", str(tmp_path / "missing"), "--json")
    assert result.returncode == 1 and json.loads(result.stdout)["findings"][0]["code"] == "run.missing"


def test_only_the_requested_subcommand_parser_is_built_and_the_list_is_complete():
    from pytest_coldstart.cli import main, trace

    parser = main.build_parser(["trace"])
    groups = parser._subparsers._group_actions[0].choices
    subcommands = groups["trace"]._subparsers._group_actions[0].choices
    assert list(subcommands) == list(trace.COMMANDS)
    parser = main.build_parser(["trace", "call", "--run-dir", "x"])
    assert list(parser._subparsers._group_actions[0].choices) == ["trace"]
    built = parser._subparsers._group_actions[0].choices["trace"]._subparsers._group_actions[0].choices
    assert list(built) == ["call"]
