"""What one call leaves to the next (audit/evidence/provenance.py, taint.py, identity.py): the
shell session's folder and variables, the links calls made, and files carrying test-side
content; each carried fail closed."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence import expansions
from pytest_coldstart.audit.evidence.identity import Workspace
from pytest_coldstart.audit.evidence.provenance import Provenance, for_evidence

HOME = {"agent": {"cwd": "/home/lab/run", "run_dir": "/home/lab/run"}}
DECLARED = {
    "test_mod": {"path": "test/testmod.jsonl"},
    "oracle": {"path": "oracle.json"},
    "agent_logger": {"path": "agent/romlog.jsonl"},
}


@pytest.fixture
def model(tmp_path: Path) -> Provenance:
    for name in ("test/testmod.jsonl", "oracle.json", "agent/romlog.jsonl", "workspace/x"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x", "utf-8")
    return for_evidence(DECLARED, Workspace(tmp_path, HOME))


def feed(model: Provenance, *commands: str) -> list[set[str]]:
    return [model.feed(f"c{i}", "bash", {"command": c}, True) for i, c in enumerate(commands)]


@pytest.mark.parametrize(
    "commands",
    [
        ("cd test", "cp /tmp/f testmod.jsonl"),
        ("pushd test >/dev/null", "cat /tmp/f > testmod.jsonl"),
        ("export T=test/testmod.jsonl", 'cp /tmp/f "$T"'),
        ("D=test", "cp /tmp/f ${D}/testmod.jsonl"),
    ],
)
def test_a_session_carries_its_folder_and_variables_to_the_next_call(model, commands):
    assert "test_mod" in feed(model, *commands)[-1]


def test_a_folder_left_again_is_not_carried(model):
    assert feed(model, "cd test && make && cd ..", "cp /tmp/f testmod.jsonl")[-1] == set()
    assert model.workspace.starts == [None]


@pytest.mark.parametrize(
    "commands",
    [
        ("cp test/testmod.jsonl /tmp/seen", "cat /tmp/seen >> agent/romlog.jsonl"),
        ("grep x test/testmod.jsonl > workspace/a", "cp workspace/a workspace/b", "cp workspace/b agent/romlog.jsonl"),
        ("ln -s ../test/testmod.jsonl workspace/t", "cat workspace/t >> agent/romlog.jsonl"),
    ],
)
def test_test_side_content_carried_into_the_logger_is_laundered(model, commands):
    feed(model, *commands)
    assert model.laundered.get(f"c{len(commands) - 1}", "").startswith("test_mod")


def test_files_the_agent_made_itself_carry_nothing(model):
    feed(model, "echo hi > workspace/a", "cp workspace/a workspace/b", "cat workspace/b >> agent/romlog.jsonl")
    assert model.laundered == {} and model.taint.carriers == {}


@pytest.mark.parametrize(
    "text, value",
    [
        ('p=test/x.bak; cp a "${p%.bak}"', "test/x"),
        ('p=a/b/c; cp a "${p%%/*}"', "a"),
        ('p=a/b/c; cp a "${p#*/}"', "b/c"),
        ('p=a/b/c; cp a "${p##*/}"', "c"),
        ("p='a b c'; cp a \"${p// //}\"", "a/b/c"),
        ("p='a b c'; cp a \"${p/ //}\"", "a/b c"),
        ("export A=t B=$A/x; cp a $B", "t/x"),
    ],
)
def test_a_variable_is_read_as_its_value_with_its_operator(text, value):
    first = next(expansions.readings(text))
    assert first.endswith((f"cp a {value}", f'cp a "{value}"')), first


@given(st.text(alphabet=st.sampled_from(list("ab=$%#/{}' \";p*")), max_size=120))
def test_any_text_reads_its_variables_without_a_crash_or_a_loop(text):
    out = list(expansions.readings(text, {"p": "a/b"}))
    assert all(isinstance(r, str) for r in out) and len(out) <= 1 + 1 + 32 * 8 + 64


@pytest.mark.parametrize("link", ["ln test/testmod.jsonl workspace/h", "cp -l test/testmod.jsonl workspace/h"])
def test_a_hard_link_carries_later_writes_to_its_origin(model, link):
    assert "test_mod" in feed(model, link, "cat /tmp/f > workspace/h")[-1]


@pytest.mark.parametrize(
    "text",
    [
        'script -qc "cp /tmp/f test/testmod.jsonl" /dev/null',
        'ssh localhost "cp /tmp/f test/testmod.jsonl"',
        'tmux send-keys "cp /tmp/f test/testmod.jsonl" Enter',
        'at now <<< "cp /tmp/f test/testmod.jsonl"',
    ],
)
def test_a_command_string_another_program_runs_is_read(model, text):
    assert "test_mod" in feed(model, text)[-1]
