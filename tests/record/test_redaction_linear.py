"""Redaction on hostile text: the rules that scanned to the end of the text from every start
(``token_`` x N, ``a-`` x N + ``://``, a quote lexer that rescanned from the start) are bounded,
and the bounded rules find the same secrets as the unbounded ones in real text. Time is measured
by ``benchmarks/bench_redaction_shapes.py``, never here."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_coldstart.record.redaction import Redactor
from pytest_coldstart.record.secret_extent import QuoteState
from pytest_coldstart.record.secret_rules import (
    _NAME_UNBOUNDED,
    _PARTS,
    _SCHEME_UNBOUNDED,
    DEFAULT_PATTERNS,
    EARLIER,
    RULES,
    TRIGGERS,
    linear,
)

#: the default rules as 509b79e wrote them into run.json (unbounded name chain, URL scheme, tokens)
PREVIOUS_DEFAULTS: list[str] = json.loads(
    (Path(__file__).parents[1] / "data" / "redaction_defaults_509b79e.json").read_text("utf-8")
)["patterns"]
NAME_PARTS = st.lists(st.sampled_from(["aws", "db", "Access", "x1", "my", "ID", "count", "prod"]), max_size=_PARTS)
SENSITIVE = st.sampled_from(["SECRET", "token", "Password", "passwd", "api_key", "KEY", "credentials", "secretKey"])
VALUE = st.text(alphabet="abcXYZ0189$_-+/=.:@ '\"", min_size=0, max_size=24)
SEPARATOR = st.sampled_from(["=", ": ", ":=", " => ", '": "', "='", '="', " = "])


def test_the_unbounded_pieces_are_the_ones_earlier_versions_stored() -> None:
    assert any(_NAME_UNBOUNDED in pattern for pattern, _ in EARLIER)
    assert any(_SCHEME_UNBOUNDED in pattern for pattern, _ in EARLIER)
    assert all(linear(p) == p for p in DEFAULT_PATTERNS)  # today's defaults are already bounded
    assert [linear(p) for p in PREVIOUS_DEFAULTS] == list(DEFAULT_PATTERNS)
    for pattern, _ in EARLIER:  # no unbounded piece survives
        assert _NAME_UNBOUNDED not in linear(pattern) and _SCHEME_UNBOUNDED not in linear(pattern)


def test_a_run_opened_with_earlier_rules_keeps_them_as_written_and_its_fast_path() -> None:
    redactor = Redactor(patterns=PREVIOUS_DEFAULTS)
    assert redactor.settings()["patterns"] == PREVIOUS_DEFAULTS  # run.json is never rewritten
    assert redactor.fast is not None  # the triggers of the bounded twin still gate the rules
    assert Redactor().scrub("export AWS_SECRET_ACCESS_KEY=abcd1234") == redactor.scrub(
        "export AWS_SECRET_ACCESS_KEY=abcd1234"
    )
    assert TRIGGERS[linear(PREVIOUS_DEFAULTS[-1])] == RULES[-1][1]


@settings(max_examples=300, deadline=None)
@given(
    prefix=st.sampled_from(["", "export ", "--", "  ", "x;"]),
    before=NAME_PARTS,
    sensitive=SENSITIVE,
    after=NAME_PARTS,
    separator=SEPARATOR,
    value=VALUE,
)
def test_bounded_rules_find_what_the_unbounded_ones_found(
    prefix: str, before: list[str], sensitive: str, after: list[str], separator: str, value: str
) -> None:
    """Names of up to ``_PARTS`` components after the sensitive word: both give the same text."""
    name = "_".join([*before, sensitive, *after])
    text = f"{prefix}{name}{separator}{value} tail"
    for old in PREVIOUS_DEFAULTS + [p for p, _ in EARLIER]:
        assert re.sub(old, "#", text) == re.sub(linear(old), "#", text), old


@settings(max_examples=200, deadline=None)
@given(
    scheme=st.text(alphabet="abz09+.-", min_size=0, max_size=40),
    user=st.text(alphabet="abu_", min_size=1, max_size=8),
    password=st.text(alphabet="pw0!%~", min_size=1, max_size=12),
)
def test_url_credentials_are_found_by_the_bounded_scheme(scheme: str, user: str, password: str) -> None:
    text = f"git clone h{scheme}://{user}:{password}@example.org/x"
    for old in PREVIOUS_DEFAULTS + [p for p, _ in EARLIER]:
        assert re.sub(old, "#", text) == re.sub(linear(old), "#", text)
    assert f":{password}@" not in Redactor().scrub(text)


LEXER = r"""\\[\s\S]|\$'(?:\\[\s\S]|[^'\\])*'?|'[^']*'?|"(?:\\[\s\S]|[^"\\])*"?|[^\\'"$]+|\$"""


def _reference_opens(text: str, at: int) -> bool:
    """The quote at ``at`` opens a string: lex ``text[:at + 1]`` from the start (the slow, obvious way)."""
    tokens = list(re.finditer(LEXER, text[: at + 1]))
    token = tokens[-1] if tokens else None
    return token is not None and token.start() == at and token.group()[0] in "'\""


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab $\"'\\", max_size=30))
def test_one_lexing_pass_answers_every_quote_as_a_lexer_from_the_start_would(text: str) -> None:
    quotes = QuoteState(text)
    for at in [i for i, c in enumerate(text) if c in "'\""]:
        assert quotes.opens(at) is _reference_opens(text, at), (text, at)


def test_hostile_repetitions_are_still_redacted_where_they_hold_a_secret() -> None:
    """The shapes that were quadratic, at a size that would have taken minutes (each once)."""
    redactor = Redactor()
    shapes = [("token_", "x=hunter2222"), ("KEY_", ""), ("secret.", ""), ("a-", "://u:pw12345@h")]
    shapes += [("authorization:", " Bearer hunter2222"), ("authorization=", "/.")]
    for piece, tail in shapes:
        text = piece * 20_000 + tail
        out = redactor.scrub(text)
        assert "hunter2222" not in out and "pw12345" not in out
    quoted = "'" + 'password="ab cd" ' * 10_000
    assert "ab cd" in redactor.scrub(quoted)  # inside an open string the quote closes it: first word only
