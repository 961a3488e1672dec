"""A fast yes/no check for the shipped schemas, for streams of millions of records.

jsonschema takes about half a millisecond per trajectory record (it resolves every ``$ref``
at validation time), which would make ``validate`` on a 1M-record run take minutes. This
module compiles a schema once into Python source - straight-line code that returns False at
the first failed keyword, with ``$ref`` resolved and subschemas inlined at compile time - for
the keywords our schemas use. A schema object with any other keyword (for instance in a
records/<type>.schema.json written elsewhere) is checked by jsonschema itself, so the answer
is always jsonschema's answer; a test compares both on generated records.

The generated code holds only names it makes itself and ``repr`` of strings (property names,
string constants); every other value of the schema is passed in as a named constant.

Only the verdict is computed here; messages for an invalid value still come from jsonschema.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referencing import Resource

from pytest_coldstart.run.schemas.keywords import (
    ANNOTATIONS,
    GUARD,
    INLINE_DEPTH,
    PATTERNS,
    SCALAR,
    SUPPORTED,
    TYPE_EXPR,
    equal,
    is_number,
    one_of,
)

Check = Callable[[Any], bool]

__all__ = ["Check", "Compiler", "compile_schema", "equal"]


class Compiler:
    """Compiles schemas reachable from one registry into one generated module."""

    def __init__(self, validator_class: Any):
        self.validator_class = validator_class
        self.namespace: dict[str, Any] = {"equal": equal, "_in": one_of}
        self.functions: dict[int, str] = {}  # id(schema) -> generated function name
        self.source: list[str] = []
        self._vars = 0

    # -- entry points ----------------------------------------------------------------------------

    def compile(self, schema: Any, resolver: Any) -> Check:
        name = self.function(schema, resolver)
        exec(compile("\n".join(self.source), "<compiled schema>", "exec"), self.namespace)
        check: Check = self.namespace[name]
        return check

    def function(self, schema: Any, resolver: Any) -> str:
        """The name of a generated ``def f(v) -> bool`` for ``schema`` (generated once)."""
        if schema is True or schema is False:
            return self.const(lambda v, answer=schema: answer)
        key = id(schema)
        if key not in self.functions:
            name = self.functions[key] = f"s{len(self.functions)}"  # named first: recursion calls it
            outer, self._vars = self._vars, 0  # variables are per function
            body = self.body(schema, resolver, "v", None, (key,))
            self._vars = outer
            self.source += [f"def {name}(v):", *_indent(body), "    return True", ""]
        return self.functions[key]

    def const(self, value: Any) -> str:
        name = f"c{len(self.namespace)}"
        self.namespace[name] = value
        return name

    def var(self) -> str:
        self._vars += 1
        return f"v{self._vars}"

    # -- statements: ``return False`` on the first failure ----------------------------------------

    def body(self, schema: Any, resolver: Any, x: str, known: str | None, stack: tuple[int, ...]) -> list[str]:
        """Statements checking ``x`` against ``schema``; ``known``: a type ``x`` already has."""
        if schema is True:
            return []
        if schema is False or not isinstance(schema, dict):
            return ["return False"]
        if "$id" in schema:
            resolver = resolver.in_subresource(_resource(schema))
        if set(schema) - ANNOTATIONS - SUPPORTED:
            return [f"if not {self.const(self._fallback(schema, resolver))}({x}): return False"]
        lines: list[str] = []
        if "$ref" in schema:
            lines += self.sub(resolver.lookup(schema["$ref"]), x, known, stack)
        if "type" in schema:
            names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            lines.append(f"if not ({self.type_expr(names, x)}): return False")
            if len(names) == 1:
                known = names[0]
        scalar = self.scalar_exprs(
            {k: v for k, v in schema.items() if k in SCALAR and k not in ("type", "$ref")}, x, known
        )
        lines += [f"if not ({expr}): return False" for expr in scalar]
        lines += self.object_body(schema, resolver, x, known, stack)
        if "items" in schema:
            item = self.var()
            inner = self.sub_schema(schema["items"], resolver, item, None, stack)
            if inner:
                lines += self.guarded("array", x, known, [f"for {item} in {x}:", *_indent(inner)])
        lines += self.applicators(schema, resolver, x, known, stack)
        return lines

    def sub(self, resolved: Any, x: str, known: str | None, stack: tuple[int, ...]) -> list[str]:
        """A ``$ref`` target (``resolver.lookup`` result), inlined or called."""
        return self.sub_schema(resolved.contents, resolved.resolver, x, known, stack)

    def sub_schema(self, schema: Any, resolver: Any, x: str, known: str | None, stack: tuple[int, ...]) -> list[str]:
        if isinstance(schema, dict) and (id(schema) in stack or len(stack) > INLINE_DEPTH):
            return [f"if not {self.function(schema, resolver)}({x}): return False"]
        return self.body(schema, resolver, x, known, stack + (id(schema),))

    def guarded(self, kind: str, x: str, known: str | None, lines: list[str]) -> list[str]:
        """``lines`` apply only when ``x`` is of JSON type ``kind``."""
        if not lines:
            return []
        if known == kind:
            return lines
        return [f"if {GUARD[kind].format(x=x)}:", *_indent(lines)]

    def object_body(
        self, schema: dict[str, Any], resolver: Any, x: str, known: str | None, stack: tuple[int, ...]
    ) -> list[str]:
        lines: list[str] = []
        properties = schema.get("properties") or {}
        present = set(schema.get("required") or ())  # checked just before (scalar_exprs)
        for key, sub in properties.items():
            value = self.var()
            inner = self.sub_schema(sub, resolver, value, None, stack)
            if inner and key in present:
                lines += [f"{value} = {x}[{key!r}]", *inner]
            elif inner:
                lines += [f"if {key!r} in {x}:", f"    {value} = {x}[{key!r}]", *_indent(inner)]
        if "additionalProperties" in schema:
            name, value = self.var(), self.var()
            inner = self.sub_schema(schema["additionalProperties"], resolver, value, None, stack)
            if inner:
                test = f"{name} not in {self.const(frozenset(properties))}" if properties else "True"
                lines += [f"for {name}, {value} in {x}.items():", f"    if {test}:", *_indent(_indent(inner))]
        for key, needs in (schema.get("dependentRequired") or {}).items():
            lines.append(f"if {key!r} in {x} and not {x}.keys() >= {self.const(frozenset(needs))}: return False")
        return self.guarded("object", x, known, lines)

    def applicators(
        self, schema: dict[str, Any], resolver: Any, x: str, known: str | None, stack: tuple[int, ...]
    ) -> list[str]:
        lines: list[str] = []
        if "allOf" in schema:
            rest, cases = self.discriminated(schema["allOf"], resolver)
            for part in rest:
                lines += self.sub_schema(part, resolver, x, known, stack)
            if cases is not None:
                lines += self.dispatch(cases, x, known, stack)
        if "anyOf" in schema:
            lines.append(f"if not ({self.any_expr(schema['anyOf'], resolver, x, known)}): return False")
        if "oneOf" in schema:
            calls = ", ".join(f"{self.expr(part, resolver, x, known)}" for part in schema["oneOf"])
            lines.append(f"if [{calls}].count(True) != 1: return False")
        if "not" in schema:
            lines.append(f"if {self.expr(schema['not'], resolver, x, known)}: return False")
        if "if" in schema:
            then = self.sub_schema(schema.get("then", True), resolver, x, known, stack)
            otherwise = self.sub_schema(schema.get("else", True), resolver, x, known, stack)
            if then or otherwise:
                lines += [f"if {self.expr(schema['if'], resolver, x, known)}:", *_indent(then or ["pass"])]
                lines += ["else:", *_indent(otherwise)] if otherwise else []
        return lines

    def discriminated(
        self, parts: list[Any], resolver: Any
    ) -> tuple[list[Any], tuple[str, dict[str, tuple[Any, Any]]] | None]:
        """``allOf: [{if: {required: [k], properties: {k: {const: c}}}, then: T}, ...]`` as one
        lookup of ``v[k]`` instead of one ``if`` per case (the record-type switch)."""
        table: dict[str, tuple[Any, Any]] = {}
        key: str | None = None
        rest: list[Any] = []
        for part in parts:
            case = self._case(part, resolver)
            if case is None or (key is not None and case[0] != key) or case[1] in table:
                rest.append(part)
                continue
            key = case[0]
            table[case[1]] = (part["then"], resolver)
        if key is None or len(table) < 2:
            return list(parts), None
        return rest, (key, table)

    def dispatch(
        self, cases: tuple[str, dict[str, tuple[Any, Any]]], x: str, known: str | None, stack: tuple[int, ...]
    ) -> list[str]:
        field, table = cases
        tag = self.var()
        lines = [f"{tag} = {x}.get({field!r})"]
        first = True
        for value, (then, resolver) in table.items():
            inner = self.sub_schema(then, resolver, x, "object", stack)
            if inner:
                lines += [
                    f"{'if' if first else 'elif'} {tag} == {value!r} and isinstance({tag}, str):",
                    *_indent(inner),
                ]
                first = False
        if known == "object":
            return lines
        # The conditions hold vacuously for a non-object, so every case applies to it.
        every = [line for then, resolver in table.values() for line in self.sub_schema(then, resolver, x, None, stack)]
        return [f"if {GUARD['object'].format(x=x)}:", *_indent(lines), *(["else:", *_indent(every)] if every else [])]

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

    # -- expressions: True when ``x`` is valid ---------------------------------------------------

    def expr(self, schema: Any, resolver: Any, x: str, known: str | None, depth: int = 0) -> str:
        """One boolean expression: inline for scalar-only schemas, else a generated function."""
        if schema is True or schema is False:
            return str(schema)
        if (
            isinstance(schema, dict)
            and "$id" not in schema
            and not set(schema) - ANNOTATIONS - SCALAR
            and depth < INLINE_DEPTH
        ):
            if "$ref" in schema:
                target = resolver.lookup(schema["$ref"])
                inner = self.expr(target.contents, target.resolver, x, known, depth + 1)
                rest = {k: v for k, v in schema.items() if k != "$ref" and k not in ANNOTATIONS}
                return f"({inner} and {self.expr(rest, resolver, x, known)})" if rest else inner
            names = schema.get("type")
            parts = [self.type_expr(names if isinstance(names, list) else [names], x)] if names is not None else []
            if isinstance(names, str):
                known = names
            parts += self.scalar_exprs({k: v for k, v in schema.items() if k in SCALAR and k != "type"}, x, known)
            return "(" + " and ".join(parts) + ")" if parts else "True"
        return f"{self.function(schema, resolver)}({x})"

    def any_expr(self, branches: list[Any], resolver: Any, x: str, known: str | None) -> str:
        nullable = {"type": "null"} in branches
        parts = [self.expr(b, resolver, x, known) for b in branches if b != {"type": "null"}]
        return " or ".join(([f"{x} is None"] if nullable else []) + parts) or "False"

    def type_expr(self, names: list[str], x: str) -> str:
        return " or ".join(TYPE_EXPR[name].format(x=x) for name in names) or "False"

    def scalar_exprs(self, schema: dict[str, Any], x: str, known: str | None) -> list[str]:
        """Expressions for const, enum, required, lengths, bounds and pattern (each applies
        only to its own JSON type, as the draft says)."""
        out: list[str] = []

        def only(kind: str, test: str) -> str:
            return test if known == kind else f"(not {GUARD[kind].format(x=x)} or {test})"

        if "const" in schema:
            expected = schema["const"]
            if isinstance(expected, str):
                out.append(f"(isinstance({x}, str) and {x} == {expected!r})")
            elif is_number(expected):
                out.append(f"({TYPE_EXPR['number'].format(x=x)} and {x} == {self.const(expected)})")
            else:
                out.append(f"equal({x}, {self.const(expected)})")
        if "enum" in schema:
            options = schema["enum"]
            if all(isinstance(o, str) for o in options):
                out.append(f"(isinstance({x}, str) and {x} in {self.const(frozenset(options))})")
            else:
                out.append(f"_in({x}, {self.const(tuple(options))})")
        if schema.get("required"):
            keys = " and ".join(f"{key!r} in {x}" for key in schema["required"])
            out.append(only("object", f"({keys})"))
        for key, kind, test in (
            ("minLength", "string", ">="),
            ("maxLength", "string", "<="),
            ("minItems", "array", ">="),
            ("maxItems", "array", "<="),
        ):
            if key in schema:
                out.append(only(kind, f"len({x}) {test} {self.const(schema[key])}"))
        if "minimum" in schema:  # jsonschema: invalid when ``x < minimum`` (NaN passes)
            out.append(only("number", f"not {x} < {self.const(schema['minimum'])}"))
        if "maximum" in schema:
            out.append(only("number", f"not {x} > {self.const(schema['maximum'])}"))
        if "pattern" in schema:
            fast = PATTERNS.get(schema["pattern"])
            test = fast.format(x=x) if fast else f"{self.const(re.compile(schema['pattern']).search)}({x}) is not None"
            out.append(only("string", test))
        return out

    def _fallback(self, schema: dict[str, Any], resolver: Any) -> Check:
        from jsonschema import Draft202012Validator

        validator = Draft202012Validator(schema, registry=resolver._registry, _resolver=resolver)  # type: ignore[call-arg]  # jsonschema's private resolver hand-off
        return validator.is_valid


def _indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


def _resource(schema: dict[str, Any]) -> Resource[Any]:
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
