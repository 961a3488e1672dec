"""What a file tool - a tool that is no shell - reads whole: searches of a folder's content, and
reads by a pattern.

A content search reads every file below the folder it is given, the working directory when it
is given none: Claude Code's ``Grep`` (``path``, ``glob``), Cline's ``search_files``
(``path``, ``file_pattern``), Cursor's and Copilot's ``grep_search`` (``includePattern``),
``codebase_search`` and ``semantic_search``, Gemini's ``search_file_content``. A tool is one by
the words of its name: a grep, or a search of files, content, code or text (``file_search``
and ``glob`` match names, reading no content; a web search reads no file of the run). A reading
tool handed a glob where a path goes (``read_many_files {"paths": ["*"]}``) reads every file
the glob matches. A filter's braces are alternatives (``*.{json,md}``, as ripgrep's globs;
``globs``). Each read is a ``folder_reads.Read`` that ``naming`` takes where the call runs,
fail closed like a shell's ``grep -r``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from pytest_coldstart.audit.evidence.folder_reads import Read, whole
from pytest_coldstart.audit.evidence.shell_words import is_glob
from pytest_coldstart.audit.evidence.tool_writes import READER_VERBS, WRITER_VERBS, tool_paths, words_of

_GREPS = frozenset(["grep", "rg", "ripgrep", "ag", "ack", "findstr"])
_SEARCHES = frozenset(["search", "searcher"])
#: What a search must search to read content (``search_files``, ``codebase_search``).
_CONTENT = frozenset(["files", "content", "contents", "code", "codebase", "semantic", "text", "workspace", "project"])
_CONTENT |= {"repo", "repository", "directory", "folder", "dir", "in"}
_ELSEWHERE = frozenset(
    ["web", "internet", "google", "bing", "url", "http", "online", "memory", "docs", "documentation"]
)
#: A search of content by its name alone (grep, codebase_search), or by what it is asked for.
_SEARCHES_CONTENT = _GREPS | {"content", "contents", "codebase", "semantic", "code", "text"}
_QUERIES = frozenset(["regex", "regexp", "query", "q", "content", "contents", "text", "contains", "search", "term"])
#: Argument words that give a search's file filter, not its query (``glob``, ``includePattern``).
_FILTERS = frozenset(["glob", "include", "includes", "filter"])
MAX_READS = 256  # per call: a hostile list of folders and filters costs linear time
_NAMES_ONLY = frozenset(["list", "ls", "glob", "tree", "stat", "exists", "find"])  # they print names, not content


def tool_reads(tool: str, arguments: Any) -> Iterator[Read]:
    """The folders (and patterns) ``tool`` called with ``arguments`` reads whole."""
    return itertools.islice(_reads(tool, arguments), MAX_READS)


def _reads(tool: str, arguments: Any) -> Iterator[Read]:
    if not isinstance(arguments, dict) or not tool:
        return
    verbs = words_of(tool)
    if is_search(verbs) and (verbs & _SEARCHES_CONTENT or _content_query(arguments)):
        folders = [path for path in tool_paths(arguments) if not is_glob(path)] or ["."]
        patterns = list(_filters(arguments)) or ["*"]
        for folder in folders:
            for pattern in patterns:
                if pattern == "*" or "/" in pattern:
                    yield whole(f"{folder.rstrip('/')}/{pattern}" if pattern != "*" else folder)
                else:  # a name filter, a glob or not (oracle.json, {oracle,x}.json): below the folder
                    yield (folder, pattern, True)
    elif verbs & READER_VERBS and not verbs & (_NAMES_ONLY | WRITER_VERBS):
        for path in tool_paths(arguments):
            if is_glob(path):
                yield whole(path)


def without_filters(tool: str, arguments: Any) -> Any:
    """``arguments`` without a search's file filters: ``glob: "*.json"`` is relative to the
    searched folder (``tool_reads`` takes it there), not a name in the working directory."""
    if not isinstance(arguments, dict) or not tool or not is_search(words_of(tool)):
        return arguments
    return {key: value for key, value in arguments.items() if not _is_filter(key)}


def is_search(verbs: set[str]) -> bool:
    """A tool (by the words of its name) that searches the content of files."""
    if verbs & _ELSEWHERE:
        return False
    searches = bool(verbs & _SEARCHES) or {"find", "in"} <= verbs  # find_in_files: an editor's search
    return bool(verbs & _GREPS) or (searches and bool(verbs & _CONTENT))


def _content_query(arguments: dict[str, Any]) -> bool:
    """A search asked for text (``regex``, ``query``), not only a name ``pattern`` (the MCP
    filesystem's ``search_files`` matches names: it lists, it reads nothing)."""
    return any(isinstance(key, str) and words_of(key) & _QUERIES for key in arguments)


def _filters(arguments: dict[str, Any]) -> Iterator[str]:
    for key, value in arguments.items():
        if not _is_filter(key):
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and item.strip():
                yield item.strip().removeprefix("**/") or "*"


def _is_filter(key: object) -> bool:
    """An argument that filters the files searched (``glob``, ``includePattern``, Cline's
    ``file_pattern``), not the query (``pattern``, ``regex``)."""
    if not isinstance(key, str):
        return False
    words = words_of(key)
    return bool(words & _FILTERS) or ("pattern" in words and bool(words & {"file", "files", "path", "name"}))
