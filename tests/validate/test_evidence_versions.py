"""Issue 16.5: versions inside evidence documents fail closed, in validate and the audit alike
(an unknown ``schema`` string on a fixture or restore report no longer audits PASS)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from hostile_runs import coldstart, copy_run, no_traceback, run_pytest

from pytest_coldstart.audit import audit_run
from pytest_coldstart.validate.run import validate_run

#: (evidence name, marker key, value)
UNKNOWN = [
    ("fixture", "schema", "lab-fixture/7"),
    ("fixture", "schema", None),
    ("fixture", "schemaVersion", 3),
    ("fixture", "schemaVersion", 2.0),
    ("restore", "schema", "mc-agent-coldstart-restore/1"),
    ("restore", "schemaVersion", "2"),
    ("answer", "schema", "mc-agent-coldstart-answer/9"),
    ("answer", "schemaVersion", 2.0),
    ("oracle", "schemaVersion", True),
    ("oracle", "schema", "mc-agent-coldstart-answer/1"),
]


def redeclare(run: Path, name: str, change: Any) -> str:
    """Edit an evidence document and declare its new bytes (as `trace evidence` would)."""
    evidence = json.loads((run / "evidence.json").read_text("utf-8"))
    relative = evidence[name]["path"]
    document = json.loads((run / relative).read_text("utf-8"))
    change(document)
    data = json.dumps(document, indent=2).encode("utf-8")
    (run / relative).write_bytes(data)
    evidence[name].update(sha256=hashlib.sha256(data).hexdigest(), size=len(data))
    (run / "evidence.json").write_text(json.dumps(evidence, indent=2), "utf-8")
    return str(relative)


@pytest.mark.parametrize("name, key, value", UNKNOWN)
def test_an_unknown_version_marker_fails_closed_everywhere(name: str, key: str, value: Any, tmp_path: Path) -> None:
    run = copy_run("passing", tmp_path / "lab" / "run")
    relative = redeclare(run, name, lambda d: d.update({key: value}))
    findings = [f for f in validate_run(run).findings if f.code == "evidence.version"]
    assert [f.file for f in findings] == [relative], findings
    report = audit_run(run, write=False)
    assert (report["overall"], report["failure_class"]) == ("FAIL", "INFRA_ERROR")
    assert any(f"evidence {name}: {relative}" in text for text in report["infra_errors"]), report["infra_errors"]
    done = coldstart("trace", "validate", "--run-dir", str(run))
    no_traceback(done.stderr)
    assert done.returncode == 1 and f"{relative}: " in done.stdout


@pytest.mark.parametrize("name, value", [("fixture", 2), ("restore", 2), ("answer", 2), ("oracle", 2)])
def test_known_markers_and_unmarked_lab_reports_still_pass(name: str, value: int, tmp_path: Path) -> None:
    run = copy_run("passing", tmp_path / "run")
    redeclare(run, name, lambda d: d.update(schemaVersion=value))
    assert validate_run(run).findings == []
    assert audit_run(run, write=False)["overall"] == "PASS"


def test_pytest_fails_the_run_of_an_unknown_fixture_schema(tmp_path: Path) -> None:
    run = copy_run("passing", tmp_path / "lab" / "run")
    redeclare(run, "fixture", lambda d: d.update(schema="lab-fixture/7"))
    outcomes, output = run_pytest(run.parent, cwd=tmp_path)
    no_traceback(output)
    assert outcomes.get("validate") == "FAILED" and "lab-fixture/7" in output, output[-3000:]
