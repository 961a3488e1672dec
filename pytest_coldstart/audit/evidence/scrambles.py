"""Names spelled backwards or in rot13: ``rev <<< nosj.elcaro``, Perl's ``scalar reverse
"nosj.elcaro"``, Ruby's ``"nosj.elcaro".reverse``, JavaScript's ``'nosj.elcaro'.split('')
.reverse().join('')``, ``tr 'a-z' 'n-za-m'`` and ``codecs.decode('benpyr.wfba', 'rot13')``.

Whatever the language, a text that mentions a reversal is also read with every word (a run of
letters, digits, ``_ . / -``) reversed in place, and a text that mentions rot13 with its
letters rotated: the reversed or rotated word is the name the program makes. A reading only
adds names (fail closed); it is linear in the text. Nothing is run.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator

#: Cheap necessary conditions (also on a lowercased raw JSON line).
REVERSE_HINT = r"reverse|(?<![\w-])rev(?![\w-])|\[::-1\]|strrev|reversed\("
ROT13_HINT = r"rot_?13|n-za-m|n-za-mn-za-m"
HINT = REVERSE_HINT + "|" + ROT13_HINT
_REVERSE = re.compile(REVERSE_HINT, re.IGNORECASE)
_ROT13 = re.compile(ROT13_HINT, re.IGNORECASE)
_WORD = re.compile(r"[\w./-]{3,}")


def hinted(text: str) -> bool:
    """``text`` mentions a reversal or rot13."""
    return next(readings(text), None) is not None


def readings(text: str) -> Iterator[str]:
    """``text`` with its words reversed, and rotated by 13, where it mentions either."""
    lowered = None
    if "rev" in text or "REV" in text or "[::-1]" in text:  # a quick look before the regex
        lowered = text.lower()
        if _REVERSE.search(lowered) is not None:
            yield _WORD.sub(lambda match: match.group(0)[::-1], text)
    if "13" in text or "za-m" in text or "ZA-M" in text:
        if _ROT13.search(text if lowered is None else lowered) is not None:
            yield codecs.encode(text, "rot13")
