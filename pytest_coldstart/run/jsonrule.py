"""The project's one rule for JSON text: what every reader accepts and every writer writes.

RFC 8259 JSON whose numbers are finite (no NaN/Infinity, nothing like ``1e999`` that only
parses to infinity), whose objects have unique keys (duplicates are ambiguous: the last one
would silently win), whose strings are valid Unicode (no unpaired surrogate escape such as
``"\\ud800"``, which no UTF-8 writer can store) and whose containers nest at most ``MAX_DEPTH``
deep (so no recursive consumer, the schema checks, the encoder, a report, meets a
RecursionError later).
Anything else is ``InvalidJSON`` (a ValueError) for readers and ``UnstorableValue`` (a
UsageError, also a ValueError) for writers, so a reader never accepts what a writer refuses,
nor the reverse. ``jsonio`` re-exports all of it; import it from there.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any

from pytest_coldstart.run.errors import UsageError

#: Containers (objects and arrays) nested deeper than this are refused by readers and writers.
#: Real records nest a few levels; 100 keeps every recursive consumer (jsonschema spends several
#: frames a level) far below the interpreter's 1000-frame limit, whatever stack it starts from.
MAX_DEPTH = 100


class InvalidJSON(ValueError):
    """Text the JSON grammar allows but this project does not: one rule for every reader."""


def _reject_constant(name: str) -> Any:
    raise InvalidJSON(f"non-standard JSON constant {name}")


def _finite_float(text: str) -> float:
    value = float(text)
    if value - value != 0.0:  # inf - inf is nan; a finite number minus itself is 0
        raise InvalidJSON(f"number {text[:24]} is out of range (not a finite number)")
    return value


def _unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise InvalidJSON(f"duplicate key {key[:60]!r}")
            seen.add(key)
    return value


#: The one decoder every reader uses. What it accepts (the project's rule for JSON input):
#: RFC 8259 JSON whose numbers are finite (no NaN/Infinity, nothing like ``1e999`` that only
#: parses to infinity), whose objects have unique keys (duplicates are ambiguous: the last
#: one would silently win), and whose strings are valid Unicode (no unpaired surrogate
#: escapes such as ``"\ud800"``, which no UTF-8 writer can store). Writers refuse the same.
_STRICT = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float, object_pairs_hook=_unique_object)


def _check_unicode(value: Any) -> None:
    """InvalidJSON when a string (key or value) holds an unpaired surrogate."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            strings: Any = (item,)
        elif isinstance(item, dict):
            strings = item.keys()
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
            continue
        else:
            continue
        for text in strings:
            try:
                text.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise InvalidJSON(f"unpaired surrogate \\u{ord(text[exc.start]):04x} in a string") from None


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """True when containers nest more than ``limit`` deep (the top object or array is level 1)."""
    # level by level: no (item, depth) pair per container (big documents pass here whole)
    level = [value] if isinstance(value, (dict, list)) else []
    depth = 1
    while level:
        if depth > limit:
            return True
        below: list[Any] = []
        for item in level:
            children = item.values() if isinstance(item, dict) else item
            below += [child for child in children if isinstance(child, (dict, list))]
        level, depth = below, depth + 1
    return False


def _may_be_deep(text: str | bytes) -> bool:
    # Nesting past the limit needs more than MAX_DEPTH opening brackets: a C-speed count lets
    # nearly every line skip the walk (brackets inside strings only make it walk for nothing).
    # ``text`` is the JSON of the value: nesting that deep also closes, so a short text skips
    # even the count.
    if len(text) <= 2 * MAX_DEPTH + 1:
        return False
    if isinstance(text, str):
        return text.count("[") + text.count("{") > MAX_DEPTH
    return text.count(b"[") + text.count(b"{") > MAX_DEPTH


def _decode(text: str, value: Any) -> Any:
    # An unpaired surrogate can only come from a \uD800-\uDFFF escape (UTF-8 input cannot hold
    # one), so only text with such an escape pays for the walk.
    if "\\u" in text and ("\\ud" in text or "\\uD" in text):  # one scan for the usual line
        _check_unicode(value)
    if _may_be_deep(text) and too_deep(value):
        raise InvalidJSON(f"nested too deeply: more than {MAX_DEPTH} levels")
    return value


def loads(text: str | bytes) -> Any:
    """Strict JSON (see ``_STRICT``): InvalidJSON (a ValueError) for anything else, nesting too
    deep for the parser included (never a RecursionError)."""
    if not isinstance(text, str):
        text = bytes(text).decode(json.detect_encoding(text))  # UnicodeDecodeError is a ValueError
    try:
        return _decode(text, _STRICT.decode(text))  # one shared decoder: json.loads(**kw) builds one per call
    except RecursionError:
        raise InvalidJSON(f"nested too deeply: more than {MAX_DEPTH} levels") from None


class UnstorableValue(UsageError, ValueError):
    """A value the readers would refuse (non-finite number, unpaired surrogate, nesting past
    ``MAX_DEPTH``): never written.
    A UsageError for the CLI (exit 64) and a ValueError for callers that catch json's."""


#: one encoder per set of options (json.dumps with options builds one per call)
_LINE = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":"))
_DOCUMENT = json.JSONEncoder(ensure_ascii=False, allow_nan=False, indent=2)
_CANONICAL = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":"), sort_keys=True)


def _one_shot(encoder: json.JSONEncoder) -> Callable[[Any], str]:
    """``encoder.encode`` with its C encoder built once, not on every call (a third of the
    cost of a small record). No cycle markers: a cycle recurses until RecursionError, which
    ``_dumps`` refuses as too deep (shared markers would not be thread-safe)."""
    if c_make_encoder is None or encoder.indent is not None or encoder.ensure_ascii:
        return encoder.encode
    make = c_make_encoder(
        None,
        encoder.default,
        encode_basestring,
        None,
        encoder.key_separator,
        encoder.item_separator,
        encoder.sort_keys,
        encoder.skipkeys,
        encoder.allow_nan,
    )

    def encode(value: Any) -> str:
        return "".join(make(value, 0))

    return encode


_ENCODE_LINE, _ENCODE_DOCUMENT, _ENCODE_CANONICAL = (_one_shot(e) for e in (_LINE, _DOCUMENT, _CANONICAL))


def _dumps(value: Any, encode: Callable[[Any], str]) -> bytes:
    """Serialize under the reader's rule: what a reader would reject is never written."""
    deep = f"containers nested more than {MAX_DEPTH} levels deep"
    try:
        data = encode(value).encode("utf-8")
        if not (_may_be_deep(data) and too_deep(value)):
            return data
        problem = deep
    except RecursionError:  # deeper than the encoder can follow
        problem = deep
    except UnicodeEncodeError as exc:
        where = ord(exc.object[exc.start]) if isinstance(exc.object, str) else 0
        problem = f"unpaired surrogate \\u{where:04x} in a string (not valid Unicode; often undecodable bytes)"
    except ValueError:
        problem = "a number that is not finite (NaN or infinity)"
    raise UnstorableValue(f"refusing to store a value with {problem}")


def dumps_line(value: Any) -> bytes:
    """One compact JSON line (no trailing newline), UTF-8, key order preserved."""
    return _dumps(value, _ENCODE_LINE)


def dumps_document(value: Any) -> bytes:
    return _dumps(value, _ENCODE_DOCUMENT) + b"\n"


def canonical_bytes(value: Any) -> bytes:
    """Key-sorted compact form: for digests of values (redaction, state hashes)."""
    return _dumps(value, _ENCODE_CANONICAL)
