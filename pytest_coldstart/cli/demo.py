"""``coldstart demo --out DIR``: deterministic sample runs (byte-identical on every regeneration)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from pytest_coldstart.cli.text import safe

if TYPE_CHECKING:
    from pytest_coldstart.cli.main import Subparsers


def register(groups: Subparsers) -> None:
    parser = groups.add_parser(
        "demo",
        help="write deterministic sample runs (audit scenarios and research-grade bundles)",
        description="Record the sample runs into DIR: one per audit scenario plus the research-grade bundles, "
        "each audited and summarized. DIR must be empty, absent, or a previous demo output (its runs are replaced).",
    )
    parser.add_argument("--out", required=True, help="output directory")
    parser.set_defaults(handler=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    from pytest_coldstart.demo.generate import generate

    index = generate(args.out)
    for run in index["runs"]:
        verdict = run["overall"] or "not audited"
        size = (
            f"{run['records']} records, {run['calls']} calls"
            if run["records"] is not None
            else "no summary (unreadable by design)"
        )
        sys.stdout.write(f"{run['name']}: {run['kind']}, {size}, audit {verdict}\n")
    sys.stdout.write(f"{len(index['runs'])} runs written to {safe(args.out)}\n")
    return 0
