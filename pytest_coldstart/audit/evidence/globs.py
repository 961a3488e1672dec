"""File-name patterns matched as the tools that take them match: brace alternatives (ripgrep's,
git's and bash's ``*.{json,md}``, ``{o,x}*``, nested too) and bash's extended groups
(``@(o)racle.json``, ``!(answer).json``: any text, fail closed) on top of fnmatch's ``*``,
``?`` and ``[...]``. Past ``MAX_ALTERNATIVES`` the braces are any text (fail closed), so a
hostile pattern costs linear time."""

from __future__ import annotations

import fnmatch
import functools
import re

MAX_ALTERNATIVES = 64
_BRACE = re.compile(r"\{([^{}]*,[^{}]*)\}")  # an innermost group with a choice
EXTGLOB = re.compile(r"[?*+@!]\([^()]*\)")


@functools.lru_cache(maxsize=4096)  # a pattern is matched against every declared name in turn
def alternatives(pattern: str) -> tuple[str, ...]:
    """The fnmatch patterns ``pattern`` stands for (one when it has no braces)."""
    if "(" in pattern:
        pattern = EXTGLOB.sub("*", pattern)
    if "{" not in pattern:
        return (pattern,)
    done: list[str] = []
    todo = [pattern]
    while todo:
        current = todo.pop()
        match = _BRACE.search(current)
        if match is None:
            done.append(current)
            continue
        before, after = current[: match.start()], current[match.end() :]
        todo += [before + option + after for option in match.group(1).split(",")]
        if len(done) + len(todo) > MAX_ALTERNATIVES:
            first, last = pattern.find("{"), pattern.rfind("}")
            return (pattern[:first] + "*" + pattern[last + 1 :],) if last > first else (pattern,)
    return tuple(done)


def matches(name: str, pattern: str) -> bool:
    """``name`` matches ``pattern`` (case as given: callers fold both)."""
    return any(fnmatch.fnmatchcase(name, alternative) for alternative in alternatives(pattern))
