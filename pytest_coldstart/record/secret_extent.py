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


def _closed(token: str) -> bool:
    """Whether a string token ends with its closing quote (not one a backslash escapes)."""
    if token[0] == "'":
        return len(token) > 1 and token.endswith("'")
    quote, body = ('"', token[1:]) if token[0] == '"' else ("'", token[2:])
    if not body.endswith(quote):
        return False
    return (len(body) - 1 - len(body[:-1].rstrip("\\"))) % 2 == 0


class QuoteState:
    """Whether a quote in ``text`` opens a string, scanned forwards once (a rule's matches
    come in order; a position before the last one rescans)."""

    def __init__(self, text: str):
        self.text = text
        self.resume = 0  # where the scan goes on: the start of a string still open, or the last position

    def opens(self, at: int) -> bool:
        """True when the quote at ``at`` opens a string: no string is open before it and no
        backslash escapes it (it starts a token of its own)."""
        if at < self.resume:
            self.resume = 0
        last = None
        for token in _TOKEN.finditer(self.text, self.resume, at + 1):
            last = token
        if last is None:
            self.resume = at + 1
            return False
        word = last.group()
        unclosed = (word[0] in "'\"" or word[:2] == "$'") and not _closed(word)
        self.resume = last.start() if unclosed else at + 1
        return last.start() == at and word[0] in "'\""


def trim(text: str, start: int, end: int, quotes: QuoteState) -> int:
    """The end of the secret ``text[start:end]``: unchanged when it holds no whitespace or a
    quote right before it opens a string; else the end of its first word."""
    if not any(c.isspace() for c in text[start:end]):
        return end
    if start > 0 and text[start - 1] in "\"'" and quotes.opens(start - 1):
        return end
    word = _WORD.match(text, start, end)
    return word.end() if word else start
