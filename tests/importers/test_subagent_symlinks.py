"""A sub-agent transcript reached through a symlink is never read: a symlinked ``<sid>`` or
``<sid>/subagents`` folder may lead out of the session's folder. It is listed as not imported
(the run stays PENDING), and a symlinked transcript file no longer fails the whole import."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from importer_helpers import write_lines
from story_sessions import ORACLE, audited, cc_session
from test_subagent_audit import NEW, SID, sub, task

from pytest_coldstart.importers.claude_subagents import found, transcripts


def _linked_folder(folder: Path, outside: Path) -> None:
    os.symlink(outside, folder / SID)


def _linked_subagents(folder: Path, outside: Path) -> None:
    (folder / SID).mkdir()
    os.symlink(outside, folder / SID / "subagents")


def _linked_file(folder: Path, outside: Path) -> None:
    (folder / SID / "subagents").mkdir(parents=True)
    os.symlink(outside / "agent-a1.jsonl", folder / NEW)


def _linked_old_layout(folder: Path, outside: Path) -> None:
    os.symlink(outside / "agent-a1.jsonl", folder / "agent-a1.jsonl")


@pytest.mark.parametrize(
    ("link", "unread"),
    [
        (_linked_folder, SID),
        (_linked_subagents, f"{SID}/subagents"),
        (_linked_file, NEW),
        (_linked_old_layout, None),
    ],
    ids=["sid-folder", "subagents-folder", "transcript-file", "older-layout-file"],
)
def test_a_transcript_through_a_symlink_is_listed_unread_and_the_run_stays_pending(
    link: Callable[[Path, Path], None], unread: str | None
) -> None:
    lines = cc_session(lambda step, parent: task(parent) if step == "c-read-log" else [])
    with tempfile.TemporaryDirectory() as base:
        folder, outside = Path(base) / "proj", Path(base) / "outside"
        folder.mkdir()
        outside.mkdir()
        write_lines(outside / "agent-a1.jsonl", sub("cat oracle.json", ORACLE))
        link(folder, outside)
        session = folder / "session.jsonl"
        assert transcripts(session, SID) == []
        assert [name for name, _, _ in found(session, SID)] == ([unread] if unread else [])
        report = audited(folder, "claude-code", lines)
    reasons = " ".join(report.get("pending_reasons") or [])
    assert report["overall"] == "PENDING", reasons
    assert "subagent_calls_missing" in reasons
    assert ("unimported_subagents" in reasons) == (unread is not None)


def test_a_regular_transcript_inside_the_folder_is_still_read(tmp_path: Path) -> None:
    (tmp_path / NEW).parent.mkdir(parents=True)
    write_lines(tmp_path / NEW, sub("ls", "x"))
    assert [name for name, _ in transcripts(tmp_path / "session.jsonl", SID)] == [NEW]
