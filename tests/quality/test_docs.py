"""The bundle documentation stays true: every analysis example runs against a fresh demo
output, and the format reference names every field of every record family and of summary.json."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from bundle_helpers import run_cli

from pytest_coldstart.record import taxonomy
from pytest_coldstart.run import schemas

DOCS = Path(__file__).resolve().parents[2] / "docs"
BLOCKS = re.findall(r"```(python|bash)\n(.*?)```", (DOCS / "analysis.md").read_text(encoding="utf-8"), re.S)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("analysis")
    assert run_cli("demo", "--out", "runs", cwd=root).returncode == 0
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


def test_shell_examples_run(workdir: Path) -> None:
    commands = [
        line for lang, body in BLOCKS if lang == "bash" for line in body.splitlines() if line.startswith("coldstart ")
    ]
    assert len(commands) >= 6
    for line in commands:
        command, _, comment = line.partition("#")
        done = run_cli(*command.split()[1:], cwd=workdir)
        expected = 1 if "exit 1" in comment else 0
        assert done.returncode == expected, (line, done.stderr)
        assert "Traceback" not in done.stderr


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
