"""Programs whose code the run does not hold: which command lines run one, and where."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence.opaque import opaque_runs
from pytest_coldstart.audit.evidence.shell_words import wrapper_folders


@pytest.mark.parametrize(
    "text, program",
    [
        ("python3 fix.py test/x.jsonl", "python3"),
        ("python3.11 -u fix.py test/x.jsonl", "python3.11"),
        ("./fix --in-place test/x.jsonl", "fix"),
        ("bin/fix test/x.jsonl", "fix"),
        ("node tools/fix.js test/x.jsonl", "node"),
        ("go run w.go test/x.jsonl", "go"),
        ("timeout 60 python3 fix.py test/x.jsonl", "python3"),
        ("sudo env A=1 ruby fix.rb test/x.jsonl", "ruby"),
        ("ls; bash run.sh test/x.jsonl", "bash"),
    ],
)
def test_a_program_the_run_does_not_hold_is_opaque(text, program):
    assert [head for head, _ in opaque_runs(text)] == [program]


@pytest.mark.parametrize(
    "text",
    [
        "python3 -c 'print(1)' test/x.jsonl",  # inline code: code_writes reads it
        "perl -pe 1 test/x.jsonl",
        "node -e 'x' test/x.jsonl",
        "python3 -m json.tool test/x.jsonl",
        "cat test/x.jsonl",
        "cp a test/x.jsonl",  # a known program: its own rules
        "./fix",  # handed nothing
        "# python3 fix.py test/x.jsonl",  # a comment runs nothing
        "./oracle.json",  # a path alone (a structured tool's argument)
    ],
)
def test_inline_code_known_programs_and_comments_are_not_opaque(text):
    assert list(opaque_runs(text)) == []


def test_the_command_line_keeps_the_cds_before_it():
    ((_, line),) = opaque_runs("cd workspace && python3 main.py *")
    assert line == "cd workspace ; python3 main.py *"


@pytest.mark.parametrize(
    "words, folders",
    [
        ("env -C test cp a b", ["test"]),
        ("env --chdir=test cp a b", ["test"]),
        ("sudo -u lab -D test cp a b", ["test"]),
        ("cp -C a b", []),
        ("make -C test", []),  # make's own -C is judged by make's rules
    ],
)
def test_wrappers_that_move_their_program(words, folders):
    assert wrapper_folders(words.split()) == folders


@given(st.text(max_size=200))
def test_any_text_is_judged_without_error(text):
    for head, line in opaque_runs(text):
        assert isinstance(head, str) and line
