"""Text from runs and reports, made safe for a terminal (``run.textsafe`` is the one rule)."""

from __future__ import annotations

from pytest_coldstart.run.textsafe import json_text, one_line

__all__ = ["json_text", "safe"]


def safe(value: object) -> str:
    """Printable text: control and bidi characters (ANSI escapes included) are shown escaped."""
    return "(unknown)" if value is None else one_line(str(value), None)
