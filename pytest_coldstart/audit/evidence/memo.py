"""A bounded memo for pure functions of short texts.

The provenance analysis reads one shell segment many times: once per folder the session may
start in (``Workspace.starts``), per reading of the command line (as written, with quotes kept,
unwrapped) and per nesting level. A judgement of a segment alone is made once. The memo holds
at most ``maxsize`` texts of at most ``max_chars`` characters; a longer text is judged afresh.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, wraps
from typing import TypeVar

R = TypeVar("R")


def short_texts(maxsize: int = 1024, max_chars: int = 1024) -> Callable[[Callable[[str], R]], Callable[[str], R]]:
    def wrap(judge: Callable[[str], R]) -> Callable[[str], R]:
        cached = lru_cache(maxsize=maxsize)(judge)

        @wraps(judge)
        def call(text: str) -> R:
            return cached(text) if len(text) <= max_chars else judge(text)

        return call

    return wrap
