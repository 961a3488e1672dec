"""The text a file tool writes is the file's data, not a command line the call runs.

A Write of NOTES.md that says ``never `echo x > test/testmod.jsonl` ``, or of RomLogger.java
with the comment ``// usage: java RomLogger > agent/romlog.jsonl``, runs nothing: read as a
shell line it was a write of the test mod's file (a false FAIL). The text is kept for a later
call that runs the file (``scripts``), which judges it by what it runs then. So it is left out
of the call's own shell reading only where it is surely kept: a tool named to write files and
not to run anything, given a path, the text within the kept bound and room left for the file.
Otherwise (an unknown tool, ``write_and_run``, an edit key the keeper does not know, a text too
long to keep whole) the call's every text is read as before (fail closed).
"""

from __future__ import annotations

from typing import Any

from pytest_coldstart.audit.evidence.scripts import CONTENT_KEYS, EDIT_KEYS, MAX_CHARS, MAX_SCRIPTS, Scripts
from pytest_coldstart.audit.evidence.tool_writes import WRITER_VERBS, words_of

#: words of a tool's name that say it also runs what it is given
_RUNNING = frozenset(["run", "exec", "execute", "eval", "shell", "bash", "sh", "terminal", "stdin", "process"])
_RUNNING |= {"command", "cmd", "spawn", "script", "launch", "start", "invoke", "call", "repl", "console", "pty"}


def beside_data(tool: str, arguments: Any, targets: list[str], scripts: Scripts) -> Any:
    """``arguments`` without the file data ``scripts`` will keep for ``targets`` (the new files an
    agent call writes, declared ones never kept)."""
    if not isinstance(arguments, dict) or not targets or not (words := words_of(tool)) & WRITER_VERBS:
        return arguments
    if words & _RUNNING or len(set(targets) - scripts.by_key.keys()) + len(scripts.by_key) > MAX_SCRIPTS:
        return arguments
    content = [key for key in CONTENT_KEYS if isinstance(arguments.get(key), str) and arguments[key]]
    kept = content or [key for key in EDIT_KEYS if isinstance(arguments.get(key), str)]  # as keep_call keeps
    if not kept or sum(len(arguments[key]) for key in kept) > MAX_CHARS // 2:
        return arguments
    return {key: value for key, value in arguments.items() if key not in kept}
