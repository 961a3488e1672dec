"""Run every benchmark script and print one table of figures, with the machine they came from.

    python benchmarks/run_all.py --quick     # CI smoke: small sizes, about a minute on 2 cores
    python benchmarks/run_all.py             # the full sizes of DESIGN §8 (tens of minutes)
    python benchmarks/run_all.py --only audit,import --json figures.json

Each ``bench_*.py`` runs in its own process, one after the other (running them side by side
would distort the timings), with the arguments registered below for its size. The figures are
read from the script's output by the patterns registered below; a missing figure, a traceback
or an unregistered script is an error (exit 1), so a benchmark that changes its wording or a new
benchmark without a registered size is noticed. A script's own non-zero exit means it missed a
goal: it is named in a ``GOAL MISSED`` line and the run exits 2 (1 when there are errors too),
so a figure that misses its goal is never a silent success. Nothing here asserts a timing: the
scripts decide their goals against baselines measured in the same run.

Exit: 0 every figure printed and every goal met; 2 some goal missed; 1 an error.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
NUMBER = r"-?[\d,]+(?:\.\d+)?"


@dataclass(frozen=True)
class Figure:
    label: str
    pattern: str  # a regex with a ``value`` group (and optionally ``name``, appended to the label)
    goal: str = ""


@dataclass(frozen=True)
class Script:
    quick: tuple[str, ...]
    full: tuple[str, ...]
    figures: tuple[Figure, ...]


SCRIPTS: dict[str, Script] = {
    "audit": Script(
        ("--mb", "5"),
        ("--mb", "200"),
        (
            Figure("run size", rf"^run size\s+(?P<value>{NUMBER} MB)"),
            Figure("audit / floor, wall", rf"^audit / floor\s+(?P<value>{NUMBER} ?x)", "<= 3x"),
            Figure("audit / floor, CPU", rf"^audit / floor CPU\s+(?P<value>{NUMBER} ?x)"),
            Figure("audit peak RSS", rf"^peak RSS\s+(?P<value>{NUMBER} MB)", "<= size/2 + 150 MB"),
        ),
    ),
    "import": Script(
        ("--calls", "5000"),
        ("--calls", "50000"),
        (
            Figure(
                "import rate, wall, at",
                rf"^import: (?P<name>{NUMBER} records) in {NUMBER} s = (?P<value>{NUMBER} records/s)",
                ">= 20,000 records/s",
            ),
            Figure("import / floor", rf"^import: .*?\((?P<value>{NUMBER} ?x) the floor\)"),
            Figure("import rate, CPU", rf"^cpu time of this process: {NUMBER} s = (?P<value>{NUMBER} records/s)"),
            Figure(
                "import peak RSS at",
                rf"^peak RSS: (?P<value>{NUMBER} MB) at (?P<name>{NUMBER} calls)",
                "<= 150 MB + 4x largest record",
            ),
        ),
    ),
    "recorder": Script(
        ("--quick",),
        (),
        (
            Figure(
                "append, one fsynced record per call", rf"one fsynced record per call: (?P<value>{NUMBER} records/s)"
            ),
            Figure("append_many", rf"append_many .*?: (?P<value>{NUMBER} records/s)"),
            Figure(
                "`coldstart trace call` process, median",
                rf"`coldstart trace call` process: median (?P<value>{NUMBER} ms)",
                "<= 100 ms",
            ),
            Figure(
                "validate / floor at", rf"^validate (?P<name>{NUMBER}) records .*?validate/floor (?P<value>{NUMBER} ?x)"
            ),
            Figure(
                "validate time ratio, 10x records",
                rf"^validate time ratio .*?: (?P<value>{NUMBER}) \(10\.0 = linear\)",
                "10 = linear",
            ),
        ),
    ),
    "hook": Script(
        ("--quick",),
        (),
        (
            Figure("interpreter start, median", rf"^python -c pass .*?: median (?P<value>{NUMBER} ms)"),
            Figure(
                "`coldstart hook claude-code`, median",
                rf"^coldstart hook claude-code: +median (?P<value>{NUMBER} ms)",
                "<= 50 ms",
            ),
        ),
    ),
    "dashboard": Script(
        ("--runs", "2000", "--real", "20"),
        ("--runs", "10000", "--real", "200"),
        (
            Figure(
                "dashboard collect, stored reports",
                rf"^real runs collected, stored .*?\((?P<value>{NUMBER} ms) per run",
            ),
            Figure("dashboard page", rf"^page (?P<name>{NUMBER}) runs\s+(?P<value>{NUMBER} MB)"),
            Figure("dashboard load", rf"^browser load (?P<name>{NUMBER}) runs\s+(?P<value>{NUMBER} ms) to ready"),
        ),
    ),
    "summary": Script(
        ("--calls", "2000"),
        ("--calls", "20000"),
        (
            Figure("summary.build / floor", rf"^summary\.build: {NUMBER} s = (?P<value>{NUMBER} ?x) the floor"),
            Figure(
                "summary heap peak, trajectory of",
                rf"^summary heap peak: (?P<value>{NUMBER} MB) for a (?P<name>{NUMBER} MB) trajectory",
            ),
        ),
    ),
    "preflight": Script(
        ("--repeat", "2"),
        ("--repeat", "5"),
        (
            Figure(
                "fast preflight checks beyond CLI start",
                rf"^fast subset minus cli start: (?P<value>{NUMBER} ms)",
                "a few seconds",
            ),
        ),
    ),
    "hostile_evidence": Script(
        ("--quick",),
        (),
        (
            Figure(
                "newest evidence readers on hostile text, worst time ratio for 4x the size",
                rf"^worst ratio (?P<value>{NUMBER}x)",
                "<= 6x (4x is linear)",
            ),
        ),
    ),
    "parsers": Script(
        ("--quick",),
        (),
        (
            Figure(
                "call parsers, worst ns/byte growth over 16x the text",
                rf"^worst growth (?P<value>{NUMBER}x)",
                "<= 2x (linear)",
            ),
        ),
    ),
    "redaction_shapes": Script(
        ("--quick",),
        (),
        (
            Figure(
                "redaction on hostile text, worst ns/byte growth over 16x",
                rf"^worst growth (?P<value>{NUMBER}x)",
                "<= 2x (linear)",
            ),
        ),
    ),
    "shapes": Script(
        ("--quick", "--repeat", "1"),
        (),
        (
            Figure(
                "audit / floor, format point carts calls:",
                rf"^\s*(?P<name>[12] \S.*?\d+\s+\d+)\s+{NUMBER}\s+{NUMBER}\s+{NUMBER}\s+(?P<value>{NUMBER}x)",
                "<= 2x",
            ),
        ),
    ),
    "batch": Script(
        ("--runs", "3", "--mb", "0.5", "--small", "20"),
        ("--dask",),
        (
            Figure(
                "speed-up,",
                rf"^(?:met   |MISSED) (?P<name>[^:]+): (?P<value>{NUMBER}x)",
                "batch/--coldstart-jobs >= 1.8x, -n big >= 1.7x",
            ),
        ),
    ),
    "pytest": Script(
        ("--runs", "100"),
        ("--runs", "2000"),
        (
            Figure("audit per run", rf"^audit only\s+{NUMBER} s\s+\((?P<value>{NUMBER} ms) per run\)"),
            Figure(
                "pytest overhead beyond the audit per run",
                rf"^overhead beyond the audit: (?P<value>{NUMBER} ms) per run",
                "<= 20 ms",
            ),
            Figure("pytest warm cache per run", rf"^pytest warm cache .*?\((?P<value>{NUMBER} ms) per run"),
            Figure("-n 2 speedup", rf"^-n 2 speedup: (?P<value>{NUMBER} ?x)", "> 1x (scales)"),
        ),
    ),
    "redaction": Script(
        ("--calls", "2000", "--repeat", "2"),
        ("--calls", "20000", "--repeat", "5"),
        (
            Figure(
                "import, new / old rules,",
                rf"^import (?P<name>\S+)\s*: .*; ratio (?P<value>{NUMBER})",
                "close to 1",
            ),
            Figure("scrub, new / old rules", rf"^scrub .*; ratio (?P<value>{NUMBER})", "close to 1"),
        ),
    ),
}


@dataclass
class Outcome:
    name: str
    args: list[str]
    seconds: float = 0.0
    returncode: int | None = None
    figures: list[tuple[str, str, str]] = field(default_factory=list)  # (label, value, goal)
    errors: list[str] = field(default_factory=list)
    stdout: str = ""


def machine() -> dict[str, str]:
    """CPU model, cores, RAM, OS and Python of this machine."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        ram = f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.1f} GiB"
    except (ValueError, OSError, AttributeError):
        ram = "unknown"
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {
        "cpu": cpu,
        "cores": f"{os.cpu_count()} logical ({usable} usable)",
        "ram": ram,
        "os": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
    }


def commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else "unknown"


def discover() -> list[str]:
    return sorted(p.stem.removeprefix("bench_") for p in HERE.glob("bench_*.py"))


def extract(script: Script, stdout: str) -> tuple[list[tuple[str, str, str]], list[str]]:
    """(figures found, labels of registered figures that were not printed)."""
    found, missing = [], []
    lines = stdout.splitlines()
    for figure in script.figures:
        pattern = re.compile(figure.pattern)
        matches = [m for m in map(pattern.search, lines) if m]
        if not matches:
            missing.append(figure.label)
        for match in matches:
            name = match.groupdict().get("name")
            found.append((f"{figure.label} {name}" if name else figure.label, match.group("value"), figure.goal))
    return found, missing


def run_one(name: str, quick: bool, timeout: float) -> Outcome:
    script = SCRIPTS.get(name)
    if script is None:
        return Outcome(
            name,
            [],
            errors=[
                f"bench_{name}.py is not registered in benchmarks/run_all.py (add its quick/full sizes and figures)"
            ],
        )
    outcome = Outcome(name, list(script.quick if quick else script.full))
    began = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, str(HERE / f"bench_{name}.py"), *outcome.args],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        outcome.seconds = time.perf_counter() - began
        outcome.errors.append(f"timed out after {timeout:.0f} s")
        return outcome
    outcome.seconds, outcome.returncode, outcome.stdout = time.perf_counter() - began, done.returncode, done.stdout
    outcome.figures, missing = extract(script, done.stdout)
    if "Traceback (most recent call last)" in done.stderr:
        outcome.errors.append("crashed: " + done.stderr.strip().splitlines()[-1][:300])
    outcome.errors += [f"figure not printed: {label}" for label in missing]
    if outcome.errors and done.stderr.strip():
        outcome.errors.append("stderr: " + " | ".join(done.stderr.strip().splitlines()[-5:])[:600])
    return outcome


def missed(outcome: Outcome) -> bool:
    """The script ran to the end (no error) but says, by a non-zero exit, that a goal was missed."""
    return not outcome.errors and outcome.returncode not in (0, None)


def table(outcomes: list[Outcome], mode: str, started: str) -> str:
    info = machine()
    rows = [("benchmark", "figure", "value", "goal (DESIGN §8)")]
    rows += [(outcome.name, label, value, goal) for outcome in outcomes for label, value, goal in outcome.figures]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    out = [
        f"pytest-coldstart benchmarks ({mode} sizes), {started}, commit {commit()}",
        f"machine: {info['cpu']}; {info['cores']} cores; {info['ram']} RAM; {info['os']}; {info['python']}",
        "",
    ]
    out += ["  ".join(cell.ljust(widths[i]) if i < 3 else cell for i, cell in enumerate(row)).rstrip() for row in rows]
    out.append("")
    out += [f"ERROR {outcome.name}: {error}" for outcome in outcomes for error in outcome.errors]
    out += [
        f"GOAL MISSED {outcome.name}: bench_{outcome.name}.py exited {outcome.returncode} (see its figures above)"
        for outcome in outcomes
        if missed(outcome)
    ]
    out.append(
        "scripts: "
        + ", ".join(
            f"{o.name} {' '.join(o.args) or '(defaults)'} {o.seconds:.0f}s exit {o.returncode}" for o in outcomes
        )
    )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (CI smoke), about a minute on 2 cores")
    parser.add_argument("--only", help="comma-separated benchmark names (default: every bench_*.py)")
    parser.add_argument(
        "--timeout", type=float, default=None, help="per script, seconds (default 600 quick, 7200 full)"
    )
    parser.add_argument("--raw", action="store_true", help="also print each script's own output")
    parser.add_argument("--json", metavar="PATH", help="also write machine, figures and errors as JSON")
    args = parser.parse_args(argv)
    names = discover()
    if args.only:
        wanted = [n.strip() for n in args.only.split(",") if n.strip()]
        unknown = sorted(set(wanted) - set(names))
        if unknown:
            parser.error(f"no such benchmark: {', '.join(unknown)} (have: {', '.join(names)})")
        names = wanted
    timeout = args.timeout or (600 if args.quick else 7200)
    started = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    outcomes = []
    for name in names:
        print(f"running bench_{name}.py ...", file=sys.stderr, flush=True)
        outcomes.append(run_one(name, args.quick, timeout))
        if args.raw:
            print(f"--- bench_{name}.py {' '.join(outcomes[-1].args)}\n{outcomes[-1].stdout}", flush=True)
    mode = "quick" if args.quick else "full"
    print(table(outcomes, mode, started), flush=True)
    if args.json:
        document = {
            "mode": mode,
            "started": started,
            "commit": commit(),
            "machine": machine(),
            "benchmarks": [
                {
                    "name": o.name,
                    "args": o.args,
                    "seconds": round(o.seconds, 1),
                    "returncode": o.returncode,
                    "figures": [{"figure": f, "value": v, "goal": g} for f, v, g in o.figures],
                    "errors": o.errors,
                    "goal_missed": missed(o),
                }
                for o in outcomes
            ],
        }
        Path(args.json).write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    if any(o.errors for o in outcomes):
        return 1
    return 2 if any(missed(o) for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
