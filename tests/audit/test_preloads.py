"""Unit tests of preloads: the files a variable or an option makes a program load."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence import compiled, kept_runs, preloads


def test_a_command_variable_runs_its_program():
    assert preloads.loaded(["PAGER=./peek.sh"], "man", ["ls"]) == "sh ./peek.sh"
    assert preloads.loaded(["GIT_EXTERNAL_DIFF=d.sh"], "git", ["diff"]) == "sh d.sh"


def test_git_c_runs_the_commands_its_keys_name():
    assert preloads.loaded([], "git", ["-c", "core.pager=./p.sh", "log"]) == "sh ./p.sh"
    assert preloads.loaded([], "git", ["-c", "alias.x=!./p.sh", "x"]) == "sh ./p.sh"
    assert preloads.loaded([], "git", ["-c", "user.name=me", "log"]) == ""
    assert preloads.loaded([], "git", ["-c", "alias.pk='!sh", "peek.sh'", "pk"]) == "sh sh peek.sh"


def test_interpreter_preloads_are_spelled_as_runs():
    assert preloads.loaded(["PERL5OPT=-MFoo::Bar"], "perl", ["-e", "1"]) == "perl Foo/Bar.pm"
    assert preloads.loaded(["RUBYOPT=-r./peek"], "ruby", ["-e", "1"]) == "ruby ./peek.rb"
    assert "./peek.js" in preloads.loaded([], "node", ["-r", "./peek", "x.js"]).split()
    assert "./peek/index.js" in preloads.loaded(["NODE_OPTIONS=--require=./peek"], "node", ["x.js"]).split()
    assert "./peek.js" in preloads.loaded([], "node", ["-e", "require('./peek')"]).split()


def test_node_alone_and_packages_load_nothing_kept():
    assert preloads.loaded([], "node", ["-e", "console.log(require('fs'))"]) == ""
    assert preloads.loaded(["NODE_OPTIONS=--max-old-space-size=4096"], "npm", ["test"]) == ""
    assert preloads.loaded([], "node", ["x.js"]) == ""


def test_kept_runs_spells_the_preload_after_the_command():
    assert kept_runs.loads("PAGER=./peek.sh man ls") == "PAGER=./peek.sh man ls && sh ./peek.sh"
    assert kept_runs.may_load("RUBYOPT=-r./peek ruby -e 1")


def test_a_preloaded_library_runs_compiled_output():
    assert compiled.runs_output("LD_PRELOAD=./peek.so true")
    assert not compiled.runs_output("make test")


@given(st.lists(st.text(max_size=12), max_size=6), st.text(max_size=8), st.lists(st.text(max_size=12), max_size=6))
def test_loaded_is_total(assigned, head, args):
    assert isinstance(preloads.loaded(assigned, head, args), str)


def test_startup_hooks_and_pythonpath_folders():
    from pytest_coldstart.audit.evidence import kept_indirect

    assert kept_indirect.startup_hook("a/sitecustomize.py") and kept_indirect.startup_hook("x/y.pth")
    assert not kept_indirect.startup_hook("a/custom.py")
    assert kept_indirect.python_dirs(["PYTHONPATH=src:lib pytest"]) == ["src", "lib"]
    assert kept_indirect.starts_python(".venv/bin/pytest") and not kept_indirect.starts_python("ls -l")


def test_git_config_commands_are_kept_as_one_state_key():
    state = preloads.git_settings("git config core.pager 'sh peek.sh' && git config user.name me")
    assert state == {preloads.GIT_CONFIG: "sh sh peek.sh"}
    both = preloads.git_settings("git config --local alias.x '!./p.sh'", state[preloads.GIT_CONFIG])
    assert both[preloads.GIT_CONFIG] == "sh sh peek.sh && sh ./p.sh"
    assert preloads.git_settings("git config user.email a@b") == {}


def test_kept_state_loads_only_where_it_names_a_kept_file():
    known = {"PAGER": "./peek.sh", "X": "1"}
    assert preloads.kept_loads(known, {"peek.sh"}) == ["PAGER=./peek.sh sh"]
    assert preloads.kept_loads(known, {"notes.md"}) == []
    assert preloads.kept_loads({"PERL5OPT": "-MPeek"}, {"Peek.pm"}) == ["PERL5OPT=-MPeek sh"]
    assert preloads.kept_loads({"NODE_OPTIONS": "--require=./peek"}, {"peek.js"})
    assert preloads.kept_loads({"PAGER": "cat"}, {"peek.sh"}) == []
    assert preloads.kept_loads({}, set()) == []


def test_a_carried_line_loads_what_its_variables_name():
    line = preloads.carried({"BASH_ENV": "./peek.sh", preloads.GIT_CONFIG: "sh x.sh"}) or ""
    assert kept_runs.may_load(line)
    spelled = kept_runs.loads(line)
    assert "./peek.sh" in spelled and "x.sh" in spelled


@given(st.text(max_size=300))
def test_git_settings_never_fail(text):
    assert isinstance(preloads.git_settings(f"git config {text}"), dict)
