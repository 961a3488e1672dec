"""A fast yes/no check for the shipped schemas, for streams of millions of records.

jsonschema takes about half a millisecond per trajectory record (it resolves every ``$ref``
at validation time), which would make ``validate`` on a 1M-record run take minutes. This
module compiles a schema once into nested Python closures for the keywords our schemas use,
with ``$ref`` resolved at compile time. A schema object with any other keyword (for instance
in a records/<type>.schema.json written elsewhere) is checked by jsonschema itself, so the
answer is always jsonschema's answer; a test compares both on generated records.

Only the verdict is computed here; messages for an invalid value still come from jsonschema.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

#: Keywords that never change the verdict.
ANNOTATIONS = frozenset(
    {"$schema", "$id", "$defs", "$comment", "title", "description", "default", "examples", "deprecated",
     "readOnly", "writeOnly", "format", "contentMediaType", "contentEncoding"}
)
SUPPORTED = frozenset(
    {"type", "enum", "const", "required", "properties", "additionalProperties", "items", "minItems",
     "maxItems", "minLength", "maxLength", "minimum", "maximum", "pattern", "anyOf", "allOf", "oneOf", "not",
     "if", "then", "else", "$ref", "dependentRequired"}
)

_TYPES: dict[str, Check] = {
    "null": lambda v: v is None,
    "boolean": lambda v: v is True or v is False,
    "string": lambda v: isinstance(v, str),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
}


_EXACT_NUMBERS = (int, float)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def equal(a: Any, b: Any) -> bool:
    """JSON equality as JSON Schema defines it (true is not 1; 1 equals 1.0)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    if _number(a) and _number(b):
        return a == b
    return type(a) is type(b) and a == b


class Compiler:
    """Compiles schemas reachable from one registry. ``resolver`` is a referencing Resolver."""

    def __init__(self, validator_class: Any):
        self.validator_class = validator_class
        self._by_id: dict[int, Check] = {}

    def compile(self, schema: Any, resolver: Any) -> Check:
        if schema is True:
            return lambda v: True
        if schema is False:
            return lambda v: False
        key = id(schema)
        if key in self._by_id:
            return self._by_id[key]
        # Recursive schemas: a placeholder that forwards to the finished check.
        cell: list[Check] = []
        self._by_id[key] = lambda v: cell[0](v)
        if "$id" in schema:
            resolver = resolver.in_subresource(_resource(schema))
        if set(schema) - ANNOTATIONS - SUPPORTED:
            check = self._fallback(schema, resolver)
        else:
            check = self._build(schema, resolver)
        cell.append(check)
        self._by_id[key] = check
        return check

    def _fallback(self, schema: dict[str, Any], resolver: Any) -> Check:
        from jsonschema import Draft202012Validator

        validator = Draft202012Validator(schema, registry=resolver._registry, _resolver=resolver)
        return validator.is_valid

    def _build(self, schema: dict[str, Any], resolver: Any) -> Check:
        checks: list[Check] = []
        if "$ref" in schema:
            resolved = resolver.lookup(schema["$ref"])
            checks.append(self.compile(resolved.contents, resolved.resolver))
        if "type" in schema:
            checks.append(type_check(schema["type"] if isinstance(schema["type"], list) else [schema["type"]]))
        if "const" in schema:
            expected = schema["const"]
            if isinstance(expected, str):
                checks.append(lambda v, e=expected: v == e and isinstance(v, str))
            elif type(expected) in _EXACT_NUMBERS:
                checks.append(lambda v, e=expected: type(v) in _EXACT_NUMBERS and v == e if type(v) is not bool else False)
            else:
                checks.append(lambda v, e=expected: equal(v, e))
        if "enum" in schema:
            options = schema["enum"]
            if all(isinstance(o, str) for o in options):
                checks.append(lambda v, s=frozenset(options): isinstance(v, str) and v in s)
            else:
                checks.append(lambda v, o=tuple(options): any(equal(v, x) for x in o))
        checks.extend(self._object_checks(schema, resolver))
        checks.extend(self._array_checks(schema, resolver))
        checks.extend(self._scalar_checks(schema))
        checks.extend(self._applicators(schema, resolver))
        return all_of(checks)

    def _object_checks(self, schema: dict[str, Any], resolver: Any) -> list[Check]:
        """required, properties, additionalProperties and dependentRequired as one closure."""
        wanted = frozenset(schema["required"]) if schema.get("required") else None
        properties = {k: self.compile(s, resolver) for k, s in (schema.get("properties") or {}).items()}
        items = tuple(properties.items())
        extra = self.compile(schema["additionalProperties"], resolver) if "additionalProperties" in schema else None
        known = frozenset(properties)
        pairs = tuple((k, frozenset(needs)) for k, needs in (schema.get("dependentRequired") or {}).items())
        if wanted is None and not items and extra is None and not pairs:
            return []
        if extra is None and not pairs:  # the common small cases, without the general loop
            if wanted is not None and len(wanted) == 1 and not items:
                (only,) = wanted
                return [lambda v: not isinstance(v, dict) or only in v]
            if wanted is None and len(items) == 1:
                ((key, check),) = items
                return [lambda v: not isinstance(v, dict) or key not in v or check(v[key])]

        def check_object(v: Any) -> bool:
            if not isinstance(v, dict):
                return True
            if wanted is not None and not v.keys() >= wanted:
                return False
            for k, f in items:
                if k in v and not f(v[k]):
                    return False
            if extra is not None:
                for k, x in v.items():
                    if k not in known and not extra(x):
                        return False
            for k, needs in pairs:
                if k in v and not v.keys() >= needs:
                    return False
            return True

        return [check_object]

    def _array_checks(self, schema: dict[str, Any], resolver: Any) -> list[Check]:
        checks: list[Check] = []
        if "items" in schema:
            item = self.compile(schema["items"], resolver)
            checks.append(lambda v: not isinstance(v, list) or all(item(x) for x in v))
        return checks + _length_bounds(schema, "minItems", "maxItems", list)

    @staticmethod
    def _scalar_checks(schema: dict[str, Any]) -> list[Check]:
        checks = _length_bounds(schema, "minLength", "maxLength", str)
        if "pattern" in schema:
            search = re.compile(schema["pattern"]).search
            checks.append(lambda v: not isinstance(v, str) or search(v) is not None)
        if "minimum" in schema:
            low = schema["minimum"]
            checks.append(lambda v: v >= low if type(v) in _EXACT_NUMBERS else (not _number(v) or v >= low))
        if "maximum" in schema:
            high = schema["maximum"]
            checks.append(lambda v: v <= high if type(v) in _EXACT_NUMBERS else (not _number(v) or v <= high))
        return checks

    def _applicators(self, schema: dict[str, Any], resolver: Any) -> list[Check]:
        checks: list[Check] = []
        if "allOf" in schema:
            rest, dispatch = self._discriminated(schema["allOf"], resolver)
            parts = [self.compile(s, resolver) for s in rest]
            if dispatch is not None:
                parts.append(dispatch)
            checks.append(all_of(parts))
        if "anyOf" in schema:
            branches = schema["anyOf"]
            nullable = {"type": "null"} in branches
            parts = tuple(self.compile(s, resolver) for s in branches if s != {"type": "null"})
            if nullable and len(parts) == 1:  # the common "X or null"
                only = parts[0]
                checks.append(lambda v: v is None or only(v))
            else:
                checks.append(lambda v: (nullable and v is None) or any(p(v) for p in parts))
        if "oneOf" in schema:
            parts = tuple(self.compile(s, resolver) for s in schema["oneOf"])
            checks.append(lambda v: sum(1 for p in parts if p(v)) == 1)
        if "not" in schema:
            negated = self.compile(schema["not"], resolver)
            checks.append(lambda v: not negated(v))
        if "if" in schema:
            condition = self.compile(schema["if"], resolver)
            then = self.compile(schema.get("then", True), resolver)
            otherwise = self.compile(schema.get("else", True), resolver)
            checks.append(lambda v: then(v) if condition(v) else otherwise(v))
        return checks


    def _discriminated(self, parts: list[Any], resolver: Any) -> tuple[list[Any], Check | None]:
        """``allOf: [{if: {required: [k], properties: {k: {const: c}}}, then: T}, ...]`` as one
        dict lookup on ``v[k]`` instead of one ``if`` per case (the record-type switch)."""
        table: dict[str, Check] = {}
        key: str | None = None
        rest: list[Any] = []
        for part in parts:
            case = self._case(part, resolver)
            if case is None or (key is not None and case[0] != key) or case[1] in table:
                rest.append(part)
                continue
            key = case[0]
            table[case[1]] = self.compile(part["then"], resolver)
        if key is None or len(table) < 2:
            return list(parts), None
        every = tuple(table.values())
        field = key

        def dispatch(v: Any) -> bool:
            if not isinstance(v, dict):  # the conditions hold vacuously for non-objects
                return all(f(v) for f in every)
            value = v.get(field)
            f = table.get(value) if isinstance(value, str) else None
            return f is None or f(v)

        return rest, dispatch

    @staticmethod
    def _case(part: Any, resolver: Any) -> tuple[str, str] | None:
        if not isinstance(part, dict) or set(part) - ANNOTATIONS != {"if", "then"}:
            return None
        condition = part["if"]
        if isinstance(condition, dict) and set(condition) == {"$ref"}:
            condition = resolver.lookup(condition["$ref"]).contents
        if not isinstance(condition, dict) or set(condition) - ANNOTATIONS != {"required", "properties"}:
            return None
        required, properties = condition["required"], condition["properties"]
        if not (isinstance(required, list) and len(required) == 1 and isinstance(properties, dict)):
            return None
        key = required[0]
        if set(properties) != {key} or not isinstance(properties[key], dict) or set(properties[key]) != {"const"}:
            return None
        value = properties[key]["const"]
        return (key, value) if isinstance(value, str) else None


def _length_bounds(schema: dict[str, Any], low_key: str, high_key: str, kind: type) -> list[Check]:
    """minItems/maxItems (lists) or minLength/maxLength (strings, in code points)."""
    checks: list[Check] = []
    if low_key in schema:
        low = schema[low_key]
        checks.append(lambda v: not isinstance(v, kind) or len(v) >= low)
    if high_key in schema:
        high = schema[high_key]
        checks.append(lambda v: not isinstance(v, kind) or len(v) <= high)
    return checks


_PYTHON_TYPES = {"string": str, "object": dict, "array": list, "null": type(None), "boolean": bool}


def type_check(names: list[str]) -> Check:
    """``type`` as one isinstance test where possible (bool is not a number in JSON)."""
    if "integer" in names and "number" not in names:
        tests = tuple(_TYPES[name] for name in names)
        return tests[0] if len(tests) == 1 else (lambda v: any(f(v) for f in tests))
    python: list[type] = [_PYTHON_TYPES[name] for name in names if name in _PYTHON_TYPES]
    if "number" in names:
        python += [int, float]
        if "boolean" not in names:
            classes = tuple(python)
            return lambda v: isinstance(v, classes) and v is not True and v is not False
    classes = tuple(python)
    return lambda v: isinstance(v, classes)


def all_of(checks: list[Check]) -> Check:
    """A conjunction with a plain loop (faster than ``all`` over a generator for short lists)."""
    if not checks:
        return lambda v: True
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda v: first(v) and second(v)
    frozen = tuple(checks)

    def run(v: Any) -> bool:
        for check in frozen:
            if not check(v):
                return False
        return True

    return run


def _resource(schema: dict[str, Any]):
    from referencing import Resource
    from referencing.jsonschema import DRAFT202012

    return Resource.from_contents(schema, default_specification=DRAFT202012)


def compile_schema(schema: dict[str, Any], registry: Any, base_uri: str) -> Check:
    """A predicate equal to ``Draft202012Validator(schema, registry=registry).is_valid``."""
    from jsonschema import Draft202012Validator

    try:
        registry.contents(base_uri)
    except LookupError:  # a schema not in the registry yet: its own $refs resolve against it
        registry = registry.with_resource(base_uri, _resource(schema))
    resolver = registry.resolver(base_uri=base_uri)
    return Compiler(Draft202012Validator).compile(schema, resolver)
