"""Audit time per byte across run shapes, both formats, against the floor (DESIGN §8, issue 18).

For each point (format, carts, calls, result size) it generates a run (``shapes.generate``:
every call is a read after the last capture, one in 50 quoting a cart back), then, in a
fresh child process, measures the floor (reading, JSON-parsing and hashing every byte once)
and the audit on it, and prints ns per byte for both, audit/floor and peak RSS. A term that
grows with the product of two sizes shows as ns/byte rising along a sweep.

    python benchmarks/bench_shapes.py --quick          # a minute: a few small points
    python benchmarks/bench_shapes.py                  # carts 10 -> 10,000, calls 1k -> 100k, a 200 MB run
    python benchmarks/bench_shapes.py --reference /path/to/mc-agent/tools/run_audit.py
    python benchmarks/bench_shapes.py --quick --corpus ../shared/corpus   # + the real rom20 run

The generated calls are short; a real agent's are long shell scripts (cd, pipes, heredocs,
nested shells). ``--corpus`` adds the real rom20 cold start (rebuilt as a version-1 run, and
migrated for version 2): 165 calls in 0.8 MB, where the provenance analysis, not the bytes,
is the work, so its ms per call is printed too.

Goals printed as met/missed: audit <= 2x the floor at every point and peak RSS <= 100 MB on
the ~200 MB run (both formats); with ``--reference``, reference/ours >= 5 on the 19 MB
version-1 run.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_audit import run_files  # noqa: E402
from shapes import generate  # noqa: E402

# (label, carts, calls, result bytes)
QUICK = [("carts", 10, 2000, 1024), ("carts", 1000, 2000, 1024), ("calls", 100, 8000, 1024)]
FULL = [
    ("carts", 10, 10_000, 1024),
    ("carts", 100, 10_000, 1024),
    ("carts", 1000, 10_000, 1024),
    ("carts", 10_000, 10_000, 1024),
    ("calls", 1000, 1000, 1024),
    ("calls", 1000, 10_000, 1024),
    ("calls", 1000, 100_000, 1024),
    ("few big results", 100, 2000, 64 * 1024),
    ("19 MB", 2000, 4000, 4096),
    ("200 MB", 2000, 44_000, 4096),
]


def real_rom20(corpus: Path, target: Path, fmt: int) -> Path:
    """The real rom20 run (tests/audit/rom20_rebuild.py) in format ``fmt``, built once."""
    if target.exists():
        return target
    import importlib.util

    spec = importlib.util.spec_from_file_location("rom20_rebuild", HERE.parent / "tests" / "audit" / "rom20_rebuild.py")
    assert spec is not None and spec.loader is not None
    rebuild = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rebuild)
    rebuild.rebuild(corpus.resolve().parent, target, reviews=True)
    if fmt == 2:
        from pytest_coldstart.record.migrate import migrate_run

        migrate_run(target)
    return target


def measure(run: Path, repeat: int) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, str(HERE / "bench_audit.py"), "--child", str(run), "--repeat", str(repeat)],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _timed_audit(command: list[str], out: Path) -> tuple[float, str]:
    """Wall seconds of one audit process (interpreter start included) and its verdict."""
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    took = time.perf_counter() - started
    if done.returncode not in (0, 1, 2):  # PASS, FAIL, PENDING: anything else did not audit
        raise SystemExit(f"audit process failed ({done.returncode}): {' '.join(command)}\n{done.stderr[-2000:]}")
    report = json.loads((out / "audit.json").read_text("utf-8"))
    return took, str(report.get("overall"))


def reference_vs_ours(script: Path, run: Path) -> tuple[float, str, float, str]:
    """The reference ``run_audit.py run`` (once) and our ``coldstart audit run`` (best of two),
    each one process on the same run: (theirs s, their verdict, ours s, our verdict)."""
    out = Path(tempfile.mkdtemp(prefix="ref-audit-"))
    try:
        # once: it takes minutes, so noise is no concern
        theirs = _timed_audit(
            [sys.executable, str(script), "run", "--run-dir", str(run), "--out", str(out / "ref")], out / "ref"
        )
        ours = min(
            _timed_audit(
                [
                    sys.executable,
                    "-m",
                    "pytest_coldstart",
                    "audit",
                    "run",
                    "--run-dir",
                    str(run),
                    "--out",
                    str(out / "ours"),
                ],
                out / "ours",
            )
            for _ in range(2)
        )
        return theirs[0], theirs[1], ours[0], ours[1]
    finally:
        shutil.rmtree(out, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a few small points (about a minute)")
    parser.add_argument("--formats", default="1,2", help="comma-separated formats (default 1,2)")
    parser.add_argument("--repeat", type=int, default=2, help="measure N times, keep the best (default 2)")
    parser.add_argument("--only", help="only the points whose label contains this text")
    parser.add_argument("--reference", type=Path, help="the reference run_audit.py, timed on the 19 MB v1 run")
    parser.add_argument("--dir", help="where to generate the runs (default: a temporary directory)")
    parser.add_argument("--corpus", type=Path, help="the external corpus folder: adds the real rom20 run")
    args = parser.parse_args()
    points = [p for p in (QUICK if args.quick else FULL) if not args.only or args.only in p[0]]
    formats = [int(f) for f in args.formats.split(",")]
    base = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="bench-shapes-"))
    goals: list[tuple[str, bool]] = []
    print(
        f"{'fmt':>3} {'point':<16} {'carts':>6} {'calls':>7} {'MB':>7} {'floor ns/B':>10} {'audit ns/B':>10} {'audit/floor':>11} {'RSS MB':>7}  verdict"
    )
    try:
        for label, carts, calls, size in points:
            for fmt in formats:
                run = base / f"v{fmt}-{carts}-{calls}-{size}" / "run"
                if not run.exists():
                    generate(run, carts_n=carts, calls=calls, result_bytes=size, fmt=fmt)
                size_b = sum(p.stat().st_size for p in run_files(run))
                result = measure(run, args.repeat)
                ratio = result["audit_s"] / result["floor_s"]
                peak = max(result["peak_rss_mb"], result["child_peak_rss_mb"])
                print(
                    f"{fmt:>3} {label:<16} {carts:>6} {calls:>7} {size_b / 2**20:>7.1f} "
                    f"{1e9 * result['floor_s'] / size_b:>10.1f} {1e9 * result['audit_s'] / size_b:>10.1f} "
                    f"{ratio:>10.2f}x {peak:>7.1f}  {result['overall']}",
                    flush=True,
                )
                goals.append((f"v{fmt} {label} ({carts} carts, {calls} calls): audit <= 2x the floor", ratio <= 2))
                if label == "200 MB":
                    goals.append((f"v{fmt} {size_b / 2**20:.0f} MB run: peak RSS {peak:.0f} MB <= 100 MB", peak <= 100))
                if label == "19 MB" and fmt == 1 and args.reference:
                    theirs, their_verdict, ours, our_verdict = reference_vs_ours(args.reference, run)
                    speed = theirs / ours
                    print(
                        f"    reference audit process {theirs:.2f} s ({their_verdict}), ours {ours:.2f} s "
                        f"({our_verdict}; {result['audit_s']:.2f} s in process): reference/ours {speed:.2f}"
                    )
                    goals.append((f"reference/ours {speed:.2f} >= 5 on the 19 MB v1 run", speed >= 5))
        for fmt in formats if args.corpus else ():
            run = real_rom20(args.corpus, base / f"v{fmt}-rom20" / "run", fmt)
            size_b = sum(p.stat().st_size for p in run_files(run))
            result = measure(run, args.repeat)
            calls = sum(1 for line in (run / "trajectory.jsonl").open("rb") if b'"call"' in line[:200])
            print(
                f"{fmt:>3} {'real rom20':<16} {'':>6} {calls:>7} {size_b / 2**20:>7.1f} "
                f"{1e9 * result['floor_s'] / size_b:>10.1f} {1e9 * result['audit_s'] / size_b:>10.1f} "
                f"{result['audit_s'] / result['floor_s']:>10.2f}x {result['peak_rss_mb']:>7.1f}  {result['overall']}"
                f"  ({1e3 * result['audit_s'] / max(1, calls):.2f} ms per call)",
                flush=True,
            )
        if not args.reference and not args.quick:
            print("reference/ours: not measured (no runnable reference given: --reference PATH/run_audit.py)")
        for text, met in goals:
            print(f"{'met   ' if met else 'MISSED'} {text}")
    finally:
        if not args.dir:
            shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
