"""The documentation stays true.

* Every ```bash block of README.md and docs/*.md runs as written, from a temporary copy of the
  repository, the blocks of one file in order sharing the folder and exported variables, with its
  documented exit code and output (conventions: tests/support/doc_blocks.py). A failure names the
  file, the block and its line.
* Every analysis example (```python in docs/analysis.md) runs against a fresh demo output.
* The format reference names every field of every record family and of summary.json.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from doc_blocks import Block, blocks, command_lines, missing_output

from pytest_coldstart.record import taxonomy
from pytest_coldstart.run import schemas

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
PAGES = [REPO / "README.md", *sorted(DOCS.glob("*.md"))]
#: not copied into the temporary repository: derived, private or large
NOT_COPIED = shutil.ignore_patterns(
    ".git",
    ".venv",
    "venv",
    "reports",
    "__pycache__",
    ".pytest_cache",
    ".hypothesis",
    ".mypy_cache",
    ".ruff_cache",
    "build",
    "dist",
    "*.egg-info",
    "labs",
)
BLOCK_TIMEOUT = 300
BLOCKS = re.findall(r"```(python|bash)\n(.*?)```", (DOCS / "analysis.md").read_text(encoding="utf-8"), re.S)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    """The shipped runs/ (byte for byte what `coldstart demo --out runs` writes: tests/demo checks
    that, and analysis.md's first block regenerates it in the page's own run)."""
    root = tmp_path_factory.mktemp("analysis")
    shutil.copytree(REPO / "runs", root / "runs")
    return root


def test_the_page_has_examples_for_every_question() -> None:
    assert sum(1 for lang, _ in BLOCKS if lang == "python") >= 12
    text = (DOCS / "analysis.md").read_text(encoding="utf-8")
    for question in (
        "transcript",
        "by type",
        "token",
        "repeated",
        "waiting",
        "invalid",
        "decisions with outcomes",
        "location",
        "incompatibilities",
    ):
        assert question in text.lower(), question


@pytest.mark.parametrize("index", [i for i, (lang, _) in enumerate(BLOCKS) if lang == "python"])
def test_python_examples_run(workdir: Path, index: int) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", BLOCKS[index][1]], cwd=workdir, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip(), "an example must print its answer"


def test_formats_reference_names_every_field() -> None:
    text = (DOCS / "formats.md").read_text(encoding="utf-8")
    for kind, family in taxonomy.FAMILIES.items():
        section = text.split(f"### {kind}\n", 1)[1].split("\n### ", 1)[0].split("\n## ", 1)[0]
        for f in family.fields:
            assert f"`{f.name}`" in section, (kind, f.name)
            for value in f.enum or ():
                assert value in section, (kind, f.name, value)
    summary_schema = json.loads((Path(schemas.HERE) / "summary.schema.json").read_text())
    summary_section = text.split("## summary.json (derived)", 1)[1].split("\n## ", 1)[0]
    for key in summary_schema["required"]:
        assert f"`{key}`" in summary_section or f"`{key}." in summary_section, key
    for key in ("sha256", "size", "encoding", "compression", "stored", "preview", "missing_reason"):
        assert f"| `{key}` |" in text, key


# -- every command block of every page --------------------------------------------------------------


def _environment(home: Path) -> dict[str, str]:
    """The test interpreter's scripts first on PATH (``coldstart``, ``python``, ``pytest``)."""
    scripts = str(Path(sys.executable).parent)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COLDSTART_TEST"))}
    env.update(PATH=scripts + os.pathsep + env.get("PATH", ""), HOME=str(home), PYTHONDONTWRITEBYTECODE="1")
    env.pop("VIRTUAL_ENV", None)
    return env


def _run(block: Block, cwd: Path, state: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """One block in bash -e, from the previous block's folder and exported variables."""
    script = (
        f"[ -f {state}/env ] && . {state}/env\n"
        f'cd "$(cat {state}/cwd 2>/dev/null || echo {cwd})"\n'
        f"trap 'rc=$?; export -p > {state}/env; pwd > {state}/cwd; exit $rc' EXIT\n"
        "set -e\n" + block.text
    )
    return subprocess.run(
        ["bash", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=BLOCK_TIMEOUT
    )


def _tail(text: str, lines: int = 25) -> str:
    return "\n".join(text.splitlines()[-lines:])


def _run_by_problems(block: Block) -> list[str]:
    runner = (REPO / block.run_by).read_text(encoding="utf-8") if (REPO / block.run_by).is_file() else ""
    if not runner:
        return [f"{block.where(REPO)}: run-by names {block.run_by}, which does not exist"]
    ci = {line.strip() for line in runner.splitlines()}
    # a line of the runner is the command itself, or the command followed by more options
    return [
        f"{block.where(REPO)}: {command!r} is not a line of {block.run_by} (a run-by block must be run there as written)"
        for command in command_lines(block.text)
        if command not in ci and not any(line.startswith(command + " --") for line in ci)
    ]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_command_block_runs_as_written(page: Path, tmp_path: Path) -> None:
    found = blocks(page)
    if not found:
        return
    repo = tmp_path / "repo"
    shutil.copytree(REPO, repo, ignore=NOT_COPIED, symlinks=True)
    state = tmp_path / "state"
    state.mkdir()
    (tmp_path / "home").mkdir()
    env = _environment(tmp_path / "home")
    problems: list[str] = []
    for block in found:
        if block.run_by:
            problems += _run_by_problems(block)
            continue
        try:
            done = _run(block, repo, state, env)
        except subprocess.TimeoutExpired:
            problems.append(f"{block.where(REPO)}: still running after {BLOCK_TIMEOUT} s")
            break
        output = done.stdout + done.stderr
        if done.returncode != block.exit:
            problems.append(
                f"{block.where(REPO)}: exit {done.returncode}, documented {block.exit}\n"
                f"--- block ---\n{block.text}--- output (tail) ---\n{_tail(output)}"
            )
            break  # later blocks build on this one
        if "Traceback (most recent call last)" in output:
            problems.append(f"{block.where(REPO)}: printed a traceback\n{_tail(output)}")
        absent = missing_output(block.output, output) if block.output else None
        if absent is not None:
            problems.append(
                f"{block.where(REPO)}: documented output line (at line {block.output_line}) not printed: "
                f"{absent!r}\n--- output (tail) ---\n{_tail(output)}"
            )
    assert not problems, "\n\n".join(problems)


def test_the_block_reader_knows_markers_and_output(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# t\n\n```bash\necho one\n```\n\n<!-- exit: 3 -->\n```bash\nexit 3\n```\n\n<!-- output -->\n```text\n"
        "x … z\n```\n\n<!-- run-by: .ci/run -->\n```bash\npython -m pytest\n```\n\n```python\nprint(1)\n```\n",
        encoding="utf-8",
    )
    one, two, three = blocks(page)
    assert (one.line, one.exit, one.output, one.run_by) == (3, 0, [], None)
    assert (two.line, two.exit, two.output, two.output_line) == (8, 3, ["x … z"], 13)
    assert (three.number, three.run_by) == (3, ".ci/run")
    assert missing_output(["x … z"], "a\nx y z\n") is None and missing_output(["b"], "a\n") == "b"
    assert command_lines("# c\n\na \\\n  b\nc\n") == ["a   b", "c"]
