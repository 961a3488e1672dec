"""Fuzzing every writing command of the CLI on hostile runs (issue 16, the "write mutants").

A run mutated by ``fuzz_hostile`` and ``fuzz_strategies`` is then written to by each command a
harness, a reviewer or an operator runs on it: call, result, phase, mark, record, decision,
artifact, evidence, review (and review resolve), import, the live hook, seal and migrate. None
may exit 70 (an internal error) or print a raw control character: a refusal is a one-line error
naming the file, an append is a whole line. Afterwards the audit still judges the run without
crashing, and a run the writers refused is never PASS where it was not before.
Short profile in the suite; ``COLDSTART_FUZZ=long`` (or a number) runs many more examples.
"""

from __future__ import annotations

import json
from pathlib import Path

from fuzz_strategies import fuzz_settings, template, workspace
from hypothesis import given
from hypothesis import strategies as st
from test_fuzz import judge
from test_fuzz_hostile import EXIT_INTERNAL, TEMPLATES, _cli, hostile_run, raw_controls

SESSIONS = Path(__file__).resolve().parents[1] / "data" / "sessions"
HOOK_EVENT = {
    "hook_event_name": "PreToolUse",
    "session_id": "fuzz-session",
    "tool_name": "Bash",
    "tool_input": {"command": "ls"},
    "tool_use_id": "toolu_fuzz",
    "cwd": "/tmp",
}


def writer_commands(run: Path, outside: Path) -> list[tuple[list[str], str]]:
    r = ["--run-dir", str(run)]
    (outside / "code.py").write_text("print('fuzz')\n", "utf-8")
    (run / "fuzz-note.txt").write_text("a file declared by the fuzz\n", "utf-8")
    record = {"record": "mark", "name": "fuzz-record", "phase": "audit", "actor": "operator"}
    return [
        (["trace", "call", *r, "--call-id", "fuzz-c1", "--tool", "read", "--arguments", '{"path":"x"}'], ""),
        (["trace", "result", *r, "--call-id", "fuzz-c1", "--status", "ok", "--result", '{"text":"y"}'], ""),
        (["trace", "phase", *r, "--phase", "audit", "--actor", "operator"], ""),
        (["trace", "mark", *r, "--name", "fuzz", "--data", '{"k":1}'], ""),
        (["trace", "record", *r, "--json-text", json.dumps(record)], ""),
        (["trace", "decision", *r, "--summary", "fuzz decision", "--call-id", "fuzz-c1"], ""),
        (["trace", "artifact", *r, "--path", str(outside / "code.py"), "--label", "code"], ""),
        (["trace", "evidence", *r, "--name", "preflight", "--path", "fuzz-note.txt"], ""),
        (
            ["trace", "review", *r, "--id", "machine_operated.causality", "--status", "pending", "--by", "fuzz"]
            + ["--evidence", "trajectory:fuzz-c1", "--note", "AWS_SECRET_ACCESS_KEY=abcdefghijklmnop1234"],
            "",
        ),
        (["review", "reject", *r, "--id", "agent_read_log.linkage", "--by", "fuzz", "--evidence", "trajectory:x"], ""),
        (["trace", "import", *r, "--format", "pi", "--session", str(SESSIONS / "pi-v3-basic.jsonl")], ""),
        (["hook", "claude-code", *r], json.dumps(HOOK_EVENT)),
        (["trace", "summary", *r], ""),
        (["trace", "seal", *r], ""),
        (["trace", "migrate", *r], ""),
    ]


@fuzz_settings(10)
@given(data=st.data(), name=st.sampled_from(TEMPLATES))
def test_no_hostile_input_makes_a_writer_exit_70(data, name):
    with hostile_run(data, name) as (run, outside):
        for args, stdin in writer_commands(run, outside):
            code, _, stderr = _cli(*args, stdin=stdin)
            assert code != EXIT_INTERNAL and "internal error" not in stderr, (args, stderr[-500:])
            assert not raw_controls(stderr), (args, stderr[-500:])
        judge(run)  # the audit and validate still judge what the writers left


def test_the_writers_really_write_on_an_unmutated_run():
    """Guard against a vacuous fuzz: on the intact open template every writer but migrate
    (a version-2 run has nothing to migrate) succeeds or, for the hook, exits 0."""
    assert template("open").is_dir()
    with workspace("open") as (run, outside):
        before = (run / "trajectory.jsonl").read_bytes().count(b"\n")
        failed = []
        for args, stdin in writer_commands(run, outside):
            code, _, stderr = _cli(*args, stdin=stdin)
            if code != 0 and args[:2] != ["trace", "migrate"]:
                failed.append((args[:2], code, stderr[-300:]))
        after = (run / "trajectory.jsonl").read_bytes().count(b"\n")
    assert not failed, failed
    assert after > before + 6, (before, after)
