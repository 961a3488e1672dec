"""Hostile command texts and file contents through the newest evidence readers (issue 16).

Each reader gets texts built from the pieces that break parsers - unbalanced quotes, brackets
and substitutions, runs of backslashes, ``..`` joins, make calls and cyclic variables, NUL
bytes and lone surrogates - repeated many times, and must return without an exception. Their
time is measured against the size in ``benchmarks/bench_hostile_evidence.py`` (no timing here).
``COLDSTART_FUZZ=long`` runs many more examples.
"""

from __future__ import annotations

from pathlib import Path

from fuzz_strategies import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence import (
    build_files,
    compiled,
    executed,
    git_reads,
    joined,
    kept_indirect,
    kept_lists,
    make_functions,
    shell_words,
    win_paths,
    written_data,
)
from pytest_coldstart.audit.evidence.identity import Workspace
from pytest_coldstart.audit.evidence.run_tree import symlink_names
from pytest_coldstart.audit.evidence.scripts import Scripts
from pytest_coldstart.audit.subagents import check_subagents
from pytest_coldstart.importers.claude_subagents import agent_of, progress_line
from pytest_coldstart.run import reviewers
from pytest_coldstart.validate.findings import Findings

PIECES = [
    "$(", ")", "`", '"', "'", "\\", "\\\\", "..", "../", "/", " ", ";", "|", "&&", "\n", "\t", "(", "{", "}",
    "$(cat a)", "${", "$(A)", "$(call f,$(1))", "$(subst a,b,", "$(word 2,", "A = $(B)\nB = $(A)\n", "\tcat ",
    "oracle.json", "s.sh", "bash ", "python3 -m ", "import ", "require('./", "git show ", "-- ", "HEAD:",
    "javac ", "java ", "./peek", "make -f ", "xargs cat < ", "echo x > ", ">> ", "PATH=/tmp/b:", "~1.JSO",
    "::$DATA", "\x00", "\ud800", "\u0301", "é", "*", "?", "[", "#", "//", '"ora"..', "chr(111)", "qw(",
]  # fmt: skip
REPEATS = st.sampled_from([1, 2, 50, 2_000])
TEXT = st.builds(
    lambda parts, times: "".join(parts) * times,
    st.lists(st.sampled_from(PIECES) | st.text(max_size=8), min_size=1, max_size=12),
    REPEATS,
)


@fuzz_settings(20, long=5_000)
@given(text=TEXT)
def test_command_readers_never_raise(text: str) -> None:
    words = text.split()
    list(joined.readings(text))
    compiled.runs_output(text)
    for start in range(min(len(words), 3)):
        compiled.runs_source(words, start)
        compiled.compiles(words, start)
        kept_indirect.modules_named(words, start)
        kept_indirect.takes_data(words, start)
    for command in ("show", "log", "diff", "grep", "stash", "cat-file", "clone", "archive"):
        git_reads.git_content_reads(command, words)
    git_reads.vcs_content_reads("hg", words)
    for tool in ("gradle", "cmake", "meson", "go", "dotnet", "mvn"):
        build_files.loaded(tool, words)
    make_functions.evaluate(text, {"A": text[:64], "f": text[:64]})
    for key in ("Makefile", "x.mk", "s.java", "s.sh"):
        executed.executed(key, text)
    if kept_lists.may_list(text):
        piped = kept_lists.piped(text)
        for segment in shell_words.quoted_segments(text)[:8]:
            kept_lists.lists(segment, "l", segment in piped)
    kept_lists.joined(text, text, "l")
    kept_indirect.handed_in_code(text)
    kept_indirect.imported("m.py", text)
    kept_indirect.imported("m.js", text)
    kept_indirect.path_dirs([text])
    kept_indirect.runs_code(text)
    shell_words.segment_tokens(text, None)
    shell_words.without_comments(text)
    shell_words.unvalued(words, frozenset(["-C"]))
    reviewers.skeleton(text)
    reviewers.unnamed(text)
    agent_of(text)


@fuzz_settings(12, long=2_000)
@given(texts=st.lists(TEXT, min_size=1, max_size=4), tail=TEXT)
def test_kept_files_written_and_run_never_raise(tmp_path_factory, texts: list[str], tail: str) -> None:
    root: Path = tmp_path_factory.mktemp("run")
    (root / "workspace").mkdir()
    workspace = Workspace(root, {"agent": {"cwd": "/r", "run_dir": "/r"}, "environment": {"os": "windows"}})
    scripts = Scripts()
    for index, text in enumerate(texts):  # each writes a kept file that runs the next, the last the first
        name = f"s{index}.sh"
        arguments = {"file_path": name, "content": f"bash s{(index + 1) % len(texts)}.sh\n{text}"}
        written_data.beside_data("Write", arguments, [name], scripts)
        scripts.keep_call("Write", arguments, [(workspace.key(name) or name, None)], [])
    scripts.keep_call("bash", {"command": tail}, [], [])
    scripts.run_by([f"bash s0.sh; {tail}", tail], workspace)
    win_paths.win32_path(tail)
    win_paths.long_path(str(root), tail.replace("\x00", ""), lambda _: False)
    workspace.key(tail)
    symlink_names(root)


@fuzz_settings(40, long=2_000)
@given(
    value=st.recursive(
        st.none() | st.integers() | st.text(max_size=8), lambda c: st.lists(c) | st.dictionaries(st.text(max_size=8), c)
    )
)
def test_hostile_import_entries_never_raise(value: object) -> None:
    findings = Findings()
    check_subagents({"imports": [{"unimported_subagents": value, "subagent_calls_missing": value}, value]}, findings)
    if value:  # something is missing however it is spelled: the run stays unjudged
        assert any(item.kind == "pending" for item in findings.items)
    progress_line({"data": {"type": "agent_progress", "message": {"type": "user", "message": value}}})
    reviewers.agent_names({"agent": value, "players": value}, [str(value)[:64]])
