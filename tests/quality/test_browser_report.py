"""The pytest-html report in a real browser (issue 8): headless Chromium opens a report made from
runs whose ids, tool arguments, results, call ids, review ids/notes and item names carry
script-injection payloads, and proves that no payload ran, that each shows as plain text, and
that the evidence tables and the timeline SVG render after pytest-html's JavaScript built the page.

Every payload would record itself (``window.__pwned`` and a ``data-pwned`` attribute on <html>);
a control page that inserts the same payloads unescaped, the way pytest-html inserts extras,
proves the detector fires in this browser. Screenshots go to $COLDSTART_ARTIFACTS (or tmp_path).
Needs the Debian packages chromium and chromium-driver; without them the test fails (never skips).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from coldstart_webdriver import PACKAGES, Browser, find_browser

from pytest_coldstart.demo.scenarios import RunBuilder, story


def mark(tag: str, scope: str = "window") -> str:
    """JavaScript that records that payload ``tag`` ran (no '/' so it fits ids and folder names)."""
    return f"({scope}.__pwned={scope}.__pwned||[]).push('{tag}');{scope}.document.documentElement.setAttribute('data-pwned','{tag}')"


def payloads(tag: str) -> dict[str, str]:
    return {
        "img": f'<img src=x onerror="{mark(tag + "-img")}">',
        "svg": f'"><svg onload="{mark(tag + "-svg")}">',
        "details": f'\'><details open ontoggle="{mark(tag + "-details")}">',
        "script": f"<script>{mark(tag + '-script')}</script>",
        "iframe": f'<iframe srcdoc="<script>{mark(tag + "-iframe", "parent")}</script>"></iframe>',
        "link": f'<a href="javascript:{mark(tag + "-link")}">open</a>',
    }


def slashless(tag: str) -> str:
    """A payload for run ids and folder names, where '/' is not allowed."""
    return payloads(tag)["img"]


# Where each payload travels, and the text the report must show for it: JSON-escaped where it
# prints a JSON record, cut to a prefix (the report shortens long strings). Tool results and
# unknown review ids are not displayed at all: for them only "nothing ran" is checked.
SHOWN = 40
CARRIERS: dict[str, str | None] = {}


def carry(name: str, value: str, *, shown_as: str | None = None, shown: bool = True) -> str:
    CARRIERS[name] = (value if shown_as is None else shown_as)[:SHOWN] if shown else None
    return value


def build_runs(root: Path) -> None:
    """Three runs: reviewed (PASS), rejected + broken evidence path (FAIL), unreadable (INFRA)."""
    run_id = carry("run id", "rid-" + slashless("runid"))
    folder = carry("folder name", "run-" + slashless("folder"))
    good = RunBuilder(root / folder, run_id=run_id).passing()
    argument = payloads("argument")["svg"] + payloads("argument")["script"]
    good.call("c-actuate")["arguments"]["note"] = carry("tool argument", argument, shown_as=json.dumps(argument)[1:-1])
    result_text = payloads("result")["details"] + payloads("result")["iframe"]
    good.call("c-actuate", "result")["result"]["detail"] = carry("tool result", result_text, shown=False)
    call_id = carry("call id", "c-" + slashless("callid"))
    tool = carry("tool name", payloads("tool")["link"])
    good.mutate_trajectory(
        lambda records: (
            records.insert(
                -3,
                {
                    "record": "call",
                    "call_id": call_id,
                    "tool": tool,
                    "arguments": {"url": "javascript:" + mark("argurl")},
                    "phase": "agent",
                    "actor": "agent",
                    "at": story.at(21.0),
                },
            )
            or records.insert(
                -3,
                {
                    "record": "result",
                    "call_id": call_id,
                    "status": "ok",
                    "result": {"text": payloads("callresult")["img"]},
                    "actor": "agent",
                    "phase": "agent",
                    "at": story.at(21.5),
                },
            )
        )
    )
    for entry in good.reviews:
        entry["note"] = carry("review note", payloads("note")["script"] + payloads("note")["img"])
        entry["by"] = carry("reviewer", "reviewer " + payloads("by")["svg"])
    good.build()

    bad = RunBuilder(root / ("bad-" + slashless("badfolder")), run_id="rid-bad-" + slashless("badrun")).passing()
    bad.review(
        "machine_operated.causality",
        "rejected",
        evidence=["trajectory:c-actuate"],
        note=carry("rejecting note", payloads("reject")["img"] + payloads("reject")["script"]),
    )
    bad.raw_review(
        {
            "seq": 99,
            "id": carry("review id", "review." + payloads("reviewid")["svg"], shown=False),
            "status": "resolved",
            "by": "x",
            "at": story.at(50),
            "note": "",
            "evidence": ["trajectory:c-actuate"],
        }
    )
    bad_path = carry("evidence path", slashless("evpath") + ".json")
    bad.edit_json("evidence.json", lambda e: e["answer"].update(path=bad_path))
    bad.build()

    broken = root / "broken-run"
    broken.mkdir()
    (broken / "run.json").write_text(
        json.dumps({"schemaVersion": 2, "run_id": carry("broken run id", "rid-" + slashless("broken"))})
    )


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.scripts += tag == "script"


INSPECT = """
const on = [];
for (const el of document.querySelectorAll('*')) {
  for (const a of el.attributes) { if (a.name.toLowerCase().startsWith('on')) on.push(el.tagName + ' ' + a.name + '=' + a.value); }
}
const urls = [...document.querySelectorAll('[href],[src],[action],[formaction]')]
  .map(e => e.getAttribute('href') || e.getAttribute('src') || e.getAttribute('action') || e.getAttribute('formaction') || '')
  .filter(v => /^\\s*javascript:/i.test(v));
const box = e => { const r = e.getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)]; };
return {
  pwned: window.__pwned || null,
  marker: document.documentElement.getAttribute('data-pwned'),
  title: document.title,
  on: on,
  jsUrls: urls,
  injected: document.querySelectorAll('iframe, details, img[src="x"], svg[onload]').length,
  scripts: document.scripts.length,
  rows: document.querySelectorAll('tbody.results-table-row').length,
  timelines: [...document.querySelectorAll('svg.coldstart-timeline')].map(s => [...box(s), s.querySelectorAll('g.event').length]),
  evidence: [...document.querySelectorAll('table.coldstart-evidence')].map(box).filter(([w, h]) => w > 0 && h > 0).length,
  text: document.body.textContent,
};
"""
GOOD_RUN_TIMELINE = (
    "return [...document.querySelectorAll('svg.coldstart-timeline')].find(s => s.textContent.includes('runid-img'))"
)
BUILT = "return document.querySelectorAll('tbody.results-table-row').length > 0 && document.querySelectorAll('svg.coldstart-timeline').length > 0"


def artifacts_dir(tmp_path: Path) -> Path:
    target = Path(os.environ.get("COLDSTART_ARTIFACTS") or tmp_path / "artifacts") / "browser-report"
    target.mkdir(parents=True, exist_ok=True)
    return target


def control_page(path: Path) -> str:
    """The same payloads inserted unescaped, as pytest-html inserts extras (insertAdjacentHTML)."""
    raw = json.dumps(list(payloads("control").values())).replace("</", "<\\/")  # keep the script element whole
    path.write_text(
        "<!doctype html><html><head><title>control</title></head><body>"
        f"<script>for (const p of {raw}) document.body.appendChild(document.createElement('div')).insertAdjacentHTML('beforeend', p)</script>"
        f"{payloads('static')['script']}</body></html>",
        encoding="utf-8",
    )
    return path.as_uri()


def test_no_payload_runs_and_the_evidence_and_timeline_render(tmp_path):
    chromium, chromedriver = find_browser()
    if chromium is None or chromedriver is None:
        pytest.fail(
            f"headless Chromium is required for this test (chromium: {chromium}, chromedriver: {chromedriver}); install the {PACKAGES}"
        )
    runs = tmp_path / "runs"
    build_runs(runs)
    report, junit = tmp_path / "report.html", tmp_path / "junit.xml"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:hypothesispytest",
            f"--coldstart-runs={runs}",
            f"--html={report}",
            "--self-contained-html",
            f"--junitxml={junit}",
            "-q",
            "-o",
            "console_output_style=classic",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert report.is_file(), done.stdout[-3000:] + done.stderr[-3000:]
    assert done.returncode == 1, f"expected failing items (the rejected and broken runs): {done.stdout[-2000:]}"
    cases = len(list(ET.parse(junit).getroot().iter("testcase")))
    parser = _Tags()
    parser.feed(report.read_text(encoding="utf-8"))
    out = artifacts_dir(tmp_path)

    with Browser(chromium, chromedriver, tmp_path / "profile", out / "chromedriver.log") as browser:
        browser.get(control_page(tmp_path / "control.html"))
        browser.wait_for("return document.readyState === 'complete'")
        fired = "['control-img', 'control-svg', 'control-details', 'control-iframe']"
        control = browser.wait_for(
            f"return window.__pwned && {fired}.every(t => window.__pwned.includes(t)) && window.__pwned"
        )
        assert browser.execute("return document.documentElement.getAttribute('data-pwned')"), (
            "the detector did not fire on the control page"
        )

        browser.get(report.as_uri() + "?collapsed=")  # nothing collapsed: every extra is laid out
        browser.wait_for(BUILT)
        browser.wait_for("return document.readyState === 'complete' && [...document.images].every(i => i.complete)")
        browser.execute("return new Promise(r => setTimeout(r, 300))")  # late handlers (onerror, ontoggle)
        seen = browser.execute(INSPECT)
        timeline = browser.execute(GOOD_RUN_TIMELINE)
        browser.execute("arguments[0].scrollIntoView()", timeline)
        page = browser.screenshot(out / "report.png")
        picture = browser.screenshot(out / "timeline.png", timeline)
        (out / "report.html").write_bytes(report.read_bytes())
    print(f"\nbrowser report artifacts: {out} (report.png, timeline.png, report.html, chromedriver.log)")

    assert set(control) >= {"control-img", "control-svg", "control-details", "control-iframe"}, (
        control
    )  # the detector works here
    assert seen["pwned"] is None and seen["marker"] is None, f"a payload ran: {seen['pwned']} / {seen['marker']}"
    assert seen["title"] == report.name
    assert seen["on"] == ["DIV onclick=location.reload()"], seen["on"]  # pytest-html's own reload link only
    assert seen["jsUrls"] == [] and seen["injected"] == 0, (seen["jsUrls"], seen["injected"])
    assert seen["scripts"] == parser.scripts == 1  # pytest-html's own script, nothing more
    missing = [name for name, text in CARRIERS.items() if text is not None and text not in seen["text"]]
    assert not missing, f"payloads not shown as text: {missing}"
    assert seen["rows"] == cases, (seen["rows"], cases)
    assert len(seen["timelines"]) == 2 and all(
        w > 100 and h > 50 and events >= 20 for w, h, events in seen["timelines"]
    ), seen["timelines"]
    assert seen["evidence"] >= cases, seen["evidence"]
    assert page.stat().st_size > 10_000 and picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
