"""Who may sign a review (seed §5: a resolved entry "must carry by").

A review is a person's judgement. A name that names no one (``-``, ``?``, ``n/a``, ``none``,
the seed's own "reviewer name") is a missing reviewer, as a blank one is; a name that is the
run's own agent (the agent actor, the harness, its model or provider, the agent's player in
the game) is the agent's word about itself, never a review. The recorder refuses both and the
audit does not count them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Any

from pytest_coldstart.run.textsafe import blank

#: words that stand in for a name (compared case-folded, spaces collapsed)
PLACEHOLDERS = frozenset(
    ("n/a", "na", "none", "null", "nil", "unknown", "undefined", "anonymous", "anon", "nobody", "noone")
    + ("no one", "tbd", "todo", "unset", "reviewer name", "not applicable")
)


def _fold(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def unnamed(by: str) -> bool:
    """True when ``by`` names no one: blank, no letter or digit at all, or a placeholder word."""
    if blank(by) or not any(char.isalnum() for char in by):
        return True
    return _fold(by) in PLACEHOLDERS


def agent_names(manifest: Any, players: Iterable[str] = ()) -> frozenset[str]:
    """The run's own agent, folded: the agent actor, the harness's name, model (also its last
    path part) and provider from run.json, and the agent's ``players`` (the test mod's actors)."""
    names = {"agent"}
    harness = manifest.get("harness") if isinstance(manifest, dict) else None
    if isinstance(harness, dict):
        for key in ("name", "model", "provider"):
            value = harness.get(key)
            if isinstance(value, str) and not blank(value):
                names.update((value, value.rsplit("/", 1)[-1]))
    names.update(p for p in players if isinstance(p, str) and not blank(p))
    return frozenset(_fold(name) for name in names)


def is_the_agent(by: str, names: frozenset[str]) -> bool:
    return _fold(by) in names
