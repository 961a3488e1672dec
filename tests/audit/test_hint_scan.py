"""hint_scan.AnyOf answers what the one alternation answers (prescan's rule hints, and small
patterns built to trip the split: classes, escapes, groups, back-references)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence import hint_scan, prescan
from pytest_coldstart.audit.evidence.hint_scan import AnyOf, needs, top_branches

RULES = [rule.encode("ascii") for rule in prescan._RULES]
FAST = AnyOf(RULES)

# pieces the hints look for, and the bytes around them that decide a lookbehind or a boundary
WORDS = [
    "cp", "mv", "rm", "cd", "sed", "tee", "awk", "python3", "git", "grep", "find", "tar", "zip", "xargs",
    "base64", "b64decode", "atob(", "chr(", "[::-1]", "reversed(", ".join(", "rot13", "rot_13", "fromhex",
    "coldstart", "trace", "review", "resolve", "pytest_coldstart", "run_trace", "open(", "write(", "unlink",
    "--output", "-o", "-delete", "log=", "out=", "dest=", "\\\\x41", "\\\\u006f", "\\\\101", "import",
    "$(", "${", "$home", "`", "{}", "{a,b}", "a[0]", "x[1:", "+(", "*.json", "?", "-@", "files-from",
    "\"ext\":", "\"suffix\" :", "file:", "://", "%2f", "listdir", "glob", "http.server", "serve", "-e", "/e",
    "-enc", "'", "\\\"", "f'", "f\\\"", "print \\\"", "rev", "strrev", "n-za-m", ">", "=open", "= open",
    "path(", "hex", "xxd", "cpio", "pax", ".replace(", ".split", "str.x(", "string.x", "set-location",
]  # fmt: skip
GLUE = list(" -_./\\\"'=:,;|&()[]{}$*?+@!%0123456789abcxyz\n\t") + ["", " ", "\\\\", '\\"']
TEXT = st.lists(st.sampled_from(WORDS) | st.sampled_from(GLUE), max_size=12).map("".join)
HOSTILE = st.lists(st.sampled_from(GLUE + ["e", "n", "r", "o", "d"]), max_size=80).map("".join)


LONG = st.lists(st.sampled_from(WORDS) | st.sampled_from(GLUE), min_size=20, max_size=200).map("".join)


@settings(max_examples=1500, deadline=None)
@given(st.one_of(TEXT, HOSTILE, LONG, st.binary(max_size=60).map(lambda b: b.decode("latin-1"))))
def test_the_rule_hints_agree_with_their_alternation(text: str) -> None:
    for raw in (text.encode("utf-8"), text.lower().encode("utf-8"), f'{{"command": "{text}"}}'.encode()):
        assert FAST.search(raw) == (prescan._HINTS.search(raw) is not None), raw


@settings(max_examples=800, deadline=None)
@given(st.one_of(TEXT, LONG), st.integers(1, 16), st.integers(2, 4))
def test_short_windows_change_nothing(text: str, window: int, growth: int) -> None:
    """A match cut by a window's end (a lookahead, a boundary there) is confirmed on the whole text."""
    saved = hint_scan.WINDOW, hint_scan.GROWTH
    hint_scan.WINDOW, hint_scan.GROWTH = window, growth
    try:
        raw = text.lower().encode("utf-8")
        assert FAST.search(raw) == (prescan._HINTS.search(raw) is not None), raw
    finally:
        hint_scan.WINDOW, hint_scan.GROWTH = saved


PATTERNS = [
    rb"[|]x|y", rb"[]|]z|q", rb"[^]|]w|\|", rb"(a|b)c|d(?:e|f)g", rb"(?<![\w-])(?:cd|pushd)(?![\w-])|ab+c",
    rb"(a)\1|b", rb"x|", rb"(?:foo|foobar)baz|(?>a|ab)c", rb"\bab\b|[*?]|a{2,}b", rb"(?i:ab)|cd",
    rb"(?P<n>x)y(?P=n)|z", rb"k?l?|m",
]  # fmt: skip


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(PATTERNS), st.text(alphabet="abcdefgxyzqwklm|]*?-_ ABFOR", max_size=90))
def test_awkward_alternations_agree(pattern: bytes, text: str) -> None:
    raw = text.encode()
    assert AnyOf([pattern]).search(raw) == (re.search(pattern, raw) is not None)


def test_the_split_and_the_needs() -> None:
    assert top_branches(rb"[|]x|y") == [rb"[|]x", b"y"]
    assert top_branches(rb"[]|]z|(a|b)|\|") == [rb"[]|]z", b"(a|b)", rb"\|"]
    assert needs(rb"(?<![\w-])(?:cd|pushd)(?![\w-])") == {b"cd", b"pushd"}
    assert needs(rb"rot_?13") in ({b"rot"}, {b"13"})
    assert needs(rb"[a-z]+") is None and needs(b"") is None


def test_every_rule_hint_can_match_a_lowered_call() -> None:
    # the prescan searches a call's lowered text: an uppercase letter outside an escape never
    # matches it, and the rule it guards never runs (php -S served the run's folder unseen)
    for rule in prescan._RULES:
        letters = re.sub(r"\\.", "", rule)
        assert letters == letters.lower(), rule
