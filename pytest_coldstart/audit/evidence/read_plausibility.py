"""Is a call that names the logger and returns captured content a plausible read of it?

R2 (seed §6) asks for "a plausible read/exec call"; the linkage is ambiguous - the
``agent_read_log.linkage`` review, never PASS - when the call:
- writes the logger file (a write tool, ``tee``, a redirect): what it returns is what it wrote;
- already holds the captured content in its own arguments (``echo '<uuid> <items>'``): the
  result may echo what the agent typed, not what the logger recorded;
- names the logger file only in commands that do not read it (``echo``, ``ls``, ``stat``,
  ``touch``, ``cp`` ...: a filename echoed), while the content comes from elsewhere.
A read tool, ``cat``/``grep``/``jq``/a script, or a command substitution (``$(cat log)``) are
plausible reads. Likewise a logger is not shown written, built or started by words an ``echo``
prints, nor by the words of a call the agent records itself (``without_echoes``).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from pytest_coldstart.audit.evidence import kept_runs, lab_record
from pytest_coldstart.audit.evidence.data_words import data_printed
from pytest_coldstart.audit.evidence.identity import Workspace
from pytest_coldstart.audit.evidence.runtime_reads import hands_off
from pytest_coldstart.audit.evidence.shell_words import HELP, last_component, quoted_segments, strings, without_comments

#: Commands that only print their words.
ECHOES = frozenset(("echo", "printf", "print", "write-output", "write-host"))
_ECHO_HINT = re.compile(r"(?i)echo|print|write-(?:output|host)")
#: Commands whose output never holds a file's content, only its name or metadata.
GREPS = frozenset(("grep", "egrep", "fgrep", "rg", "ag", "ack", "git-grep", "findstr"))
#: tools that think, plan or talk: what they return was not read from a file
NO_READ_TOOLS = frozenset(("think", "thought", "thinking", "plan", "todo", "todos", "note", "notes", "memory"))
_WORDS = re.compile(r"[a-z0-9]+")
NON_READERS = frozenset(
    (
        "--help",
        "grep -c",
        "echo",
        "printf",
        "print",
        "ls",
        "dir",
        "stat",
        "file",
        "touch",
        "mkdir",
        "rm",
        "rmdir",
        "test",
        "[",
    )
    + ("which", "whereis", "wc", "du", "md5sum", "sha1sum", "sha256sum", "sha512sum", "chmod", "chown")
    + ("basename", "dirname", "realpath", "readlink", "export", "set", "cp", "mv", "ln", "install")
    + ("write-output", "write-host", "test-path", "get-item", "new-item", "remove-item", "copy-item", "move-item")
)


def doubt(
    ws: Workspace,
    logger_keys: Collection[str],
    arguments: Any,
    *,
    writes_logger: bool,
    echoes_content: bool,
    tool: str = "",
) -> str | None:
    """Why the call is not a plausible read of the logger, or None when it is one."""
    if writes_logger:
        return "it writes the logger file, so what it returns is what it wrote, not a read"
    if echoes_content:
        return "its own arguments already hold the captured content, so the result may echo what the agent wrote"
    if set(_WORDS.findall(tool.lower())) & NO_READ_TOOLS:
        return f"`{tool}` reads no file: what it returns is not the logger's"
    heads = naming_heads(ws, logger_keys, uncommented(arguments))
    if not heads and naming_heads(ws, logger_keys, arguments):
        return "it names the logger file only in a comment, which runs nothing (a filename echoed)"
    if heads and all(head in NON_READERS for head in heads):
        return f"it names the logger file only in `{sorted(heads)[0]}`, which does not read it (a filename echoed)"
    return None


def uncommented(value: Any) -> Any:
    """``value`` with the shell comments of its strings left out (``without_comments``)."""
    if isinstance(value, str):
        return without_comments(value)
    if isinstance(value, dict):
        return {key: uncommented(item) for key, item in value.items()}
    if isinstance(value, list):
        return [uncommented(item) for item in value]
    return value


def only_echoed(ws: Workspace, keys: Collection[str], arguments: Any) -> bool:
    """The file is named only as text a command prints (``echo 'see oracle.json' > notes``),
    and no command reads the printed names (``echo oracle.json | xargs cat``: ``runtime_reads``)
    or runs the printed text (``echo "print(open('oracle.json').read())" | python3``)."""
    if any(hands_off(text) or kept_runs.fed(text) for text in strings(arguments)):
        return False
    heads = naming_heads(ws, keys, arguments)
    return bool(heads) and heads <= ECHOES


def naming_heads(ws: Workspace, keys: Collection[str], arguments: Any) -> set[str]:
    """The programs of the shell segments that name one of ``keys`` ("" for a bare path)."""
    heads: set[str] = set()
    # A token can resolve to a key only by its base name or through a symlink of the run.
    bases = {key.rpartition("/")[2].lower() for key in keys} | ws.symlinks
    for text in strings(arguments):
        if not any(base in text.lower() for base in bases):
            continue
        for segment, tokens in ws.segments(data_printed(text)):  # cat > notes <<EOF, git commit -m: data
            if any(last_component(token) in bases and ws.key(token, cwd) in keys for token, cwd in tokens):
                heads.add(_head(segment))
    return heads


def _head(segment: str) -> str:
    """The program a segment runs (``/bin/echo`` -> echo); "" when it may run anything else
    (a command substitution). A bare path (a structured tool's argument) is its own name. A
    reader asked for help, or a grep asked only for counts or names, prints no content: its
    head is its non-reading form (``--help``, ``grep -c``)."""
    if "$(" in segment or "`" in segment:
        return ""
    words = segment.split()
    if not words:
        return ""
    head = last_component(words[0].strip("\"'"))
    if HELP.intersection(words[1:]):
        return "--help"
    if head in GREPS and any(_names_only(word) for word in words[1:]):
        return "grep -c"
    return head


def _names_only(flag: str) -> bool:
    if flag.startswith("--"):
        return flag in ("--count", "--files-with-matches", "--files-without-match", "--quiet", "--silent")
    return flag.startswith("-") and flag[1:].isalpha() and bool(set(flag[1:]) & set("clLq"))


def without_echoes(value: Any) -> Any:
    """``value`` with the shell segments that only print their words left out: ``echo build
    the logger`` shows no logger being built (a redirected echo writes a file and stays)."""
    if isinstance(value, str):
        if not _ECHO_HINT.search(value) and not lab_record.CLI_HINT_TEXT.search(value):
            return value
        return " ; ".join(part for part in quoted_segments(value) if not _printed_only(part))
    if isinstance(value, dict):
        return {key: without_echoes(item) for key, item in value.items()}
    if isinstance(value, list):
        return [without_echoes(item) for item in value]
    return value


def _printed_only(segment: str) -> bool:
    """An echo that writes no file, or a record of the agent's own call (its words run nothing)."""
    return (_head(segment) in ECHOES and ">" not in segment) or lab_record.records_a_claim(segment.split())
