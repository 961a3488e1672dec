"""``coldstart cache info|prune``: what the shared audit cache holds, and removing stale entries
(written by other audit code) or, with ``--all``, everything (it is derived data)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(groups: Any) -> None:
    cache = groups.add_parser("cache", help="inspect or prune the shared audit cache")
    sub = cache.add_subparsers(dest="command", metavar="SUBCOMMAND")
    sub.required = True
    for name, handler, text in (
        ("info", cmd_info, "entries, size and how many the current audit code wrote"),
        ("prune", cmd_prune, "remove entries written by other audit code (--all: everything)"),
    ):
        p = sub.add_parser(name, help=text, description=text)
        p.add_argument("--cache-dir", help="the cache (default: $COLDSTART_CACHE_DIR or ~/.cache/pytest-coldstart)")
        if name == "prune":
            p.add_argument("--all", action="store_true", help="remove every entry and memo")
        p.set_defaults(handler=handler)


def _directory(args: argparse.Namespace) -> Path:
    from pytest_coldstart.audit.cache import default_directory

    return Path(args.cache_dir) if args.cache_dir else default_directory()


def cmd_info(args: argparse.Namespace) -> int:
    from pytest_coldstart.audit.cache import inspect
    from pytest_coldstart.audit.digest import code_fingerprint
    from pytest_coldstart.cli.text import safe

    directory = _directory(args)
    if not directory.is_dir():
        sys.stdout.write(f"cache {safe(directory)}: empty (no such directory)\n")
        return 0
    info = inspect(directory)
    sys.stdout.write(
        f"cache {safe(directory)}\n"
        f"  audit code      {code_fingerprint(directory)[:12]}\n"
        f"  reports         {info.entries} ({info.entry_bytes / 1024:.1f} KiB)\n"
        f"  current code    {info.current}\n"
        f"  stale           {len(info.stale)} (coldstart cache prune removes them)\n"
        f"  memos           {info.memos} (content digests by stat, code fingerprints)\n"
    )
    return 0


def cmd_prune(args: argparse.Namespace) -> int:
    from pytest_coldstart.audit.cache import prune
    from pytest_coldstart.cli.text import safe

    directory = _directory(args)
    removed = prune(directory, everything=args.all) if directory.is_dir() else 0
    sys.stdout.write(f"cache {safe(directory)}: removed {removed} file(s)\n")
    return 0
