"""Entry point: ``coldstart`` / ``python -m pytest_coldstart``.

Exit codes: command-specific 0/1/2, 64 for usage errors, 70 for internal errors. Bad input
never prints a traceback: a ColdstartError becomes one line ``coldstart: <file>: <problem>``.
"""

from __future__ import annotations

import argparse
import importlib
import io
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TypeAlias

#: What a command group's ``register`` receives (argparse's subparsers object).
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

EXIT_USAGE = 64
EXIT_INTERNAL = 70

GROUPS = ("trace", "audit", "preflight", "demo", "compare", "hook", "review", "report", "export", "cache")


#: The command words of this invocation (set by build_parser; groups may build only what is asked).
REQUESTED: list[str] = []


def requested(position: int) -> str | None:
    """The command word at ``position`` (0 = group, 1 = subcommand), if any."""
    return REQUESTED[position] if len(REQUESTED) > position else None


class UsageExit(Exception):
    pass


class Parser(argparse.ArgumentParser):
    """argparse with exit 64 on usage errors (2 is reserved for PENDING); an unknown option is
    reported by the deepest (sub)command parsed, with that command's usage."""

    deepest: Parser | None = None

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        Parser.deepest = self  # subcommand parsers start after their parents
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: error: {_printable(message)}\n")
        raise SystemExit(EXIT_USAGE)


def build_parser(argv: list[str] | None = None) -> Parser:
    from pytest_coldstart._version import __version__

    parser = Parser(prog="coldstart", description="Record, audit and compare auditable AI-agent runs.")
    parser.add_argument("--version", action="version", version=f"pytest-coldstart {__version__}")
    groups = parser.add_subparsers(dest="group", metavar="COMMAND", parser_class=Parser)
    groups.required = True
    # Harnesses run `coldstart trace call` once per tool call: build only the group asked for
    # (every group for `coldstart --help` or an unknown word, so usage errors list them all).
    words = sys.argv[1:] if argv is None else argv
    global REQUESTED
    REQUESTED = list(words)
    wanted = [words[0]] if words and words[0] in GROUPS else GROUPS
    for name in wanted:
        importlib.import_module(f"pytest_coldstart.cli.{name}").register(groups)
    return parser


def main(argv: list[str] | None = None) -> int:
    from pytest_coldstart.run.errors import ColdstartError, UsageError

    _tolerant(sys.stdout, sys.stderr)
    parser = build_parser(argv)
    Parser.deepest = None
    args, extras = parser.parse_known_args(argv)
    if extras:
        (Parser.deepest or parser).error(f"unrecognized arguments: {' '.join(extras)}")
    handler: Callable[[argparse.Namespace], int | None] | None = getattr(args, "handler", None)
    if handler is None:
        parser.error("missing sub-command")
    try:
        return int(handler(args) or 0)
    except UsageError as exc:
        sys.stderr.write(f"coldstart: error: {_printable(exc.one_line())}\n")
        return EXIT_USAGE
    except ColdstartError as exc:  # its file names and problems may quote run content: escaped
        sys.stderr.write(f"coldstart: {_printable(exc.one_line())}\n")
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # the machine (a full disk, a read-only folder), not a bug of ours
        where = f"{exc.filename}: " if exc.filename else ""
        sys.stderr.write(f"coldstart: {_printable(where + (exc.strerror or str(exc)))}\n")
        return 1
    except Exception as exc:
        sys.stderr.write(f"coldstart: internal error: {type(exc).__name__}: {_printable(str(exc))}\n")
        if "--debug" in (argv or sys.argv):
            raise
        return EXIT_INTERNAL


def _tolerant(*streams: object) -> None:
    """A name a handler forgot to escape must not crash the command: with a strict encoder
    (PYTHONIOENCODING=utf-8) undecodable file-name bytes print as escapes instead of raising."""
    for stream in streams:
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors="backslashreplace")


def _printable(text: str) -> str:
    from pytest_coldstart.run.textsafe import one_line

    return one_line(text, None)


def parse_json_arg(text: str, option: str) -> Any:
    """Parse a JSON option value or raise UsageError naming the option."""
    from pytest_coldstart.run import jsonio
    from pytest_coldstart.run.errors import UsageError

    try:
        return jsonio.loads(text)
    except (ValueError, RecursionError) as exc:
        raise UsageError(f"{option} is not valid JSON ({exc})") from None
