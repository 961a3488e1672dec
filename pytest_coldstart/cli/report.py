"""``coldstart report DIR... --html FILE``: the lab dashboard, one self-contained offline page.

Runs are found as ``coldstart compare`` finds them; each run's current stored audit report is
used, the others are audited in memory (nothing is written into the runs). Exit 0 when the page
was written, 1 when a path holds no run, 64 on usage errors.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pytest_coldstart.cli.text import safe


def register(groups: Any) -> None:
    from pytest_coldstart.analysis.dashboard import DETAILS_LIMIT

    parser = groups.add_parser(
        "report",
        help="the lab dashboard across runs: one self-contained HTML page",
        description="Write the lab dashboard of the runs below DIR: rates by model x harness and task with "
        "Wilson intervals, the run x flag matrix, failure classes, trends, a filterable runs table that "
        "opens each run (timeline, flags with evidence, audit.md), and the reviewer's worklist.",
    )
    parser.add_argument("paths", nargs="+", metavar="DIR", help="a run directory or a folder of runs")
    parser.add_argument("--html", required=True, metavar="FILE", help="where to write the page")
    parser.add_argument(
        "--details",
        type=int,
        default=DETAILS_LIMIT,
        metavar="N",
        help=f"embed the details (timeline, flags, audit.md) of at most N runs, runs with open reviews, "
        f"FAIL and PENDING first (default {DETAILS_LIMIT})",
    )
    parser.add_argument("--fresh", action="store_true", help="audit every run again instead of reading current reports")
    parser.set_defaults(handler=cmd_report)


def cmd_report(args: argparse.Namespace) -> int:
    from pytest_coldstart.analysis.dashboard import write_dashboard
    from pytest_coldstart.run.errors import UsageError

    if args.details < 0:
        raise UsageError("--details must be 0 or more")
    try:
        count = write_dashboard(args.paths, args.html, fresh=args.fresh, details_limit=args.details)
    except OSError as exc:
        raise UsageError(f"cannot write {args.html} ({exc.strerror or exc})") from None
    sys.stdout.write(f"wrote {safe(args.html)} ({count} run(s))\n")
    return 0
