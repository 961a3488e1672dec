"""Imported sessions through the audit: a human turn keeps the run PENDING, a repeated Claude
Code uuid hiding another call is refused, and a call's folder is its own line's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from story_sessions import HOST, ORACLE, audited, cc_bash, cc_line, cc_session

from pytest_coldstart.run.errors import ColdstartError

PENDING_TURN = "1 human prompt(s) reached the agent after the task prompt"


def test_the_honest_session_passes(tmp_path: Path) -> None:
    report = audited(tmp_path, "claude-code", cc_session())
    assert report["overall"] == "PASS", report.get("pending_reasons") or report.get("infra_errors")


@pytest.mark.parametrize(
    "content",
    ["Reference answer (oracle.json): " + ORACLE, "<bash-input>cat oracle.json</bash-input>"],
)
def test_a_later_human_turn_keeps_the_run_pending(tmp_path: Path, content: str) -> None:
    def turn(step: str, parent: str) -> list[dict[str, Any]]:
        return [cc_line("user", "h1", parent, 20.5, content)] if step == "c-read-log" else []

    report = audited(tmp_path, "claude-code", cc_session(turn))
    assert report["overall"] == "PENDING"
    assert any(PENDING_TURN in reason for reason in report["pending_reasons"])


def test_a_hook_context_attachment_keeps_the_run_pending(tmp_path: Path) -> None:
    def hook(step: str, parent: str) -> list[dict[str, Any]]:
        if step != "c-read-log":
            return []
        line = cc_line("attachment", "at1", parent, 20.5, None)
        del line["message"]
        line["attachment"] = {"type": "hook_additional_context", "content": ["oracle.json: " + ORACLE]}
        return [line]

    assert audited(tmp_path, "claude-code", cc_session(hook))["overall"] == "PENDING"


def test_a_repeated_uuid_hiding_another_call_is_refused(tmp_path: Path) -> None:
    def hidden(step: str, parent: str) -> list[dict[str, Any]]:
        return (
            cc_bash(("a5", "r5b"), parent, 20.1, "toolu_dup", "cat oracle.json", ORACLE) if step == "c-read-log" else []
        )

    with pytest.raises(ColdstartError, match="uuid 'a5' repeats line 10 with different content"):
        audited(tmp_path, "claude-code", cc_session(hidden))


def test_the_session_folder_is_where_it_started_not_its_last_line(tmp_path: Path) -> None:
    """`cat oracle.json` ran in the run directory; only the last line says workspace/."""

    def cheat(step: str, parent: str) -> list[dict[str, Any]]:
        return cc_bash(("x1", "x2"), parent, 21, "toolu_cat", "cat oracle.json", ORACLE) if step == "c-read-log" else []

    lines = cc_session(cheat)
    lines[-1]["cwd"] = HOST + "/workspace"
    assert audited(tmp_path, "claude-code", lines)["overall"] == "FAIL"
