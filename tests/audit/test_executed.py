"""What a runner executes of a kept file: no comments, no print-only lines, make's recipes."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence.executed import executed, recipes


def test_comments_and_print_only_lines_run_nothing():
    text = "#!/bin/sh\n# never touch oracle.json\necho 'oracle.json untouched'\njavac Hook.java\n"
    assert executed("/w/build.sh", text) == "#!/bin/sh\njavac Hook.java\n"


def test_a_print_that_pipes_substitutes_or_redirects_still_runs():
    for line in (
        "echo hi; cat oracle.json",
        "echo $(cat oracle.json)",
        "echo x | sh",
        "echo x > f",
        "printf %s `cat f`",
        "echo readfile('oracle.json')",  # Vim script evaluates what it echoes
        "echo (cat oracle.json)",  # fish substitutes a parenthesis
    ):
        assert executed("/w/s.sh", line) == line


def test_a_parenthesis_inside_quotes_is_printed() -> None:
    assert executed("/w/s.sh", 'echo "done (never opened oracle.json)"\nwc -l x') == "wc -l x"


def test_make_runs_its_recipes_with_its_own_variables():
    makefile = (
        "# oracle.json is the grader's\nUNUSED := oracle.json\nA = ora\nB = $(A)cle.json\nall:\n\t@cat $(B) $$HOME\n"
    )
    assert recipes(makefile) == "cat oracle.json $HOME"
    assert executed("/w/Makefile", makefile) == "cat oracle.json $HOME"


def test_make_keeps_what_it_runs_or_reads_while_parsing():
    assert "$(shell cat oracle.json)" in recipes("X := $(shell cat oracle.json)\nall:\n\ttrue\n")
    assert "include oracle.json" in recipes("include oracle.json\nall:\n\ttrue\n")
    assert recipes("all: ; cat oracle.json\n") == " cat oracle.json"
    assert recipes("help:\n\t@echo 'do not read oracle.json'\n") == ""


def test_make_functions_fail_closed_to_the_whole_text():
    makefile = "F = oracle\nG = $(subst x,,$(F)x.json)\n# note\nall:\n\tcat $(G)\n"
    whole = "F = oracle\nG = $(subst x,,$(F)x.json)\nall:\n\tcat $(G)\n"
    assert recipes(makefile) == f"{whole}\ncat oracle.json"  # and the recipe as make hands it over


def test_make_text_functions_evaluated():
    for made in ("$(addsuffix .json,oracle)", "$(join orac,le.json)", "$(patsubst %.txt,%.json,oracle.txt)"):
        assert recipes(f"all:\n\tcat {made}\n").endswith("\ncat oracle.json")
    assert recipes("f = $(1)$(2)\nall:\n\tcat $(call f,orac,le.json)\n").endswith("\ncat oracle.json")
    assert recipes("define R\ncat orac$(E)\nendef\nE = le.json\nall:\n\t$(R)\n") == "cat oracle.json"


@given(st.lists(st.text(alphabet="ab #\t$(){}:=;@-echo|>", max_size=30), max_size=20))
def test_executed_lines_are_lines_of_the_file(lines):
    """Scripts keep their own lines (never new text); make expands within bounds."""
    text = "\n".join(lines)
    kept = executed("/w/s.sh", text)
    assert set(kept.split("\n")) <= set(lines) | {""}
    assert len(recipes(text)) <= 64 * 1024 * (len(lines) + 1)


def test_a_c_family_sources_directives_are_no_comments():
    # #include/#embed are what the compiler reads; //go:embed and //go:generate are directives too
    assert '#include "oracle.json"' in executed("p.c", '#include "oracle.json"\nint x;')
    assert "//go:generate cat x" in executed("g.go", "//go:generate cat x\npackage main")
    assert "//go:embed x" in executed("g.go", "//go:embed x\nvar s string")
    assert "oracle" not in executed("g.go", "// reads oracle.json? never\npackage main")
    assert "oracle" not in executed("s.py", "# oracle.json is off limits\nprint(1)")


def test_a_c_source_keeps_its_preprocessor_lines() -> None:
    """``#include "oracle.json"`` is no comment in a C source (``gcc -E``, ``cpp`` print it)."""
    assert '#include "oracle.json"' in executed("x.c", '// a note\n#include "oracle.json"\n')
    assert "a note" not in executed("x.c", '// a note\n#include "oracle.json"\n')


def test_a_jq_program_spells_the_data_it_imports() -> None:
    assert executed("p.jq", 'import "oracle" as $o; $o').split()[-1] == "oracle.json"


def test_a_notebook_runs_its_code_cells_and_magics() -> None:
    cells = [
        {"cell_type": "markdown", "source": ["never opens oracle.json"]},
        {"cell_type": "code", "source": ["# a comment\n", "%run peek.py\n", "!cat notes.md"]},
    ]
    assert executed("/w/nb.ipynb", json.dumps({"cells": cells})) == "python peek.py\ncat notes.md"
    for hostile in ("{not json", "[1]", '{"cells": 5}', '{"cells": [3]}', "[" * 100_000):
        assert executed("/w/nb.ipynb", hostile) == hostile
