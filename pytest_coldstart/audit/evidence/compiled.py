"""Programs the agent writes in a compiled or JVM language: what runs them.

``scripts`` counts a kept file as run where a runner is handed it. Beside the interpreters it
lists, a source runs where

- a program runs the source it is handed (``runs_source``): ``java Peek.java`` (the JDK's
  single-file launch), ``jshell``, ``groovy``, ``kotlin x.main.kts``, ``scala``, ``swift``,
  ``julia``, ``elixir``, ``runghc``, ``clojure``, ``go run``, ``dotnet script`` ...;
- it was compiled (``compiles``: ``javac``, ``kotlinc``, ``rustc``, ``go build``, ``swiftc``,
  ``ghc``, ``dotnet build`` ...) and a compiled program runs later, in the same call or a later
  one (``runs_output``): any ``java``/``kotlin``/``scala``/``dotnet``/``mono`` command or a
  program named by its path (``./peek``, ``build/peek``), or any command a variable makes load
  a shared library (``LD_PRELOAD=./peek.so true``: its constructor runs first). Which class, jar or binary came of
  which source is not followed: fail closed, every kept source compiled so far counts as run.
  Compiling alone runs nothing (``javac -d build RomLogger.java`` reads no file it names),
  but it reads what the source includes by name (``includes``: ``#include "x"``, ``#embed``,
  ``include_str!``, ``//go:embed`` ...).
"""

from __future__ import annotations

import re

from pytest_coldstart.audit.evidence.kept_runs import head_index
from pytest_coldstart.audit.evidence.shell_words import SEGMENT, program_name

#: programs that run the source file they are handed
SOURCE_RUNNERS = frozenset(
    ["java", "jshell", "groovy", "kotlin", "scala", "scala-cli", "amm", "jbang", "swift", "julia", "elixir"]
    + ["runghc", "runhaskell", "clojure", "clj", "bb", "dart", "crystal", "racket", "guile", "ocaml", "escript"]
    + ["rust-script"]
)
#: a program whose subcommand runs the source it is handed (``go run peek.go``)
_SUBCOMMAND_RUNS = {"go": ("run",), "dotnet": ("script", "run"), "cargo": ("script",), "nim": ("r", "run")}
_SUBCOMMAND_RUNS |= {"zig": ("run",), "v": ("run",), "stack": ("runghc", "runhaskell", "script")}
#: compilers handed a source (their output runs later)
COMPILERS = frozenset(
    ["javac", "kotlinc", "kotlinc-jvm", "scalac", "groovyc", "ecj", "rustc", "swiftc", "ghc", "csc", "mcs"]
    + ["gcc", "g++", "cc", "c++", "clang", "clang++", "tcc", "gfortran", "fpc", "dmd", "ldc2", "valac"]
    + ["ocamlopt", "ocamlc", "nvcc", "cpp", "as", "nasm", "yasm"]
)
_SUBCOMMAND_COMPILES = {"go": ("build", "install"), "dotnet": ("build", "publish"), "nim": ("c", "cpp", "compile")}
_SUBCOMMAND_COMPILES |= {"zig": ("build-exe",), "crystal": ("build",), "swift": ("build",)}
#: programs that run a compiled class, jar or assembly
_OUTPUT_RUNNERS = frozenset(["java", "kotlin", "scala", "dotnet", "mono", "jbang"])
#: build wrappers named by path that are no compiled program (``build_files`` reads their build files)
_WRAPPERS = frozenset(["gradlew", "mvnw", "sbtx", "configure"])
_PROGRAM_PATH = re.compile(r"^(?:\.{1,2}/|/(?!/)|[\w.-]+/)[\w./-]*[\w-]$")
#: a cheap necessary condition of ``runs_output``, also for the prescan of later calls
HINT = rb"\b(?:java|kotlin|scala|dotnet|mono|jbang)\b|/|(?i:ld_preload|ld_audit|dyld_insert_libraries)="
_HINT = re.compile(HINT.decode())
HINT_RE = re.compile(HINT)  # the same on a call's raw bytes (``prescan``)
_KOTLIN_SCRIPT = frozenset(["-script"])
#: variables that make any program load the libraries they name
_PRELOADS = ("LD_PRELOAD=", "LD_AUDIT=", "DYLD_INSERT_LIBRARIES=")


def _subcommand(words: list[str], start: int) -> str | None:
    return next((word for word in words[start + 1 :] if word[:1] != "-"), None)


def runs_source(words: list[str], start: int) -> bool:
    """The program at ``words[start]`` runs a source it is handed."""
    head = program_name(words[start])
    if head in SOURCE_RUNNERS:
        return True
    if head in ("kotlinc", "kotlinc-jvm"):
        return bool(_KOTLIN_SCRIPT & set(words[start + 1 :]))
    runs = _SUBCOMMAND_RUNS.get(head)
    return runs is not None and _subcommand(words, start) in runs


def compiles(words: list[str], start: int) -> bool:
    """The program at ``words[start]`` compiles the sources it is handed."""
    head = program_name(words[start])
    if head in COMPILERS:
        return True
    built = _SUBCOMMAND_COMPILES.get(head)
    return built is not None and _subcommand(words, start) in built


def runs_output(text: str) -> bool:
    """A segment of ``text`` runs a compiled program (fail closed: which one is not followed)."""
    if _HINT.search(text) is None:
        return False
    for segment in SEGMENT.split(text):
        words = [word.strip("\"'") for word in segment.split()]
        start = head_index(words)  # past CLASSPATH=build, sudo, timeout 10 ...
        if start == len(words):
            continue
        if any(word.startswith(_PRELOADS) for word in words[:start]):
            return True
        head = program_name(words[start])
        if head in _OUTPUT_RUNNERS or (_PROGRAM_PATH.match(words[start]) and head not in _WRAPPERS):
            return True
    return False
