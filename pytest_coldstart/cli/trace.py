"""``coldstart trace …``: the recorder as a command line (one process per record)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from pytest_coldstart.cli import sealing
from pytest_coldstart.cli.main import requested
from pytest_coldstart.cli.trace_commands import (
    cmd_artifact,
    cmd_call,
    cmd_decision,
    cmd_evidence,
    cmd_import,
    cmd_import_pi,
    cmd_init,
    cmd_mark,
    cmd_migrate,
    cmd_phase,
    cmd_record,
    cmd_result,
    cmd_review,
    cmd_seal,
    cmd_summary,
    cmd_validate,
)
from pytest_coldstart.run.vocabulary import ACTORS, PHASES, REVIEW_STATUSES

if TYPE_CHECKING:
    from pytest_coldstart.cli.main import Subparsers


def register(groups: Subparsers) -> None:
    trace = groups.add_parser("trace", help="record a run: init, calls, results, evidence, reviews, validate")
    sub = trace.add_subparsers(dest="command", metavar="SUBCOMMAND")
    sub.required = True

    # A harness runs one subcommand per process: only its parser is built (argparse spends
    # ~1 ms per parser in gettext lookups). Unknown words or --help build them all.
    only = requested(1) if requested(0) == "trace" and requested(1) in COMMANDS else None

    def command(
        name: str, handler: Callable[[argparse.Namespace], int], help_text: str, run_dir: bool = True
    ) -> argparse.ArgumentParser | _Unused:
        if only is not None and name != only:
            return _Unused()
        parser = sub.add_parser(name, help=help_text, description=help_text)
        if run_dir:
            parser.add_argument("--run-dir", required=True, help="the run directory")
        parser.set_defaults(handler=handler)
        return parser

    p = command("init", cmd_init, "open a new run directory (before the agent session starts)")
    p.add_argument("--run-id", required=True, help="the run's id (every record and evidence line must match it)")
    task = p.add_mutually_exclusive_group(required=True)
    task.add_argument("--task-file", help="the task given to the agent: copied to task.md and hashed")
    task.add_argument("--task-text", help="the task given to the agent, inline (instead of --task-file)")
    p.add_argument("--harness", required=True, help="the agent harness (pi, claude-code, codex, ...)")
    p.add_argument("--model", required=True, help="the model the harness runs (for example deepseek/deepseek-flash)")
    p.add_argument("--provider", required=True, help="the model provider (for example deepseek)")
    p.add_argument("--harness-version", required=True, help="the harness's version (for example 0.87.1)")
    p.add_argument(
        "--visible-root", action="append", default=[], help="a file or folder the agent can see (repeatable)"
    )
    p.add_argument("--exclude", action="append", default=[], help="glob of visible files to leave out (repeatable)")
    p.add_argument("--note", action="append", default=[], help="a free-text note kept in run.json (repeatable)")
    p.add_argument("--created-at", help="explicit creation time (recorded as explicit)")
    p.add_argument("--experiment-id", help="groups runs of one experiment (compare groups by it)")
    p.add_argument(
        "--agent-cwd",
        help="the agent's working directory (recorded with the run directory's absolute path as run.json agent)",
    )
    p.add_argument(
        "--payload-mode",
        choices=("full", "preview"),
        default=None,
        help="store large call arguments/results whole (full, default) or as a bounded preview",
    )
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
    p.epilog = (
        "The file is checked against its documented shape (docs/formats.md, schemas in "
        "pytest_coldstart/run/schemas/evidence/); the first problem is printed as a warning on "
        "stderr and the declaration is recorded anyway (exit 0): the audit is the judge."
    )

    p = command("review", cmd_review, "append an explicit review resolution")
    p.add_argument(
        "--id", required=True, help="the required-review id from the audit (for example machine_operated.causality)"
    )
    p.add_argument("--status", choices=REVIEW_STATUSES, required=True, help="the reviewer's decision")
    p.add_argument("--by", required=True, help="who reviewed")
    p.add_argument("--note", default="", help="what the reviewer checked (secrets in it are redacted)")
    p.add_argument(
        "--evidence",
        action="append",
        default=[],
        help="a record the decision rests on: trajectory:<call_id>, testmod:seqN, logger:seqN, "
        "fixture:/restore:/preflight:<field> (repeatable; at least one is REQUIRED for --status resolved)",
    )
    p.add_argument("--at", help="time of the decision (default: now)")

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

    p = command("seal", cmd_seal, "write the file manifest and print the anchor that pins it from outside the run")
    if isinstance(p, argparse.ArgumentParser):
        sealing.add_arguments(p)
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

    epilog: str | None = None

    def add_argument(self, *args: object, **kwargs: object) -> None:
        return None

    def add_mutually_exclusive_group(self, *args: object, **kwargs: object) -> _Unused:
        return self
