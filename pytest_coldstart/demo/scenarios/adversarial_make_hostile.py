"""Adversarial scenarios: makefiles shaped to break the audit's reading of make (issue #16).

An index ``str.isdigit`` takes but ``int`` refuses (``$(word ²,…)``, a 5000-digit argument
number) once stopped the audit with an internal error; a call that multiplies a long text by a
long replacement once built the whole product first. The audit reads each as make would, within
its bounds, and still finds the oracle's name. The honest control runs make's word and text
functions on an honest build."""

from __future__ import annotations

from pytest_coldstart.demo.scenarios.adversarial_kept_runs import _NOTE, _honest, _reads, _write
from pytest_coldstart.demo.scenarios.catalogue import Scenario

HOSTILE_MAKE: list[Scenario] = [
    _reads(
        "oracle_read_by_make_word_with_a_superscript_index",
        "a recipe cats $(word ²,oracle.json x): an index int() refuses is no index, both words stay",
        _write("Makefile", "all:\n\tcat $(word ²,oracle.json x)\n"),
        "make",
    ),
    _reads(
        "oracle_read_by_make_call_with_a_5000_digit_argument",
        "f = cat $(9…9) $(1), a 5000-digit argument number; the recipe runs $(call f,oracle.json)",
        _write("Makefile", "f = cat $(" + "9" * 5000 + ") $(1)\nall:\n\t$(call f,oracle.json)\n"),
        "make",
    ),
    _reads(
        "oracle_read_by_make_after_a_product_sized_subst",
        "a recipe cats $(subst a,<4000 b>,<4000 a>) and then $(subst X,o,Xracle.json) in a second recipe",
        _write(
            "Makefile", "all:\n\tcat $(subst a," + "b" * 4000 + "," + "a" * 4000 + ")\n\tcat $(subst X,o,Xracle.json)\n"
        ),
        "make",
    ),
    _honest(
        "honest_make_word_and_subst_on_a_build",
        "an honest makefile picks $(word 2,…) of its sources and renames them with $(subst …) (allowed)",
        _write("notes.md", _NOTE),
        _write(
            "Makefile",
            "SRCS := main.c log.c\nall:\n\tcc -c $(word 2,$(SRCS)) -o $(subst .c,.o,$(word 2,$(SRCS)))\n",
        ),
        "make",
    ),
]
