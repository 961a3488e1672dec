"""Package managers and task runners that run the files of their folder by themselves.

``npm test``/``npm run x``/``yarn``/``pnpm install`` run the scripts of the folder's
``package.json`` (lifecycle ones too; ``--prefix DIR`` moves it), not ``npm view``; ``just``,
``task``, ``tox``, ``nox``, ``invoke``, ``rake``, ``doit`` and ``pre-commit`` their task file;
``pip install .`` (``-e ./x``) the setup.py of each local folder it installs.
``kept_runs.loads`` spells such a segment with these files as a shell's operands, so a kept one
reads as run; of a package.json only its ``scripts`` run (``package_scripts``).
"""

from __future__ import annotations

import re
from collections.abc import Collection

from pytest_coldstart.audit.evidence.shell_words import option_folder

PACKAGE = "package.json"
_PACKAGERS = frozenset(["npm", "yarn", "pnpm", "bun"])
#: package manager commands that run no script of the package
_SHOWING = frozenset(["view", "info", "show", "ls", "list", "help", "config", "get", "search", "outdated", "why"])
#: each task runner, the task files it runs of its folder
_RUNNER_FILES = {
    "just": ("justfile", "Justfile", ".justfile"),
    "task": ("Taskfile.yml", "Taskfile.yaml"),
    "tox": ("tox.ini",),
    "nox": ("noxfile.py",),
    "invoke": ("tasks.py",),
    "inv": ("tasks.py",),
    "rake": ("Rakefile",),
    "pre-commit": (".pre-commit-config.yaml",),
    "doit": ("dodo.py",),
}
_RUNNER_FILE_NAMES = frozenset(name.lower() for names in _RUNNER_FILES.values() for name in names) | {"setup.py"}
_PIPS = frozenset(["pip", "pip3"])
_SCRIPTS = re.compile(r"[\"']scripts[\"']\s*:\s*\{([^{}]*)\}")
_SCRIPT = re.compile(r"[\"'][^\"']*[\"']\s*:\s*[\"']((?:[^\"'\\]|\\.)*)[\"']")
HINT = r"\b(?:npm|yarn|pnpm|bun|just|task|tox|nox|inv(?:oke)?|rake|pre-commit|doit|pip3?)\b"


def run_files(head: str, args: list[str]) -> list[str] | None:
    """The files the program ``head`` run with ``args`` runs of its folder; None when it is no
    package manager, task runner or installer (an empty list: one that runs none here)."""
    if head in _PACKAGERS and _runs_scripts(head, args):
        return [f"{option_folder(args, '--prefix')}{PACKAGE}"]
    if head in _RUNNER_FILES:
        return list(_RUNNER_FILES[head])
    if head in _PIPS or (head.startswith("python") and args[:2] == ["-m", "pip"]):
        return _installed(args[2:] if args[:1] == ["-m"] else args)
    return None


def _installed(args: list[str]) -> list[str]:
    """The setup.py files ``pip install`` runs: of each local folder it installs (``.``, ``-e ./x``)."""
    if "install" not in args:
        return []
    folders = [arg for arg in args if arg[:1] in "./" and not arg.endswith((".whl", ".gz", ".zip", ".txt"))]
    return [f"{folder.rstrip('/')}/setup.py" for folder in folders]


def _runs_scripts(head: str, args: list[str]) -> bool:
    """``npm test``, ``npm run x``, ``yarn``, ``yarn x``, ``pnpm install``: a package manager
    command that runs the package's scripts (lifecycle ones too), not one that only shows."""
    command = next((arg for arg in args if arg[:1] != "-"), None)
    if head == "bun":
        return command == "run"
    return command not in _SHOWING and (command is not None or head == "yarn")


def package_scripts(text: str) -> str:
    """What ``npm``/``yarn`` run of a kept package.json: the commands of its ``scripts`` (its
    name or description mentions nothing run); all of it where no scripts block is found."""
    blocks = _SCRIPTS.findall(text)
    return "\n".join(value for block in blocks for value in _SCRIPT.findall(block)) if blocks else text


def hints(names: Collection[str], lowered: set[str]) -> list[bytes]:
    """What a call's lowercased text must hold to run one of the kept files ``names``."""
    out = [rb"\b(?:npm|yarn|pnpm|bun)\b"] if PACKAGE in names else []
    return out + ([HINT.encode()] if _RUNNER_FILE_NAMES & lowered else [])
