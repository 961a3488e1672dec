"""The JSON Schema keywords the schema compiler handles, the Python expressions it compiles
them to, and JSON equality as JSON Schema defines it (the generated code calls ``equal`` and
``one_of``)."""

from __future__ import annotations

from typing import Any

#: Keywords that never change the verdict.
ANNOTATIONS = frozenset(
    {
        "$schema",
        "$id",
        "$defs",
        "$comment",
        "title",
        "description",
        "default",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
        "format",
        "contentMediaType",
        "contentEncoding",
    }
)
SUPPORTED = frozenset(
    {
        "type",
        "enum",
        "const",
        "required",
        "properties",
        "additionalProperties",
        "items",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "pattern",
        "anyOf",
        "allOf",
        "oneOf",
        "not",
        "if",
        "then",
        "else",
        "$ref",
        "dependentRequired",
    }
)
#: Keywords one boolean expression can check (no nested statements needed).
SCALAR = frozenset(
    {
        "type",
        "enum",
        "const",
        "required",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "pattern",
        "$ref",
    }
)
#: Inline subschemas up to this depth (deeper ones, and recursive ones, become function calls).
INLINE_DEPTH = 12

TYPE_EXPR = {
    "null": "{x} is None",
    "boolean": "({x} is True or {x} is False)",
    "string": "isinstance({x}, str)",
    "object": "isinstance({x}, dict)",
    "array": "isinstance({x}, list)",
    "number": "(isinstance({x}, (int, float)) and {x} is not True and {x} is not False)",
    "integer": "((isinstance({x}, int) and {x} is not True and {x} is not False) or (isinstance({x}, float) and {x}.is_integer()))",
}
#: Patterns with an exact non-regex equivalent: r"\S" finds a character that is not
#: whitespace, and str.isspace uses the same Unicode whitespace test as re's \s.
PATTERNS = {"\\S": "({x} != '' and not {x}.isspace())"}
GUARD = {
    "string": "isinstance({x}, str)",
    "object": "isinstance({x}, dict)",
    "array": "isinstance({x}, list)",
    "number": TYPE_EXPR["number"],
}


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def equal(a: Any, b: Any) -> bool:
    """JSON equality as JSON Schema defines it (true is not 1; 1 equals 1.0)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b, strict=False))
    if is_number(a) and is_number(b):
        return bool(a == b)
    return type(a) is type(b) and bool(a == b)


def one_of(value: Any, options: tuple[Any, ...]) -> bool:
    return any(equal(value, option) for option in options)
