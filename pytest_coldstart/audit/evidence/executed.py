"""What a runner executes of a kept file: never its comments, and of a makefile its recipes.

A kept file that runs is read as one more text of the call that runs it, so a name in it counts
as named by that call. Only what the runner executes counts:

- a line whose first word is a comment (``# the grader reads oracle.json``) runs nothing, for
  the shells, make, Python, Perl and Ruby alike (``//`` in a Java, Kotlin, Go, Rust or C source), and a line that only prints its words
  (``echo 'do not read oracle.json'``: no pipe, separator, redirect or substitution) reads nothing;
- make hands the shell its recipe lines (tab-led, without make's ``@``/``-``/``+`` marks, or
  after a rule's ``;``) with the makefile's own variables expanded (``define … endef`` too); a variable no recipe uses
  runs nothing (``GRADER := oracle.json``). What make runs or reads while parsing stays in
  (``$(shell …)``, ``$(file <…)``, ``include``), and a makefile that calls make's functions
  (``$(subst …)``, ``$(call …)``: names built at make time) is read whole (fail closed), and
  its recipes with the text functions evaluated (``make_functions``: the names they build).

Linear: one pass over the lines; variable expansion is bounded in depth and size (each pass
stops making a line once it passes the bound; past ``_TOTAL`` characters of recipes, many
lines each expanding a long value, the rest is read in the whole makefile), and a kept text is
read once (a bounded memo: every call that runs it asks again).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache

from pytest_coldstart.audit.evidence import make_functions, program_files
from pytest_coldstart.audit.evidence.shell_words import last_component

MAKEFILE_NAMES = frozenset(["gnumakefile", "makefile"])
_DEPTH = 4  # nested $(A) -> $(B) -> ... expansions followed
_LIMIT = make_functions.LIMIT  # characters an expanded recipe may grow to
_TOTAL = 16 * _LIMIT  # characters all expanded recipes may grow to (lines × a long value is a product)
_COMMENT = re.compile(r"^[ \t]*#(?!!)")  # not a shebang: it names the interpreter
#: a line comment of the C family, by the file's suffix; not Go's //go:embed and //go:generate,
#: which embed a file in the program and run a command at ``go generate``
_SLASHED = re.compile(r"^[ \t]*//(?!go:(?:embed|generate)\b)")
_SLASH_SUFFIXES: tuple[str, ...] = (".java", ".kt", ".kts", ".groovy", ".gradle", ".scala", ".sc", ".go", ".rs")
_SLASH_SUFFIXES += (".swift", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".csx", ".dart", ".jsh", ".zig", ".v")
_SLASH_SUFFIXES += (".cxx", ".hh", ".hxx", ".m", ".mm", ".ino", ".cu")
_ASM_SUFFIXES = (".s", ".asm")  # .incbin "x" copies a file into the object
_MAGIC = re.compile(r"^[ \t]*(?:(%run\s+)|!|%%(?:bash|sh|script\b.*)$)", re.MULTILINE)
_PRINT_ONLY = re.compile(r"^[ \t]*@?(?:echo|printf)\b[^|;&<>$`\\\n]*$")
#: a quoted string, to find a parenthesis outside them: Vim script's ``echo readfile('x')`` and
#: fish's ``echo (cat x)`` evaluate what they print (a shell's unquoted ``(`` is no plain echo)
_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")
_ASSIGN = re.compile(r"^\s*(?:(?:export|override|private)\s+)*([A-Za-z_][\w.-]*)\s*(\+=|\?=|!=|:{0,3}=)\s*(.*)$")
_RULE_RECIPE = re.compile(r"^[^\t#=]*?:[^=;]*;(.*)$")  # all: deps ; recipe
_DEFINE = re.compile(r"^\s*(?:(?:export|override|private)\s+)*define\s+([A-Za-z_][\w.-]*)")
_ENDEF = re.compile(r"^\s*endef\b")
_FUNCTION = re.compile(r"\$[({][a-z-]+[ \t]")
_PARSE_TIME = re.compile(r"\$[({](?:shell|file)\b|^\s*-?s?include\b")
_VARIABLE = re.compile(r"(?<!\$)\$(?:\(([A-Za-z_][\w.-]*)\)|\{([A-Za-z_][\w.-]*)\}|([A-Za-z_]))")


def executed(key: str, text: str) -> str:
    """The part of kept file ``key`` (its text ``text``) its runner executes."""
    makefile = last_component(key).lower() in MAKEFILE_NAMES or key.lower().endswith(".mk")
    if key.lower().endswith(".ipynb"):  # its code cells, IPython's %run and ! lines as commands
        return _executed(False, False, notebook_code(text))
    if key.lower().endswith(".jq"):  # import "oracle" as $o reads oracle.json: its modules spelled
        return "\n".join([text, *program_files.jq_modules(text)])
    # a C-family source's # lines are directives (#include "x", #embed, Rust's #[path = "x"]), no comments
    hashed = not makefile and key.lower().endswith(_SLASH_SUFFIXES + _ASM_SUFFIXES)
    return _executed(makefile, hashed, text if makefile else uncommented(key, text))


@lru_cache(maxsize=64)
def _executed(makefile: bool, directives: bool, text: str) -> str:
    if makefile:
        return recipes(text)
    lines = text.split("\n")
    return "\n".join(line for line in lines if (directives or not _COMMENT.match(line)) and not _prints_only(line))


def _prints_only(line: str) -> bool:
    """``line`` only prints its words: an echo or printf with no parenthesis outside quotes."""
    return _PRINT_ONLY.match(line) is not None and "(" not in _QUOTED.sub("", line)


@lru_cache(maxsize=64)
def notebook_code(text: str) -> str:
    """The code of a notebook's cells with ``%run x.py`` as ``python x.py`` and ``!cmd`` as
    ``cmd``; the whole text where it is no notebook JSON (fail closed)."""
    try:
        cells = json.loads(text).get("cells")
        sources = [cell.get("source", "") for cell in cells if cell.get("cell_type") != "markdown"]
        code = "\n".join(source if isinstance(source, str) else "".join(source) for source in sources)
    except (ValueError, AttributeError, TypeError, RecursionError):  # a hostile text: all of it
        return text
    return _MAGIC.sub(lambda m: "python " if m.group(1) else "", code)


def uncommented(key: str, text: str) -> str:
    """``text`` without the ``//`` comment lines of a C-family source ``key`` (also what a compile
    carries to its program: ``go build -o hello`` then ``./hello``)."""
    if not key.lower().endswith(_SLASH_SUFFIXES):
        return text
    return "\n".join(line for line in text.split("\n") if not _SLASHED.match(line))


def recipes(text: str) -> str:
    """What make hands the shell, and what it runs or reads while parsing."""
    chunks: dict[str, list[str]] = {}  # a variable's value in pieces: joined once (+= and define grow it)
    run: list[str] = []
    defining: str | None = None  # the variable a define … endef block sets (its lines, verbatim)
    for line in text.split("\n"):
        if defining is not None:
            if _ENDEF.match(line):
                defining = None
            else:
                pieces = chunks.setdefault(defining, [])
                pieces.append(f"\n{line}" if any(pieces) else line)  # leading empty lines dropped
        elif (block := _DEFINE.match(line)) is not None:
            defining = block.group(1)
        elif line.startswith("\t"):
            run.append(line[1:].lstrip("@-+ \t"))
        elif _COMMENT.match(line):
            continue
        elif _PARSE_TIME.search(line):
            run.append(line)  # $(shell cat x), include x: run or read now, used or not
        elif (assigned := _ASSIGN.match(line)) is not None:
            name, how, value = assigned.groups()
            if how == "+=":
                chunks.setdefault(name, []).append(f" {value}")
            else:
                chunks[name] = [value]
        elif (inline := _RULE_RECIPE.match(line)) is not None:
            run.append(inline.group(1))
    values = {name: "".join(pieces) for name, pieces in chunks.items()}
    functions = _FUNCTION.search(text) is not None
    expanded: list[str] = []
    budget = _TOTAL
    for line in run:
        if budget < 0:  # many lines each expanding a long value: the makefile whole (below) instead
            functions = True
            break
        line = _expanded(line, values, functions)
        if not _PRINT_ONLY.match(line):
            expanded.append(line)
            budget -= len(line)
    if functions:  # names built at make time: the whole makefile too
        return "\n".join([*(line for line in text.split("\n") if not _COMMENT.match(line)), *expanded])
    return "\n".join(expanded)


def _expanded(line: str, values: dict[str, str], functions: bool) -> str:
    for _ in range(_DEPTH * 2 if functions else _DEPTH):
        if "$" not in line or len(line) > _LIMIT:
            break
        line = make_functions.sub(_VARIABLE, lambda m: values.get(next(g for g in m.groups() if g), m.group(0)), line)
        line = make_functions.evaluate(line, values) if functions else line
    return line[:_LIMIT].replace("$$", "$")  # make's $$ is the shell's $
