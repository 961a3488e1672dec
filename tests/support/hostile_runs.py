"""Hostile copies of the shipped example runs (issue 16), and the real CLI / real pytest on them.

Each helper edits one copy of a ``runs/`` scenario the way the attack did, so a test reads as
the reproduction it pins: ``edit_line(run, "trajectory.jsonl", 11, '"parent_id":null',
'"parent_id":1e999')``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
RUNS = REPO / "runs"
_OUTCOME = re.compile(r"^(PASSED|FAILED|XFAIL|XPASS|SKIPPED|ERROR) (\S+)", re.MULTILINE)


def copy_run(name: str, target: Path, *, keep_audit: bool = True) -> Path:
    """A private copy of ``runs/<name>``, its stored audit/ folder kept unless told otherwise
    (a copy's stored report is stale: readers must not believe it)."""
    shutil.copytree(RUNS / name, target, symlinks=True)
    if not keep_audit:
        shutil.rmtree(target / "audit", ignore_errors=True)
    return target


def edit_line(run: Path, relative: str, number: int, old: str, new: str) -> None:
    """Replace ``old`` by ``new`` on 1-based line ``number`` of a run file (exactly once)."""
    path = run / relative
    lines = path.read_bytes().split(b"\n")
    line = lines[number - 1].decode("utf-8")
    assert line.count(old) == 1, (relative, number, old)
    lines[number - 1] = line.replace(old, new).encode("utf-8")
    path.write_bytes(b"\n".join(lines))


def edit_manifest(run: Path, change: Any) -> None:
    """Rewrite run.json after ``change(manifest)`` edits the parsed document in place."""
    manifest = json.loads((run / "run.json").read_text("utf-8"))
    change(manifest)
    (run / "run.json").write_text(json.dumps(manifest, indent=2) + "\n", "utf-8")


def coldstart(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The real ``coldstart`` CLI in a fresh process (never raising on a non-zero exit)."""
    return subprocess.run(
        [sys.executable, "-m", "pytest_coldstart", *args], capture_output=True, text=True, timeout=300, cwd=cwd
    )


def run_pytest(*runs_dirs: Path, cwd: Path, extra: tuple[str, ...] = ()) -> tuple[dict[str, str], str]:
    """Real pytest over ``--coldstart-runs`` directories: ({node id suffix: outcome}, output)."""
    args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", "-q", *extra]
    args += [f"--coldstart-runs={d}" for d in runs_dirs]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    done = subprocess.run(args, capture_output=True, text=True, timeout=300, cwd=cwd, env=env)
    output = done.stdout + done.stderr
    outcomes = {node.split("::", 1)[-1]: word for word, node in _OUTCOME.findall(output)}
    return outcomes, output


def no_traceback(output: str) -> None:
    assert "Traceback" not in output and "internal error" not in output, output[-3000:]


def remove_tree(root: Path) -> None:
    """shutil.rmtree for trees a thousand folders deep, or deeper than a path can name: Python
    3.11's rmtree (and so pytest's tmp_path cleanup) recurses, and full paths stop at PATH_MAX;
    rm -rf walks by file descriptor."""
    subprocess.run(["rm", "-rf", "--", os.fspath(root)], check=True, timeout=300)
