"""Programs that take their program from a file an option or operand names, or from stdin.

``scripts`` counts a kept file as run where an interpreter is handed it. Many other programs
run a file as their program: ``awk -f p.awk`` (``getline < "oracle.json"``; ``@include "lib"`` too), ``sed -f p.sed``
(``r oracle.json``), ``jq -f p.jq``, ``sqlite3 -init x.sql``/``'.read x.sql'``
(``readfile()``), ``psql -c '\\i x.sql'``, ``mysql -e 'source x.sql'``, ``at -f job``, ``vim -S x.vim`` (``-c 'source x.vim'``, ``+'luafile x.lua'``), ``emacs -l x.el`` (``--eval '(load "x.el")'``; with ``--batch`` its file operands, whose org blocks run), ``R -f x.R``, ``gdb -x cmds``, ``pandoc --lua-filter f.lua``; every
operand of ``m4``, ``cpp``, ``gnuplot``, ``octave``, ``expect``, ``crontab``, ``bats``, ``xsltproc`` (a stylesheet's
``document()``), ``xmllint --xinclude`` and a C compiler asked only to preprocess (``gcc -E``:
an ``#include`` prints the file); ``git -c include.path=F`` loads F's aliases (``!cat …``), ``perl -MFoo``, ``ruby -rfoo`` and
``lua -l foo`` a module (``_modules``: in the working directory and each ``-I`` folder). A jq program's ``import "P" as $d``
reads ``P.json`` as data (``include "P"``/``import "P" as m``: ``P.jq``), in the folders ``-L``
names too (``jq_modules``).
``kept_runs.loads`` spells these files as a shell's operands, so a kept one reads as run.

Some of them, and the interpreters, read their program from stdin (``STDIN``): what an ``echo``
or ``cat`` feeds them, or a ``< F`` redirect, is run, whatever else they are handed (``ed -s
f < cmds``, ``sqlite3 db < x.sql``). A data operand (``awk '{…}' notes.md``) stays data.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

#: each program, the options whose value is a file it runs as its program
_OPTIONS: dict[str, frozenset[str]] = {
    "awk": frozenset(["-f", "--file", "-i", "--include", "-E", "--exec"]),
    "sed": frozenset(["-f", "--file"]),
    "jq": frozenset(["-f", "--from-file"]),
    "sqlite": frozenset(["-init", ".read"]),
    "duckdb": frozenset(["-init", ".read", "-f"]),
    "psql": frozenset(["-f", "--file", "\\i", "\\ir", "\\include", "\\include_relative"]),  # -c '\i x.sql'
    "mysql": frozenset(["source", "\\."]),  # mysql -e 'source x.sql'
    "vim": frozenset(["-S", "-u", "-U"]),
    "emacs": frozenset(["-l", "--load", "--script", "-script"]),
    "r": frozenset(["-f", "--file"]),
    "gdb": frozenset(["-x", "--command", "-ix", "--init-command"]),
    "lldb": frozenset(["-s", "--source", "-S", "--source-before-file"]),
    "pandoc": frozenset(["--lua-filter", "-L", "--filter", "-F"]),
    "at": frozenset(["-f"]),  # a job run later: what it runs is read now (fail closed)
    "curl": frozenset(["-K", "--config"]),  # url = "file:///…", output = …: a config is arguments
    "ssh": frozenset(["-F"]),  # ProxyCommand, LocalCommand, Match exec: commands it runs
    "scp": frozenset(["-F"]),
    "sftp": frozenset(["-F", "-b"]),
    "tmux": frozenset(["-f", "source-file", "source"]),
    "screen": frozenset(["-c"]),
}
#: the programs each operand of which is a program they run (a preprocessor, a stylesheet)
_OPERANDS_RUN = frozenset(["m4", "cpp", "gnuplot", "octave", "expect", "xsltproc", "wish", "crontab", "bats"])
#: C compilers: with ``-E`` they print each source preprocessed (its includes' text)
_PREPROCESSORS = frozenset(["gcc", "g++", "cc", "c++", "clang", "clang++", "tcc"])
#: interpreters that load a module an option names (``perl -MFoo``, ``ruby -rfoo``, ``lua -l foo``): its suffix
_MODULE_OPTIONS = {"perl": ("-M", ".pm"), "ruby": ("-r", ".rb"), "lua": ("-l", ".lua"), "luajit": ("-l", ".lua")}
#: other names of the programs above
_ALIASES = {"gawk": "awk", "mawk": "awk", "nawk": "awk", "busybox-awk": "awk", "gsed": "sed", "gojq": "jq"}
_ALIASES |= {"sqlite3": "sqlite", "nvim": "vim", "vi": "vim", "ex": "vim", "view": "vim", "rscript": "r"}
_ALIASES |= {"gm4": "m4", "octave-cli": "octave", "jaq": "jq", "mariadb": "mysql"}
#: programs that run what reaches their stdin (besides shells and interpreters: ``kept_runs``)
STDIN = frozenset(["ed", "vim", "sqlite", "duckdb", "psql", "mysql", "m4", "gnuplot", "r", "octave", "expect"])
STDIN |= {"bc", "dc", "gdb", "tclsh", "wish", "lua", "luajit", "jshell", "ghci", "irb", "julia", "php"}
STDIN |= {"at", "batch", "crontab"}  # a job or a table of them: run later, by the agent's say
_NAMES = frozenset(
    [*_OPTIONS, *_OPERANDS_RUN, *_PREPROCESSORS, *STDIN, *_MODULE_OPTIONS, "xmllint", "git"]
)  # m4 is no m
_VERSION = re.compile(r"(?<=[a-z])[\d.]+$")  # tclsh8.6, lua5.4
_OPTION_VALUE = re.compile(r"^(--?[\w-]+)=(.+)$")
#: a jq module directive: ``import "P" as $data`` (P.json), ``import "P" as m``/``include "P"`` (P.jq)
_JQ_MODULE = re.compile(r'\b(?:import\s+"?([^"\s;]{1,256})"?\s+as\s+(\$?)|include\s+"?([^"\s;]{1,256}))')
_MAX_MODULES = 16
_AWK_INCLUDE = re.compile(r'@include\s+"?([^"\s;]{1,256})')
_JQ_HINT = re.compile(r"\b(?:import|include)\b")
_JQ_FOLDER = re.compile(r"(?<!\S)-L\s*([^\s;&|'\"]+)")
#: a cheap necessary condition of ``jq_reading`` on a call's lowered raw bytes (``prescan``)
JQ_HINT = rb'\b(?:import|include)\s+\\*"'
#: an Ex command that runs a file: ``vim -c 'source x.vim'``, ``+'luafile x.lua'``, ``--cmd 'so x'``
_VIM_SOURCE = re.compile(r"(?:^|\s)[+:]*(?:so(?:urce)?|runtime|luafile|py[3x]?file|rubyfile|perlfile)!?\s+([^\s'\"|]+)")
_EMACS_LOAD = re.compile(r"\((?:load|load-file)\s+\\?\"?([^\s\"\\)]+)")
_CODE_CHARS = frozenset("()\"' ")
_SOURCING = {"vim": _VIM_SOURCE, "emacs": _EMACS_LOAD}
_GIT_INCLUDE = re.compile(r"^include(?:if\.[^=]*)?\.path=(.+)$", re.IGNORECASE)
#: a cheap necessary condition of ``loaded`` naming a file (``kept_runs`` hints with it)
HINT = (
    r"\b(?:[gmn]?awk|g?sed|g?o?jq|jaq|sqlite3?|duckdb|psql|mysql|mariadb|n?vim?|ex|view|emacs|r|rscript|gdb|lldb|g?m4|cpp"
    r"|pandoc|gnuplot|octave(?:-cli)?|expect|xsltproc|xmllint|wish|at|crontab|bats|perl|ruby|lua(?:jit)?|gcc|g\+\+|cc|c\+\+|clang(?:\+\+)?|tcc|git|R"
    r"|curl|ssh|scp|sftp|tmux|screen)\b|<"
)


#: a printer that turns ``\\n``/``\\t`` into line breaks (printf, echo -e, $'...'), and those escapes
_PRINTS = re.compile(r"\bprintf\b|\becho\s+-\w*e|\$'")
_LINE_ESCAPE = re.compile(r"\\[nt]")
_PIPELINES = re.compile(r"(&&|\|\||;|\n)")
_PIPED = re.compile(r"\|\s*(?:sudo\s+|env\s+)?([\w./+-]+)")
_FED_RUNNERS = frozenset(["sh", "bash", "dash", "zsh", "ksh", "python", "python3", "perl", "ruby", "node", "php"])


def canonical(head: str) -> str:
    """The program ``head`` names in the tables: ``gawk`` is awk, ``tclsh8.6`` is tclsh."""
    name = _ALIASES.get(head, head)
    return name if name in _NAMES or not name[:1].isalpha() else _VERSION.sub("", name)


def reads_stdin(head: str) -> bool:
    """``head`` runs what reaches its stdin as a program, whatever its operands."""
    return canonical(head) in STDIN


def loaded(head: str, args: list[str]) -> list[str]:
    """The files the program ``head`` run with ``args`` runs as its program (none for most)."""
    name = canonical(head)
    if name == "git":
        return [m.group(1) for arg in args if (m := _GIT_INCLUDE.match(arg))]
    if name in _MODULE_OPTIONS:
        return _modules(name, args)
    # vim's Ex commands (-c/--cmd values, +cmd words; the quotes are gone), emacs's (load "x.el")
    sourced = _SOURCING[name].findall(" ".join(args))[:_MAX_MODULES] if name in _SOURCING else []
    if name == "emacs" and {"--batch", "-batch"} & set(args):  # an org file's blocks run on export too
        pairs = itertools.pairwise(["", *args])
        sourced += [arg for flag, arg in pairs if flag not in _OPTIONS["emacs"] and _is_file(arg)]
    options = _OPTIONS.get(name, frozenset())
    every = name in _OPERANDS_RUN or (name == "xmllint" and "--xinclude" in args)
    every = every or (name in _PREPROCESSORS and "-E" in args)
    stdin = name in STDIN
    if not (options or every or stdin):
        return []
    out: list[str] = sourced
    out += jq_modules(" ".join(args), _values(args, "-L")) if name == "jq" else []
    if name == "awk" and "@include" in " ".join(args):  # gawk '@include "lib"': lib, else lib.awk
        out += [f for m in _AWK_INCLUDE.findall(" ".join(args))[:_MAX_MODULES] for f in (m, f"{m}.awk")]
    skip: str | None = None
    for arg in args:
        if skip is not None:
            out += [arg.rstrip(";")] if skip in options or skip == "<" else []  # -e "source x.sql;"
            skip = None
        elif arg in options or arg == "<":
            skip = arg
        elif stdin and arg[:1] == "<" and arg[1:2] not in ("<", "(", ""):
            out.append(arg[1:])  # <x.sql
        elif (match := _OPTION_VALUE.match(arg)) is not None and match.group(1) in options:
            out.append(match.group(2))
        elif every and arg[:1] not in ("-", "<", ">") and not arg[:1].isdigit():
            out.append(arg)
    return out


def _is_file(arg: str) -> bool:
    """``arg`` looks like a file operand, not an option or Lisp code."""
    return arg[:1] != "-" and "." in arg and not _CODE_CHARS & set(arg)


def _modules(name: str, args: list[str]) -> list[str]:
    """The module files ``perl -MFoo::Bar``, ``ruby -rpeek``, ``lua -l peek`` load, in the
    working directory and each ``-I`` folder (a module on another path is not followed)."""
    option, suffix = _MODULE_OPTIONS[name]
    folders: list[str] = [""]
    modules: list[str] = []
    for arg, value in itertools.pairwise(["", *args]):
        if arg in (option, "-I"):
            (modules if arg == option else folders).append(value)
        elif value.startswith((option, "-I")) and len(value) > 2:
            (modules if value.startswith(option) else folders).append(value[2:])
    paths = [module.partition("=")[0].replace("::", "/").removesuffix(suffix) + suffix for module in modules]
    return [f"{folder.rstrip('/')}/{path}" if folder else path for folder in folders[:8] for path in paths[:8]]


def _values(args: list[str], option: str) -> list[str]:
    return [value for flag, value in itertools.pairwise(args) if flag == option]


def jq_modules(text: str, folders: Sequence[str] = ()) -> list[str]:
    """The files the jq program ``text`` loads by its module directives (in ``folders`` too)."""
    if "import" not in text and "include" not in text:
        return []
    out: list[str] = []
    for match in itertools.islice(_JQ_MODULE.finditer(text), _MAX_MODULES):
        data, dollar, included = match.groups()
        name = f"{data}.json" if dollar else f"{data or included}.jq"
        out += [name, *(f"{folder.rstrip('/')}/{name}" for folder in folders[:_MAX_MODULES])]
    return out


def jq_reading(text: str) -> str | None:
    """``text`` ending in the files a jq program of it loads (``jq -n 'import "oracle" as $o;
    $o'`` reads oracle.json), or None where it has none."""
    if "jq" not in text or _JQ_HINT.search(text) is None:
        return None
    modules = jq_modules(text, _JQ_FOLDER.findall(text)[:_MAX_MODULES])
    return f"{text} {' '.join(modules)}" if modules else None


def fed_lines(text: str) -> str:
    """``text`` with the ``\\n``/``\\t`` escapes of each pipeline that feeds a program which runs
    what it is fed (``| ed -s``, ``| sh``; not ``| tee``) read as the breaks they print."""
    if _PRINTS.search(text) is None:
        return text
    parts = _PIPELINES.split(text)
    for i in range(0, len(parts), 2):
        if "|" in parts[i] and "\\" in parts[i] and _runs_fed(parts[i]):
            parts[i] = _LINE_ESCAPE.sub(" ", parts[i])
    return "".join(parts)


def _runs_fed(pipeline: str) -> bool:
    for match in itertools.islice(_PIPED.finditer(pipeline), _MAX_MODULES):
        head = match.group(1).rpartition("/")[2].lower()
        if reads_stdin(head) or canonical(head) in _FED_RUNNERS:
            return True
    return False
