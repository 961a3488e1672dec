"""Kept files a later call runs without a runner being handed their name on its command line.

``kept_runs`` spells the runs a shell sees; these run a kept file all the same:

- ``handed_in_code``: code that hands a command to a shell (``os.system('bash /tmp/s.sh')``,
  ``subprocess.run(['bash', 's.sh'])``, awk's ``system("bash s.sh")``, node's ``execSync``):
  the first word of each command string such a call is given - a runner, or the file itself;
- ``module_files``: the files ``python3 -m peek`` or ``python3 -c "import peek"`` load (a
  module in the working directory: ``peek.py``, ``peek/__init__.py``, ``peek/__main__.py``);
- ``collected``: what a finder hands a runner (``find /tmp -name s.sh -exec bash {} \\;``,
  ``find . -name '*.sh' | xargs bash``), what ``pytest`` collects (its test files and
  conftest.py below the working directory; ``go test``, ``cargo test``, ``deno test``, ``node
  --test``, ``python3 -m unittest``, ``jest``/``vitest``/``mocha`` theirs): ``(folder,
  base-name pattern, recursive)``;
- ``path_dirs``: the folders a bare command word is looked up in (the usual ones, and those an
  agent call puts on ``PATH``): ``/tmp/bin/show`` runs as ``show``;
- ``imported``: the module files a kept script that runs imports (``import peek`` in a main.py
  run by ``python3 main.py`` runs peek.py; ``require('./peek')`` in node, peek.js); ``runs_code``: a script that may
  run code it is handed or reads (``exec(open(f).read())``, ``runpy``, ``os.system``): every
  kept file it names or is handed may run;
- ``startup_hook``/``python_dirs``/``starts_python``: a ``sitecustomize.py``,
  ``usercustomize.py`` or ``.pth`` file in a site-packages folder or one a ``PYTHONPATH=`` put
  on the path runs at the start of every python (``PYTHONPATH=hook python3 -c 1``, pytest, pip).
Each is linear in the segment; ``path_dirs`` keeps at most ``MAX_PATH_DIRS``.
"""

from __future__ import annotations

import fnmatch
import functools
import itertools
import re
from collections.abc import Collection, Iterable, Iterator

from pytest_coldstart.audit.evidence.runtime_reads import sources
from pytest_coldstart.audit.evidence.shell_words import last_component, program_name

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
NODE_SUFFIXES = (".js", ".mjs", ".cjs", ".ts")
_PYTESTS = frozenset(["pytest", "py.test"])
_COLLECTED = ((".", "test_*.py", True), (".", "*_test.py", True), (".", "conftest.py", True))
_JS_TESTS = tuple(
    (".", f"*{mark}{suffix}", True) for mark in (".test", ".spec", "-test", "_test") for suffix in NODE_SUFFIXES
)
_JS_TESTS += (("test", "*.js", True), ("test", "*.mjs", True), ("test", "*.cjs", True), ("__tests__", "*", True))
#: the test files other test runners collect below the working directory (``go test ./...``, ``npx jest``)
_TEST_FILES: dict[str, tuple[Read, ...]] = {
    "go": ((".", "*_test.go", True),),
    "cargo": (("tests", "*.rs", True), ("src", "*.rs", True), ("benches", "*.rs", True), ("examples", "*.rs", True)),
    "deno": ((".", "*_test.*", True), (".", "*.test.*", True)),
    "node": _JS_TESTS,
    "unittest": ((".", "test*.py", True),),
}
_TEST_FILES |= dict.fromkeys(["jest", "vitest", "mocha", "jasmine", "karma", "playwright"], _JS_TESTS)
#: the words a call that runs each holds (the prescan looks for them once a file one collects is kept)
_TEST_WORDS = {"go": "go test", "cargo": "cargo test", "deno": "deno test", "node": "--test", "unittest": "unittest"}
_TEST_WORDS |= {runner: runner for runner in _TEST_FILES if runner not in _TEST_WORDS}
DEFAULT_PATH = ("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")
MAX_PATH_DIRS = 32
_PATH_SET = re.compile(r"\bPATH=[\"']?([^\s;&|\"']+)")
_FROM = re.compile(r"\bfrom\s+(\.+)([\w.]*)\s+import\s+\(?([\w\s,]+)")  # relative: beside the importer
_DYNAMIC_IMPORT = re.compile(r"(?:__import__|import_module)\s*\(\s*[\"']([\w.]+)")
MAX_IMPORTS = 64
_STARTUP_NAMES = frozenset(["sitecustomize.py", "usercustomize.py"])
_SITE_DIRS = ("site-packages/", "dist-packages/")
_PYTHONPATH_SET = re.compile(r"\bPYTHONPATH=[\"']?([^\s;&|\"']*)")
_SITE_DIR_ADDED = re.compile(r"\baddsitedir\(\s*\\?[\"']([^\"'\\]+)")  # site.addsitedir('.') runs its .pth files
#: a program that starts a python (fail closed: any program of a bin folder, a venv's console scripts)
STARTS_PYTHON = r"\b(?:i?python[\d.]*|pypy3?|py\.?test|pip\d?|mypy|tox|nox|uv|poetry|pipenv|hatch|pdm)(?![\w-])|/bin/"
_STARTS_PYTHON = re.compile(STARTS_PYTHON, re.IGNORECASE)
_MODULE_PARTS = 6  # components of a module path matched at the end of a key
_PERL_USE = (re.compile(r"\b(?:use|require)\s+([A-Za-z_][\w:]{0,200})"), ".pm", re.compile(r"::|/"))
_QUOTED = r"""\s*\(?\s*["']([^"'\s]{1,256})["']"""
_OTHER_IMPORTS = {".pl": _PERL_USE, ".pm": _PERL_USE}  # each: what names a module, its suffix, its separators
_OTHER_IMPORTS[".rb"] = (re.compile(r"\b(?:require(?:_relative)?|load)" + _QUOTED), ".rb", re.compile("/"))
_OTHER_IMPORTS[".lua"] = (re.compile(r"\b(?:require|dofile|loadfile)" + _QUOTED), ".lua", re.compile(r"[./]"))
#: the scripts whose imports are followed (``imported``)
IMPORTING_SUFFIXES = (".py", *NODE_SUFFIXES, *_OTHER_IMPORTS)
#: ``import … from``'s names are bounded: an unbounded lazy run scans to the text's end from every ``import``
_REQUIRE = re.compile(
    r"""(?:\brequire\s*\(\s*|\bimport\s*\(\s*|\bimport\s+(?:[^'";]{0,256}?\bfrom\s+)?)["'`]([^"'`\s]+)"""
)
#: what lets a script run code it is handed or reads, not only read it (fail closed)
_RUNS_CODE = re.compile(
    r"\b(?:exec\w*|eval|compile|execfile|runpy|run_path|run_module|__import__|import_module|importlib|imp"
    r"|spec_from_\w+|load_source|exec_module|SourceFileLoader|system|popen\w*|spawn\w*|subprocess|Popen"
    r"|builtins|__builtins__|__subclasses__|pickle|marshal|dill|interact|InteractiveConsole|runsource|runcode"
    r"|ctypes)\b"
)
_CODE_HINT = re.compile(r"\b(?:system|popen|exec|spawn|call|run|getoutput|shell_exec|passthru)\w*\s*\(", re.I)


def may_hand_in_code(segment: str) -> bool:
    """Cheap necessary condition of ``handed_in_code``."""
    return "(" in segment and _CODE_HINT.search(segment) is not None


def handed_in_code(segment: str) -> list[str]:
    """The first words of the commands code in ``segment`` hands a shell or an exec."""
    return [match.group(1) for match in _CODE_CALL.finditer(segment)]


def modules_named(words: list[str], start: int) -> tuple[frozenset[str], frozenset[str]]:
    """The modules the python of ``words[start]`` runs with ``-m`` and imports in its ``-c``
    code: found once a command, then looked up per word (``module_files``)."""
    if start >= len(words) or program_name(words[start]) not in _PYTHONS:
        return frozenset(), frozenset()
    args = words[start + 1 :]
    by_option = frozenset(value for arg, value in itertools.pairwise(args) if arg == "-m")
    imported = (
        frozenset(
            name
            for match in _IMPORT.finditer(" ".join(args))
            for found in match.groups()
            for name in (found or "").replace(" ", "").split(",")
        )
        if "-c" in args
        else frozenset()
    )
    return by_option, imported


def module_files(named: tuple[frozenset[str], frozenset[str]], token: str) -> list[str]:
    """The files ``token`` stands for where the python command ``named`` came from imports it
    as a module (``-m token``, or an import in its ``-c`` code): relative to the working directory."""
    by_option, imported = named
    module = token.strip("\"'")
    if not (token in by_option or module in imported) or not re.fullmatch(r"[A-Za-z_][\w.]*", module):
        return []
    path = module.replace(".", "/")
    return [f"{path}.py", f"{path}/__init__.py", f"{path}/__main__.py"]


def collected(
    words: list[str], start: int, segment: str, fed: bool, runners: frozenset[str], stems: Collection[str]
) -> Iterator[Read]:
    """What a finder hands a runner (``-exec RUNNER``, or fed on to one) and what pytest collects."""
    head = program_name(words[start]) if start < len(words) else ""
    if head in _PYTESTS or (head in _PYTHONS and words[start + 1 : start + 3] == ["-m", "pytest"]):
        yield from _COLLECTED
    elif (runner := _test_runner(head, words[start + 1 :])) is not None and _TEST_WORDS[runner] in stems:
        yield from _TEST_FILES[runner]
    elif head in _FINDERS and (fed or _execs_runner(words[start + 1 :], runners, stems)):
        yield from sources(segment)


def _test_runner(head: str, args: list[str]) -> str | None:
    """The test runner ``head args`` is: ``go test``, ``cargo test``, ``deno test``, ``node
    --test``, ``python3 -m unittest``, ``jest`` ... (None for any other command)."""
    if head in ("go", "cargo", "deno"):
        return head if next((arg for arg in args if arg[:1] != "-"), None) == "test" else None
    if head in ("node", "nodejs", "bun"):
        return "node" if "--test" in args or args[:1] == ["test"] else None
    if head in _PYTHONS:
        return "unittest" if args[:2] == ["-m", "unittest"] else None
    return head if head in _TEST_FILES else None


def _execs_runner(args: list[str], runners: frozenset[str], stems: Collection[str]) -> bool:
    """``-exec RUNNER``: the found file is run - not by ``python3 -m py_compile {}``, whose
    module (none the agent wrote: ``stems``) takes it as data."""
    for index, (arg, value) in enumerate(itertools.pairwise(args)):
        if arg in _EXECS and program_name(value) in runners:
            module = args[index + 3] if args[index + 2 : index + 3] == ["-m"] and index + 3 < len(args) else None
            if module is None or program_name(value) not in _PYTHONS or module.split(".")[0] in stems:
                return True
    return False


def takes_data(words: list[str], start: int) -> str | None:
    """The script a Python command runs where the words after it are its data (``python3
    summarize.py notes.md``): None with ``-c``/``-m``, or no script."""
    if start >= len(words) or program_name(words[start]) not in _PYTHONS:
        return None
    for word in words[start + 1 :]:
        if word in ("-c", "-m") or word.startswith(("-c", "-m")):
            return None
        if word[:1] != "-":
            return word
    return None


def path_dirs(texts: Iterable[str]) -> list[str]:
    """The folders the ``PATH=`` assignments of ``texts`` put on the path (``$PATH`` left out)."""
    found = (m.group(1).split(":") for text in texts if "PATH=" in text for m in _PATH_SET.finditer(text))
    return [part for parts in found for part in parts if part and "$" not in part]


def loaded_as(key: str) -> tuple[str, ...]:
    """The words one of which a call that loads the kept file ``key`` by itself holds: the module
    it is imported as (``peek.py``: ``peek``; ``pk/__main__.py``: ``pk``), pytest for a test
    file, a test runner's for a file one may collect (``x.test.js``, ``x_test.go``, ``tests/t.rs``)."""
    folder, _, name = key.rpartition("/")
    runs = tuple(_TEST_WORDS[runner] for runner, reads in _TEST_FILES.items() if any(_matches(key, r) for r in reads))
    stem = _stem(folder, name)
    return (*runs, stem) if stem else runs


def _matches(key: str, read: Read) -> bool:
    """``key`` may be a file the collector ``read`` finds (its folder anywhere above it)."""
    folder, pattern, _ = read
    return fnmatch.fnmatchcase(last_component(key), pattern) and (folder == "." or f"/{folder}/" in f"/{key}")


def _stem(folder: str, name: str) -> str | None:
    if fnmatch.fnmatchcase(name, "test_*.py") or fnmatch.fnmatchcase(name, "*_test.py") or name == "conftest.py":
        return "pytest"
    if name in ("__init__.py", "__main__.py"):
        name = folder.rpartition("/")[2] + ".py"
    return name[:-3] if name.endswith(".py") and name[:-3].isidentifier() else None


def imported(key: str, text: str) -> frozenset[str]:
    """The module files the kept script ``key`` (its ``text``) may load, as paths that end the
    file's key: Python's ``import a.b`` runs a.py or a/__init__.py and a/b.py or a/b/__init__.py,
    ``from . import peek`` peek.py; node's ``require('./peek')`` and ``import … from './peek'``
    peek.js (or .mjs, .cjs, .ts, peek/index.js). Where the module lives (beside the script, on a
    ``sys.path`` or ``NODE_PATH`` a call set) is not followed: any kept file so named may be it.
    A deep module's paths keep their last ``_MODULE_PARTS`` components (all ``ends_in`` matches);
    each text is read once (a bounded memo: every call that runs the script asks again)."""
    suffix = next((suffix for suffix in _OTHER_IMPORTS if key.endswith(suffix)), None)
    return _imported(key.endswith(NODE_SUFFIXES), text) if suffix is None else _other_imports(suffix, text)


@functools.lru_cache(maxsize=64)
def _other_imports(suffix: str, text: str) -> frozenset[str]:
    """Perl's ``use Foo::Bar`` (Foo/Bar.pm), Ruby's ``require 'peek'`` (peek.rb), Lua's
    ``require 'a.b'`` (a/b.lua, a/b/init.lua): the module files, last components kept."""
    pattern, made, separators = _OTHER_IMPORTS[suffix]
    out: dict[str, None] = {}
    for module in itertools.islice(dict.fromkeys(pattern.findall(text)), MAX_IMPORTS):
        parts = [part for part in separators.split(module.removesuffix(made)) if part not in ("", ".", "..")]
        path = "/".join(parts[-_MODULE_PARTS:])
        out.update(dict.fromkeys([f"{path}{made}", *([f"{path}/init.lua"] if made == ".lua" else [])]))
    return frozenset(out)


@functools.lru_cache(maxsize=64)
def _imported(node: bool, text: str) -> frozenset[str]:
    out: dict[str, None] = {}
    if node:
        for path in itertools.islice(dict.fromkeys(_REQUIRE.findall(text)), MAX_IMPORTS):
            path = "/".join(part for part in path.split("/") if part not in ("", ".", ".."))
            out.update(dict.fromkeys([path, *(path + suffix for suffix in NODE_SUFFIXES), f"{path}/index.js"]))
        return frozenset(out)
    modules = [
        name for match in _IMPORT.finditer(text) for group in match.groups() if group for name in group.split(",")
    ]
    modules += [
        f"{match.group(2)}.{name}".strip(".") for match in _FROM.finditer(text) for name in match.group(3).split(",")
    ]
    modules += _DYNAMIC_IMPORT.findall(text)
    for module in itertools.islice(dict.fromkeys(m.strip() for m in modules), MAX_IMPORTS):
        parts = [part for part in module.split(".") if part]
        for end in range(1, len(parts) + 1):  # a/b.py: a.py and a/__init__.py ran first
            out[f"{'/'.join(parts[max(0, end - _MODULE_PARTS) : end])}.py"] = None
            out[f"{'/'.join(parts[max(0, end - _MODULE_PARTS + 1) : end])}/__init__.py"] = None
    return frozenset(out)


def ends_in(key: str, paths: Collection[str]) -> bool:
    """``key`` is a file one of ``paths`` (relative, a few components) may be."""
    parts = key.split("/")
    return any("/".join(parts[-count:]) in paths for count in range(1, min(len(parts), _MODULE_PARTS) + 1))


def runs_code(text: str) -> bool:
    """A Python script that may run code it is handed or reads (fail closed: a word that may;
    ``json.load``, ``open`` and ``import os`` read or import, they run nothing)."""
    return _RUNS_CODE.search(text) is not None


def startup_hook(key: str) -> bool:
    """The kept file ``key`` is one python's ``site`` runs at start where it is on the path."""
    name = key.rpartition("/")[2]
    return name in _STARTUP_NAMES or name.endswith(".pth")


def python_dirs(texts: Iterable[str]) -> list[str]:
    """The folders the ``PYTHONPATH=`` assignments of ``texts`` name (``$PWD/x`` kept as written),
    and those code adds as site folders (``site.addsitedir('.')``: their .pth files run)."""
    texts = list(texts)
    found = (m.group(1).split(":") for text in texts if "PYTHONPATH=" in text for m in _PYTHONPATH_SET.finditer(text))
    added = [m.group(1) for text in texts if "addsitedir" in text for m in _SITE_DIR_ADDED.finditer(text)]
    return [part for parts in found for part in parts if part] + added


def in_site(key: str) -> bool:
    """``key`` is in a site-packages folder: python reads it at start wherever it runs."""
    return any(folder in key for folder in _SITE_DIRS)


def starts_python(text: str) -> bool:
    """``text`` may start a python (a program that is one or runs one)."""
    return _STARTS_PYTHON.search(text) is not None
