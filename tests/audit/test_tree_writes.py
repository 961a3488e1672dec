"""Writes of a whole folder (audit/evidence/tree_writes.py): archive extraction, recursive copies
and moves, copies into a folder, and git commands that rewrite the working tree."""

from __future__ import annotations

import pytest
from audit_helpers import DECLARED_FILES
from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence.identity import Workspace
from pytest_coldstart.audit.evidence.shell_writes import shell_writes
from pytest_coldstart.audit.evidence.tree_writes import TREE, expand

DECLARED = DECLARED_FILES


@pytest.fixture
def ws(declared_ws: Workspace) -> Workspace:
    return declared_ws  # conftest.py: the declared files and a workspace of the agent's


def written(ws: Workspace, command: str) -> set[str]:
    """The declared run files ``command`` writes, as run-relative paths."""
    declared = {k for k in (ws.run_key(p) for p in DECLARED) if k is not None}
    writes = expand(shell_writes(command, ws, None, lambda target: []), declared)
    return {ws.inside(key) or key for key, _, _ in writes if key in declared}


@pytest.mark.parametrize(
    "command, files",
    [
        ("tar -xf /tmp/t.tar -C test", {"test/testmod.jsonl"}),
        ("tar xzf /tmp/t.tgz --directory=fixture", {"fixture/ready.json"}),
        ("bsdtar -x -f /tmp/t.tar -Crestore", {"restore/verify.json"}),
        ("cd test && tar -xf /tmp/t.tar", {"test/testmod.jsonl"}),
        ("unzip -o /tmp/t.zip -d test", {"test/testmod.jsonl"}),
        ("7z x /tmp/t.7z -ofixture", {"fixture/ready.json"}),
        ("cd restore; cpio -idv < /tmp/t.cpio", {"restore/verify.json"}),
        ("cp -r /tmp/prepared/fixture .", {"fixture/ready.json"}),
        ("cp -a /tmp/prepared/test ./", {"test/testmod.jsonl"}),
        ("rsync -a /tmp/r/ restore/", {"restore/verify.json"}),
        ("mv /tmp/t/testmod.jsonl test", {"test/testmod.jsonl"}),
        ("cd test && cp /tmp/testmod.jsonl .", {"test/testmod.jsonl"}),
        ("cp --target-directory=fixture /tmp/ready.json", {"fixture/ready.json"}),
        ("cp -tfixture /tmp/ready.json", {"fixture/ready.json"}),
        ("Copy-Item -Recurse C:/tmp/test .", {"test/testmod.jsonl"}),
        ("git -C test reset --hard", {"test/testmod.jsonl"}),
        ("git checkout -- fixture", {"fixture/ready.json"}),
        ("git restore .", set(DECLARED)),
        ("git stash pop", set(DECLARED)),
        ("git stash", set(DECLARED)),  # puts the tree's changes away: the evidence as recorded is gone
        ("git stash push -u", set(DECLARED)),
        ("patch -p1 < /tmp/p.diff", set(DECLARED)),  # a patch no one sees may touch any file
        ("patch -d test -p0 -i /tmp/p.diff", {"test/testmod.jsonl"}),
        ("git checkout HEAD~3", set(DECLARED)),
        ("git pull --rebase", set(DECLARED)),
        ("git clone https://example.org/lab/test.git", {"test/testmod.jsonl"}),
        ("tar -xf /tmp/t.tar --to-command=sh", set(DECLARED)),  # not printed: run, fail closed as a write
        ("7z e /tmp/t.7z", set(DECLARED)),
    ],
)
def test_a_folder_write_writes_every_declared_file_below_it(ws, command, files):
    assert written(ws, command) == files


@pytest.mark.parametrize(
    "command",
    [
        "tar -czf /tmp/backup.tgz test fixture",
        "tar -tf /tmp/t.tar",
        "unzip -l /tmp/t.zip",
        "7z l /tmp/t.7z",
        "tar -xf /tmp/t.tar -C workspace",
        "cp -r /tmp/tools workspace/tools",
        "git checkout -b feature",
        "git switch -c feature",
        "git -C workspace stash",
        "git stash list",
        "patch workspace/notes.md < /tmp/p.diff",
        "git reset HEAD fixture/ready.json",
        "git apply --check /tmp/p.diff",
        "git -C workspace stash pop",
        "git clone https://example.org/x.git workspace/x",
        "cp /tmp/a.txt workspace",
        "tar -xOf /tmp/t.tar test/testmod.jsonl",  # members printed to stdout: a read, no write
        "tar xOf /tmp/t.tar",
        "tar --extract --to-stdout -f /tmp/t.tar",
        "tar -x -O -f /tmp/t.tar",
        "bsdtar -xOf /tmp/t.tar",
        "7z e -so /tmp/t.7z fixture/ready.json",
        "cpio -i --to-stdout < /tmp/t.cpio",
    ],
)
def test_what_writes_no_declared_folder_writes_nothing_declared(ws, command):
    assert written(ws, command) == set()


def test_an_unplaceable_folder_stands_for_every_independent_file(ws):
    guessed: list[str] = []

    def unplaced(target: str) -> list[str]:
        guessed.append(target)
        return ["<guess>"]

    writes = shell_writes("tar -xf /tmp/t.tar -C $RUN_DIR/test", ws, None, unplaced)
    assert ("<guess>", "tar extract", None) in writes and guessed == ["$RUN_DIR/test/*"]


segments = st.lists(st.sampled_from(["test", "fixture", "restore", "workspace", "a", ".."]), min_size=0, max_size=3)


@given(folder=segments, files=st.lists(segments.map(lambda s: "/".join(["<run>", *s, "f.json"])), max_size=6))
def test_expand_keeps_file_writes_and_names_exactly_the_files_below_a_folder(folder, files):
    key = "/".join(["<run>", *folder])
    plain = ("<run>/x.json", "cp", None)
    out = expand([plain, (key, "tar extract" + TREE, None)], files)
    assert out[0] == plain and not any(how.endswith(TREE) for _, how, _ in out)
    below = {f for f in files if f == key or f.startswith(key + "/")}
    assert {k for k, _, _ in out[1:]} == below and len(out) == len(set(out))


@pytest.mark.parametrize(
    "command, files",
    [
        ("(cd test; cat /tmp/f > testmod.jsonl)", {"test/testmod.jsonl"}),
        ("cat /tmp/f | (cd fixture && cat > ready.json)", {"fixture/ready.json"}),
        ("{ cd restore; cp /tmp/v verify.json; }", {"restore/verify.json"}),
        ("cat /tmp/f > >(tee test/testmod.jsonl)", {"test/testmod.jsonl"}),
        ("echo x | tee >(cat > fixture/ready.json)", {"fixture/ready.json"}),
        ('echo "$(cp /tmp/f test/testmod.jsonl)"', {"test/testmod.jsonl"}),
        ("echo `cp /tmp/f fixture/ready.json`", {"fixture/ready.json"}),
        ("runuser -u lab -- cp /tmp/f test/testmod.jsonl", {"test/testmod.jsonl"}),
        ("xargs -a /tmp/list cp -t test", {"test/testmod.jsonl"}),
        ("parallel cp {} fixture/ ::: /tmp/ready.json", {"fixture/ready.json"}),
        ("find /tmp -name '*.jsonl' -exec cp {} test \\;", {"test/testmod.jsonl"}),
        ("find /tmp -name x | xargs -I % cp % restore/", {"restore/verify.json"}),
        ("vi test/testmod.jsonl", {"test/testmod.jsonl"}),
        ("emacs --batch fixture/ready.json --eval '(save-buffer)'", {"fixture/ready.json"}),
        ("docker cp lab:/srv/testmod.jsonl test/testmod.jsonl", {"test/testmod.jsonl"}),
        ("kubectl cp pod:/srv/ready.json fixture/", {"fixture/ready.json"}),
        ("aws s3 cp s3://b/testmod.jsonl test/testmod.jsonl", {"test/testmod.jsonl"}),
        ("aws s3 sync s3://b/restore restore", {"restore/verify.json"}),
        ("gsutil cp gs://b/ready.json fixture/", {"fixture/ready.json"}),
        ("rclone copy remote:lab test", {"test/testmod.jsonl"}),
        ("az storage blob download -c lab -n x -f restore/verify.json", {"restore/verify.json"}),
    ],
)
def test_writers_in_subshells_exec_ers_editors_and_remote_copiers(ws, command, files):
    assert written(ws, command) == files


@pytest.mark.parametrize(
    "command",
    [
        "(cd workspace; cat /tmp/f > notes.txt)",
        "echo $(pwd) && ls $(dirname test/testmod.jsonl)",
        "find . -name '*.py' -exec cp {} workspace/backup/ \\;",
        "docker cp lab:/srv/log.txt workspace/",
        "code workspace/notes.txt",
        "aws s3 ls s3://b/",
    ],
)
def test_the_same_writers_elsewhere_write_nothing_declared(ws, command):
    assert written(ws, command) == set()
