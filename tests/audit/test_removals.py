"""Removals (audit/evidence/removals.py) count as writes of what they remove; so do a move's
sources (audit/evidence/copies.py) and the files a name known only at run time may be."""

from __future__ import annotations

import pytest
from audit_helpers import written_by_name as written


@pytest.mark.parametrize(
    "command, files",
    [
        ("rm -f test/testmod.jsonl", {"test/testmod.jsonl"}),
        ("rm -rf fixture", {"fixture/ready.json"}),
        ("shred -u oracle.json", {"oracle.json"}),
        ("unlink restore/verify.json", {"restore/verify.json"}),
        ("Remove-Item -Recurse restore", {"restore/verify.json"}),
        ("git rm -q oracle.json", {"oracle.json"}),
        ("git rm -r -q test", {"test/testmod.jsonl"}),  # a folder's tree
        ("git mv -f workspace/testmod.jsonl test", {"test/testmod.jsonl"}),  # the source's name inside a folder
        ("git mv workspace/test .", {"test/testmod.jsonl"}),  # a folder landed over the test folder
        ("git clean -fdx fixture", {"fixture/ready.json"}),
        ("git -C test clean -f", {"test/testmod.jsonl"}),
        ("find . -name testmod.jsonl -delete", {"test/testmod.jsonl"}),
        ("find restore -delete", {"restore/verify.json"}),
        ("find . -name '*.json' -delete", {"fixture/ready.json", "restore/verify.json", "oracle.json"}),
        ("mv oracle.json /tmp/kept.json", {"oracle.json"}),
        ("sudo rm test/testmod.jsonl", {"test/testmod.jsonl"}),
        ("mv test /tmp/", {"test/testmod.jsonl"}),  # a folder moved away: its tree is gone
        ("gio trash test/testmod.jsonl", {"test/testmod.jsonl"}),
        ("mount -t tmpfs tmpfs test", {"test/testmod.jsonl"}),  # a mount hides what the folder holds
    ],
)
def test_a_removal_writes_what_it_removes(declared_ws, command, files):
    assert written(declared_ws, command) == files


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf workspace/build",
        "find workspace -name '*.pyc' -delete",
        "find . -name '*.pyc' -delete",
        "git clean -n",
        "git -C workspace clean -fdx",
        "git rm -r -q workspace/old",
        "git mv -f workspace/notes.md workspace/docs",
        "mv workspace/a workspace/b",
        "rm --help",
        "mv workspace/old /tmp/",
        "gio info test/testmod.jsonl",
        "mount",
    ],
)
def test_removals_elsewhere_write_nothing_declared(declared_ws, command):
    assert written(declared_ws, command) == set()
