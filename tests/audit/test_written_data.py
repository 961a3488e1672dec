"""A file tool's text is data: left out of the call's shell reading only where it is kept."""

from __future__ import annotations

from pytest_coldstart.audit.evidence.scripts import MAX_CHARS, MAX_SCRIPTS, Scripts
from pytest_coldstart.audit.evidence.written_data import beside_data

NOTE = {"path": "workspace/NOTES.md", "content": "never `echo x > test/testmod.jsonl`"}


def test_a_write_tools_content_is_left_out():
    assert beside_data("write", NOTE, ["run/workspace/NOTES.md"], Scripts()) == {"path": "workspace/NOTES.md"}


def test_an_edits_added_text_is_left_out_where_no_content_is_given():
    edit = {"file_path": "x.sh", "old_string": "a", "new_string": "echo x > t"}
    assert beside_data("Edit", edit, ["run/x.sh"], Scripts()) == {"file_path": "x.sh", "old_string": "a"}


def test_a_pi_edits_new_text_is_kept_and_left_out():
    edit = {"path": "x.sh", "oldText": "a", "newText": "echo x > t"}
    assert beside_data("edit", edit, ["run/x.sh"], Scripts()) == {"path": "x.sh", "oldText": "a"}


def test_what_is_not_kept_is_read_as_before():
    scripts = Scripts()
    assert beside_data("write", NOTE, [], scripts) is NOTE  # no new file: nothing keeps it
    assert beside_data("write_and_run", NOTE, ["k"], scripts) is NOTE  # it runs too
    assert beside_data("fs", NOTE, ["k"], scripts) is NOTE  # no writing verb
    assert beside_data("bash", {"command": "echo > t"}, ["k"], scripts) == {"command": "echo > t"}
    unknown = {"path": "x.sh", "old": "a", "added": "echo x > t"}  # a key the keeper does not know
    assert beside_data("edit", unknown, ["k"], scripts) is unknown
    long = dict(NOTE, content="x" * (MAX_CHARS // 2 + 1))
    assert beside_data("write", long, ["k"], scripts) is long
    scripts.by_key = {f"k{i}": "" for i in range(MAX_SCRIPTS)}
    assert beside_data("write", NOTE, ["new"], scripts) is NOTE  # no room left to keep it
    assert beside_data("write", NOTE, ["k1"], scripts) == {"path": "workspace/NOTES.md"}  # kept again
