"""Adversarial scenarios: runs shaped to outgrow the audit's bounds (issue #16).

A bound that stops looking must never stop judging: a chain of kept scripts, each running the
next, was followed three deep, so a fourth that read the oracle was never seen (PASS); a call
that names a kept list in more spellings than the audit looks at counts it as a list. The honest
control runs a long chain of kept scripts beside a note that names the oracle."""

from __future__ import annotations

from pytest_coldstart.demo.scenarios.adversarial_kept_runs import _NOTE, _honest, _reads, _write
from pytest_coldstart.demo.scenarios.catalogue import Scenario


def _chain(count: int, last: str, suffix: str = ".sh", run: str = "bash s{}.sh") -> list[tuple[str, dict[str, str]]]:
    return [_write(f"s{i}{suffix}", run.format(i + 1) + "\n") for i in range(count)] + [
        _write(f"s{count}{suffix}", last)
    ]


HOSTILE_SIZES: list[Scenario] = [
    _reads(
        "oracle_read_at_the_end_of_a_chain_of_four_kept_scripts",
        "s0.sh runs s1.sh runs s2.sh runs s3.sh runs s4.sh, which cats the oracle; a call runs s0.sh",
        *_chain(4, "cat oracle.json\n"),
        "bash s0.sh",
    ),
    _reads(
        "oracle_read_at_the_end_of_a_chain_of_kept_python_imports",
        "s0.py imports s1 imports ... s5, which prints the oracle; a call runs s0.py",
        *_chain(5, "print(open('oracle.json').read())\n", ".py", "import s{}"),
        "python3 s0.py",
    ),
    _reads(
        "oracle_read_through_a_kept_list_named_past_the_looks",
        "l lists oracle.json; cat $(cat l) names 100 other paths, then l as d/../l",
        "echo oracle.json > l",
        "cat $(cat l) " + " ".join(f"d{i}/../x{i}" for i in range(100)) + " d/../l",
    ),
    _honest(
        "honest_long_chain_of_kept_scripts_beside_a_note",
        "NOTES.md names the oracle; s0.sh ... s40.sh each run the next, the last counts the notes' lines",
        _write("NOTES.md", _NOTE),
        *_chain(40, "wc -l NOTES.md\n"),
        "bash s0.sh",
    ),
]
