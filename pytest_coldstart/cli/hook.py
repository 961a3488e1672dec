"""``coldstart hook HARNESS``: live capture from a harness's hook (one event per invocation).

Always exits 0 when capturing: a hook must never break the agent's session (failures go to
stderr and into the run). ``--print-config`` prints the harness configuration to paste.
"""

from __future__ import annotations

import argparse
import sys

from pytest_coldstart.cli.text import safe

TYPE_CHECKING = False  # not typing's: the hook's fast path stays free of that import
if TYPE_CHECKING:
    from typing import Any

BUILTIN = {
    "claude-code": "Claude Code hooks: PreToolUse/PostToolUse/… JSON on stdin (--print-config gives settings.json)",
    "pi": "pi: the shipped extension's events on stdin, or pi --mode json piped in with --stream",
    "codex": "Codex CLI notify: the turn's JSON as the last argument (turn-level only)",
}


def register(groups: Any) -> None:
    from pytest_coldstart.cli.main import requested

    parser = groups.add_parser(
        "hook",
        help="live capture: append a harness hook's event to the run's trajectory",
        description="Read one hook payload (JSON on stdin, or as the last argument) and append the matching "
        "records to the run as the agent works. Exit status is always 0: failures are one line on stderr and an "
        "error record in the run (see docs/live-capture.md).",
    )
    harnesses = parser.add_subparsers(dest="harness", metavar="HARNESS", parser_class=type(parser))
    harnesses.required = True
    names = dict(BUILTIN)
    asked = requested(1)
    if asked is not None and not asked.startswith("-") and asked not in names:
        names[asked] = "an adapter registered by a plugin"  # resolved (or refused) when it runs
    for name, text in names.items():
        _harness(harnesses.add_parser(name, help=text, description=text))


def _harness(p: argparse.ArgumentParser) -> None:
    p.add_argument("payload", nargs="?", help="the payload as an argument instead of stdin (Codex notify)")
    p.add_argument("--run-dir", help="the run directory (default: $COLDSTART_RUN_DIR)")
    p.add_argument("--print-config", action="store_true", help="print the harness settings that call this hook")
    p.add_argument(
        "--stream",
        action="store_true",
        help="read one event per line until end of input (pi --mode json piped in) instead of one payload",
    )
    p.add_argument(
        "--budget", type=float, default=None, help="seconds one event may take (default $COLDSTART_HOOK_BUDGET or 5)"
    )
    p.set_defaults(handler=cmd_hook)


def cmd_hook(args: argparse.Namespace) -> int:
    import os

    from pytest_coldstart._version import __version__
    from pytest_coldstart.live import relay

    if args.print_config:
        return _print_config(args)
    target = args.run_dir if args.run_dir is not None else os.environ.get(relay.RUN_DIR_ENV) or None
    if args.stream:
        from pytest_coldstart.live.capture import run_hook

        for line in sys.stdin.buffer:
            if line.strip():
                run_hook(args.harness, line, target, budget_s=args.budget)
        return 0
    payload = os.fsencode(args.payload) if args.payload is not None else sys.stdin.buffer.read()
    budget = relay.budget(args.budget)
    if target is not None and relay.enabled():
        answer = relay.relay(target, args.harness, payload, __version__, budget)  # the fast path
        if answer is not relay.NOT_SENT:
            if isinstance(answer, str):
                sys.stderr.write(f"coldstart hook {safe(args.harness)}: {safe(answer)}\n")
            return 0
    from pytest_coldstart.live.capture import run_hook

    outcome = run_hook(args.harness, payload, target, argv=tuple(sys.argv), budget_s=budget)
    if target is not None and relay.enabled() and outcome.failure is None and not outcome.ended:
        relay.start(target, __version__)
    return 0


def _print_config(args: argparse.Namespace) -> int:
    from pathlib import Path

    from pytest_coldstart.live import registry
    from pytest_coldstart.run.errors import UsageError

    adapter = registry.get(args.harness)
    settings = getattr(adapter, "settings", None)
    if not callable(settings):
        raise UsageError(f"the {args.harness!r} adapter has no configuration to print (see docs/live-capture.md)")
    import shutil

    script = shutil.which("coldstart")
    executable = [script] if script else [sys.executable, "-m", "pytest_coldstart"]
    words = [*executable, "hook", args.harness]
    if args.run_dir is not None:
        words += ["--run-dir", str(Path(args.run_dir).resolve())]
    import shlex

    sys.stdout.write(str(settings(shlex.join(words))) + "\n")
    return 0
