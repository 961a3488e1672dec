"""The lab dashboard over 10,000 runs: page size, build time and load time in headless Chromium.

1. Real runs: ``--real`` (default 200) run directories, every catalogue scenario round-robin, each
   with its own model, harness, task and day. Collecting them (``dashboard.collect``: audit
   report, comparison row, task) is timed three times: audited (a cold audit cache), from the
   audit cache that first pass filled, and from the stored reports that ``coldstart audit run``
   wrote (the current-report path).
2. Synthetic reports: ``--runs`` (default 10,000) runs made by reusing those real audits under new
   run ids, models, harnesses, tasks and days (what a lab of that size gives the page builder).
   ``page_data`` + ``render_page`` are timed and the page size printed, against a baseline page
   of ``--baseline`` (default 100) runs built the same way in the same process.
3. Both pages are opened in headless Chromium (when installed): time from navigation start to
   the page being built (``data-ready-ms``, measured by the page), and the time of one filter
   change over all runs. Figures are printed, never asserted.

    python benchmarks/bench_dashboard.py [--runs 10000] [--real 200] [--baseline 100] [--keep DIR]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "quality"))  # the WebDriver client the browser tests use

from coldstart_webdriver import Browser, find_browser  # noqa: E402

from pytest_coldstart.analysis.audits import AuditedRun  # noqa: E402
from pytest_coldstart.analysis.dashboard import RunView, collect, page_data, render_page  # noqa: E402
from pytest_coldstart.audit import audit_run  # noqa: E402
from pytest_coldstart.demo.scenarios import SCENARIOS, RunBuilder  # noqa: E402

MODELS = ("model-a", "model-b", "model-c", "model-d")
HARNESSES = ("pi", "claude-code", "codex")
TASKS = 12
DAYS = 30


def build_real(root: Path, count: int) -> None:
    names = sorted(SCENARIOS)
    for i in range(count):
        scenario = SCENARIOS[names[i % len(names)]]
        builder = scenario.configure(RunBuilder(root / f"run-{i:05d}", run_id=f"{scenario.run_id}-{i}"))
        harness = {"name": HARNESSES[i % 3], "version": "1", "model": MODELS[i % 4], "provider": "p"}
        builder.manifest(
            harness=harness,
            task_bytes=f"# Task {i % TASKS}\n".encode(),
            created_at=f"2025-12-{1 + i % 28:02d}T10:00:00.000Z",
        )
        builder.build()


def synthetic(views: list[RunView], count: int) -> list[RunView]:
    out = []
    for i in range(count):
        base = views[i % len(views)]
        report = dict(base.audited.report, run_id=f"bench-{i:05d}")
        row = dict(base.row, model=MODELS[(i // 7) % 4], harness=HARNESSES[(i // 3) % 3], run_id=report["run_id"])
        out.append(
            dataclasses.replace(
                base,
                audited=AuditedRun(Path(f"lab/run-{i:05d}"), report, base.audited.source),
                row=row,
                task_key=f"task-{i % TASKS}",
                task_label=f"Task {i % TASKS}",
                created_at=f"2026-02-{1 + (i // 11) % 28:02d}T10:00:00.000Z",
            )
        )
    return out


def timed_page(views: list[RunView], path: Path) -> tuple[float, int, int]:
    start = time.perf_counter()
    data = page_data(views)
    html = render_page(data)
    seconds = time.perf_counter() - start
    path.write_text(html, encoding="utf-8")
    return seconds, path.stat().st_size, len(data["details"])


FILTER = """
const t0 = performance.now();
const s = document.getElementById('f-status'); s.value = 'FAIL'; s.dispatchEvent(new Event('change'));
const t1 = performance.now();
return [t1 - t0, document.getElementById('f-count').textContent];
"""


def load(browser: Browser, page: Path) -> tuple[int, float, str, int]:
    browser.get(page.as_uri())
    browser.wait_for("return document.body.getAttribute('data-ready') === '1'", timeout=120)
    ready = int(browser.execute("return document.body.getAttribute('data-ready-ms')"))
    took, count = browser.execute(FILTER)
    errors = [e for e in browser.console() if e.get("level") == "SEVERE"]
    return ready, float(took), str(count), len(errors)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--real", type=int, default=200)
    parser.add_argument("--baseline", type=int, default=100)
    parser.add_argument("--keep", type=Path, help="keep the generated runs and pages here")
    args = parser.parse_args()
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="coldstart-bench-dashboard-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        runs = work / "runs"
        build_real(runs, args.real)
        os.environ["COLDSTART_CACHE_DIR"] = str(work / "cache")  # cold: no earlier run's entries
        start = time.perf_counter()
        collect([runs])
        audited = time.perf_counter() - start
        start = time.perf_counter()
        cached_views = collect([runs])
        cached = time.perf_counter() - start
        hits = sum(v.audited.source == "cached" for v in cached_views)
        for run in sorted(runs.iterdir()):
            audit_run(run)  # audit/audit.json with its currency record
        start = time.perf_counter()
        stored_views = collect([runs])
        stored = time.perf_counter() - start
        sources = sum(v.audited.source == "stored" for v in stored_views)
        print(
            f"real runs collected, audited    {args.real} runs in {audited:.2f} s ({audited / args.real * 1000:.1f} ms per run)"
        )
        print(
            f"real runs collected, cached     {args.real} runs in {cached:.2f} s ({cached / args.real * 1000:.1f} ms per run; "
            f"{hits} from the audit cache)"
        )
        print(
            f"real runs collected, stored     {args.real} runs in {stored:.2f} s ({stored / args.real * 1000:.1f} ms per run; "
            f"{sources} stored reports current)"
        )
        print(f"collect {args.runs} runs, estimated  {stored / args.real * args.runs:.1f} s from stored reports")

        big, small = work / "lab-big.html", work / "lab-baseline.html"
        big_s, big_bytes, big_details = timed_page(synthetic(stored_views, args.runs), big)
        small_s, small_bytes, small_details = timed_page(synthetic(stored_views, args.baseline), small)
        print(
            f"page {args.runs} runs           {big_bytes / 1e6:.2f} MB, built in {big_s:.2f} s ({big_details} runs with details)"
        )
        print(
            f"page {args.baseline} runs (baseline) {small_bytes / 1e6:.2f} MB, built in {small_s:.2f} s ({small_details} runs with details)"
        )
        print(
            f"page size / baseline            {big_bytes / small_bytes:.1f} x for {args.runs / args.baseline:.0f} x the runs"
        )

        chromium, chromedriver = find_browser()
        if chromium is None or chromedriver is None:
            print("browser load                    not measured (install chromium and chromium-driver)")
            return 0
        with Browser(chromium, chromedriver, work / "profile", work / "chromedriver.log") as browser:
            small_ready, small_filter, _, _ = load(browser, small)
            big_ready, big_filter, count, errors = load(browser, big)
        print(
            f"browser load {args.runs} runs    {big_ready} ms to ready; filter over all runs {big_filter:.0f} ms ({count}); {errors} console errors"
        )
        print(f"browser load {args.baseline} runs (baseline) {small_ready} ms to ready; filter {small_filter:.0f} ms")
        print(f"browser load / baseline         {big_ready / max(small_ready, 1):.1f} x")
        return 0
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
