"""``coldstart audit run|explain``: judge a run (exit 0 PASS, 1 FAIL, 2 PENDING; 64 usage,
70 internal) or show what the audit would read. Strings from the run are printed escaped."""

from __future__ import annotations

import json
import sys
from pathlib import Path

SHOWN = 5


def register(groups) -> None:
    audit = groups.add_parser("audit", help="judge a run: five flags, required reviews, failure class")
    sub = audit.add_subparsers(dest="command", metavar="SUBCOMMAND")
    sub.required = True
    p = sub.add_parser(
        "run",
        help="audit a run directory and write audit/audit.json + audit.md",
        description="Audit a run. Exit 0 PASS, 1 FAIL, 2 PENDING, 64 usage error, 70 internal error.",
    )
    p.add_argument("--run-dir", required=True)
    p.add_argument("--out", help="report directory (default: <run-dir>/audit; inside the run only audit/ is allowed)")
    p.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    p.add_argument("--answer", help="use this answer file (inside the run) instead of the declared one")
    p.add_argument("--oracle", help="use this oracle file (inside the run) instead of the declared one")
    p.set_defaults(handler=cmd_run)
    p = sub.add_parser("explain", help="show the run's declared evidence and whether each file is present and intact")
    p.add_argument("--run-dir", required=True)
    p.set_defaults(handler=cmd_explain)


def safe(value: object) -> str:
    """Printable text: control and bidi characters (ANSI escapes included) are shown escaped."""
    from pytest_coldstart.run.textsafe import one_line

    return "(unknown)" if value is None else one_line(str(value), None)


def _override(value: str | None) -> str | None:
    if value is None:
        return None
    path = Path(value)
    if not path.is_absolute() and path.exists():
        return str(path.resolve())
    return value


def cmd_run(args) -> int:
    from pytest_coldstart.audit import audit_run, currency
    from pytest_coldstart.audit.classify import exit_code
    from pytest_coldstart.audit.digest import audit_inputs_digest
    from pytest_coldstart.audit.engine import output_dir
    from pytest_coldstart.run.errors import UsageError

    root = Path(args.run_dir)
    out = output_dir(root, args.out)
    own = args.answer is None and args.oracle is None and root.is_dir() and out == root / "audit"
    digest = audit_inputs_digest(root) if own else None  # taken before the audit reads anything
    report = audit_run(root, answer=_override(args.answer), oracle=_override(args.oracle), write=False)
    try:
        from pytest_coldstart.audit.report import write_report

        write_report(report, out)
        currency.record(out, report, digest)
    except OSError as exc:
        raise UsageError(
            f"cannot write the audit report to {out} ({exc.strerror or exc}); choose another --out"
        ) from None
    if args.json:
        sys.stdout.write(json.dumps(report, ensure_ascii=False, indent=2) + "\n")
    else:
        _summary(report, out)
    return exit_code(report["overall"])


def _summary(report: dict, out: Path) -> None:
    klass = f" ({report['failure_class']})" if report["failure_class"] else ""
    lines = [f"overall: {report['overall']}{klass}  run {safe(report['run_id'])}"]
    for flag in report["flags"]:
        lines.append(f"  {flag['status']:<7} {flag['flag']}: {safe(flag['summary'])}")
    for title, key in (
        ("infra error", "infra_errors"),
        ("fixture error", "fixture_errors"),
        ("pending", "pending_reasons"),
        ("review problem", "review_problems"),
    ):
        items = report[key]
        for text in items[:SHOWN]:
            lines.append(f"  {title}: {safe(text)}")
        if len(items) > SHOWN:
            lines.append(f"  ... {len(items) - SHOWN} more {title}(s) in audit.json")
    for item in report["required_reviews"]:
        if item["status"] != "resolved":
            lines.append(f"  review {item['id']}: {item['status']}")
    lines.append(f"wrote {out / 'audit.json'} and audit.md")
    sys.stdout.write("\n".join(lines) + "\n")


def cmd_explain(args) -> int:
    from pytest_coldstart.run.errors import ColdstartError
    from pytest_coldstart.run.hashing import sha256_file, short
    from pytest_coldstart.run.layout import REVIEWS, RunDir
    from pytest_coldstart.run.paths import resolve_inside
    from pytest_coldstart.run.vocabulary import EVIDENCE_NAMES

    rundir = RunDir(args.run_dir)
    rundir.require()
    manifest = rundir.load_manifest()
    evidence = rundir.load_evidence()
    task = manifest.get("task") if isinstance(manifest.get("task"), dict) else {}
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
    lines.append("the audit also runs every check of `coldstart trace validate` (any finding is an INFRA_ERROR)")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
