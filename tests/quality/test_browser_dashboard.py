"""The lab dashboard (``coldstart report``) in a real headless Chromium.

The page is made by the real CLI from a copy of runs/ plus scenario runs whose run ids, folder
names, models, harnesses, task text, tool arguments and review notes carry script-injection
payloads (the ones of test_browser_report.py), on several days. Checked: the page is one file
with no external reference; it loads with no console entry at all (no error, no CSP refusal);
no payload ran and each shows as text; the filters, sorting and pagination select what the
audits say; opening a run draws its whole timeline with the cited refs marked, its five flags
with evidence and its audit.md; the worklist counts what ``review todo`` counts; trends appear.
Screenshots go to $COLDSTART_ARTIFACTS (or tmp_path).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from coldstart_webdriver import PACKAGES, Browser, find_browser
from test_browser_report import artifacts_dir, payloads, slashless

from pytest_coldstart.audit import audit_run
from pytest_coldstart.audit.audit_report import AuditReport
from pytest_coldstart.audit.report import render_markdown
from pytest_coldstart.demo.scenarios import RunBuilder

RUNS = Path(__file__).resolve().parents[2] / "runs"
SHOWN: dict[str, str] = {}


def carry(name: str, value: str) -> str:
    SHOWN[name] = value
    return value


def build_lab(root: Path) -> None:
    shutil.copytree(RUNS, root / "examples")
    for day in range(3):
        harness = {
            "name": carry("harness", "h-" + payloads("harness")["svg"]),
            "version": "1",
            "model": carry("model", "m-" + payloads("model")["script"]),
            "provider": "p",
        }
        task = carry("task", "Task " + payloads("task")["img"])
        run = RunBuilder(
            root / f"day{day}" / carry("folder", "run-" + slashless("folder")),
            run_id=f"rid-{day}-" + slashless("runid"),
        )
        run.unreviewed() if day == 1 else run.passing()
        run.manifest(
            created_at=f"2025-12-{28 + day}T10:00:00.000Z", harness=harness, task_bytes=f"# {task}\nbody".encode()
        )
        argument = carry("tool argument", payloads("argument")["details"])
        run.call("c-actuate")["arguments"]["note"] = argument
        for entry in run.reviews:
            entry["note"] = carry("review note", payloads("note")["iframe"])
        run.build()


def expected(root: Path) -> dict[str, object]:
    reports = [audit_run(p.parent, write=False) for p in sorted(root.rglob("run.json"))]
    statuses = [r["overall"] for r in reports]
    return {
        "runs": len(reports),
        "FAIL": statuses.count("FAIL"),
        "PENDING": statuses.count("PENDING"),
        "open": sum(r["status"] not in ("resolved", "rejected") for rep in reports for r in rep["required_reviews"]),
        "agent_fail": sum(r["failure_class"] == "AGENT_FAIL" for r in reports),
        "days": len({json.loads(p.read_text())["created_at"][:10] for p in root.rglob("run.json")}),
    }


SELECT = """
const [id, value] = arguments;
const s = document.getElementById(id); s.value = value; s.dispatchEvent(new Event('change'));
return [document.getElementById('f-count').textContent, [...document.querySelectorAll('#runs-body tr')].map(tr => tr.children[4].textContent)];
"""
INSPECT = """
const on = [];
for (const el of document.querySelectorAll('*')) for (const a of el.attributes) if (a.name.toLowerCase().startsWith('on')) on.push(el.tagName + ' ' + a.name);
return {
  pwned: window.__pwned || null, marker: document.documentElement.getAttribute('data-pwned'), on: on,
  injected: document.querySelectorAll('iframe, details, img, svg[onload], a[href^="javascript"]').length,
  scripts: document.scripts.length, text: document.body.textContent,
};
"""


def test_the_dashboard_loads_clean_filters_opens_runs_and_never_runs_a_payload(tmp_path):
    chromium, chromedriver = find_browser()
    if chromium is None or chromedriver is None:
        pytest.fail(
            f"headless Chromium is required (chromium: {chromium}, chromedriver: {chromedriver}); install the {PACKAGES}"
        )
    lab = tmp_path / "lab"
    build_lab(lab)
    want = expected(lab)
    page = tmp_path / "lab.html"
    done = subprocess.run(
        [sys.executable, "-m", "pytest_coldstart", "report", str(lab), "--html", str(page)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"wrote {page} ({want['runs']} run(s))"
    html = page.read_text(encoding="utf-8")
    before, rest = html.split('<script type="application/json" id="coldstart-data">')
    embedded, after = rest.split("</script>", 1)
    assert "<" not in embedded and json.loads(embedded)["runs"]  # run strings only there, escaped, JSON
    outside = before + after
    assert not re.search(r"<(link|img|iframe|object|embed)\b|\bsrc=|@import|url\(", outside), "the page loads nothing"
    assert len(re.findall(r"<script\b", outside)) == 1 and "Content-Security-Policy" in outside
    assert "runid" not in outside and "http" not in outside.replace("http://www.w3.org/2000/svg", "").replace(
        "http-equiv", ""
    )

    out = artifacts_dir(tmp_path)
    with Browser(chromium, chromedriver, tmp_path / "profile", out / "chromedriver.log") as browser:
        browser.get(page.as_uri())
        browser.wait_for("return document.body.getAttribute('data-ready') === '1'")
        browser.execute("return new Promise(r => setTimeout(r, 300))")
        seen = browser.execute(INSPECT)
        assert seen["pwned"] is None and seen["marker"] is None, seen["pwned"]
        assert seen["on"] == [] and seen["injected"] == 0 and seen["scripts"] == 2
        for name in ("model", "harness"):
            assert SHOWN[name] in seen["text"], name
        browser.screenshot(out / "dashboard.png")

        count, statuses = browser.execute(SELECT, "f-status", "FAIL")
        assert count == f"{want['FAIL']} of {want['runs']} run(s)" and set(statuses) == {"FAIL"}
        count, statuses = browser.execute(SELECT, "f-status", "PENDING")
        assert count.startswith(f"{want['PENDING']} of") and set(statuses) == {"PENDING"}
        browser.execute(SELECT, "f-status", "")
        count, _ = browser.execute(SELECT, "f-klass", "AGENT_FAIL")
        assert count.startswith(f"{want['agent_fail']} of")
        browser.execute(SELECT, "f-klass", "")
        query = "const q = document.getElementById('f-q'); q.value = arguments[0]; q.dispatchEvent(new Event('input')); return [...document.querySelectorAll('#runs-body tr')].map(tr => tr.children[0].textContent)"
        found = browser.execute(query, "runid-img")
        assert len(found) == 3 and all(t.startswith("rid-") and t.endswith(slashless("runid")) for t in found)
        browser.execute(query, "")
        calls = browser.execute(
            "document.querySelector('#runs th[data-key=\"calls\"]').click(); document.querySelector('#runs th[data-key=\"calls\"]').click();"
            "return [...document.querySelectorAll('#runs-body tr')].map(tr => tr.children[7].textContent)"
        )
        numbers = [float(c) for c in calls if c != "-"]
        assert numbers == sorted(numbers, reverse=True) and numbers

        # Open the scenario run of day 0: its whole timeline, the refs its flags cite, its audit.md.
        browser.execute(query, "rid-0-")
        browser.execute("document.querySelector('#runs-body tr').click()")
        run_dir = next(p.parent for p in lab.rglob("run.json") if "day0" in str(p))
        report = audit_run(run_dir, write=False)
        opened = browser.execute(
            "const d = document.getElementById('detail');"
            "return {events: d.querySelectorAll('circle.ev').length, cited: [...d.querySelectorAll('circle.cited')].map(c => c.getAttribute('data-ref')),"
            " flags: d.querySelectorAll('.flagbox').length, md: d.querySelector('pre.audit-md').textContent, width: d.querySelector('svg').getBoundingClientRect().width,"
            " text: d.textContent}"
        )
        timeline_refs = {e["ref"] for e in report["timeline"]}
        cited = {ref for flag in report["flags"] for ref in flag["evidence"] if ref in timeline_refs}
        assert opened["events"] == len(report["timeline"]) and set(opened["cited"]) == cited and cited
        assert opened["flags"] == 5 and opened["md"] == render_markdown(AuditReport.from_json(report))
        assert opened["width"] > 1000  # full width, not the 220 px picture of the pytest-html row
        assert "note-iframe" in opened["md"]  # the review note, as audit.md writes it (escaped markdown)
        assert SHOWN["task"][:80] in opened["text"]  # the task's label: its first line, cut to 80 characters
        for name in ("tool argument",):
            assert SHOWN[name] in opened["text"] or json.dumps(SHOWN[name])[1:-1] in opened["text"], name
        highlighted = browser.execute(
            "document.querySelectorAll('#detail .flagbox')[0].click(); return [...document.querySelectorAll('#detail circle.hl')].map(c => c.getAttribute('data-ref'))"
        )
        assert set(highlighted) == {r for r in report["flags"][0]["evidence"] if r in timeline_refs}
        browser.screenshot(out / "dashboard-run.png", browser.execute("return document.getElementById('detail')"))

        worklist = browser.execute("return document.querySelector('#worklist h2').textContent")
        assert worklist == f"Reviewer's worklist: {want['open']} open review(s)"
        assert (
            browser.execute(
                "return !document.getElementById('trends').hidden && document.querySelectorAll('#trends circle.day').length"
            )
            == want["days"]
            > 1
        )
        after = browser.execute(INSPECT)
        assert after["pwned"] is None and after["marker"] is None
        assert browser.console() == []  # no error, no warning, no CSP refusal during the whole session
