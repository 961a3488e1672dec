"""Helpers of the pytest-plugin tests: lab directories of real scenario runs, outcome parsing."""

from __future__ import annotations

import html
import json
import re
import shutil
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pytest_coldstart.audit import audit_run
from pytest_coldstart.demo.scenarios import RunBuilder, build_run

#: Scenarios copied into most labs: one per outcome family.
LAB = (
    "passing",
    "pending_reviews",
    "late_logger",
    "invalid_fixture",
    "tampered_hashes",
    "cross_stream_tie",
    "rejected_review",
)
HOSTILE_DIR = "run-<img src=x onerror=alert(9)>"
HOSTILE_RUN_ID = "<script>alert('run')"  # a run id may not hold "/", so no closing tag
PAYLOAD = "<script>alert('payload')</script>"

_SUMMARY = re.compile(r"^(PASSED|FAILED|XFAIL|XPASS|SKIPPED|ERROR) (.+?::\S+)(?: - .*)?$")
_WORD = {
    "PASSED": "passed",
    "FAILED": "failed",
    "XFAIL": "xfailed",
    "XPASS": "xpassed",
    "SKIPPED": "skipped",
    "ERROR": "error",
}


class ScenarioRuns:
    """Scenario runs built on first use, once per session; tests copy them, never edit them."""

    def __init__(self, base: Path):
        self.base = base

    def get(self, name: str) -> Path:
        target = self.base / name
        if not target.exists():
            build_hostile(target) if name == HOSTILE_DIR else build_run(target, name)
        return target


def build_hostile(run_dir: Path) -> Path:
    """A passing run whose id, tool arguments, results, events and review carry markup."""
    builder = RunBuilder(run_dir, run_id=HOSTILE_RUN_ID).passing()
    builder.call("c-read-log")["arguments"]["comment"] = PAYLOAD
    builder.call("c-actuate")["arguments"]["command"] = f"player Romuser use once {PAYLOAD}"
    builder.call("c-write-answer", "result")["result"] = {"text": PAYLOAD}
    builder.event("testmod", "input_processed")["note"] = PAYLOAD
    builder.reviews[0]["note"] = PAYLOAD
    builder.reviews[0]["by"] = "<b onmouseover=alert('by')>reviewer</b>"
    return builder.build()


def copy_runs(source: ScenarioRuns, target: Path, names: tuple[str, ...] | list[str]) -> Path:
    target.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copytree(source.get(name), target / name, symlinks=True)
    return target


def outcomes(result: pytest.RunResult) -> dict[str, str]:
    """node id -> outcome, from the ``-rA`` short summary (works with xdist too)."""
    found = {}
    for line in result.outlines:
        match = _SUMMARY.match(line)
        if match and "::" in match.group(2):
            found[match.group(2)] = _WORD[match.group(1)]
    return found


def expected_outcomes(run_dir: Path, prefix: str) -> dict[str, str]:
    """What DESIGN §3 demands for this run's items, derived from the real audit report."""
    report = audit_run(run_dir, write=False)
    flag_map = {"PASS": "passed", "FAIL": "failed", "PENDING": "xfailed"}
    review_map = {"resolved": "passed", "rejected": "failed", "unresolved": "xfailed", "unresolved-refs": "xfailed"}
    clean = not report["infra_errors"] and not report["fixture_errors"]
    out = {f"{prefix}::validate": "passed" if clean else "failed"}
    for flag in report["flags"]:
        out[f"{prefix}::flag-{flag['flag']}"] = flag_map[flag["status"]]
    for review in report["required_reviews"]:
        malformed = any(f"review {review['id']}:" in error for error in report["infra_errors"])
        out[f"{prefix}::review-{review['id']}"] = "failed" if malformed else review_map[review["status"]]
    out[f"{prefix}::run"] = flag_map[report["overall"]]
    return out


@dataclass
class Case:
    outcome: str
    message: str
    properties: dict[str, str] = field(default_factory=dict)
    time: float = 0.0


def junit_cases(path: Path) -> dict[str, Case]:
    """'classname::name' -> Case (outcome, failure/skip message, properties)."""
    cases = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        outcome, message = "passed", ""
        for child in case:
            if child.tag in ("failure", "error"):
                outcome, message = "failed", child.get("message", "")
            elif child.tag == "skipped":
                outcome = "xfailed" if child.get("type") == "pytest.xfail" else "skipped"
                message = child.get("message", "")
        props = {p.get("name"): p.get("value") for p in case.iter("property")}
        cases[f"{case.get('classname')}::{case.get('name')}"] = Case(
            outcome, message, props, float(case.get("time", 0))
        )
    return cases


def html_tests(path: Path) -> dict[str, list[dict[str, Any]]]:
    """pytest-html's data blob (what its JavaScript renders with innerHTML)."""
    text = path.read_text(encoding="utf-8")
    blob = re.search(r'data-jsonblob="([^"]*)"', text)
    assert blob is not None, "pytest-html data blob not found"
    return json.loads(html.unescape(blob.group(1)))["tests"]
