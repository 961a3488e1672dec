"""Helpers for the audit tests: build a run with the RunBuilder and audit it in one call."""

from __future__ import annotations

import fnmatch
from pathlib import Path
from typing import Any

from pytest_coldstart.audit import audit_run
from pytest_coldstart.audit.evidence import provenance
from pytest_coldstart.audit.evidence.identity import Workspace
from pytest_coldstart.audit.evidence.shell_words import last_component
from pytest_coldstart.audit.evidence.shell_writes import shell_writes
from pytest_coldstart.audit.evidence.tree_writes import expand
from pytest_coldstart.demo.scenarios import RunBuilder
from pytest_coldstart.run.vocabulary import FLAGS


def statuses(report: dict[str, Any]) -> dict[str, str]:
    return {flag["flag"]: flag["status"] for flag in report["flags"]}


def flag(report: dict[str, Any], name: str) -> dict[str, Any]:
    return next(f for f in report["flags"] if f["flag"] == name)


def required(report: dict[str, Any], name: str) -> list[str]:
    return [item["id"] for item in flag(report, name)["required_review"]]


def audit(builder: RunBuilder, **kwargs: Any) -> dict[str, Any]:
    report = audit_run(builder.build(), write=False, **kwargs)
    assert [f["flag"] for f in report["flags"]] == list(FLAGS)
    assert not any("internal audit error" in text for text in report["infra_errors"]), report["infra_errors"]
    return report


def builder(tmp_path: Path, name: str = "run") -> RunBuilder:
    return RunBuilder(tmp_path / name, run_id="test-run")


def infra_mentions(report: dict[str, Any], *words: str) -> bool:
    return any(all(w in text for w in words) for text in report["infra_errors"])


#: The declared files of the ``declared_ws`` fixture (conftest.py), the run being the agent's cwd.
DECLARED_FILES = ["test/testmod.jsonl", "fixture/ready.json", "restore/verify.json", "oracle.json"]
HOME_RUN = {"agent": {"cwd": "/home/lab/run", "run_dir": "/home/lab/run"}}


def written_by_name(ws: Workspace, command: str) -> set[str]:
    """The declared files ``command`` writes; an unplaceable target by its name (as provenance)."""
    declared = {k for k in (ws.run_key(p) for p in DECLARED_FILES) if k is not None}

    def by_name(target: str) -> list[str]:
        return [k for k in declared if fnmatch.fnmatchcase(k.rpartition("/")[2], last_component(target))]

    writes = expand(shell_writes(command, ws, None, by_name), declared)
    return {ws.inside(key) or key for key, _, _ in writes if key in declared}


def oracle_and_testmod_model(root: Path) -> provenance.Provenance:
    """The provenance model of a run at ``root`` (its host path /home/lab/run) that declares an
    oracle and a test mod, with a workspace folder of the agent's."""
    declared = {"oracle": {"path": "oracle.json"}, "test_mod": {"path": "test/testmod.jsonl"}}
    for declaration in declared.values():
        (root / declaration["path"]).parent.mkdir(parents=True, exist_ok=True)
        (root / declaration["path"]).write_text("x", "utf-8")
    (root / "workspace").mkdir(exist_ok=True)
    return provenance.for_evidence(declared, Workspace(root, HOME_RUN))
