"""Text from runs and reports, made safe for a terminal."""

from __future__ import annotations


def safe(value: object) -> str:
    """Printable text: control characters (ANSI escapes included) are shown escaped."""
    text = str(value)
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in text)
