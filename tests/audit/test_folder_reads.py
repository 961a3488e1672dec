"""Reads of a whole folder (audit/evidence/folder_reads.py): the folders a command reads without
naming their files, and what naming makes of them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence.folder_reads import folder_reads


@pytest.mark.parametrize(
    "text, reads",
    [
        ("grep -rn cart .", [(".", "*", True)]),
        ("grep -rl uuid", [(".", "*", True)]),
        ('grep -rn "a\\|b" docs/*.md 2>/dev/null | head', [("docs", "*.md", True)]),
        ("grep -e x -r src lib", [("src", "*", True), ("lib", "*", True)]),
        ("rg cart workspace", [("workspace", "*", True)]),
        ("cat *", [(".", "*", False)]),
        ("cat test/*", [("test", "*", False)]),
        ("cat */*", [(".", "*", True)]),
        ("find . -type f -exec cat {} +", [(".", "*", True)]),
        ("find test -name '*.jsonl' | xargs cat", [("test", "*.jsonl", True)]),
        ("tar -czf /tmp/all.tgz .", [(".", "*", True)]),
        ("tar czf /tmp/a.tgz test fixture", [("test", "*", True), ("fixture", "*", True)]),
        ("zip -r /tmp/a.zip .", [(".", "*", True)]),
        ("cp -r . /tmp/copy", [(".", "*", True)]),
        ("rsync -a restore/ /tmp/r/", [("restore/", "*", True)]),
        # code that lists a folder and opens, reads or copies what it lists
        ("python3 -c \"import os; [print(open(f).read()) for f in os.listdir('.')]\"", [(".", "*", False)]),
        ("python3 -c \"import glob; [open(f) for f in glob.glob('test/*.jsonl')]\"", [("test", "*.jsonl", False)]),
        ("python3 -c \"[p.read_text() for p in Path('fixture').rglob('*.json')]\"", [("fixture", "*.json", True)]),
        (
            "python3 -c \"[shutil.copy(r + '/' + f, '/tmp') for r, _, fs in os.walk('restore') for f in fs]\"",
            [("restore", "*", True)],
        ),
        ("node -e \"fs.readdirSync('test').map(f => fs.readFileSync('test/' + f))\"", [("test", "*", False)] * 2),
        # the working directory listed with no folder named, and code that copies or packs a folder
        ('python3 -c "import os; [print(open(f).read()) for f in os.listdir()]"', [(".", "*", False)]),
        ('python3 -c "[open(e.path).read() for e in os.scandir()]"', [(".", "*", False)]),
        ('python3 -c "[p.read_text() for p in Path().iterdir()]"', [(".", "*", False)]),
        ('python3 -c "[p.read_text() for p in Path.cwd().iterdir()]"', [(".", "*", False)]),
        ('python3 -c "[open(f).read() for r, _, fs in os.walk(os.getcwd()) for f in fs]"', [(".", "*", True)]),
        ('node -e "fs.readdirSync(process.cwd()).map(f => fs.readFileSync(f))"', [(".", "*", False)]),
        ("perl -e 'opendir(my $d, \".\"); for (readdir $d) { open(F, $_) and print <F> }'", [(".", "*", False)]),
        ("python3 -c \"import shutil; shutil.copytree('.', '/tmp/all')\"", [(".", "*", True)]),
        ("python3 -c \"import tarfile; t = tarfile.open('/tmp/a.tgz', 'w'); t.add('test')\"", [("test", "*", True)]),
        ("python3 -c \"import shutil; shutil.make_archive('/tmp/a', 'zip', root_dir='.')\"", [(".", "*", True)]),
        ("(cat *)", [(".", "*", False)]),  # a subshell's, a group's, a substitution's brackets set aside
        ("{ cat test/*; }", [("test", "*", False)]),
        ("x=$(cat *)", [(".", "*", False)]),
        ("(python3 -m http.server 8000 &)", [(".", "*", True)]),  # a file server reads its folder whole
        ("python3 -m http.server --directory workspace", [("workspace", "*", True)]),
        ("php -S localhost:8000 -t fixture", [("fixture", "*", True)]),
        ("npx http-server restore -p 8080", [("restore", "*", True)]),
        # any program handed every name of a folder reads them, unless it lists or stats them
        ("column -t *", [(".", "*", False)]),
        ("rev *", [(".", "*", False)]),
        ("perl -pe 1 test/*", [("test", "*", False)]),
        ("zip -r - . | unzip -p -", [(".", "*", True)]),
        ("ruby -e 'Dir[\"*\"].each { |f| puts File.read(f) }'", [(".", "*", False)]),
        ("perl -e 'for (glob(\"*\")) { open F, $_; print <F> }'", [(".", "*", False)]),
        ("php -r 'foreach (glob(\"test/*\") as $f) echo file_get_contents($f);'", [("test", "*", False)]),
        # git diff --cached prints what was staged (git add alone shows nothing)
        ("git add -A && git diff --cached", [("<repository>", "*", True)]),
        ("git -C test grep -e x", [("test/.", "*", True)]),
        ("git grep cart -- workspace", [("workspace", "*", True)]),
        # a word before -- that looks like no path may be a branch or a tag: the repository
        ("git grep cart workspace", [("workspace", "*", True), ("<repository>", "*", True)]),
        ("git tag t && git show t", [("<repository>", "*", True)]),
        ("git show $(git rev-parse HEAD)", [("<repository>", "*", True)]),
        ("git log -S uuid -p", [("<repository>", "*", True)]),
        ("git diff-tree -p --root HEAD", [("<repository>", "*", True)]),
        ("git ls-tree -r HEAD | xargs -n1 git cat-file -p", [("<repository>", "*", True)]),
        ("git clone -q . /tmp/c", [("/tmp/c", "<git init>", False), (".", "*", True)]),
        ("git init -q && git -C agent show", [(".", "<git init>", False), ("agent/<repository>", "*", True)]),
        # pathspec magic and a repository named elsewhere: the top, wherever that is
        ("git show HEAD -- ':!workspace'", [("$GIT_REPOSITORY", "*", True)]),
        ("git diff --cached -- :/", [("$GIT_REPOSITORY", "*", True)]),
        ("GIT_DIR=../.git git show", [("$GIT_REPOSITORY", "*", True)]),
        ("git -c core.worktree=.. show", [("$GIT_REPOSITORY", "*", True)]),
        # a commit's, the index's or every object's files printed (git_reads): fail closed
        ("git commit -qm x && git show", [("<repository>", "*", True)]),
        ("git log -p", [("<repository>", "*", True)]),
        ("git format-patch -1 --stdout", [("<repository>", "*", True)]),
        ("git grep uuid HEAD", [("HEAD", "*", True), ("<repository>", "*", True)]),
        ("git diff HEAD~1 HEAD", [("<repository>", "*", True)]),
        ("git add -N . && git diff", [("<repository>", "*", True)]),
        ("git cat-file --batch-all-objects --batch", [("<repository>", "*", True)]),
        ("git log -p -- agent", [("agent", "*", True)]),
        ("git diff HEAD -- agent/", [("agent/", "*", True)]),
        ("git diff --no-index /tmp/e .", [("/tmp/e", "*", True), (".", "*", True)]),
        ("grep -d recurse x .", [(".", "*", True)]),
        ("grep --directories=recurse x test", [("test", "*", True)]),
        ("rgrep x", [(".", "*", True)]),
        ("diff -ruN /tmp/e .", [("/tmp/e", "*", True), (".", "*", True)]),
        ("diff /tmp/e test", [("/tmp/e", "*", False), ("test", "*", False)]),
        ("tar --create . | strings", [(".", "*", True)]),
        ("tar -rf a.tar test", [("test", "*", True)]),
        ("jar cf x.jar -C build .", [("build/.", "*", True)]),
        ("bsdtar -cf - .", [(".", "*", True)]),
        ("pax -w test", [("test", "*", True)]),
        ("7z a -so x.7z", [(".", "*", True)]),
        ("gzip -rc test", [("test", "*", True)]),
        ("grep -r cart $HOME", [("$HOME", "*", True)]),
        ("perl -MFile::Find -e 'find(sub { open F, $_; print <F> }, \"test\")'", [("test", "*", True)]),
        (
            "php -r 'foreach (new RecursiveDirectoryIterator(\".\") as $f) echo file_get_contents($f);'",
            [(".", "*", True)],
        ),
        ("ruby -e 'Dir.each_child(\"test\") { |f| puts File.read(f) }'", [("test", "*", False)]),
        ('python3 -c "import fileinput, os; print(*fileinput.input(os.listdir()))"', [(".", "*", False)]),
        ("python3 -c \"import os; d = os.open('test', 0); [open(f) for f in os.listdir(d)]\"", [("test", "*", False)]),
    ],
)
def test_the_folders_a_command_reads_whole(text, reads):
    assert list(folder_reads(text)) == reads


@pytest.mark.parametrize(
    "text",
    [
        "grep foo file.txt",
        "cat *.json",
        "ls *",
        "echo *",
        "x = a * b",
        "tar -tzf a.tgz",
        "find . -name x",
        "cp a b",
        "cat */",
        "sed -n 1p */",  # the shell hands a reader folders only: it reads no file
        "python3 -c \"import os; print(os.listdir('.'))\"",  # a listing that opens nothing reads nothing
        "python3 -c \"s = set(); s.add('.'); print(os.listdir())\"",  # a set's add is no archive
        "du -sh *; file *; stat *; chmod 644 *; rm -f *.tmp; expr 3 * 4",
        "git status; git diff; git log --oneline; git commit -am x",
        "git show --stat HEAD; git log --stat; git show HEAD:agent/x.py",
        "git diff-tree --name-only -r HEAD; git reflog",
        "git add -A && git commit -qm 'update notes.md'",  # stages, shows nothing
        "diff -u a.py b.py",  # two files, no folder
        "tar -xzf a.tgz -C workspace",
        "ruby -e 'Dir.each_child(\".\") { |f| puts f }'",  # lists, opens nothing
    ],
)
def test_what_reads_no_folder_whole(text):
    assert list(folder_reads(text)) == []


@given(st.text(alphabet=st.sampled_from(list("grep -rfindxagsct*|./'\"{}+;")), max_size=120))
def test_any_text_parses_without_a_crash(text):
    assert all(isinstance(folder, str) and isinstance(recursive, bool) for folder, _, recursive in folder_reads(text))


def test_sqlite_fsdir_with_readfile_reads_the_folder() -> None:
    """``readfile(name) from fsdir('.')``: every file below the folder, whatever the where clause."""
    reads = list(folder_reads("""sqlite3 :memory: "select readfile(name) from fsdir('.') where name like 'orac%'" """))
    assert reads and reads[0][0] == "."


@pytest.mark.parametrize(
    "text, folders",
    [
        ("diff <(jq -S . a.json) <(jq -S . /tmp/b.json)", []),  # jq's . is its filter
        ("diff <(sort a) .", ["."]),  # the command's own operand stays
        ("cat <(cat *)", ["."]),  # the substitution's command is read too
        ("diff <(cd test && cat *) x", ["test", "."]),  # not plain: read as before
    ],
)
def test_a_plain_process_substitution_is_a_command_of_its_own(text, folders):
    read = [folder for folder, _, _ in folder_reads(text) if folder != "/dev/fd/63"]
    assert [f for f in read if f in (".", "test")] == folders


def test_codex_apply_patch_reads_no_folder_its_patch_globs():
    assert list(folder_reads("apply_patch *** Begin Patch\n*** Add File: w/x.txt\n+hi\n*** End Patch")) == []
