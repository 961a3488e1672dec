"""What a file tool - a tool that is no shell - writes: tools told apart by the verbs of their
name, paths by the names of their arguments.

A tool whose name holds a writing verb (``write``, ``edit``, ``save``, ``delete``, ``move``,
``upload`` ...) writes every path its arguments give; so does a tool whose name holds neither a
writing nor a reading verb (``text_editor``, ``fs_put``): fail closed, an unknown tool that is
handed a path may change it. A reading verb (``read``, ``view``, ``list``, ``grep`` ...) makes
a reader, and so does an editor's ``command: "view"``. Paths are the string values (also in
lists and nested objects: ``files: [{path: ...}]``) of arguments named like a path (``path``,
``file_path``, ``target_file``, ``destination``, ``new_path``, ``output_path``, ``to`` ...),
never of content (``content``, ``new_string``, ``diff`` ...): a move's source and its
destination both count. A writer writes through any other argument too (``uri``, ``pathname``,
``p``, ``file.name``; a ``file://`` URI is its path): every string of its arguments but content
is taken as a path it may write (fail closed), and a tool of no known verb told to write by an
argument (``op: "write"``) is a writer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from pytest_coldstart.audit.evidence.shell_words import file_uri_path, joined_path

WRITER_VERBS = frozenset(["write", "edit", "create", "patch", "multiedit", "str", "replace", "notebookedit"])
WRITER_VERBS |= {"save", "append", "insert", "put", "upload", "download", "move", "mv", "copy", "cp", "rename"}
WRITER_VERBS |= {"delete", "remove", "rm", "unlink", "update", "overwrite", "store", "dump", "touch", "mkdir"}
WRITER_VERBS |= {"truncate", "modify", "apply", "set"}
READER_VERBS = frozenset(["read", "view", "cat", "get", "list", "ls", "search", "grep", "glob", "find", "stat"])
READER_VERBS |= {"show", "head", "tail", "fetch", "inspect", "look", "query", "lookup", "describe", "info"}
READER_VERBS |= {"exists", "open", "check", "diff", "count", "tree", "print", "display"}
#: An editor's commands that only read (str_replace_based_edit_tool's view).
_READING_COMMANDS = frozenset(["view", "read", "cat", "list", "ls", "find", "search", "glob"])
_PATH_WORDS = frozenset(["path", "paths", "file", "files", "filename", "filepath", "filenames", "dest"])
_PATH_WORDS |= {"destination", "target", "dst", "output", "out", "notebook", "src", "source", "dir", "directory"}
_PATH_WORDS |= {"folder", "location"}
_CONTENT_WORDS = frozenset(["str", "string", "text", "content", "contents", "data", "body", "code", "diff"])
_CONTENT_WORDS |= {"edit", "edits", "lines", "line", "patch", "input", "message", "description", "comment"}
#: A key naming a setting, not a place: Grep's ``output_mode: "content"`` is no folder to search.
_SETTING_WORDS = frozenset(["mode", "format", "type", "kind", "encoding", "limit", "style", "level"])
_VERB_KEYS = frozenset(["op", "operation", "action", "command", "cmd", "mode", "method", "verb", "type"])
_WORDS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_MAX_DEPTH = 4


def words_of(name: str) -> set[str]:
    """The lowercased words of a tool or argument name (``writeFile``, ``apply_diff``, ``NotebookEdit``)."""
    return {word.lower() for word in _WORDS.findall(name)} | {name.lower()}


def is_writer(tool: str, arguments: Any) -> bool:
    """Whether ``tool`` called with ``arguments`` writes the paths they give (fail closed)."""
    if not isinstance(arguments, dict):
        return False
    command = arguments.get("command")
    if isinstance(command, str) and command.strip().lower() in _READING_COMMANDS:
        return False
    verbs = words_of(tool)
    if verbs & WRITER_VERBS:
        return True
    if verbs & READER_VERBS:
        return False
    return next(tool_paths(arguments), None) is not None or _asks_to_write(arguments)


def _asks_to_write(arguments: dict[str, Any]) -> bool:
    """A tool of no known verb told by an argument to write (``fs {"op": "write", ...}``):
    one word (a command line is a shell's, parsed as such) under a key like op or action."""
    return any(
        isinstance(key, str) and isinstance(value, str) and 0 < len(value) <= 64 and " " not in value.strip()
        and bool(words_of(key) & _VERB_KEYS) and bool(words_of(value) & WRITER_VERBS)
        for key, value in arguments.items()
    )  # fmt: skip


_MANY = frozenset(["paths", "files", "filenames", "targets", "sources"])


def tool_paths(arguments: Any, depth: int = 0, *, any_key: bool = False) -> Iterator[str]:
    """The paths ``arguments`` give by name (values of path-named keys, nested too; a
    ``file://`` URI as its path). ``any_key``: every string but content, whatever its key
    (a writer's ``uri``, ``pathname`` or ``p`` is where it writes: fail closed)."""
    if depth > _MAX_DEPTH:
        return
    if isinstance(arguments, list):
        for item in arguments:
            if isinstance(item, (dict, list)):
                yield from tool_paths(item, depth + 1, any_key=any_key)
        return
    if not isinstance(arguments, dict):
        return
    for key, value in arguments.items():
        if not isinstance(key, str):
            continue
        words = words_of(key)
        named = any_key or bool(words & _PATH_WORDS) or key.lower() in ("to", "from")
        pathlike = named and not words & _CONTENT_WORDS and (any_key or not words & _SETTING_WORDS)
        if pathlike and isinstance(value, str) and value.strip():
            yield from _spellings(value)
        elif pathlike and isinstance(value, list):
            parts = [item for item in value if isinstance(item, str) and item.strip()]
            yield from (path for item in parts for path in _spellings(item))
            if 1 < len(parts) == len(value) and not words & _MANY:  # one path's segments, not many paths
                yield "/".join(parts)
        if isinstance(value, (dict, list)):
            yield from tool_paths(value, depth + 1, any_key=any_key)
    yield from joined_path(arguments)  # {"dir": "test", "name": "x.jsonl"}


def _spellings(value: str) -> Iterator[str]:
    """The paths a tool's path argument may be: a ``file:`` URI's path; pi's tools drop a
    leading ``@`` (``@test/x.jsonl`` is test/x.jsonl), so both (fail closed: any harness)."""
    path = file_uri_path(value) if value[:5].lower() == "file:" else value
    yield path
    if path.startswith("@") and len(path) > 1:
        yield path[1:]
