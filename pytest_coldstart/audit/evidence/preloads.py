"""Files a program loads because a variable or an option it reads names them.

``kept_runs`` spells them as run (``… && sh F``) so ``scripts`` reads what they do:

- a program a tool runs where a variable or a ``git -c`` option names it: ``PAGER=./peek.sh
  man ls``, ``GIT_EDITOR=``, ``GIT_EXTERNAL_DIFF=``, ``GIT_SSH_COMMAND=``, ``git -c
  core.pager=./peek.sh log``, ``git -c alias.x='!./peek.sh' x``;
- a module an interpreter loads before its program: ``PERL5OPT=-Mpeek`` (peek.pm),
  ``RUBYOPT=-r./peek`` (peek.rb), ``node -r ./peek`` / ``--require`` / ``--import`` /
  ``--loader``, the same in ``NODE_OPTIONS``, and a relative ``require``/``import`` in the
  code of ``node -e`` (node finds ./peek as peek.js, .mjs, .cjs, .ts or peek/index.js).
What an earlier call left runs in any later one (``carried``): a variable above kept by the
session (``export PAGER=./peek.sh``, ``NODE_OPTIONS``, ``LD_PRELOAD``, ``BASH_ENV`` ...) and a
command ``git config`` set (``core.pager``, ``alias.x '!sh peek.sh'``: kept under ``GIT_CONFIG``) - which later program loads it is not followed (fail closed); ``prescan`` looks at
every later call only while such a value names a kept file.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection, Mapping

from pytest_coldstart.audit.evidence.kept_indirect import STARTS_PYTHON

#: variables whose value is a command a tool runs
_COMMAND_VARIABLES = frozenset(
    ["PAGER", "MANPAGER", "GIT_PAGER", "EDITOR", "VISUAL", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "SVN_EDITOR"]
    + ["GIT_EXTERNAL_DIFF", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS"]
)
#: ``git -c`` keys whose value is a command git runs (by their last part; ``alias.*`` too)
_GIT_COMMAND_KEYS = ("pager", "editor", "external", "sshcommand", "askpass", "program", "helper", "fsmonitor")
_MAX_QUOTED_WORDS = 64
_NODE_OPTIONS = frozenset(["-r", "--require", "--import", "--loader", "--experimental-loader"])
_NODE_CODE = frozenset(["-e", "-p", "--eval", "--print"])
_NODE_SUFFIXES = ("", ".js", ".mjs", ".cjs", ".ts", "/index.js")
_REQUIRE = re.compile(r"""(?:\brequire\s*\(\s*|\bimport\s*\(\s*|\bfrom\s+)["'`](\.{1,2}/[^"'`\s]+|/[^"'`\s]+)""")
HINT = (
    r"\b(?:(?:MAN|GIT_)?PAGER|EDITOR|VISUAL|GIT_\w+|SVN_EDITOR|\w*ASKPASS|PERL5OPT|RUBYOPT|NODE_OPTIONS)="
    r"|\bnode\b|\bgit\b[^;&|\n]{0,200}\s-c\b"
)
_HINT_BYTES = HINT.lower().replace(r"\w", r"[a-z0-9_]").encode("ascii")


#: variables a session keeps that make a later program load a file (``carried``)
CARRIED = _COMMAND_VARIABLES | {"PERL5OPT", "RUBYOPT", "NODE_OPTIONS", "BASH_ENV", "ENV", "PYTEST_PLUGINS"}
CARRIED |= {"LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES"}
_CARRIED_ORDER = tuple(sorted(CARRIED))
GIT_CONFIG = "git config:"  # the state key of the commands git config set (no shell variable's name)
_GIT_CONFIG = re.compile(
    r"\bgit\s+(?:-C\s+\S+\s+)?config\s+(?:--[\w-]+\s+)*([\w.-]{1,128})\s+"
    r"""('[^'\n]{0,1024}'|"[^"\n]{0,1024}"|[^\s;&|'"]{1,1024})"""
)
_MAX_SETTINGS = 16
_MAX_LINE = 4096


def git_settings(text: str, before: str = "") -> dict[str, str]:
    """The commands ``git config KEY VALUE`` in ``text`` sets (``core.pager``, ``alias.x``),
    after those ``before`` holds, as the one state key ``GIT_CONFIG``; empty where it sets none."""
    if "config" not in text or "git" not in text:
        return {}
    found = []
    for match in itertools.islice(_GIT_CONFIG.finditer(text), _MAX_SETTINGS):
        key = match.group(1).lower()
        if key.endswith(_GIT_COMMAND_KEYS) or key.startswith(("alias.", "pager.")):
            found.append("sh " + match.group(2).strip("'\"").lstrip("!"))
    return {GIT_CONFIG: " && ".join([before, *found] if before else found)[-_MAX_LINE:]} if found else {}


def carried(known: Mapping[str, str]) -> str | None:
    """A shell line loading what the kept state ``known`` makes any later program load, or None."""
    words = [f"{name}={known[name]}" for name in _CARRIED_ORDER if known.get(name)]
    lines = [f"{' '.join(words)} sh"] if words else []  # sh: BASH_ENV/ENV load where a shell starts
    lines += [known[GIT_CONFIG]] if known.get(GIT_CONFIG) else []
    return " && ".join(lines) or None


def kept_loads(known: Mapping[str, str], kept: Collection[str]) -> list[str]:
    """``carried``'s line where it names one of the kept files ``kept`` (base names), else none."""
    line = carried(known) if kept else None
    if line is None:
        return []
    words = (word.strip("'\"").rpartition("/")[2] for word in line.replace("=", " ").split())
    words = (word[2:].replace("::", "/") if word[:2] in ("-M", "-m", "-r") else word for word in words)  # -Mpeek
    named = any(word in kept or any(word + suffix in kept for suffix in (".js", ".pm", ".rb")) for word in words)
    return [line] if named else []


def hints(lowered: set[str]) -> list[bytes]:
    """What a call's lowercased raw text must hold to load one of the kept files ``lowered``
    (``prescan``): a variable or an option above; a python, or a ``PYTHONPATH=`` that puts a
    kept startup hook on the path of a later one."""
    out = [_HINT_BYTES] if lowered else []
    hooks = any(name.endswith((".pth", "customize.py")) for name in lowered)
    return out + [STARTS_PYTHON.encode() + rb"|pythonpath="] if hooks else out


def loaded(assigned: list[str], head: str, args: list[str]) -> str:
    """A shell line running the files ``assigned`` (the words before the program ``head``) and
    ``args`` (its arguments) make it load; empty where none."""
    runs: list[str] = []
    perl, ruby, node = [], [], []
    for word in assigned:
        name, _, value = word.partition("=")
        if name in _COMMAND_VARIABLES and value:
            runs.append(value)
        elif name == "PERL5OPT":
            perl += [f"{v[2:].partition('=')[0].replace('::', '/')}.pm" for v in value.split() if v[:2] in ("-M", "-m")]
        elif name == "RUBYOPT":
            ruby += [_ruby(v[2:]) for v in value.split() if v.startswith("-r") and len(v) > 2]
        elif name == "NODE_OPTIONS":
            node += _node_modules(value.replace("=", " ").split(), code=False)
    if head == "git":
        runs += _git_commands(args)
    elif head in ("node", "nodejs"):
        node += _node_modules(args, code=True)
    elif head == "ruby":
        ruby += [_ruby(arg[2:]) for arg in args if arg.startswith("-r") and len(arg) > 2]
    lines = [f"sh {run.lstrip('!')}" for run in runs]
    lines += [f"perl {' '.join(perl)}"] if perl else []
    lines += [f"ruby {' '.join(ruby)}"] if ruby else []
    lines += [f"node {' '.join(path + suffix for path in node for suffix in _NODE_SUFFIXES)}"] if node else []
    return " && ".join(lines)


def _ruby(feature: str) -> str:
    return feature if feature.endswith(".rb") else f"{feature}.rb"


def _git_commands(args: list[str]) -> list[str]:
    """The values of ``git -c key=value`` whose key names a command git runs."""
    out = []
    for index, (option, setting) in enumerate(itertools.pairwise(args)):
        key, _, value = setting.partition("=")
        key = key.lower()
        if option == "-c" and value and (key.endswith(_GIT_COMMAND_KEYS) or key.startswith(("alias.", "pager."))):
            out.append(_quoted_on(value, args[index + 2 : index + 2 + _MAX_QUOTED_WORDS]))
    return out


def _quoted_on(value: str, rest: list[str]) -> str:
    """A value and, where it opens a quote (``alias.x='!sh peek.sh'``: the shell's words were
    split), the words up to its close, without the quote and git's ``!``."""
    quote = value[:1]
    if quote not in ("'", '"') or (len(value) > 1 and value.endswith(quote)):
        return value.strip("'\"").lstrip("!")
    words = [value]
    for word in rest:
        words.append(word)
        if word.endswith(quote):
            break
    return " ".join(words).strip("'\"").lstrip("!")


def _node_modules(args: list[str], *, code: bool) -> list[str]:
    """The relative modules node preloads (``-r X``) or its ``-e`` code requires."""
    out: list[str] = []
    out += [value for option, value in itertools.pairwise(args) if option in _NODE_OPTIONS]
    for arg in args:
        if arg.startswith(("--require=", "--import=", "--loader=", "--experimental-loader=")):
            out.append(arg.partition("=")[2])
        elif arg.startswith(("-r./", "-r/")):
            out.append(arg[2:])
    if code and _NODE_CODE & set(args):
        out += _REQUIRE.findall(" ".join(args))
    return [path for path in out if path[:1] in "./"]
