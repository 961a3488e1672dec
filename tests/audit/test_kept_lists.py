"""Kept files read as lists of names (audit/evidence/kept_lists.py): response files."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence.kept_lists import MAX_RESPONSE_FILES, MAX_WORDS, lists, may_list, spliced

KEPT = {"workspace/args.txt": "-d build\nPeek.java\n", "r.rsp": "-x c ../oracle.json"}
NAMES = {"args.txt", "r.rsp"}


@pytest.mark.parametrize(
    "command, expected",
    [
        ("javac @args.txt", "javac @args.txt -d build Peek.java"),
        ('gcc "@r.rsp" -o x', 'gcc "@r.rsp" -x c ../oracle.json -o x'),
        ("java @/tmp/args.txt && ls", "java @/tmp/args.txt -d build Peek.java && ls"),
        ("npm i @types/node", "npm i @types/node"),  # no kept file of that name
        ("mail user@args.txt", "mail user@args.txt"),  # an address, no response file
    ],
)
def test_a_kept_response_file_is_followed_by_its_words(command, expected):
    assert spliced(command, KEPT, NAMES) == expected


@pytest.mark.parametrize("command", ["javac @args.txt", "gcc '@r.rsp'", "clang -c @r.rsp"])
def test_a_response_file_is_a_list_the_command_reads(command):
    token = "args.txt" if "args" in command else "r.rsp"
    assert may_list(command)
    assert lists(command, token, False)


def test_echo_of_a_name_takes_no_list():
    assert not may_list("echo r.rsp")


@given(st.text(alphabet="@ ar.gstx/\"'", max_size=300))
def test_splicing_is_bounded_and_keeps_the_text(text):
    out = spliced(text, KEPT, NAMES)
    assert out.replace(" -d build Peek.java", "").replace(" -x c ../oracle.json", "") == text
    assert len(out) <= len(text) + MAX_RESPONSE_FILES * (MAX_WORDS * 64 + 1)
