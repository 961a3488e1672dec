"""Kept files a later call runs without a runner being handed their name on its command line.

``kept_runs`` spells the runs a shell sees; these run a kept file all the same:

- ``handed_in_code``: code that hands a command to a shell (``os.system('bash /tmp/s.sh')``,
  ``subprocess.run(['bash', 's.sh'])``, awk's ``system("bash s.sh")``, node's ``execSync``):
  the first word of each command string such a call is given - a runner, or the file itself;
- ``module_files``: the files ``python3 -m peek`` or ``python3 -c "import peek"`` load (a
  module in the working directory: ``peek.py``, ``peek/__init__.py``, ``peek/__main__.py``);
- ``collected``: what a finder hands a runner (``find /tmp -name s.sh -exec bash {} \\;``,
  ``find . -name '*.sh' | xargs bash``) and what ``pytest`` collects (its test files and
  conftest.py below the working directory): ``(folder, base-name pattern, recursive)``;
- ``path_dirs``: the folders a bare command word is looked up in (the usual ones, and those an
  agent call puts on ``PATH``): ``/tmp/bin/show`` runs as ``show``.
Each is linear in the segment; ``path_dirs`` keeps at most ``MAX_PATH_DIRS``.
"""

from __future__ import annotations

import fnmatch
import itertools
import re
from collections.abc import Iterable, Iterator

from pytest_coldstart.audit.evidence.runtime_reads import sources
from pytest_coldstart.audit.evidence.shell_words import program_name

Read = tuple[str, str, bool]
#: a call in code that runs a command string or argv: its first quoted word
_CODE_CALL = re.compile(
    r"(?:system|popen|exec[a-zA-Z]*|spawn[a-zA-Z]*|call|run|check_call|check_output|Popen|getoutput"
    r"|getstatusoutput|shell_exec|passthru)\s*\(\s*\[?\s*[\"']\s*([^\"'\s,\])]+)"
)
_PYTHONS = frozenset(["python", "python3", "python2", "pypy", "pypy3"])
_IMPORT = re.compile(r"\b(?:from\s+([\w.]+)\s+import|import\s+([\w.]+(?:\s*,\s*[\w.]+)*))")
_FINDERS = frozenset(["find", "fd", "fdfind", "ls"])
_EXECS = ("-exec", "-execdir", "-ok", "-okdir", "-x", "--exec", "-X", "--exec-batch")
_PYTESTS = frozenset(["pytest", "py.test"])
_COLLECTED = ((".", "test_*.py", True), (".", "*_test.py", True), (".", "conftest.py", True))
DEFAULT_PATH = ("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")
MAX_PATH_DIRS = 32
_PATH_SET = re.compile(r"\bPATH=[\"']?([^\s;&|\"']+)")
_CODE_HINT = re.compile(r"\b(?:system|popen|exec|spawn|call|run|getoutput|shell_exec|passthru)\w*\s*\(", re.I)


def may_hand_in_code(segment: str) -> bool:
    """Cheap necessary condition of ``handed_in_code``."""
    return "(" in segment and _CODE_HINT.search(segment) is not None


def handed_in_code(segment: str) -> list[str]:
    """The first words of the commands code in ``segment`` hands a shell or an exec."""
    return [match.group(1) for match in _CODE_CALL.finditer(segment)]


def module_files(words: list[str], start: int, token: str) -> list[str]:
    """The files ``token`` stands for where the python of ``words[start]`` imports it as a
    module (``-m token``, or an import in its ``-c`` code): relative to the working directory."""
    if start >= len(words) or program_name(words[start]) not in _PYTHONS:
        return []
    args = words[start + 1 :]
    module = token.strip("\"'")
    by_option = any(arg == "-m" and value == token for arg, value in itertools.pairwise(args))
    by_import = "-c" in args and any(
        module in (found or "").replace(" ", "").split(",")
        for match in _IMPORT.finditer(" ".join(args))
        for found in match.groups()
    )
    if not (by_option or by_import) or not re.fullmatch(r"[A-Za-z_][\w.]*", module):
        return []
    path = module.replace(".", "/")
    return [f"{path}.py", f"{path}/__init__.py", f"{path}/__main__.py"]


def collected(words: list[str], start: int, segment: str, fed: bool, runners: frozenset[str]) -> Iterator[Read]:
    """What a finder hands a runner (``-exec RUNNER``, or fed on to one) and what pytest collects."""
    head = program_name(words[start]) if start < len(words) else ""
    if head in _PYTESTS or (head in _PYTHONS and words[start + 1 : start + 3] == ["-m", "pytest"]):
        yield from _COLLECTED
    elif head in _FINDERS and (fed or _execs_runner(words[start + 1 :], runners)):
        yield from sources(segment)


def _execs_runner(args: list[str], runners: frozenset[str]) -> bool:
    return any(arg in _EXECS and program_name(value) in runners for arg, value in itertools.pairwise(args))


def path_dirs(texts: Iterable[str]) -> list[str]:
    """The folders the ``PATH=`` assignments of ``texts`` put on the path (``$PATH`` left out)."""
    found = (m.group(1).split(":") for text in texts if "PATH=" in text for m in _PATH_SET.finditer(text))
    return [part for parts in found for part in parts if part and "$" not in part]


def loaded_as(key: str) -> str | None:
    """The word a call that loads the kept file ``key`` by itself holds: the module it is
    imported as (``peek.py``: ``peek``; ``pk/__main__.py``: ``pk``), pytest for a test file."""
    folder, _, name = key.rpartition("/")
    if fnmatch.fnmatchcase(name, "test_*.py") or fnmatch.fnmatchcase(name, "*_test.py") or name == "conftest.py":
        return "pytest"
    if name in ("__init__.py", "__main__.py"):
        name = folder.rpartition("/")[2] + ".py"
    return name[:-3] if name.endswith(".py") and name[:-3].isidentifier() else None
