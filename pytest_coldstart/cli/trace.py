"""``coldstart trace …``: the recorder as a command line (one process per record)."""

from __future__ import annotations

import json
import os
import sys

from pytest_coldstart.cli.main import parse_json_arg, requested

PHASES = ("prepare", "restore", "agent", "audit")
ACTORS = ("operator", "test", "agent", "restore", "harness", "reviewer")


def register(groups) -> None:
    trace = groups.add_parser("trace", help="record a run: init, calls, results, evidence, reviews, validate")
    sub = trace.add_subparsers(dest="command", metavar="SUBCOMMAND")
    sub.required = True

    # A harness runs one subcommand per process: only its parser is built (argparse spends
    # ~1 ms per parser in gettext lookups). Unknown words or --help build them all.
    only = requested(1) if requested(0) == "trace" and requested(1) in COMMANDS else None

    def command(name: str, handler, help_text: str, run_dir: bool = True):
        if only is not None and name != only:
            return _Unused()
        parser = sub.add_parser(name, help=help_text, description=help_text)
        if run_dir:
            parser.add_argument("--run-dir", required=True, help="the run directory")
        parser.set_defaults(handler=handler)
        return parser

    p = command("init", cmd_init, "open a new run directory (before the agent session starts)")
    p.add_argument("--run-id", required=True)
    task = p.add_mutually_exclusive_group(required=True)
    task.add_argument("--task-file")
    task.add_argument("--task-text")
    p.add_argument("--harness", required=True)
    p.add_argument("--model", required=True)
    p.add_argument("--provider", required=True)
    p.add_argument("--harness-version", required=True)
    p.add_argument(
        "--visible-root", action="append", default=[], help="a file or folder the agent can see (repeatable)"
    )
    p.add_argument("--exclude", action="append", default=[], help="glob of visible files to leave out (repeatable)")
    p.add_argument("--note", action="append", default=[])
    p.add_argument("--created-at", help="explicit creation time (recorded as explicit)")
    p.add_argument("--experiment-id")
    p.add_argument("--payload-mode", choices=("full", "preview"), default=None)
    p.add_argument("--redact-key", action="append", default=[], help="extra key to redact (repeatable)")
    p.add_argument("--compression", choices=("none", "gzip"), default=None, help="compression of stored payloads")
    p.add_argument(
        "--redact-env",
        action="append",
        default=[],
        metavar="NAME",
        help="redact the value of $NAME inside any string (repeatable)",
    )
    p.add_argument(
        "--redact-pattern",
        action="append",
        default=[],
        metavar="REGEX",
        help="redact matches inside any string (repeatable)",
    )
    p.add_argument(
        "--hash-key",
        action="append",
        default=[],
        metavar="KEY",
        help="replace values under KEY (e.g. player_id) by a stable hash",
    )
    p.add_argument(
        "--redaction-salt-env",
        metavar="NAME",
        help="key redaction digests with HMAC using the salt in $NAME (never recorded)",
    )

    p = command("call", cmd_call, "append one tool call")
    p.add_argument("--call-id", required=True)
    p.add_argument("--tool", required=True)
    p.add_argument("--arguments", default="{}", help="JSON value")
    p.add_argument("--phase", choices=PHASES, default="agent")
    p.add_argument("--actor", choices=ACTORS, default="agent")
    p.add_argument("--parent-id")
    p.add_argument("--instance")
    p.add_argument("--dimension")
    p.add_argument("--tick", type=int)
    p.add_argument("--at")
    p.add_argument("--note")

    p = command("result", cmd_result, "append the result of a call")
    p.add_argument("--call-id", required=True)
    p.add_argument("--status", choices=("ok", "error", "open"), required=True)
    p.add_argument("--result", help="JSON value")
    p.add_argument("--error")
    p.add_argument("--duration-ms", type=float)
    p.add_argument("--actor", choices=ACTORS, default="agent")
    p.add_argument("--phase", choices=PHASES)
    p.add_argument("--at")

    p = command("phase", cmd_phase, "append a lifecycle transition")
    p.add_argument("--phase", choices=PHASES, required=True)
    p.add_argument("--actor", choices=ACTORS, required=True)
    p.add_argument("--instance")
    p.add_argument("--note")
    p.add_argument("--evidence", action="append", default=[])

    p = command("mark", cmd_mark, "append an annotating fact")
    p.add_argument("--name", required=True)
    p.add_argument("--data", help="JSON value")
    p.add_argument("--actor", choices=ACTORS, default="operator")

    p = command("record", cmd_record, "append canonical records given as JSON (one, or a JSONL stream)")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--json-text", help="one record as JSON text")
    source.add_argument("--json", dest="json_file", help="a file of records, one JSON object per line")
    source.add_argument(
        "--stdin",
        action="store_true",
        help="read records from standard input, one per line; each is appended (and acknowledged) as it arrives",
    )

    p = command("artifact", cmd_artifact, "copy self-written code or build output into artifacts/")
    p.add_argument("--path", required=True)
    p.add_argument("--label")
    p.add_argument("--phase", choices=PHASES, default="agent")

    p = command("evidence", cmd_evidence, "declare (and hash) an evidence file inside the run")
    p.add_argument(
        "--name",
        required=True,
        choices=("test_mod", "agent_logger", "answer", "oracle", "fixture", "restore", "preflight", "review"),
    )
    p.add_argument("--path", required=True, help="path relative to the run directory")
    p.add_argument("--normalized", help="agent_logger only: the normalized view")

    p = command("review", cmd_review, "append an explicit review resolution")
    p.add_argument("--id", required=True)
    p.add_argument("--status", choices=("resolved", "rejected", "pending"), required=True)
    p.add_argument("--by", required=True)
    p.add_argument("--note", default="")
    p.add_argument("--evidence", action="append", default=[])
    p.add_argument("--at")

    p = command("decision", cmd_decision, "append an agent decision annotation")
    p.add_argument("--summary", required=True)
    p.add_argument("--call-id", help="the related tool call")
    p.add_argument("--tag", action="append", default=[])
    p.add_argument("--event", choices=("decision", "reflection", "plan_update"), help="default: decision")
    p.add_argument("--intended-tool", help="the next tool/action the agent intends to use")
    p.add_argument("--target", help="target entity/card/node/file")
    p.add_argument("--alternative", action="append", default=[], help="an alternative considered (repeatable)")
    p.add_argument("--confidence", type=float, help="agent-supplied confidence in [0, 1]")
    p.add_argument("--score", type=float, help="agent-supplied score")
    p.add_argument("--state-hash", help="state_hash of the state the decision was made on")
    p.add_argument("--action-id", help="the action the decision led to")
    p.add_argument("--rationale", help="optional short rationale (never required)")
    p.add_argument("--data", help="JSON object of further structured fields")

    p = command("import-pi", cmd_import_pi, "import a pi session ($PI_SESSION_FILE by default)")
    p.add_argument("--session", default=os.environ.get("PI_SESSION_FILE"))
    p.add_argument("--phase", choices=PHASES, default="agent")

    p = command("import", cmd_import, "import a harness session in a named format")
    p.add_argument("--format", required=True)
    p.add_argument("--session", required=True)
    p.add_argument("--phase", choices=PHASES, default="agent")

    p = command("validate", cmd_validate, "check the run's structure and integrity")
    p.add_argument("--json", action="store_true")

    p = command(
        "summary",
        cmd_summary,
        "(re)build the derived summary.json: calls by tool/status, error rates, durations, sizes",
    )
    p.add_argument("--json", action="store_true", help="also print the summary as JSON")

    command("seal", cmd_seal, "write the file manifest and anchor the hash chain")
    command("migrate", cmd_migrate, "rewrite a version-1 (reference) run as version 2")


#: Every subcommand, in registration order (a test keeps it in step with register()).
COMMANDS = (
    "init",
    "call",
    "result",
    "phase",
    "mark",
    "record",
    "artifact",
    "evidence",
    "review",
    "decision",
    "import-pi",
    "import",
    "validate",
    "summary",
    "seal",
    "migrate",
)


class _Unused:
    """Stands in for the parser of a subcommand this process was not asked to run."""

    def add_argument(self, *args, **kwargs) -> None:
        return None

    def add_mutually_exclusive_group(self, *args, **kwargs) -> _Unused:
        return self


def _recorder(args):
    from pytest_coldstart.record.recorder import Recorder

    return Recorder(args.run_dir)


def _optional(args, *names: str) -> dict:
    return {name: getattr(args, name) for name in names if getattr(args, name, None) is not None}


def _print(record: dict) -> None:
    sys.stdout.write(f"{record['record']} seq={record['seq']}\n")


def cmd_init(args) -> int:
    from pathlib import Path

    from pytest_coldstart.record import logsettings
    from pytest_coldstart.record.recorder import init_run
    from pytest_coldstart.run.errors import ColdstartError

    if args.task_file is not None:
        try:
            task_bytes = Path(args.task_file).read_bytes()
        except OSError as exc:
            raise ColdstartError(f"task file is unreadable ({exc.strerror or exc})", args.task_file) from None
        source = Path(args.task_file).name
    else:
        task_bytes, source = args.task_text.encode("utf-8"), "inline"
    logging = logsettings.with_rules(
        None,
        payload_mode=args.payload_mode,
        compression=args.compression,
        extra_keys=args.redact_key,
        env=args.redact_env,
        patterns=args.redact_pattern,
        hash_keys=args.hash_key,
        salt_env=args.redaction_salt_env,
    )
    recorder = init_run(
        args.run_dir,
        run_id=args.run_id,
        task_bytes=task_bytes,
        task_source=source,
        harness={"name": args.harness, "model": args.model, "provider": args.provider, "version": args.harness_version},
        visible_roots=args.visible_root,
        excludes=args.exclude,
        notes=args.note,
        created_at=args.created_at,
        experiment_id=args.experiment_id,
        logging=logging,
    )
    manifest = recorder.manifest
    sys.stdout.write(
        f"run {manifest['run_id']} created at {manifest['created_at']}\n"
        f"task sha256 {manifest['task']['sha256']}\nvisible files {manifest['visibility']['file_count']}\n"
    )
    return 0


def cmd_call(args) -> int:
    fields = {
        "record": "call",
        "call_id": args.call_id,
        "tool": args.tool,
        "arguments": parse_json_arg(args.arguments, "--arguments"),
        "phase": args.phase,
        "actor": args.actor,
    }
    fields.update(_optional(args, "parent_id", "instance", "dimension", "tick", "at", "note"))
    _print(_recorder(args).append(fields))
    return 0


def cmd_result(args) -> int:
    fields = {"record": "result", "call_id": args.call_id, "status": args.status, "actor": args.actor}
    if args.result is not None:
        from pytest_coldstart.run import jsonio

        try:
            fields["result"] = jsonio.loads(args.result)
        except ValueError:
            fields["result"] = {"text": args.result}  # protocol: non-JSON text is kept as text
    fields.update(_optional(args, "error", "duration_ms", "phase", "at"))
    _print(_recorder(args).append(fields))
    return 0


def cmd_phase(args) -> int:
    fields = {"record": "phase", "phase": args.phase, "actor": args.actor, "evidence": args.evidence}
    fields.update(_optional(args, "instance", "note"))
    _print(_recorder(args).append(fields))
    return 0


def cmd_mark(args) -> int:
    data = parse_json_arg(args.data, "--data") if args.data is not None else None
    _print(_recorder(args).append({"record": "mark", "name": args.name, "actor": args.actor, "data": data}))
    return 0


def cmd_record(args) -> int:
    recorder = _recorder(args)
    if args.json_text is not None:
        _print(recorder.append(parse_json_arg(args.json_text, "--json-text")))
        return 0
    return _record_stream(
        recorder,
        sys.stdin if args.stdin else open(args.json_file, encoding="utf-8"),
        "<stdin>" if args.stdin else args.json_file,
    )


def _record_stream(recorder, stream, label: str) -> int:
    """Append one record per line; stop at the first bad line (earlier lines stay appended)."""
    from pytest_coldstart.run.errors import ColdstartError, UsageError

    with stream:
        for number, line in enumerate(stream, start=1):
            if not line.strip():
                continue
            try:
                record = parse_json_arg(line, f"line {number}")
                written = recorder.append(record)
            except UsageError as exc:
                raise ColdstartError(exc.problem, label, number) from None
            _print(written)
            sys.stdout.flush()
    return 0


def cmd_artifact(args) -> int:
    for entry in _recorder(args).artifact(args.path, args.label, phase=args.phase):
        sys.stdout.write(f"artifact {entry['path']} sha256 {entry['sha256']}\n")
    return 0


def cmd_evidence(args) -> int:
    declaration = _recorder(args).declare_evidence(args.name, args.path, normalized=args.normalized)
    sys.stdout.write(f"evidence {args.name} {declaration['path']} sha256 {declaration['sha256']}\n")
    return 0


def cmd_review(args) -> int:
    entry = _recorder(args).review(args.id, args.status, args.by, evidence=args.evidence, note=args.note, at=args.at)
    sys.stdout.write(f"review {entry['id']} {entry['status']} seq={entry['seq']}\n")
    return 0


def cmd_decision(args) -> int:
    from pytest_coldstart.run.errors import UsageError

    data = parse_json_arg(args.data, "--data") if args.data is not None else {}
    if not isinstance(data, dict):
        raise UsageError("--data must be a JSON object")
    fields = {"record": "decision", "actor": "agent", **data, "summary": args.summary}
    fields["tags"] = (
        list(data.get("tags") or []) + args.tag if isinstance(data.get("tags") or [], list) else data["tags"]
    )
    if args.alternative:
        fields["alternatives"] = list(data.get("alternatives") or []) + args.alternative
    options = {
        "call_id": "related_call_id",
        "event": "event",
        "intended_tool": "intended_tool",
        "target": "target",
        "confidence": "confidence",
        "score": "score",
        "state_hash": "related_state_hash",
        "action_id": "related_action_id",
        "rationale": "rationale",
    }
    fields.update(
        {field: getattr(args, option) for option, field in options.items() if getattr(args, option) is not None}
    )
    _print(_recorder(args).append(fields))
    return 0


def cmd_import_pi(args) -> int:
    args.format = "pi"
    return cmd_import(args)


def cmd_import(args) -> int:
    from pytest_coldstart.importers.pipeline import import_session
    from pytest_coldstart.run.errors import UsageError

    if not args.session:
        raise UsageError("--session is required (or set $PI_SESSION_FILE)")
    summary = import_session(args.run_dir, args.format, args.session, phase=args.phase)
    sys.stdout.write(summary + "\n")
    return 0


def cmd_validate(args) -> int:
    from pytest_coldstart.validate.run import validate_run

    report = validate_run(args.run_dir)
    if args.json:
        sys.stdout.write(json.dumps(report.to_json(), ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(report.to_text())
    return 0 if report.valid else 1


def cmd_summary(args) -> int:
    from pytest_coldstart.analysis import summary

    document = summary.write(args.run_dir)
    if args.json:
        sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")
    else:
        calls = document.get("calls", {})
        total = calls.get("total") if isinstance(calls, dict) else None
        sys.stdout.write(f"wrote {args.run_dir}/summary.json ({total if total is not None else '?'} calls)\n")
    return 0


def cmd_seal(args) -> int:
    from pytest_coldstart.record.seal import seal

    sealed = seal(args.run_dir)
    sys.stdout.write(
        f"sealed {len(sealed['files'])} files; trajectory {sealed['trajectory']['records']} records, head {sealed['trajectory']['head']}\n"
    )
    return 0


def cmd_migrate(args) -> int:
    from pytest_coldstart.record.migrate import migrate_run

    sys.stdout.write(migrate_run(args.run_dir) + "\n")
    return 0
