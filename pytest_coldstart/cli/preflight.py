"""``coldstart preflight list|run``: the harness environment contract (seed 000 §2).

Exit codes: 0 overall PASS, 1 FAIL (at least one selected check failed, or none ran),
64 usage (bad option, unreadable or invalid config, bad ``--set``, unknown check id).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from pytest_coldstart.cli.text import json_text, safe

if TYPE_CHECKING:
    from pytest_coldstart.cli.main import Subparsers


def register(groups: Subparsers) -> None:
    preflight = groups.add_parser("preflight", help="check a harness environment before a run (and record it)")
    sub = preflight.add_subparsers(dest="command", metavar="SUBCOMMAND")
    sub.required = True

    p = sub.add_parser("list", help="list the registered checks", description="List the registered preflight checks.")
    p.add_argument("--json", action="store_true", help="print a JSON array of {id, proves}")
    p.set_defaults(handler=cmd_list)

    p = sub.add_parser(
        "run",
        help="run the checks and write preflight.json + preflight.md",
        description="Run the preflight checks against a harness config; exit 0 PASS, 1 FAIL, 64 usage.",
    )
    p.add_argument(
        "--config", required=True, help="harness config JSON (schemaVersion 2, or a reference version-1 config)"
    )
    p.add_argument("--out", required=True, help="output directory (must be empty unless --force)")
    p.add_argument("--run-dir", help="append the result to this run's trajectory as a harness_preflight mark")
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a config value (dotted key; JSON or raw string value)",
    )
    p.add_argument("--checks", action="append", default=[], metavar="A,B", help="run only these checks, in this order")
    p.add_argument(
        "--skip", action="append", default=[], metavar="C", help="report these checks as SKIP without running them"
    )
    p.add_argument("--force", action="store_true", help="replace a previous preflight's files in --out")
    p.add_argument("--json", action="store_true", help="print preflight.json on stdout instead of the summary")
    p.set_defaults(handler=cmd_run)


def cmd_list(args: argparse.Namespace) -> int:
    from pytest_coldstart.preflight.registry import all_checks

    checks = all_checks()
    if args.json:
        print(json_text([{"id": c.id, "proves": c.proves} for c in checks]))
        return 0
    width = max(len(c.id) for c in checks)
    for check in checks:
        print(f"{check.id:<{width}}  {check.proves}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from pytest_coldstart.preflight.config import load_config
    from pytest_coldstart.preflight.pipeline import run_preflight

    config = load_config(args.config, args.set)
    outcome = run_preflight(
        config, args.out, checks=args.checks, skip=args.skip, run_dir=args.run_dir, force=args.force
    )
    document = outcome.document
    if args.json:
        sys.stdout.write(json_text(document) + "\n")
    else:
        width = max(len(c["id"]) for c in document["checks"])
        for check in document["checks"]:
            print(f"{check['status']:<4}  {safe(check['id']):<{width}}  {safe(check['detail'])}")
        counts = ", ".join(f"{v} {k}" for k, v in document["counts"].items())
        print(f"overall: {document['overall']} ({counts})")
        print(f"wrote {safe(outcome.report_path)} (sha256 {outcome.report_sha256[:12]})")
        if outcome.mark is not None:
            print(f"marked {safe(args.run_dir)}: harness_preflight {document['overall']}")
    return 0 if outcome.overall == "PASS" else 1
