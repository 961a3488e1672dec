"""Which declared files a call names (``Naming``): resolved paths, and - fail closed, for the
test-side files only - unplaceable paths by base name and globs by what they match."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_coldstart.audit.evidence.identity import Workspace
from pytest_coldstart.audit.evidence.naming import Naming

HOME = {"agent": {"cwd": "/home/lab/run/workspace", "run_dir": "/home/lab/run"}}


@pytest.fixture
def naming(tmp_path: Path) -> Naming:
    (tmp_path / "workspace").mkdir()
    ws = Workspace(tmp_path, HOME)
    keys = {
        "oracle": {ws.run_key("oracle.json")},
        "agent_logger": {ws.run_key("workspace/agent-log.jsonl")},
    }
    return Naming(ws, {k: {v for v in keys[k] if v} for k in keys}, ("oracle",))


@pytest.mark.parametrize(
    "command, named",
    [
        ("cat ../oracle.json", {"oracle"}),
        ("cat ../o?acle*.json", {"oracle"}),  # a glob in the folder that holds it
        ("cd .. && cat *.json", {"oracle"}),
        ("cat $RUN/ora*", {"oracle"}),  # the folder cannot be placed: by name alone
        ("cat */ora*.json", {"oracle"}),  # the folder is itself a glob
        ("cat *.json", set()),  # workspace/ holds no oracle
        ("cat ../*.txt", set()),
        ("cat agent-log.jsonl", {"agent_logger"}),
        ("cat agent-*.jsonl", set()),  # a glob never stands for the agent's own files
        ("echo 2 * 3", set()),
        ("cd .. && echo 2 * 3 && sed -n 1p */", set()),  # a bare * or */: code or prose, no name in it
        ('cat "../ora""cle.json"', {"oracle"}),  # the name the shell joins
        ("cat ../o\\racle.json", {"oracle"}),
    ],
)
def test_what_a_command_names(naming, command, named):
    assert naming.names({"command": command}) == named


def test_a_text_with_no_declared_name_and_no_glob_is_not_tokenised(naming, monkeypatch):
    calls = []
    monkeypatch.setattr(naming.workspace, "tokens", lambda text, wanted=None: calls.append(text) or iter(()))
    naming.names({"command": "ls -la && python3 build.py"})
    assert calls == []
