"""Does an agent call show the logger being written, built or started (seed §6, R3)?

The call must name the logger (a declared logger file name, or a word holding "logger") and do
something to it: a write tool, or a command that runs a builder, a copier or a starter
(``javac``, ``jar``, ``gradle``, ``cp``, ``lab start``, ``… provision --mod-jar x-logger.jar``).
Words that run nothing do not count: a comment (``# javac RomLogger.java``), a command that only
lists, prints or searches (``ls romlogger.jar``, ``grep start RomLogger.java``), a request for
help (``lab start --help``), the word ``jar`` inside a file name, or a tool that reads, searches
or thinks (``read romlogger.jar``, ``think: start the logger``). Echoed words are removed by the
caller (``read_plausibility.without_echoes``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from pytest_coldstart.audit.evidence.shell_words import (
    HELP,
    command_words,
    program_name,
    quoted_segments,
    strings,
    without_comments,
)

#: programs and verbs that build, copy into place or start something
ACTIONS = frozenset(
    ["javac", "gradle", "gradlew", "mvn", "mvnw", "maven", "build", "jar", "make", "cmake", "cargo", "compile"]
    + ["deploy", "install", "provision", "start", "restart", "launch", "run", "write", "cp", "copy", "mv", "tee"]
    + ["rsync", "scp", "java", "docker", "podman", "systemctl", "npm", "pnpm", "yarn", "up", "load", "enable"]
)
WRITER_TOOLS = frozenset(["write", "edit", "create", "patch", "apply", "str", "replace", "multiedit"])
#: tools that only read, search, list, fetch or think: their words run nothing
IDLE_TOOLS = frozenset(
    ["read", "view", "open", "cat", "grep", "glob", "ls", "list", "find", "search", "web", "fetch", "browse"]
    + ["browser", "think", "thought", "thinking", "plan", "todo", "todos", "note", "notes", "memory", "ask"]
    + ["question", "lookup", "inspect", "tree", "stat", "diff", "status", "get", "show", "query", "recall"]
)
#: tools that run a command line: what counts is what the line runs, not the tool's name
SHELL_TOOLS = frozenset(
    ["bash", "sh", "zsh", "shell", "terminal", "exec", "execute", "command", "commands", "cmd", "powershell"]
    + ["pwsh", "run", "console", "process", "script", "computer", "interpreter", "python", "jupyter", "repl"]
)
#: heads of commands that only list, print, compare or search (``cp``/``mv``/``install`` deploy)
IDLE_HEADS = frozenset(
    ["ls", "dir", "stat", "file", "test", "[", "which", "whereis", "wc", "du", "md5sum", "sha1sum", "sha256sum"]
    + ["sha512sum", "basename", "dirname", "realpath", "readlink", "echo", "printf", "print", "cat", "head"]
    + ["tail", "less", "more", "grep", "egrep", "fgrep", "rg", "ag", "ack", "find", "locate", "tree", "diff"]
    + ["cmp", "jq", "xxd", "od", "hexdump", "strings", "unzip", "zipinfo", "true", "false", ":", "man", "type"]
    + ["command", "get-content", "get-item", "get-childitem", "test-path", "select-string", "write-output"]
)
#: a request for help or a dry run does the work of neither
NOT_RUN = HELP | {"--dry-run", "--dryrun", "help"}
#: interpreters whose code (``-c "…"``) is read token by token
INTERPRETERS = frozenset(["python", "python3", "python2", "py", "node", "perl", "ruby", "php", "deno", "bun"])
_TOKENS = re.compile(r"[a-z0-9]+")
_REDIRECT = re.compile(r">>?\s*([^\s;|&<>]+)")
MAX_STRINGS = 256  # per call: a hostile argument tree costs linear time


def arms(tool: str, arguments: Any, logger_names: Iterable[str]) -> bool:
    """True when the call names the logger and runs something that writes, builds or starts it."""
    tool_words = set(_TOKENS.findall(tool.lower()))
    texts = [text.lower() for _, text in zip(range(MAX_STRINGS), strings(arguments), strict=False)]
    if tool_words & WRITER_TOOLS:
        return any(_names(text, logger_names) for text in texts)
    if tool_words & IDLE_TOOLS and not tool_words & ACTIONS:
        return False
    segments = [segment for text in texts for segment in _run_segments(text)]
    if not any(_names(segment, logger_names) for segment in segments):
        return False
    if tool_words & ACTIONS and not tool_words & SHELL_TOOLS:
        return True  # a tool of its own that builds or starts (``lab_start``, ``deploy_mod``)
    return any(_acts(segment, logger_names) for segment in segments)


def _names(text: str, logger_names: Iterable[str]) -> bool:
    if "logger" in text:
        return any("logger" in token for token in _TOKENS.findall(text))
    return any(
        name and name in text and re.search(rf"(?<![a-z0-9_.-]){re.escape(name)}(?![a-z0-9_])", text)
        for name in logger_names
    )


def _run_segments(text: str) -> Iterator[str]:
    """The shell segments of ``text`` with comments cut off (what the shell runs)."""
    for segment in quoted_segments(without_comments(text)):
        kept = segment.strip()
        if kept:
            yield kept


def _acts(segment: str, logger_names: Iterable[str]) -> bool:
    words = command_words([word.strip("\"'()") for word in segment.split()])
    if not words:
        return False
    head, rest = program_name(words[0]), words[1:]
    if NOT_RUN.intersection(rest):
        return False
    for target in _REDIRECT.findall(segment):
        if _names(target, logger_names):
            return True  # a redirect into a logger file writes it
    if head in IDLE_HEADS:
        return False
    if head in ACTIONS or ACTIONS.intersection(rest):
        return True
    if head.rstrip("0123456789.") in INTERPRETERS or head.startswith("python"):
        return bool(ACTIONS.intersection(_TOKENS.findall(segment)) - {"jar"})
    return False
