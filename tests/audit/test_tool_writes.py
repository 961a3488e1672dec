"""File tools that are no shell (audit/evidence/tool_writes.py): writers by the verbs of their
names (unknown verbs fail closed), paths by the names of their arguments."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence.tool_writes import is_writer, tool_paths, words_of


@pytest.mark.parametrize(
    "tool, arguments, writer",
    [
        ("Write", {"file_path": "a", "content": "x"}, True),
        ("NotebookEdit", {"notebook_path": "a.ipynb", "new_source": "x"}, True),
        ("apply_diff", {"path": "a", "diff": "x"}, True),
        ("delete_file", {"target_file": "a"}, True),
        ("move_file", {"source": "a", "destination": "b"}, True),
        ("text_editor", {"command": "write", "path": "a", "file_text": "x"}, True),  # no known verb
        ("fs_put", {"path": "a", "data": "x"}, True),
        ("text_editor", {"command": "view", "path": "a"}, False),
        ("str_replace_based_edit_tool", {"command": "view", "path": "a"}, False),
        ("Read", {"file_path": "a"}, False),
        ("view_file", {"path": "a"}, False),
        ("Grep", {"pattern": "x", "path": "a"}, False),
        ("Task", {"prompt": "edit a", "description": "x"}, False),  # no path argument
        ("bash", {"command": "cp a b"}, False),  # a shell: its command line is parsed instead
        ("fs", {"op": "write", "p": "a", "data": "x"}, True),  # no known verb, told to write
        ("fs", {"op": "stat", "p": "a"}, False),
    ],
)
def test_a_tool_is_a_writer_by_its_verbs_or_unknown_with_a_path(tool, arguments, writer):
    assert is_writer(tool, arguments) is writer


@pytest.mark.parametrize(
    "arguments, paths",
    [
        ({"file_path": "a", "old_string": "x", "new_string": "y"}, ["a"]),
        ({"source": "a", "destination": "b"}, ["a", "b"]),
        ({"old_path": "a", "new_path": "b"}, ["a", "b"]),
        ({"url": "u", "output_path": "o"}, ["o"]),
        ({"files": [{"path": "a", "content": "x"}, {"path": "b", "content": "y"}]}, ["a", "b"]),
        ({"paths": ["a", "b"], "content": "x"}, ["a", "b"]),
        ({"from": "a", "to": "b"}, ["a", "b"]),
        ({"filePath": "a", "newContent": "x"}, ["a"]),
        ({"content": "path: a", "text": "b", "diff": "c"}, []),
        # a setting is no place: Grep's output_mode "content" is not a folder to search
        ({"pattern": "uuid", "output_mode": "content", "output_format": "json", "path": "w"}, ["w"]),
    ],
)
def test_paths_are_the_values_of_path_named_arguments(arguments, paths):
    assert list(tool_paths(arguments)) == paths


@pytest.mark.parametrize(
    "arguments, paths",
    [
        ({"uri": "file:///run/test/x.jsonl", "content": "{}"}, ["/run/test/x.jsonl"]),
        ({"pathname": "a", "text": "x"}, ["a"]),
        ({"file": {"name": "a"}, "content": "x"}, ["a"]),
        ({"p": "a", "op": "write", "data": "x", "description": "why"}, ["a", "write"]),
        ({"dir": "test", "name": "x.jsonl", "content": "{}"}, ["test", "x.jsonl", "test/x.jsonl"]),
        ({"segments": ["test", "x.jsonl"], "data": "{}"}, ["test", "x.jsonl", "test/x.jsonl"]),
        ({"output_mode": "a", "content": "x"}, ["a"]),  # a writer's every setting may be where it writes
    ],
)
def test_a_writers_every_string_but_content_may_be_its_path(arguments, paths):
    assert list(tool_paths(arguments, any_key=True)) == paths


def test_words_of_a_name():
    assert {"write", "file"} <= words_of("writeFile") and {"notebook", "edit"} <= words_of("NotebookEdit")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=30,
)


@given(tool=st.text(max_size=30), arguments=json_values)
def test_any_tool_and_arguments_classify_without_a_crash(tool, arguments):
    assert isinstance(is_writer(tool, arguments), bool)
    assert all(isinstance(path, str) and path.strip() for path in tool_paths(arguments))
