"""``coldstart review todo DIR... [--json]`` and ``coldstart review resolve|reject``: the reviewer's
worklist across runs, and recording a decision.

A decision goes through the recorder's ``review`` (the same code and checks as ``coldstart trace
review``: a non-blank reviewer, a resolved review needs evidence refs, the lock, the version
gate of reviews.jsonl); afterwards the run is audited again in memory and the review's new state
is printed. Exit codes: 0 done, 1 a run or file is unusable, 64 usage error.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pytest_coldstart.cli.text import json_text


def register(groups: Any) -> None:
    review = groups.add_parser("review", help="the reviewer's worklist: open reviews across runs; record a decision")
    sub = review.add_subparsers(dest="command", metavar="SUBCOMMAND")
    sub.required = True
    p = sub.add_parser(
        "todo",
        help="list every required review still open across runs, grouped by review id",
        description="List every required review still open (not resolved or rejected) in the runs below DIR: "
        "run, review id, the protocol's question, the evidence refs with the records they cite. Exit 0.",
    )
    p.add_argument("paths", nargs="+", metavar="DIR", help="a run directory or a folder of runs")
    p.add_argument("--json", action="store_true", help="print the worklist as JSON")
    p.add_argument("--fresh", action="store_true", help="audit every run again instead of reading current reports")
    p.set_defaults(handler=cmd_todo)
    for status, verb in (("resolved", "resolve"), ("rejected", "reject")):
        p = sub.add_parser(
            verb,
            help=f"record that a required review is {status} (same checks as `coldstart trace review`)",
            description=f"Append a '{status}' entry for review ID to the run's reviews.jsonl, then print the "
            "review's state in a fresh audit of the run.",
        )
        p.add_argument("--run-dir", required=True)
        p.add_argument("--id", required=True, help="the review id, e.g. machine_operated.causality")
        p.add_argument("--by", required=True, help="who decided (non-blank)")
        p.add_argument(
            "--evidence",
            action="extend",
            nargs="+",
            default=[],
            metavar="REF",
            required=status == "resolved",
            help="evidence refs the decision rests on (trajectory:<call_id>, testmod:seqN, logger:seqN, ...)",
        )
        p.add_argument("--note", default="")
        p.add_argument("--at", help="the decision's time (default: now)")
        p.set_defaults(handler=cmd_decide, status=status)


def cmd_todo(args: argparse.Namespace) -> int:
    from pytest_coldstart.analysis.worklist import to_table, worklist

    doc = worklist(args.paths, fresh=args.fresh)
    if args.json:
        sys.stdout.write(json_text(doc) + "\n")
    else:
        sys.stdout.write(to_table(doc))
    return 0


def cmd_decide(args: argparse.Namespace) -> int:
    from pytest_coldstart.analysis.audits import audit_of
    from pytest_coldstart.analysis.worklist import is_problem_of, plain
    from pytest_coldstart.record.recorder import Recorder

    entry = Recorder(args.run_dir).review(
        args.id, args.status, args.by, evidence=args.evidence, note=args.note, at=args.at
    )
    sys.stdout.write(f"review {plain(entry['id'])} {entry['status']} seq={entry['seq']}\n")
    report = audit_of(args.run_dir, fresh=True).report
    required = [r for r in report.get("required_reviews") or [] if r.get("id") == args.id]
    if not required:
        sys.stderr.write(f"coldstart: note: the run's audit does not require review {plain(args.id)}\n")
    for review in required:
        sys.stdout.write(f"now: {plain(review.get('status'))} (flag {plain(review.get('flag'))})\n")
    for problem in report.get("review_problems") or []:
        if isinstance(problem, str) and is_problem_of(problem, args.id):
            sys.stdout.write(f"problem: {plain(problem, 300)}\n")
    sys.stdout.write(f"run overall: {plain(report.get('overall'))}\n")
    return 0
