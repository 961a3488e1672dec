"""One call's judgement stays linear in its text: per folder the session may be in and per name
it writes, nothing is redone for the whole text (cds x globs and runtime names x text were
quadratic: a 20 KB command took 6.4 s). Where a bound is reached, the analysis reads more
fail closed, never less."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_coldstart.audit.evidence import provenance
from pytest_coldstart.audit.evidence.identity import MAX_CWD_PARTS, MAX_CWDS, UNKNOWN_CWD, Workspace
from pytest_coldstart.audit.evidence.naming import Naming

HOME = {"agent": {"cwd": "/home/lab/run/workspace", "run_dir": "/home/lab/run"}}
DECLARED = {"oracle": {"path": "oracle.json"}, "test_mod": {"path": "test/testmod.jsonl"}}


@pytest.fixture
def model(tmp_path: Path) -> provenance.Provenance:
    for declaration in DECLARED.values():
        (tmp_path / declaration["path"]).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / declaration["path"]).write_text("x", "utf-8")
    return provenance.for_evidence(DECLARED, Workspace(tmp_path, HOME))


def test_past_max_cwds_a_text_is_also_read_as_anywhere(tmp_path: Path):
    ws = Workspace(tmp_path, HOME)
    few = ws.cwds("; ".join(f"cd /srv/d{i}" for i in range(MAX_CWDS - 2)))
    assert UNKNOWN_CWD not in few and len(few) == MAX_CWDS - 1
    many = ws.cwds("; ".join(f"cd /srv/d{i}" for i in range(10 * MAX_CWDS)))
    assert len(many) == MAX_CWDS and many[-1] == UNKNOWN_CWD and many[:2] == [None, "/srv/d0"]


def test_a_cwd_deeper_than_max_cwd_parts_is_unknown(tmp_path: Path):
    ws = Workspace(tmp_path, HOME)
    assert ws.moved("cd a", "/x" + "/a" * (MAX_CWD_PARTS - 2)) == "/x" + "/a" * (MAX_CWD_PARTS - 1)
    assert ws.moved("cd a", "/x" + "/a" * MAX_CWD_PARTS) == UNKNOWN_CWD


@pytest.mark.parametrize(
    "command",
    [
        "cd \"$RUN_DIR/test\" && python3 -c \"open('testmod.jsonl', 'a').write('{}')\"",
        "cd $T; node -e \"require('fs').appendFileSync('testmod.jsonl', '{}')\"",
        # more folders than are followed: the last ones are anywhere
        "".join(f"cd /srv/d{i}; " for i in range(MAX_CWDS + 3)) + "python3 -c \"open('testmod.jsonl', 'a')\"",
        "cd a; " * (MAX_CWD_PARTS + 5) + "python3 -c \"open('testmod.jsonl', 'a')\"",
    ],
)
def test_code_writing_after_a_cd_the_audit_cannot_place_reaches_the_file_by_name(model, command):
    assert "test_mod" in model.feed("c1", "bash", {"command": command}, True)


def test_an_own_file_written_from_code_after_such_a_cd_names_no_declaration(model):
    assert model.feed("c1", "bash", {"command": "cd $W && python3 -c \"open('notes.txt', 'w')\""}, True) == set()


def test_the_names_a_text_hands_its_runtime_names_are_judged_once_per_text(model, monkeypatch):
    calls: list[str] = []
    real = Naming.reached_by_text

    def counted(self: Naming, text: str, *args: object, **kwargs: object) -> list[str]:
        calls.append(text)
        return real(self, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Naming, "reached_by_text", counted)
    command = 'for f in ../test/*; do cp a "$f"; done; ' * 200
    assert "test_mod" in model.feed("c1", "bash", {"command": command}, True)
    assert len(calls) == 1


def test_code_that_changes_its_own_directory_adds_that_folder_and_keeps_the_shells(tmp_path: Path):
    ws = Workspace(tmp_path, HOME)
    found = ws.cwds("python3 -c \"import os; os.chdir('/srv/x'); open('a', 'w')\"; cat b")
    assert None in found and "/srv/x" in found
    many = ws.after('node -e "' + "; ".join(f"process.chdir('/srv/d{i}')" for i in range(50)) + '"', [None])
    assert len(many) <= 4 and many[-1] == UNKNOWN_CWD  # bounded: past the cap, anywhere
