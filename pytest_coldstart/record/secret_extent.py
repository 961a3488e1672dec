"""How far a secret a rule found may reach: never over shell syntax.

The audit judges the redacted text, so a marker must stand for the secret alone. The rules
already stop a value at shell operators; whitespace is the one separator they let a quoted
value hold (``db_password: "two words"``). That holds only when the quote before the value
opens a string: in ``cat "password="x oracle.json "y"`` it closes one, and the words after it
are arguments. ``quote_opens`` answers with a small lexer (``\\`` escapes, ``'…'``, ``"…"``,
``$'…'``); when it cannot say yes, the secret keeps only its first word.
"""

from __future__ import annotations

import re

#: one shell token: an escape, a $'…', '…' or "…" string (unterminated at the end), or plain text
_TOKEN = re.compile(r"""\\[\s\S]|\$'(?:\\[\s\S]|[^'\\])*'?|'[^']*'?|"(?:\\[\s\S]|[^"\\])*"?|[^\\'"$]+|\$""")
_WORD = re.compile(r"\S+")


class QuoteState:
    """Whether a quote in ``text`` opens a string. The text is lexed once, on the first
    question: a quote opens a string exactly when a string token starts at it, and where tokens
    start before a position never depends on the text after it (a string that runs on past
    the position does not start there), so one pass answers every position."""

    def __init__(self, text: str):
        self.text = text
        self._openers: set[int] | None = None

    def opens(self, at: int) -> bool:
        """True when the quote at ``at`` opens a string: no string is open before it and no
        backslash escapes it (it starts a token of its own)."""
        if self._openers is None:
            self._openers = {m.start() for m in _TOKEN.finditer(self.text) if m.group()[0] in "'\""}
        return at in self._openers


def trim(text: str, start: int, end: int, quotes: QuoteState) -> int:
    """The end of the secret ``text[start:end]``: unchanged when it holds no whitespace or a
    quote right before it opens a string; else the end of its first word."""
    if not any(c.isspace() for c in text[start:end]):
        return end
    if start > 0 and text[start - 1] in "\"'" and quotes.opens(start - 1):
        return end
    word = _WORD.match(text, start, end)
    return word.end() if word else start
