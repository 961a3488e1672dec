"""Preflight speed: the fast subset (harness_identity, terminal, filesystem, ports) as a user runs it.

Runs ``coldstart preflight run --checks harness_identity,terminal,filesystem,ports`` with
examples/harness-local.json (ports moved to free ones) ``--repeat`` times in fresh
processes, and, as the baseline measured in the same run, the bare start of the same CLI
(``coldstart preflight list``). Prints the median wall time of each and the difference: the
time the four checks themselves take. The seed's target is "a few seconds"; nothing here
asserts a timing.

    python benchmarks/bench_preflight.py [--repeat 5] [--all]

``--all`` also times every check the example enables (build_install compiles with the JDK;
source_fetch needs the network).
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FAST = "harness_identity,terminal,filesystem,ports"


def free_ports(count: int) -> list[int]:
    held = [socket.socket() for _ in range(count)]
    for sock in held:
        sock.bind(("127.0.0.1", 0))
    ports = [sock.getsockname()[1] for sock in held]
    for sock in held:
        sock.close()
    return ports


def timed(argv: list[str], cwd: Path) -> tuple[float, subprocess.CompletedProcess[str]]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest_coldstart", *argv], cwd=cwd, capture_output=True, text=True)
    return time.perf_counter() - started, done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--all", action="store_true", help="also time every check the example enables")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-preflight-") as tmp:
        work = Path(tmp)
        api, mod = free_ports(2)
        sets = [
            "--set",
            f"ports.api={api}",
            "--set",
            f"ports.mod={mod}",
            "--set",
            f"ports.range=[{min(api, mod)},{max(api, mod)}]",
        ]
        config = str(REPO / "examples/harness-local.json")
        rows = [
            ("cli start (preflight list)", lambda i: ["preflight", "list"]),
            (
                "fast subset",
                lambda i: [
                    "preflight",
                    "run",
                    "--config",
                    config,
                    "--out",
                    str(work / f"fast-{i}"),
                    "--checks",
                    FAST,
                    *sets,
                ],
            ),
        ]
        if args.all:
            rows.append(
                (
                    "every enabled check",
                    lambda i: ["preflight", "run", "--config", config, "--out", str(work / f"all-{i}"), *sets],
                )
            )
        medians = {}
        for label, argv in rows:
            times = []
            for i in range(args.repeat):
                seconds, done = timed(argv(i), work)
                if done.returncode not in (0, 1):
                    print(done.stderr, file=sys.stderr)
                    return 1
                times.append(seconds)
            medians[label] = statistics.median(times)
            print(
                f"{label:<28} median {medians[label] * 1000:7.0f} ms  (min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}, n={len(times)})"
            )
        report = json.loads((work / "fast-0/preflight.json").read_text())
        per_check = ", ".join(f"{c['id']} {c['duration_ms']:.0f} ms" for c in report["checks"])
        print(
            f"fast subset minus cli start: {(medians['fast subset'] - medians['cli start (preflight list)']) * 1000:.0f} ms ({per_check})"
        )
        print(f"fast subset overall: {report['overall']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
