"""``coldstart audit run|explain``: judge a run (exit 0 PASS, 1 FAIL, 2 PENDING; 64 usage,
70 internal) or show what the audit would read. Strings from the run are printed escaped."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_coldstart.run.vocabulary import ReviewState

if TYPE_CHECKING:
    from pytest_coldstart.cli.main import Subparsers


if TYPE_CHECKING:
    from pytest_coldstart.audit.audit_report import AuditReport

from pytest_coldstart.cli import batch
from pytest_coldstart.cli.text import json_text, safe

SHOWN = 5


def register(groups: Subparsers) -> None:
    audit = groups.add_parser("audit", help="judge a run: five flags, required reviews, failure class")
    sub = audit.add_subparsers(dest="command", metavar="SUBCOMMAND")
    sub.required = True
    p = sub.add_parser(
        "run",
        help="audit a run directory and write audit/audit.json + audit.md",
        description="Audit a run. Exit 0 PASS, 1 FAIL, 2 PENDING, 64 usage error, 70 internal error.",
    )
    p.add_argument("--run-dir", required=True, help="the run directory (must exist; only audit/ inside it is written)")
    p.add_argument("--out", help="report directory (default: <run-dir>/audit; inside the run only audit/ is allowed)")
    p.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    p.add_argument("--answer", help="use this answer file (inside the run) instead of the declared one")
    p.add_argument("--oracle", help="use this oracle file (inside the run) instead of the declared one")
    anchored = p.add_mutually_exclusive_group()
    anchored.add_argument(
        "--anchor", metavar="A", help="require this anchor (the JSON line `trace seal` printed, or a file holding it)"
    )
    anchored.add_argument("--ledger", metavar="FILE", help="require the run's anchor from this ledger")
    p.add_argument("--public-key", metavar="P", help="require the anchor to be signed by this Ed25519 public key")
    p.add_argument(
        "--no-cache",
        action="store_true",
        help="audit again without reading or writing the audit cache ($COLDSTART_CACHE_DIR or ~/.cache/pytest-coldstart)",
    )
    p.set_defaults(handler=cmd_run)
    p = sub.add_parser(
        "explain",
        help="show the run's declared evidence: whether each file is present and intact, and its provenance",
        description=(
            "Show what the audit would read, without judging or writing anything: the run's task "
            "hash, each declared evidence file (path, recorded and current sha256, present or "
            "missing, and its provenance: where it is known, which calls write it, and the verdict), "
            "and the reviews file. Exit 0, or 1 when the run cannot be read."
        ),
    )
    p.add_argument("--run-dir", required=True, help="the run directory (read only)")
    p.set_defaults(handler=cmd_explain)
    batch.register(sub)


def _override(value: str | None) -> str | None:
    if value is None:
        return None
    path = Path(value)
    if not path.is_absolute() and path.exists():
        return str(path.resolve())
    return value


def cmd_run(args: argparse.Namespace) -> int:
    from pytest_coldstart.audit import anchoring, audit_run, currency, verdict
    from pytest_coldstart.audit.audit_report import AuditReport
    from pytest_coldstart.audit.classify import exit_code
    from pytest_coldstart.audit.digest import audit_inputs_digest
    from pytest_coldstart.audit.engine import output_dir
    from pytest_coldstart.run.errors import UsageError

    root = Path(args.run_dir)
    if not root.is_dir():  # never create it (trace init would then refuse the folder)
        raise UsageError("--run-dir: no such run directory; nothing was created", root)
    out = output_dir(root, args.out)
    own = args.answer is None and args.oracle is None and root.is_dir() and out == root / "audit"
    digest = audit_inputs_digest(root) if own else None  # taken before the audit reads anything
    wanted = anchoring.expectation(
        [args.anchor] if args.anchor else [], [args.ledger] if args.ledger else [], args.public_key
    )
    if args.answer is None and args.oracle is None:  # the run's own inputs: audited once, then cached
        document, _ = verdict.audited(root, None if args.no_cache else verdict.default_cache())
    else:
        document = audit_run(root, answer=_override(args.answer), oracle=_override(args.oracle), write=False)
    document = anchoring.check(document, root, wanted)
    report = AuditReport.from_json(document)
    try:
        from pytest_coldstart.audit.report import write_report

        write_report(report, out)
        currency.record(out, document, digest)
    except OSError as exc:
        raise UsageError(
            f"cannot write the audit report to {out} ({exc.strerror or exc}); choose another --out"
        ) from None
    if args.json:
        sys.stdout.write(json_text(report.to_json()) + "\n")
    else:
        _summary(report, out)
    return exit_code(report.overall)


def _summary(report: AuditReport, out: Path) -> None:
    klass = f" ({report.failure_class})" if report.failure_class else ""
    lines = [f"overall: {report.overall}{klass}  run {safe(report.run_id)}"]
    for flag in report.flags:
        lines.append(f"  {flag.status:<7} {flag.flag}: {safe(flag.summary)}")
    for title, items in (
        ("infra error", report.infra_errors),
        ("fixture error", report.fixture_errors),
        ("pending", report.pending_reasons),
        ("review problem", report.review_problems),
    ):
        for text in items[:SHOWN]:
            lines.append(f"  {title}: {safe(text)}")
        if len(items) > SHOWN:
            lines.append(f"  ... {len(items) - SHOWN} more {title}(s) in audit.json")
    for item in report.required_reviews:
        if item.status is not ReviewState.RESOLVED:
            lines.append(f"  review {item.id}: {item.status}")
    lines.append(f"wrote {safe(out / 'audit.json')} and audit.md")
    sys.stdout.write("\n".join(lines) + "\n")


def cmd_explain(args: argparse.Namespace) -> int:
    from pytest_coldstart.run.errors import ColdstartError
    from pytest_coldstart.run.hashing import sha256_file, short
    from pytest_coldstart.run.layout import REVIEWS, RunDir
    from pytest_coldstart.run.paths import resolve_inside
    from pytest_coldstart.run.vocabulary import EVIDENCE_NAMES

    rundir = RunDir(args.run_dir)
    rundir.require()
    manifest = rundir.load_manifest()
    evidence = rundir.load_evidence()
    declared = manifest.get("task")
    task = declared if isinstance(declared, dict) else {}
    lines = [
        f"run {safe(manifest.get('run_id'))} (version {1 if manifest.get('translated_from') == 1 else 2}, status {safe(manifest.get('status'))})",
        f"task sha256 {short(str(task.get('sha256')))}",
    ]
    for name in EVIDENCE_NAMES:
        decl = evidence.get(name)
        if decl is None:
            default = rundir.root / REVIEWS
            note = (
                f"(not declared; default {REVIEWS} {'present' if default.is_file() else 'absent'})"
                if name == "review"
                else "(not declared)"
            )
            lines.append(f"  {name:<13} {note}")
            continue
        if not isinstance(decl, dict):
            lines.append(f"  {name:<13} [malformed declaration: not an object]")
            continue
        relative = decl.get("path")
        try:
            path = resolve_inside(rundir.root, relative, what=f"evidence {name}")
        except ColdstartError as exc:
            lines.append(f"  {name:<13} {safe(relative)} [refused: {safe(exc.problem)}]")
            continue
        if not path.is_file():
            lines.append(f"  {name:<13} {safe(relative)} [missing]")
            continue
        actual, size = sha256_file(path)
        expected = decl.get("sha256")
        verdict = (
            "no declared hash"
            if expected is None
            else "hash ok"
            if expected == actual
            else f"HASH MISMATCH (declared {short(str(expected))})"
        )
        lines.append(f"  {name:<13} {safe(relative)} [present sha256={short(actual)} {size} bytes; {verdict}]")
        if decl.get("normalized") is not None:
            lines.append(f"  {'':<13} normalized view {safe(decl.get('normalized'))}")
    lines += _provenance(rundir.root)
    lines.append("the audit also runs every check of `coldstart trace validate` (any finding is an INFRA_ERROR)")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _provenance(root: Path) -> list[str]:
    """Per declared file: where it is known, who writes it, the independence verdict."""
    from pytest_coldstart.audit.explain import explain_provenance
    from pytest_coldstart.run.errors import ColdstartError

    try:
        workspace, entries = explain_provenance(root)
    except ColdstartError as exc:
        return [f"provenance: not available ({safe(exc.one_line())})"]
    lines = ["provenance (who could have written each declared file):", f"  {safe(workspace)}"]
    for entry in entries:
        lines.append(f"  {entry.name:<13} known as {', '.join(safe(p) for p in entry.places) or '(no usable path)'}")
        writers = entry.writers or ["no call of the trajectory writes it"]
        for writer in writers[:SHOWN]:
            lines.append(f"  {'':<13} written by {safe(writer)}")
        if len(writers) > SHOWN:
            lines.append(f"  {'':<13} ... {len(writers) - SHOWN} more writer(s)")
        lines.append(f"  {'':<13} {safe(entry.verdict)}")
    return lines
