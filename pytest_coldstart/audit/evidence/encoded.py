"""Text a call runs that its arguments do not show plainly: base64-encoded commands, and the
words of parameter-expansion defaults.

``pwsh -EncodedCommand <base64 of UTF-16LE>``, ``echo <base64> | base64 -d | sh``,
``python3 -c "exec(base64.b64decode('...'))"`` and ``[Convert]::FromBase64String`` run a text
the call's arguments hold only encoded. Where a text mentions a decoder, every base64 literal in
it that decodes to readable text (UTF-8, or the UTF-16LE PowerShell uses) is read as one more
text of the call: its writes and the files it names count like the rest (nothing is run). Two
levels deep; a literal that decodes to binary is no text.

``${VAR:-word}`` (``-``, ``=``, ``+``, with or without ``:``) is ``word`` when the variable is
unset: a text holding one is also read with each such expansion replaced by its word
(``cp a ${OUT:-oracle.json}`` writes oracle.json unless OUT is set; fail closed).
"""

from __future__ import annotations

import base64
import binascii
import itertools
import re
from collections.abc import Iterable, Iterator, Mapping

from pytest_coldstart.audit.evidence import expansions, folding, formats, joined, scrambles, session_state
from pytest_coldstart.record.redaction import MARKER

#: A decoder is mentioned (lowercased): base64 -d, b64decode, FromBase64String, pwsh -e(nc...).
HINT = r"base64|b64decode|frombase64string|atob\(|\s[-/]e(?:c|n|nc|ncodedcommand)?\s"
_HINT = re.compile(HINT, re.IGNORECASE)
#: What makes a raw line worth the readings below (lowercased): a decoder or a folded name.
RAW_HINT = HINT + "|" + folding.HINT + "|" + scrambles.HINT + "|" + joined.HINT + "|" + joined.VAR_HINT
RAW_HINT += "|" + formats.HINT + r"|<(?:redacted|hashed) "  # any printf; a value the record hides
_BLOB = re.compile(r"(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{8,}={0,2}(?![A-Za-z0-9+/=])")
_DEFAULT = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*:?[-=+]((?:[^{}$`]|\$[A-Za-z_][A-Za-z0-9_]*+)*+)\}")  # ${F:-$G} too
#: a call that opens or reads the file its first argument names (up to that argument)
_OPENER = (
    r"(?:\bopen|\bfopen|\bread_?[Ff]ile(?:Sync)?|\bPath|\bFile(?:\.\w+)?|\bIO\.\w+|file_get_contents"
    r"|read_to_string|ReadAll\w+|\bslurp|\bload(?:txt)?|read_(?:csv|json|text|bytes))\s*\(\s*(?:new\s+File\(\s*)?"
)
_HIDDEN_OPENED = re.compile(_OPENER + r"['\"]<(?:redacted|hashed) ")
#: code assigning a hidden value to a variable: KEY = '<redacted …>' (const K =, $K =, K: str =)
_HIDDEN_NAME = re.compile(r"([A-Za-z_$][\w$]*)\s*(?::\s*\w+\s*)?=\s*['\"]<(?:redacted|hashed) ")
_MAX_HIDDEN = 8
_DEPTH = 2
_MAX_BLOBS = 64  # per text: a hostile text of many blobs costs linear time, not more


def with_decoded(texts: Iterable[str], known: Mapping[str, str] | None = None) -> Iterator[str]:
    """Each text, followed by its reading with expansion defaults, the texts decoded from it
    (two levels deep) and each of these as ``expansions`` reads it (escapes, hex, joins, globs,
    braces; ``known``: the shell state earlier calls left, ``session_state``), and the bodies
    of the functions and aliases it runs. A value the record hides (a redaction marker: the
    recorder took ``TOKEN=oracle.json`` for a secret) may be any name: each reading holding one
    is read again with it as ``*`` (``cat $TOKEN`` reads what ``cat *`` reads; fail closed)."""
    texts = list(texts)
    yield from _readings(texts, known)
    hidden_known = [k for k, v in known.items() if _hides(v)] if known else []
    if hidden_known or any(_hides(text) for text in texts):
        # "*" for the shell; code takes no bare * for a glob (a * b), so "*.*" too
        for placeholder in ("*", "*.*"):
            starred = {k: MARKER.sub(placeholder, v) for k in hidden_known for v in [known[k]]} if known else {}
            yield from _readings([MARKER.sub(placeholder, text) for text in texts], {**(known or {}), **starred})
        valued = [expansions.valued_text(text, known) for text in texts] if hidden_known else []
        if any(opens_hidden(text) for text in [*texts, *valued]):  # os.environ['KEY'] of an earlier export too
            yield "cat *"  # code opens the hidden value: no glob in open('*'), so the shell's * for any name


def opens_hidden(text: str) -> bool:
    """Code opens a value the record hides: ``open('<redacted …>')``, or a variable assigned one
    (``KEY='<redacted …>'; open(KEY)``); a credential only handed on (``password=KEY``,
    ``'Bearer <redacted …>'``) is no name."""
    if _HIDDEN_OPENED.search(text) is not None:
        return True
    names = {m.group(1) for m in itertools.islice(_HIDDEN_NAME.finditer(text), _MAX_HIDDEN)}
    if not names:
        return False
    opened = re.compile(_OPENER + r"(?:" + "|".join(map(re.escape, sorted(names))) + r")(?![\w$])")
    return opened.search(text) is not None


def _hides(text: str) -> bool:
    return "<redacted " in text or "<hashed " in text


def _readings(texts: Iterable[str], known: Mapping[str, str] | None) -> Iterator[str]:
    for text in texts:
        yield text
        yield from expansions.readings(text, known)
        for body in session_state.readings(text, known):  # the functions and aliases it runs
            yield body
            yield from expansions.readings(body, known)
        yield from folding.readings(text)
        yield from scrambles.readings(text)
        yield from joined.readings(text, known)  # other languages' joins (a backstop to folding)
        for made in formats.readings(text):  # any language's printf of literal pieces
            yield made
            yield from expansions.readings(made, known)
        if "${" in text:
            defaulted = _DEFAULT.sub(lambda match: match.group(1), text)
            if defaulted != text:
                yield defaulted
                yield from expansions.readings(defaulted, known)
        for decoded in _decoded(text, _DEPTH):
            yield decoded
            yield from expansions.readings(decoded)


def _decoded(text: str, depth: int) -> Iterator[str]:
    if depth == 0 or _HINT.search(text) is None:
        return
    for count, match in enumerate(_BLOB.finditer(text)):
        if count >= _MAX_BLOBS:
            return
        decoded = readable(match.group(0))
        if decoded is not None:
            yield decoded
            yield from _decoded(decoded, depth - 1)


def readable(blob: str) -> str | None:
    """The text ``blob`` encodes (UTF-8, else UTF-16LE), or None when it is no readable text."""
    try:
        raw = base64.b64decode(blob, validate=True)
    except (binascii.Error, ValueError):
        return None
    for encoding in ("utf-8", "utf-16-le"):
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError:
            continue
        printable = sum(1 for c in text if c.isascii() and (c.isprintable() or c in "\n\r\t"))
        if text and printable >= 0.9 * len(text) and any(c.isalpha() for c in text):
            return text
    return None
