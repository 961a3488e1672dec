"""The handlers of ``coldstart trace …`` (the parsers are in ``cli/trace.py``): each turns
its arguments into one recorder call and prints what was recorded."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, TextIO

from pytest_coldstart.cli.main import parse_json_arg
from pytest_coldstart.cli.text import json_text, safe
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.textsafe import storable_name

if TYPE_CHECKING:
    from pytest_coldstart.record.recorder import Recorder


def _recorder(args: argparse.Namespace) -> Recorder:
    from pytest_coldstart.record.recorder import Recorder

    return Recorder(args.run_dir)


def _optional(args: argparse.Namespace, *names: str) -> dict[str, Any]:
    return {name: getattr(args, name) for name in names if getattr(args, name, None) is not None}


def _print(record: dict[str, Any]) -> None:
    sys.stdout.write(f"{record['record']} seq={record['seq']}\n")


def cmd_init(args: argparse.Namespace) -> int:
    from pathlib import Path

    from pytest_coldstart.record import logsettings
    from pytest_coldstart.record.recorder import init_run
    from pytest_coldstart.run.errors import ColdstartError

    if args.task_file is not None:
        try:
            task_bytes = Path(args.task_file).read_bytes()
        except OSError as exc:
            raise ColdstartError(f"task file is unreadable ({exc.strerror or exc})", args.task_file) from None
        source = storable_name(Path(args.task_file).name)
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
        agent=None
        if args.agent_cwd is None
        else {"cwd": str(Path(args.agent_cwd).absolute()), "run_dir": str(Path(args.run_dir).absolute())},
        experiment_id=args.experiment_id,
        logging=logging,
    )
    manifest = recorder.manifest
    sys.stdout.write(
        f"run {manifest['run_id']} created at {manifest['created_at']}\n"
        f"task sha256 {manifest['task']['sha256']}\nvisible files {manifest['visibility']['file_count']}\n"
    )
    return 0


def cmd_call(args: argparse.Namespace) -> int:
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


def cmd_result(args: argparse.Namespace) -> int:
    fields = {"record": "result", "call_id": args.call_id, "status": args.status, "actor": args.actor}
    if args.result is not None:
        try:
            fields["result"] = jsonio.loads(args.result)
        except ValueError:
            fields["result"] = {"text": args.result}  # protocol: non-JSON text is kept as text
    fields.update(_optional(args, "error", "duration_ms", "phase", "at"))
    _print(_recorder(args).append(fields))
    return 0


def cmd_phase(args: argparse.Namespace) -> int:
    fields = {"record": "phase", "phase": args.phase, "actor": args.actor, "evidence": args.evidence}
    fields.update(_optional(args, "instance", "note"))
    _print(_recorder(args).append(fields))
    return 0


def cmd_mark(args: argparse.Namespace) -> int:
    data = parse_json_arg(args.data, "--data") if args.data is not None else None
    _print(_recorder(args).append({"record": "mark", "name": args.name, "actor": args.actor, "data": data}))
    return 0


def cmd_record(args: argparse.Namespace) -> int:
    recorder = _recorder(args)
    if args.json_text is not None:
        _print(recorder.append(parse_json_arg(args.json_text, "--json-text")))
        return 0
    return _record_stream(
        recorder,
        sys.stdin if args.stdin else open(args.json_file, encoding="utf-8"),
        "<stdin>" if args.stdin else args.json_file,
    )


def _record_stream(recorder: Recorder, stream: TextIO, label: str) -> int:
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


def cmd_artifact(args: argparse.Namespace) -> int:
    for entry in _recorder(args).artifact(args.path, args.label, phase=args.phase):
        sys.stdout.write(f"artifact {safe(entry['path'])} sha256 {entry['sha256']}\n")
    return 0


def cmd_evidence(args: argparse.Namespace) -> int:
    from pathlib import Path

    from pytest_coldstart.record.evidence_shape import first_problem

    declaration = _recorder(args).declare_evidence(args.name, args.path, normalized=args.normalized)
    sys.stdout.write(f"evidence {safe(args.name)} {safe(declaration['path'])} sha256 {declaration['sha256']}\n")
    root = Path(args.run_dir)
    checks = [(args.name, str(declaration["path"]))]
    if declaration.get("normalized"):
        checks.append(("agent_logger.normalized", str(declaration["normalized"])))
    for name, path in checks:
        problem = first_problem(name, root / path)
        if problem:  # a warning only: the declaration stands, the audit judges
            sys.stderr.write(f"coldstart: warning: evidence {name} {safe(path)}: {safe(problem)}\n")
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    entry = _recorder(args).review(args.id, args.status, args.by, evidence=args.evidence, note=args.note, at=args.at)
    sys.stdout.write(f"review {safe(entry['id'])} {entry['status']} seq={entry['seq']}\n")
    return 0


def cmd_decision(args: argparse.Namespace) -> int:
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


def cmd_import_pi(args: argparse.Namespace) -> int:
    args.format = "pi"
    return cmd_import(args)


def cmd_import(args: argparse.Namespace) -> int:
    from pytest_coldstart.importers.pipeline import import_session
    from pytest_coldstart.run.errors import UsageError

    if not args.session:
        raise UsageError("--session is required (or set $PI_SESSION_FILE)")
    summary = import_session(args.run_dir, args.format, args.session, phase=args.phase)
    sys.stdout.write(safe(summary) + "\n")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    from pytest_coldstart.validate.run import validate_run

    report = validate_run(args.run_dir)
    if args.json:
        sys.stdout.write(json_text(report.to_json()) + "\n")
    else:
        sys.stdout.write(report.to_text())
    return 0 if report.valid else 1


def cmd_summary(args: argparse.Namespace) -> int:
    from pytest_coldstart.analysis import summary

    document = summary.write(args.run_dir)
    if args.json:
        sys.stdout.write(json_text(document) + "\n")
    else:
        calls = document.get("calls", {})
        total = calls.get("total") if isinstance(calls, dict) else None
        sys.stdout.write(f"wrote {safe(args.run_dir)}/summary.json ({total if total is not None else '?'} calls)\n")
    return 0


def cmd_seal(args: argparse.Namespace) -> int:
    from pytest_coldstart.cli import sealing

    return sealing.cmd_seal(args)


def cmd_migrate(args: argparse.Namespace) -> int:
    from pytest_coldstart.record.migrate import migrate_run

    sys.stdout.write(migrate_run(args.run_dir) + "\n")
    return 0
