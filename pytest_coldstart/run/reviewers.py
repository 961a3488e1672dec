"""Who may sign a review (seed §5: a resolved entry "must carry by").

A review is a person's judgement. A name that names no one (``-``, ``?``, ``n/a``, ``none``,
the seed's own "reviewer name") is a missing reviewer, as a blank one is; a name that is the
run's own agent (the agent actor, the harness, its model or provider, the agent's player in
the game) is the agent's word about itself, never a review. The recorder refuses both and the
audit does not count them.

Both compare a name's skeleton (``skeleton``), so a name respelled to look the same is the same
name: invisible characters (zero-width, soft hyphen, fillers) and accents are dropped, the
common Cyrillic and Greek look-alikes of Latin letters are read as those letters (a small
table, not Unicode's whole confusables list), and punctuation, brackets, quotes and separators
are ignored - ``<Reviewer-Name>``, ``N.A.``, ``a\u200bgent``, ``\u0430gent.`` and ``DeepSeek
Flash`` (model ``deepseek/deepseek-flash``) are the names they look like.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Any

from pytest_coldstart.run.textsafe import blank

#: Cyrillic and Greek letters that look like a Latin one, by case (the common ones only)
_LOOK_ALIKES = str.maketrans(
    "АВЕКМНОРСТХУІЈЅаеорсухіјѕһԁӏԛԝ" + "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧοαικνρυχϲ" + "ı",
    "ABEKMHOPCTXYIJSaeopcyxijshdlqw" + "ABEZHIKMNOPTYXoaikvpuxc" + "i",
)


#: combining marks kept in a row (UAX #15's stream-safe bound): normalization sorts a run of
#: them in time that grows with its square, and the skeleton drops every mark anyway
_SAFE_RUN = 30


def _stream_safe(name: str) -> str:
    out: list[str] = []
    run = 0
    for char in name:
        run = run + 1 if unicodedata.combining(char) else 0
        if run <= _SAFE_RUN:
            out.append(char)
    return "".join(out)


def skeleton(name: str) -> str:
    """``name`` as compared: look-alikes read as Latin, case-folded, accents and invisible
    characters dropped, only letters and digits kept (punctuation and spaces separate nothing)."""
    name = _stream_safe(name) if len(name) > _SAFE_RUN else name
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).translate(_LOOK_ALIKES).casefold())
    return "".join(char for char in folded if char.isalnum() and not blank(char))


#: words that stand in for a name (compared as skeletons)
PLACEHOLDERS = frozenset(
    skeleton(word)
    for word in ("n/a", "none", "null", "nil", "unknown", "undefined", "anonymous", "anon", "nobody", "no one")
    + ("tbd", "todo", "unset", "reviewer name", "not applicable")
)


def unnamed(by: str) -> bool:
    """True when ``by`` names no one: blank, no letter or digit at all, or a placeholder word."""
    folded = skeleton(by)
    return not folded or folded in PLACEHOLDERS


def agent_names(manifest: Any, players: Iterable[str] = ()) -> frozenset[str]:
    """The run's own agent, as skeletons: the agent actor, the harness's name, model (also its last
    path part) and provider from run.json, and the agent's ``players`` (the test mod's actors)."""
    names = {"agent"}
    harness = manifest.get("harness") if isinstance(manifest, dict) else None
    if isinstance(harness, dict):
        for key in ("name", "model", "provider"):
            value = harness.get(key)
            if isinstance(value, str) and not blank(value):
                names.update((value, value.rsplit("/", 1)[-1]))
    names.update(p for p in players if isinstance(p, str) and not blank(p))
    return frozenset(skeleton(name) for name in names) - {""}


def is_the_agent(by: str, names: frozenset[str]) -> bool:
    return skeleton(by) in names
