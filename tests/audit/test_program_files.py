"""Programs that take their program from a file or from stdin (audit/evidence/program_files.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence import kept_indirect, kept_runs, program_files, read_plausibility
from pytest_coldstart.audit.evidence.shell_words import program_name


def _loaded(command: str) -> list[str]:
    words = [word.strip("\"'") for word in command.split()]
    return program_files.loaded(program_name(words[0]), words[1:])


#: each: a command, then ``=>`` and the files it runs as its program
_RUN = """
awk -f p.awk notes.md => p.awk
gawk -i ./lib.awk 'BEGIN{}' => ./lib.awk
sed -n --file=p.sed notes.md => p.sed
jq -f p.jq data.json => p.jq
sqlite3 :memory: '.read x.sql' => x.sql
sqlite3 -init x.sql db .quit => x.sql
sqlite3 db < x.sql => x.sql
ed -s f <x.ed => x.ed
vim -es -S x.vim => x.vim
emacs --batch -l x.el => x.el
R -f x.R => x.R
m4 a.m4 b.m4 => a.m4 b.m4
cpp -P x.h => x.h
gcc -E x.c => x.c
xmllint --xinclude x.xml => x.xml
git -c include.path=g.cfg x => g.cfg
at -f job.sh now => job.sh
perl -Ilib -MFoo::Bar=x x.pl => Foo/Bar.pm lib/Foo/Bar.pm
ruby -I . -rpeek -e 1 => peek.rb ./peek.rb
lua -l peek -e '' => peek.lua
crontab tab => tab
gawk '@include "lib"; BEGIN{}' => lib lib.awk
pandoc --lua-filter=f.lua -o x.html x.md => f.lua
psql -c '\\i x.sql' => x.sql
psql db -c '\\ir sub/x.sql' => sub/x.sql
mysql -e 'source x.sql;' => x.sql
mariadb db -e '\\. x.sql' => x.sql
vim -es -c 'source x.vim' -c q => x.vim
nvim --headless '+luafile x.lua' +q => x.lua
vim --cmd 'so! a.vim' -c ':py3file b.py' f => a.vim b.py
emacs --batch --eval '(load "x.el")' => x.el
emacs --batch x.org -f org-babel-execute-buffer => x.org
"""


@pytest.mark.parametrize("case", _RUN.strip().splitlines())
def test_the_files_run_as_a_program(case: str) -> None:
    command, _, files = case.partition(" => ")
    assert _loaded(command) == files.split()


@pytest.mark.parametrize(
    "command",
    ["awk '{print}' notes.md", "sed -n 1,5p notes.md", "jq .a log.json", "gcc -c x.c", "xmllint x.xml", "cat x.sql"]
    + ["sqlite3 db 'select 1'", "git log -p", "ed <<< ,p", "psql -c 'select 1'", "mysql -e 'select 1'"],
)
def test_data_operands_run_nothing(command: str) -> None:
    assert _loaded(command) == []


@pytest.mark.parametrize("head", ["tclsh8.6", "lua5.4", "gawk", "sqlite3", "rscript"])
def test_other_names_are_the_table_s(head: str) -> None:
    assert program_files.canonical(head) in {"tclsh", "lua", "awk", "sqlite", "r"}


def test_stdin_programs_are_fed() -> None:
    assert kept_runs.fed("cat x.sql | sqlite3 db") == {"cat x.sql "}
    assert kept_runs.fed("cat notes.md | grep oracle") == set()


def test_an_echo_fed_to_a_runner_is_no_mere_echo() -> None:
    assert read_plausibility.kept_runs.fed("echo \"print(open('oracle.json').read())\" | python3")
    assert not read_plausibility.kept_runs.fed("echo 'never read oracle.json' | tee -a notes.md")


_WORD = st.text(alphabet="-<>.=fiSlx0123 abcdE", max_size=8)


@given(
    st.sampled_from(["awk", "sed", "sqlite3", "m4", "gcc", "git", "ed", "xmllint", "cat"]), st.lists(_WORD, max_size=8)
)
def test_loaded_names_only_what_it_is_handed(head: str, args: list[str]) -> None:
    """Each file is an argument, an option's ``=value`` or a ``<file`` redirect: never made up."""
    for name in program_files.loaded(head, args):
        assert any(name in arg for arg in args)


@pytest.mark.parametrize(
    ("text", "files"),
    [
        ("""jq -n 'import "oracle" as $o; $o'""", ["oracle.json"]),
        (
            """jq -L lib -n 'import "d" as $d; include "m"; import "x" as x; .'""",
            ["d.json", "lib/d.json", "m.jq", "lib/m.jq", "x.jq", "lib/x.jq"],
        ),
    ],
)
def test_a_jq_program_s_modules_are_spelled(text: str, files: list[str]) -> None:
    reading = program_files.jq_reading(text)
    assert reading is not None and reading.split()[-len(files) :] == files


@pytest.mark.parametrize("text", ["jq .a log.json", "python3 -c 'import json'", "import oracle as o"])
def test_texts_without_jq_modules_are_left(text: str) -> None:
    assert program_files.jq_reading(text) is None


@given(st.text(alphabet='jqimportincludeas $"L- ', max_size=200))
def test_jq_modules_are_bounded(text: str) -> None:
    assert len(program_files.jq_modules(text, ["a"] * 40)) <= 2 * 16 * 17


@pytest.mark.parametrize(
    ("key", "text", "path"),
    [
        ("main.pl", "use lib 'lib'; use Foo::Peek;", "Foo/Peek.pm"),
        ("main.rb", "require_relative './peek'", "peek.rb"),
        ("main.lua", "local p = require('a.peek')", "a/peek.lua"),
    ],
)
def test_kept_perl_ruby_and_lua_scripts_import_modules(key: str, text: str, path: str) -> None:
    assert path in kept_indirect.imported(key, text)


@pytest.mark.parametrize(
    ("key", "command"),
    [
        ("<run>/t.test.js", "npx jest"),
        ("<run>/x_test.go", "go test ./..."),
        ("<run>/tests/t.rs", "cargo test"),
        ("<run>/test_x.py", "python3 -m unittest discover"),
        ("<run>/a/x.spec.ts", "node --test"),
    ],
)
def test_test_runners_collect_their_test_files(key: str, command: str) -> None:
    """A kept test file gives the words its runner holds; the runner's command collects it."""
    words = command.split()
    start = kept_runs.head_index(words)
    reads = list(kept_indirect.collected(words, start, command, False, frozenset(), set(kept_indirect.loaded_as(key))))
    assert any(kept_indirect.fnmatch.fnmatchcase(key.rpartition("/")[2], pattern) for _, pattern, _ in reads)


def test_no_test_runner_collects_before_a_test_file_is_kept() -> None:
    assert not list(kept_indirect.collected(["go", "test", "./..."], 0, "go test ./...", False, frozenset(), set()))
