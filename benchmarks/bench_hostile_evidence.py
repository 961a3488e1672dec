"""The newest evidence readers on hostile texts: CPU time at 1x and 4x a size.

Each reader of ``tests/quality/test_fuzz_evidence.py`` gets a hostile shape (unbalanced
substitutions, quotes, backslashes, ``..`` joins, make calls, imports, git pathspecs, long
lines of one character) repeated n and 4n times; the ratio of the two times is printed. A
reader whose cost grows with the product of two sizes shows a ratio near 16, a linear one near 4.

    python benchmarks/bench_hostile_evidence.py [--quick]

Goal: every ratio at most 6 (4 is linear; the rest is noise on a shared machine).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

import pytest_coldstart.audit.evidence.compiled as compiled
import pytest_coldstart.audit.evidence.executed as executed
import pytest_coldstart.audit.evidence.git_reads as git_reads
import pytest_coldstart.audit.evidence.joined as joined
import pytest_coldstart.audit.evidence.kept_indirect as kept_indirect
import pytest_coldstart.audit.evidence.kept_lists as kept_lists
import pytest_coldstart.audit.evidence.make_functions as make_functions
import pytest_coldstart.audit.evidence.shell_words as shell_words
from pytest_coldstart.run import reviewers

GOAL = 6.0
SHAPES = {
    "substitutions": "$(cat a) ",
    "unclosed": "$( ( `",
    "quotes": "'\"",
    "backslashes": "\\",
    "joins": "../",
    "joined literals": '"ora".."cle" ',
    "make calls": "$(subst a,b,$(A)) ",
    "imports": "import a.b.c\n",
    "pathspecs": "p/x ",
    "one char": "x",
    "marks": "\u0301",
}
READERS: dict[str, Callable[[str], object]] = {
    "joined": lambda t: list(joined.readings(t)),
    "compiled": compiled.runs_output,
    "git": lambda t: git_reads.git_content_reads("show", t.split()),
    "make": lambda t: make_functions.evaluate(t, {"A": "x"}),
    "makefile": lambda t: executed.recipes("A = $(B)\nB = $(A)\nall:\n\t" + t),
    "lists": lambda t: kept_lists.joined(t, t, "l"),
    "imports": lambda t: kept_indirect.imported("m.py", t),
    "handed": kept_indirect.handed_in_code,
    "tokens": lambda t: shell_words.segment_tokens(t, None),
    "comments": shell_words.without_comments,
    "skeleton": reviewers.skeleton,
}


def cpu(reader: Callable[[str], object], text: str) -> float:
    start = time.process_time()
    reader(text)
    return time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    base = 2_000 if parser.parse_args().quick else 10_000
    missed = []
    worst = 0.0
    print(f"{'shape':18} {'reader':10} {'1x s':>8} {'4x s':>8} {'ratio':>6}")
    for shape, piece in SHAPES.items():
        small, large = piece * base, piece * (4 * base)
        for name, reader in READERS.items():
            cpu(reader, small)  # warm caches and compiled patterns
            one, four = cpu(reader, small + " "), cpu(reader, large)
            ratio = four / max(one, 1e-3)
            print(f"{shape:18} {name:10} {one:8.3f} {four:8.3f} {ratio:6.1f}", flush=True)
            worst = max(worst, ratio) if four > 0.05 else worst  # a ratio of milliseconds is noise
            if four > 0.05 and ratio > GOAL:
                missed.append(f"{shape} / {name}: {ratio:.1f}x for 4x the size")
    print(f"worst ratio {worst:.2f}x (of the readers that took over 50 ms at 4x)")
    for line in missed:
        print(f"MISSED {line} (goal <= {GOAL}x)")
    return 2 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
