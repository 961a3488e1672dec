"""``coldstart export --format atif|otel RUN --out FILE``: the run in a standard trace format.

``atif``: Harbor's Agent Trajectory Interchange Format v1.8 (the ``atif`` package's models);
``otel``: OpenTelemetry GenAI spans as OTLP JSON (the OpenTelemetry SDK and OTLP encoder). Both
carry the audit verdict, the flags with their evidence and the trajectory's hash-chain head.
Needs the extra: ``pip install 'pytest-coldstart[export]'``. Exit 0 written, 1 unusable run,
64 usage error (also when the extra is missing).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pytest_coldstart.cli.text import safe


def register(groups: Any) -> None:
    parser = groups.add_parser(
        "export",
        help="write a run as ATIF or as OpenTelemetry GenAI spans (OTLP JSON), with its audit verdict",
        description="Export a run's trajectory as ATIF v1.8 (--format atif) or as OpenTelemetry GenAI spans in "
        "OTLP JSON (--format otel), each carrying the audit verdict, the flags and the hash-chain head.",
    )
    parser.add_argument("run", metavar="RUN", help="the run directory")
    parser.add_argument("--format", required=True, choices=("atif", "otel"))
    parser.add_argument("--out", required=True, metavar="FILE", help="where to write the JSON document")
    parser.add_argument("--fresh", action="store_true", help="audit the run again instead of reading a current report")
    parser.set_defaults(handler=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    from pathlib import Path

    from pytest_coldstart.analysis.export_source import load_source
    from pytest_coldstart.run import jsonio
    from pytest_coldstart.run.errors import UsageError

    source = load_source(args.run, fresh=args.fresh)
    if args.format == "atif":
        from pytest_coldstart.analysis.export_atif import atif_json

        text = atif_json(source)
    else:
        from pytest_coldstart.analysis.export_otel import otel_json

        text = otel_json(source)
    try:
        jsonio.write_bytes_atomic(Path(args.out), text.encode("utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot write {args.out} ({exc.strerror or exc})") from None
    verdict = source.report.get("overall")
    sys.stdout.write(f"wrote {safe(args.out)} ({args.format}, {len(source.calls)} call(s), audit {verdict})\n")
    return 0
