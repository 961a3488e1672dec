"""File tools that search a folder or read by a pattern (audit/evidence/tool_reads.py)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence.tool_reads import MAX_READS, is_search, tool_reads, without_filters
from pytest_coldstart.audit.evidence.tool_writes import words_of


@pytest.mark.parametrize(
    "tool",
    [
        "Grep",
        "grep_search",
        "search_files",
        "codebase_search",
        "semantic_search",
        "search_file_content",
        "find_in_files",
    ],
)
def test_content_searches_are_told_by_their_names(tool):
    assert is_search(words_of(tool))


@pytest.mark.parametrize("tool", ["Glob", "file_search", "find_files", "web_search", "search_docs", "Read", "LS"])
def test_name_matches_and_searches_elsewhere_are_no_content_search(tool):
    assert not is_search(words_of(tool))


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("Grep", {"pattern": "uuid"}, [(".", "*", True)]),
        ("Grep", {"pattern": "uuid", "path": "test", "glob": "*.jsonl"}, [("test", "*.jsonl", True)]),
        ("search_files", {"path": "src", "regex": "x", "file_pattern": "*.py"}, [("src", "*.py", True)]),
        ("grep_search", {"query": "x", "includePattern": "**/*.json"}, [(".", "*.json", True)]),
        ("read_many_files", {"paths": ["*", "docs/*.md"]}, [(".", "*", True), ("docs", "*.md", True)]),
        ("Read", {"file_path": "notes.md"}, []),  # a path, not a pattern: naming resolves it
        ("Glob", {"pattern": "**/*.json"}, []),  # names only
        ("mcp__filesystem__search_files", {"path": ".", "pattern": "oracle"}, []),  # MCP's matches names
        ("Grep", "not an object", []),
    ],
)
def test_what_a_tool_reads_whole(tool, arguments, expected):
    assert list(tool_reads(tool, arguments)) == expected


def test_a_searchs_file_filter_is_no_name_in_the_working_directory():
    assert without_filters("Grep", {"pattern": "u", "glob": "*.json", "path": "w"}) == {"pattern": "u", "path": "w"}
    assert without_filters("Read", {"glob": "*.json"}) == {"glob": "*.json"}


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("Grep", {"pattern": "uuid"}, {"oracle", "test_mod"}),
        ("Grep", {"pattern": "uuid", "path": "test"}, {"test_mod"}),
        ("Grep", {"pattern": "uuid", "path": "workspace", "glob": "*.json"}, set()),
        ("codebase_search", {"query": "carts"}, {"oracle", "test_mod"}),
        ("read_many_files", {"paths": ["*"]}, {"oracle", "test_mod"}),
        ("read_many_files", {"paths": ["workspace/*"]}, set()),
    ],
)
def test_the_naming_takes_a_tools_folder_read_where_the_call_runs(model, tool, arguments, expected):
    raw = json.dumps({"tool": tool, "arguments": arguments}).lower().encode()
    assert model.may_matter(raw, tool)  # the cheap scan lets the call through to the naming
    assert model.names(arguments, tool) == expected


_NAMES = st.text(alphabet=st.sampled_from(list("abcdefgilnoprstuwxyzGRS_-")), max_size=24)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(_NAMES, st.dictionaries(st.text(max_size=16), _VALUES, max_size=6))
def test_any_tool_and_arguments_are_read_without_error(tool, arguments):
    found = list(tool_reads(tool, arguments))
    assert len(found) <= MAX_READS
    assert all(isinstance(folder, str) and isinstance(pattern, str) for folder, pattern, _ in found)
    assert isinstance(without_filters(tool, arguments), dict)
