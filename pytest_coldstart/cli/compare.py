"""``coldstart compare PATH... [--csv | --json]``: side-by-side table of runs."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from pytest_coldstart.cli.text import json_text

if TYPE_CHECKING:
    from pytest_coldstart.cli.main import Subparsers


def register(groups: Subparsers) -> None:
    parser = groups.add_parser(
        "compare",
        help="side-by-side table of runs grouped by harness and model",
        description="Compare runs side by side. PATH is a run directory or a folder searched for runs. "
        "Exit 0 when every run was read, 1 when some run could not be summarized (it is listed as UNREADABLE).",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="a run directory or a folder of runs")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--csv", action="store_true", help="one CSV row per run")
    form.add_argument("--json", action="store_true", help="runs and groups as JSON")
    parser.set_defaults(handler=cmd_compare)


def cmd_compare(args: argparse.Namespace) -> int:
    from pytest_coldstart.analysis.compare import compare, to_csv, to_table

    result = compare(args.paths)
    if args.json:
        sys.stdout.write(json_text(result) + "\n")
    elif args.csv:
        sys.stdout.write(to_csv(result))
    else:
        sys.stdout.write(to_table(result))
    return 1 if any(row["error"] for row in result["runs"]) else 0
