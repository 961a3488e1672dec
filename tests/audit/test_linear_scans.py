"""The scans every call's text gets stay linear on shapes that never close, and still find what
they found: a class hint with no ']' ahead rescanned to the end from every '[' (a 50 KB command of
'[' took 76 s to audit), a word with no glob rescanned from every start once per cwd (141 s), and
a JSON path of many '[' cut from every '['. Each new form is checked against the old regex."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from pytest_coldstart.audit import integrity
from pytest_coldstart.audit.evidence import expansions, naming, prescan, provenance, shell_words
from pytest_coldstart.audit.evidence.identity import Workspace

HOME = {"agent": {"cwd": "/home/lab/run/workspace", "run_dir": "/home/lab/run"}}
DECLARED = {"oracle": {"path": "oracle.json"}, "test_mod": {"path": "test/testmod.jsonl"}}
OLD_SHAPES = r"\{[^{}\s\"']*,[^{}\s\"']*\}|[\w.]\[[^\]\s/]+\]|\[[^\]\s/]+\][\w.]|[?*+@!]\([^()\s]*\)"
OLD_TEXT_HINT = re.compile(expansions._TEXT_HINT.pattern.replace(expansions._SHAPES, OLD_SHAPES))
OLD_HINT = re.compile(expansions.HINT.replace(expansions._SHAPES, OLD_SHAPES).encode())
NEW_HINT = re.compile(expansions.HINT.encode())
OLD_CLASS = re.compile(r"\[[^\]/]+\]")
OLD_GLOBBED = re.compile(r"[^\s\"'`;|&<>()=]*[*?][^\s\"'`;|&<>()=]*")
OLD_PARENT = re.compile(r"(\.[^.\[]*|\[[^\]]*\])$")
HOSTILE = ["[", "[@", "[|", "a[", '["', "[a", 'a[@[|["[']


def _texts(alphabet: str, count: int = 20_000) -> list[str]:
    rng = random.Random(35)
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14))) for _ in range(count)]


def test_the_class_hints_find_what_the_unbounded_ones_found():
    assert OLD_TEXT_HINT.pattern != expansions._TEXT_HINT.pattern  # the old form is really rebuilt
    for text in _texts("[]a._ /\n{},'\"(@*x\\"):
        assert bool(expansions._TEXT_HINT.search(text)) == bool(OLD_TEXT_HINT.search(text)), text
        assert bool(NEW_HINT.search(text.encode())) == bool(OLD_HINT.search(text.encode())), text
        assert bool(shell_words._CLASS.search(text)) == bool(OLD_CLASS.search(text)), text
    for real in ("cat t[e]st/x", "cat [o]racle.json", "ls a[[x]", "x[-[y]", "cat x[a-z]", "[ab]c"):
        assert expansions._TEXT_HINT.search(real) and prescan._HINTS.search(real.encode()), real


def test_a_glob_word_is_the_same_word_and_paths_lose_the_same_last_step():
    for text in _texts(" \"'`;|&<>()=*?ab/.\n"):
        assert naming._GLOBBED.findall(text) == OLD_GLOBBED.findall(text), text
    for path in _texts("[].a$'x"):
        assert integrity._parent(path) == OLD_PARENT.sub("", path), path


@pytest.mark.parametrize("unit", HOSTILE)
def test_a_text_of_brackets_that_never_close_is_scanned_to_its_end(unit: str):
    """200 KB (minutes when each '[' rescanned to the end; benchmarks/bench_parsers.py times it)."""
    text = unit * (200_000 // len(unit))
    assert expansions._TEXT_HINT.search(text) is None and prescan._HINTS.search(text.encode()) is None
    assert shell_words._CLASS.search(text) is None  # no ']': no class, no hint
    assert integrity._parent("$." + text + "]") in ("$.", "$.a")  # the last step is the whole tail


def test_a_long_word_with_no_glob_is_judged_in_linear_time_and_globs_still_reach(tmp_path: Path):
    for declaration in DECLARED.values():
        (tmp_path / declaration["path"]).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / declaration["path"]).write_text("x", "utf-8")
    model = provenance.for_evidence(DECLARED, Workspace(tmp_path, HOME))
    # 200 KB: minutes when every start rescanned, per cwd (benchmarks/bench_parsers.py times it)
    assert (
        model.feed("c1", "bash", {"command": "cd x; cd y; python3 -c 'open(\"" + "a" * 200_000 + "\")'"}, True) == set()
    )
    for command in ("cd $T; cd y; cp a test*.jsonl", 'cd $T; cd $U; for f in te?tmod*; do cp a "$f"; done'):
        assert model.feed("c2", "bash", {"command": command}, True) == {"test_mod"}, command
