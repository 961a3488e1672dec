"""A passing story run whose agent calls come from an imported harness session (Claude Code,
Codex or pi), for end-to-end tests of importers through the audit."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from importer_helpers import write_lines

from pytest_coldstart.audit import audit_run
from pytest_coldstart.demo.scenarios import RunBuilder, story
from pytest_coldstart.importers.pipeline import import_session
from pytest_coldstart.record.recorder import Recorder

HOST = "/home/lab/runs/probe"  # the run directory's path on the agent's host
ORACLE = json.dumps(story.oracle("probe"))


def steps() -> list[tuple[str, float, float, str, dict[str, Any], str]]:
    """The story's agent steps: (id, call time, result time, tool, input, result text)."""
    log = story.LOGGER_PATH
    read = "".join(json.dumps(e) + "\n" for e in story.logger_events("probe") if e.get("event") == "cart_observed")
    logger = "final class RomLogger { /* appends romlog.jsonl */ }"
    return [
        ("c-write-logger", 5.0, 5.2, "write", {"path": "workspace/logger/RomLogger.java", "content": logger}, "wrote"),
        ("c-build-logger", 6.0, 6.5, "bash", {"command": "javac -d build workspace/logger/RomLogger.java"}, "built"),
        ("c-start-logger", 7.0, 8.0, "bash", {"command": f"lab start --mod romlogger.jar --log {log}"}, "started"),
        (
            "c-actuate",
            10.0,
            12.0,
            "bridge",
            {"command": "player Romuser use once", "target": "note_block 11,-54,-23"},
            "used",
        ),
        ("c-read-log", 20.0, 20.3, "read", {"path": log}, read),
        ("c-write-answer", 22.0, 22.2, "write", {"path": "answer.json", "content": "{...}"}, "wrote answer.json"),
    ]


def audited(tmp_path: Path, fmt: str, lines: list[dict[str, Any]]) -> dict[str, Any]:
    """Import the session into the passing story without its own agent calls, then audit."""
    builder = RunBuilder(tmp_path / "run", run_id="probe").passing()
    builder.mutate_trajectory(
        lambda recs: [r for r in recs if r["record"] == "phase" and r["phase"] in ("restore", "agent")]
    )
    builder.manifest(agent={"run_dir": HOST})
    run = builder.build()
    import_session(run, fmt, write_lines(tmp_path / "session.jsonl", lines))
    recorder = Recorder(run)
    audit_phase = {
        "record": "phase",
        "phase": "audit",
        "actor": "operator",
        "note": "done",
        "evidence": [],
        "at": story.at(60),
    }
    recorder.appender.append(recorder.prepare(audit_phase))
    report: dict[str, Any] = audit_run(run, write=False)
    return report


# -- Claude Code ---------------------------------------------------------------------------------

CC_TOOLS = {"write": "Write", "bash": "Bash", "read": "Read", "bridge": "mcp__bridge__use"}


def cc_line(kind: str, uuid: str, parent: str | None, t: float, content: Any, cwd: str = HOST) -> dict[str, Any]:
    message = {"role": kind, "content": content}
    if kind == "assistant":
        message.update(model="claude-sonnet-4-6", type="message")
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "cwd": cwd,
        "sessionId": "11111111-2222-4333-8444-555555555555",
        "version": "2.1.90",
        "type": kind,
        "uuid": uuid,
        "timestamp": story.at(t),
        "message": message,
    }


def cc_bash(
    uuids: tuple[str, str], parent: str, t: float, call_id: str, command: str, output: str
) -> list[dict[str, Any]]:
    """A Bash call and its result: two lines with the given uuids."""
    use = [{"type": "tool_use", "id": call_id, "name": "Bash", "input": {"command": command}}]
    result = [{"type": "tool_result", "tool_use_id": call_id, "content": output}]
    return [cc_line("assistant", uuids[0], parent, t, use), cc_line("user", uuids[1], uuids[0], t + 0.1, result)]


def cc_session(extra: Callable[[str, str], list[dict[str, Any]]] | None = None) -> list[dict[str, Any]]:
    """The story as a Claude Code transcript; ``extra(step id, parent uuid)`` adds lines after
    that step's result (chained after it; the next step is chained after the last added)."""
    lines = [cc_line("user", "u0", None, 4.5, "Operate the machine...")]
    parent = "u0"
    for n, (step, called, answered, kind, args, text) in enumerate(steps(), 1):
        tool_input = {"file_path": f"{HOST}/{args['path']}", **args} if "path" in args else dict(args)
        tool_input.pop("path", None)
        use = [{"type": "tool_use", "id": step, "name": CC_TOOLS[kind], "input": tool_input}]
        lines.append(cc_line("assistant", f"a{n}", parent, called, use))
        done = [{"type": "tool_result", "tool_use_id": step, "content": text}]
        lines.append(cc_line("user", f"r{n}", f"a{n}", answered, done))
        parent = f"r{n}"
        for added in extra(step, parent) if extra else []:
            lines.append(added)
            parent = added["uuid"]
    lines.append(cc_line("assistant", "afinal", parent, 23, [{"type": "text", "text": "done"}]))
    return lines
