"""Whole numbers written as text by someone else: only ASCII digits, and not more of them than
any count, index or port needs. ``str.isdigit`` accepts ``"²"`` and ``\\d`` matches Arabic-Indic
digits, which ``int()`` then refuses or reads; 5,000 digits pass ``isdigit`` and exceed
``int()``'s limit. Both were a crash where a value should just be "not a number"."""

from __future__ import annotations

import math

#: more digits than any count, tick, index, port or exit code we read (10**18 > 2**59)
MAX_DIGITS = 18


def digits(text: str) -> int | None:
    """``int(text)`` for 1 to MAX_DIGITS ASCII digits (a leading ``-`` allowed), else None."""
    body = text[1:] if text[:1] == "-" else text
    if not body or len(body) > MAX_DIGITS or not (body.isascii() and body.isdigit()):
        return None
    return int(text)


def finite(value: object) -> float | None:
    """``value`` as a finite float when it is a JSON number (not a bool), else None.

    JSON readers refuse ``1e999`` but keep ``10**400`` as an int, which ``float()``, ``math.isfinite``
    and true division refuse with OverflowError: such a number is as absent as a missing one."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None
