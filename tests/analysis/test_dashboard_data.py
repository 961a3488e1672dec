"""The dashboard's data and page builder without a browser: Wilson intervals, the embedding of run
strings, the counts per group/task/day against the audits, and the bound on embedded details."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.analysis.dashboard import collect, page_data, render_page
from pytest_coldstart.analysis.dashboard.page import embed_json
from pytest_coldstart.analysis.dashboard.stats import rates, wilson
from pytest_coldstart.audit import audit_run

RUNS = Path(__file__).resolve().parents[2] / "runs"


def test_wilson_matches_published_values_and_stays_in_bounds():
    low, high = wilson(5, 10)
    assert round(low, 4) == 0.2366 and round(high, 4) == 0.7634
    low, high = wilson(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    low, high = wilson(10, 10)
    assert round(low, 4) == 0.7225 and high == 1.0
    assert wilson(0, 0) is None
    summary = rates(["PASS", "FAIL", "PASS", "PENDING", "UNKNOWN"])
    assert summary["n"] == 5 and summary["PASS"]["count"] == 2 and summary["PASS"]["rate"] == 0.4


@given(st.integers(0, 500), st.integers(1, 500))
def test_wilson_interval_contains_the_rate(k, n):
    k = min(k, n)
    low, high = wilson(k, n)
    assert 0.0 <= low <= k / n <= high <= 1.0


@given(st.recursive(st.text() | st.integers() | st.none(), lambda c: st.lists(c) | st.dictionaries(st.text(), c)))
def test_embedded_json_cannot_close_the_script_element_and_parses_back(value):
    text = embed_json(value)
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == value


def test_counts_match_the_audits_and_details_are_bounded(tmp_path):
    shutil.copytree(RUNS, tmp_path / "runs")
    views = collect([tmp_path / "runs"])
    reports = {str(v.audited.path): audit_run(v.audited.path, write=False) for v in views}
    data = page_data(views, details_limit=4)
    column = {name: i for i, name in enumerate(data["columns"])}
    assert len(data["runs"]) == len(reports) == len(list(RUNS.rglob("run.json")))
    for row in data["runs"]:
        report = reports[row[column["path"]]]
        assert row[column["status"]] == report["overall"] and row[column["class"]] == report["failure_class"]
        letters = "".join({"PASS": "P", "FAIL": "F", "PENDING": "W"}[f["status"]] for f in report["flags"])
        assert row[column["flags"]] == letters
    assert sum(g["rates"]["n"] for g in data["groups"]) == len(reports)
    assert sum(g["rates"]["FAIL"]["count"] for g in data["groups"]) == sum(
        r["overall"] == "FAIL" for r in reports.values()
    )
    assert sum(t["rates"]["n"] for t in data["by_task"]) == len(reports)
    assert data["classes"].get("INFRA_ERROR") == sum(r["failure_class"] == "INFRA_ERROR" for r in reports.values())
    # At most 4 details, runs with open reviews first.
    assert len(data["details"]) == 4
    with_open = {str(i) for i, row in enumerate(data["runs"]) if row[column["open_reviews"]]}
    assert with_open and with_open <= set(data["details"])
    open_count = sum(
        r["status"] not in ("resolved", "rejected") for rep in reports.values() for r in rep["required_reviews"]
    )
    assert sum(g["count"] for g in data["worklist"]) == open_count
    assert data["days"] == [] or len(data["days"]) >= 2
    html = render_page(data)
    assert html.count("<script") == 2 and 'http-equiv="Content-Security-Policy"' in html
