"""Fuzzing real pytest over labs of hostile runs (issue 16): one pytest process per lab.

A process per mutated run (~0.9 s, mostly interpreter and plugin start) made the pytest property
the slowest by far; a lab of many mutated runs in one session judges each run just as a user's
``pytest --coldstart-runs labs/`` does, and also shows that one hostile run cannot spoil the
items of its neighbours. For every run of the lab, from JUnit:
- the session never errors internally (exit 0 or 1, no INTERNALERROR, no traceback);
- every run is collected, and its items report the overall the audit gives in process;
- a run that does not audit PASS is never all green (an item fails or is xfailed).
The statistics count labs; ``RUNS_CHECKED`` lines count mutated runs (``-s`` shows them).
Short profile in the suite; ``COLDSTART_FUZZ=long`` (or a number) runs many more labs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

from fuzz_strategies import _PROFILE, LONG, fuzz_settings, template
from hypothesis import given
from hypothesis import strategies as st
from test_fuzz_hostile import hostile_edits

from pytest_coldstart.audit import audit_run

#: runs per lab: a handful in the suite, enough in a long hunt that startup is a small share
MAX_RUNS = 40 if LONG or _PROFILE.isdigit() else 4
PYTEST_TIMEOUT = 600


def _remove(base: Path) -> None:
    try:
        shutil.rmtree(base, ignore_errors=True)
    except RecursionError:  # a deep_tree mutation: Python 3.11's rmtree recurses per level
        subprocess.run(["rm", "-rf", "--", os.fspath(base)], check=False, timeout=300)


def _outcomes(junit: Path) -> dict[str, list[tuple[str, str]]]:
    """Run folder -> [(item outcome, the overall its properties report)] from a JUnit file."""
    runs: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for case in ET.parse(junit).iter("testcase"):
        folder = case.get("classname", "").split(".", 1)[0]
        tags = {child.tag for child in case}
        outcome = "failed" if tags & {"failure", "error"} else "skipped" if "skipped" in tags else "passed"
        overall = next((p.get("value", "") for p in case.iter("property") if p.get("name") == "coldstart.overall"), "")
        runs[folder].append((outcome, overall))
    return runs


@fuzz_settings(3, long=2_500)
@given(data=st.data(), size=st.integers(1, MAX_RUNS))
def test_no_lab_of_hostile_runs_breaks_pytest(data, size):
    base = Path(tempfile.mkdtemp(prefix="coldstart-fuzz-lab-"))
    try:
        lab, outside = base / "lab", base / "outside"
        lab.mkdir()
        outside.mkdir()
        expected, edits = {}, {}
        for index in range(size):
            name = data.draw(st.sampled_from(("sealed", "open")), label=f"template {index}")
            edits[f"r{index:03d}"] = data.draw(hostile_edits(name), label=f"mutations {index}")
            run = lab / f"r{index:03d}"
            shutil.copytree(template(name), run, symlinks=True)
            for edit in edits[run.name]:
                edit.apply(run)
            expected[run.name] = audit_run(run, write=False)["overall"]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COLDSTART_FUZZ"))}
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", f"--junitxml={outside / 'junit.xml'}",
             f"--coldstart-runs={lab}"],
            capture_output=True, text=True, timeout=PYTEST_TIMEOUT, cwd=outside, env=env,
        )  # fmt: skip
        output = done.stdout + done.stderr
        assert done.returncode in (0, 1), output[-3000:]
        assert "INTERNALERROR" not in output and "Traceback" not in output, output[-3000:]
        seen = _outcomes(outside / "junit.xml")
    finally:
        _remove(base)
    for folder, overall in expected.items():
        items = seen.get(folder)
        assert items, (folder, edits[folder], sorted(seen))  # collected, and once under its own name
        assert {reported for _, reported in items} == {overall}, (folder, edits[folder], items)
        if overall != "PASS":
            assert any(outcome != "passed" for outcome, _ in items), (folder, edits[folder], items)
    print(f"RUNS_CHECKED {size}")
