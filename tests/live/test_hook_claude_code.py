"""``coldstart hook claude-code``: every event kind of Claude Code's hooks, replayed through the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from live_helpers import coldstart, new_run, of_kind, payloads, records, replay

from pytest_coldstart.record.trajectory import lock_for
from pytest_coldstart.run.layout import RunDir


def test_a_whole_session_becomes_calls_results_phases_and_marks(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    replay(run, payloads())
    calls = of_kind(run, "call")
    assert [c["call_id"] for c in calls] == ["toolu_01A", "toolu_01B", "toolu_01C", "toolu_01D", "toolu_01E"]
    assert {c["source"] for c in calls} == {"hook:claude-code"}
    assert all(c["phase"] == "agent" and c["actor"] == "agent" and c["cwd"] == "/home/dev/lab" for c in calls)
    assert calls[0]["tool"] == "Bash" and calls[0]["arguments"] == {"command": "ls -la", "description": "List the lab"}
    results = {r["call_id"]: r for r in of_kind(run, "result")}
    assert {k: r["status"] for k, r in results.items()} == {
        "toolu_01A": "ok", "toolu_01B": "ok", "toolu_01C": "ok", "toolu_01D": "error", "toolu_01E": "ok",
    }  # fmt: skip
    assert "file not found" in json.dumps(results["toolu_01D"]["result"])
    phases = [r for r in of_kind(run, "phase") if r.get("source") == "hook:claude-code"]
    assert [(p["phase"], p["actor"], p["start"]) for p in phases] == [("agent", "harness", "startup")]
    marks = [(m["name"], m["actor"]) for m in of_kind(run, "mark")]
    assert marks == [
        ("human.prompt", "operator"),
        ("harness.notification", "harness"),
        ("context.compact", "harness"),
        ("agent.stop", "harness"),
        ("session.end", "harness"),
    ]
    assert coldstart("trace", "validate", "--run-dir", str(run)).returncode == 0


def test_parallel_calls_answered_out_of_order_pair_by_id(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    replay(run, payloads())
    order = [(r["record"], r["call_id"]) for r in records(run) if r["record"] in ("call", "result")]
    assert order[2:6] == [
        ("call", "toolu_01B"),
        ("call", "toolu_01C"),
        ("result", "toolu_01C"),
        ("result", "toolu_01B"),
    ]


def test_a_result_whose_call_was_never_seen_records_the_call_first(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    post = next(p for p in payloads() if p["hook_event_name"] == "PostToolUse")
    replay(run, [post])
    (call,) = of_kind(run, "call")
    (result,) = of_kind(run, "result")
    assert call["call_id"] == result["call_id"] == post["tool_use_id"] and call["live"] == "late"
    assert call["arguments"] == post["tool_input"]


def test_a_repeated_delivery_is_recorded_once(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    pre, post = payloads()[2:4]
    replay(run, [pre, pre, post, post])
    assert len(of_kind(run, "call")) == 1 and len(of_kind(run, "result")) == 1


def test_without_tool_use_ids_repeated_calls_get_numbered_ids_and_pair_in_order(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    pre, post = (dict(p) for p in payloads()[2:4])
    for p in (pre, post):
        del p["tool_use_id"]
    replay(run, [pre, post, pre, pre, post, post])
    calls = [c["call_id"] for c in of_kind(run, "call")]
    assert len(calls) == 3 and calls[0].startswith("live-") and calls[1:] == [calls[0] + "#2", calls[0] + "#3"]
    assert [r["call_id"] for r in of_kind(run, "result")] == [calls[0], calls[2], calls[1]]
    assert coldstart("trace", "validate", "--run-dir", str(run)).returncode == 0


def test_a_bad_payload_is_a_stderr_line_and_an_error_record_never_a_failure(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    for text in (b"not json", b"[1, 2]", b"", b"\xff\xfe"):
        done = coldstart("hook", "claude-code", "--run-dir", str(run), input=text)
        assert done.returncode == 0 and done.stdout == b""
        assert done.stderr.decode().startswith("coldstart hook claude-code: ") and done.stderr.count(b"\n") == 1
    errors = of_kind(run, "error")
    assert len(errors) == 4 and all(e["fault"] == "harness" and e["source"] == "hook:claude-code" for e in errors)
    # a payload of odd types is still recorded as far as it goes: tool "unknown", a derived id
    replay(run, [{"hook_event_name": "PreToolUse", "tool_use_id": 5, "tool_input": "x"}])
    (call,) = of_kind(run, "call")
    assert call["tool"] == "unknown" and call["call_id"].startswith("live-")
    replay(run, [{"hook_event_name": "SessionEnd", "reason": "exit"}])  # closes what is still open
    (result,) = of_kind(run, "result")
    assert result["call_id"] == call["call_id"] and result["status"] == "open"
    assert coldstart("trace", "validate", "--run-dir", str(run)).returncode == 0


def test_no_run_directory_or_a_sealed_run_never_fails_the_session(tmp_path: Path) -> None:
    pre = payloads()[2]
    done = coldstart("hook", "claude-code", input=json.dumps(pre).encode(), env={"COLDSTART_RUN_DIR": ""})
    assert done.returncode == 0 and b"no run directory" in done.stderr
    missing = tmp_path / "nowhere"
    done = coldstart("hook", "claude-code", "--run-dir", str(missing), input=json.dumps(pre).encode())
    assert done.returncode == 0 and done.stderr and not missing.exists()
    run = new_run(tmp_path)
    assert coldstart("trace", "seal", "--run-dir", str(run)).returncode == 0
    before = (run / "trajectory.jsonl").read_bytes()
    done = coldstart("hook", "claude-code", "--run-dir", str(run), input=json.dumps(pre).encode())
    assert done.returncode == 0 and b"sealed" in done.stderr
    assert (run / "trajectory.jsonl").read_bytes() == before


def test_the_run_dir_comes_from_the_environment(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    replay(None, payloads()[2:4], env={"COLDSTART_RUN_DIR": str(run)})
    assert len(of_kind(run, "call")) == 1


def test_a_held_lock_costs_the_budget_not_the_session(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys,time\nfrom pytest_coldstart.record.trajectory import lock_for\n"
         "from pytest_coldstart.run.layout import RunDir\nwith lock_for(RunDir(sys.argv[1])):\n"
         " print('held', flush=True); time.sleep(30)", str(run)],
        stdout=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        started = time.monotonic()
        done = coldstart(
            "hook", "claude-code", "--run-dir", str(run), "--budget", "1", input=json.dumps(payloads()[2]).encode()
        )
        elapsed = time.monotonic() - started
        assert done.returncode == 0 and b"gave up after 1 s" in done.stderr
        assert elapsed < 15  # bounded by the budget (plus interpreter start), not the 120 s lock timeout
    finally:
        holder.kill()
        holder.wait()
    assert of_kind(run, "call") == []


def test_print_config_gives_a_settings_block_for_every_event(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    done = coldstart("hook", "claude-code", "--run-dir", str(run), "--print-config")
    assert done.returncode == 0
    settings = json.loads(done.stdout)
    hooks = settings["hooks"]
    assert set(hooks) >= {
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "UserPromptSubmit",
        "SessionStart",
        "SessionEnd",
        "Stop",
    }
    command = hooks["PreToolUse"][0]["hooks"][0]["command"]
    assert hooks["PreToolUse"][0]["matcher"] == "*" and "matcher" not in hooks["Stop"][0]
    assert command.endswith(f"hook claude-code --run-dir {run.resolve()}")
    with lock_for(RunDir(run)):
        pass  # the run is untouched and unlocked
    assert of_kind(run, "call") == []


def test_a_refused_trajectory_is_the_one_line_refusal_trace_call_gives(tmp_path: Path) -> None:
    """s35 #7: a sparse trajectory (RefusedFile, an OSError) is named, not an internal error."""
    run = new_run(tmp_path)
    with open(run / "trajectory.jsonl", "wb") as handle:
        handle.truncate(1 << 40)
    event = {"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "Bash", "tool_input": {"command": "ls"}}
    done = coldstart(
        "hook", "claude-code", "--run-dir", str(run), input=json.dumps({**event, "tool_use_id": "t1"}).encode()
    )
    assert done.returncode == 0 and done.stdout == b""  # the hook never fails the session
    err = done.stderr.decode()
    assert "internal error" not in err and err.count("\n") == 1, err
    assert err.startswith("coldstart hook claude-code: ") and "is a sparse file" in err and "refused unread" in err
