"""The generated schema checks (schemas.compiled) give jsonschema's verdict, for every shipped
schema on mutations of real documents, and for every keyword the generator handles on
synthetic schemas (recursion, applicators, bounds, NaN, booleans, hostile property names)."""

from __future__ import annotations

import copy
import json
import math
import sys
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from referencing import Registry

from pytest_coldstart.run import jsonio, schemas
from pytest_coldstart.run.schemas.compiled import compile_schema

VALUES = st.sampled_from(
    [
        None,
        True,
        False,
        0,
        1,
        2,
        -1,
        1.0,
        2.0,
        0.5,
        -0.0,
        "",
        " ",
        "x",
        "a" * 64,
        "2026-01-01T00:00:00.000Z",
        "call",
        "result",
        "header",
        "decision",
        "agent",
        "ok",
        "PASS",
        [],
        ["x"],
        [1, 2],
        {},
        {"a": 1},
        {"sha256": "a" * 64, "size": 1, "stored": True},
    ]
)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False, width=32) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=5,
)


@lru_cache(maxsize=1)
def documents() -> tuple[tuple[str, object], ...]:
    """(kind, valid document) from real runs: the demo's research bundle (every record family)
    and passing scenario (evidence, reviews, audit report, validation report, summary)."""
    import tempfile

    from pytest_coldstart.analysis import summary
    from pytest_coldstart.audit import audit_run
    from pytest_coldstart.demo.generate import generate
    from pytest_coldstart.validate.run import validate_run

    out: list[tuple[str, object]] = []
    with tempfile.TemporaryDirectory() as folder:
        generate(Path(folder) / "demo")  # `coldstart demo`: the scenarios and the research bundles
        research, passing = Path(folder) / "demo" / "research-full", Path(folder) / "demo" / "passing"
        for run in (research, passing):
            out += [("trajectory-record", line.value) for line in jsonio.iter_jsonl(run / "trajectory.jsonl")]
            out += [
                (kind, jsonio.read_json(run / name))
                for kind, name in (
                    ("run", "run.json"),
                    ("evidence", "evidence.json"),
                    ("visibility", "visibility.json"),
                )
            ]
            out += [
                ("validation", validate_run(run).to_json()),
                ("audit", audit_run(run, write=False)),
                ("summary", summary.build(run)),
            ]
        out += [("review", line.value) for line in jsonio.iter_jsonl(passing / "reviews.jsonl")]
    for kind, document in out:
        assert schemas.validator(kind).is_valid(document), (kind, schemas.errors(kind, document)[:3])
    return tuple(out)


@st.composite
def mutated(draw):
    kind, base = draw(st.sampled_from(documents()))
    document = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        node = document
        while True:  # walk down to a container, then change one of its entries
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            if not keys:
                break
            key = draw(st.sampled_from(keys))
            if isinstance(node[key], (dict, list)) and node[key] and draw(st.booleans()):
                node = node[key]
                continue
            action = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
            if action == "delete":
                del node[key]
            elif action == "add" and isinstance(node, dict):
                node[draw(st.sampled_from(["extra", "translated_from", "migrated_from", "source", "note", "tick"]))] = (
                    copy.deepcopy(draw(VALUES | JSON))
                )
            else:
                node[key] = copy.deepcopy(draw(VALUES | JSON))  # sampled values are shared: never edit them
            break
    return kind, document


@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated())
def test_generated_checks_equal_jsonschema_on_mutated_documents(case):
    kind, document = case
    assert schemas.check(kind)(document) == schemas.validator(kind).is_valid(document)


def test_every_document_kind_is_covered_and_valid():
    assert {kind for kind, _ in documents()} >= {
        "trajectory-record",
        "run",
        "evidence",
        "visibility",
        "review",
        "validation",
        "audit",
        "summary",
    }
    records = {document["record"] for kind, document in documents() if kind == "trajectory-record"}
    assert records >= {"header", "call", "result", "phase", "mark", "decision", "error", "state", "action"}
    for kind, document in documents():
        assert schemas.check(kind)(document), kind


# -- synthetic schemas: every keyword the generator compiles ---------------------------------------

TRICKY = "we'ird\"\nkey\\"
SYNTHETIC = {
    "$id": "https://example.invalid/synthetic.json",
    "type": "object",
    "required": ["kind"],
    "properties": {
        "kind": {"enum": ["a", "b", 1, None]},
        "tree": {"$ref": "#/$defs/tree"},
        "one": {"oneOf": [{"type": "integer"}, {"minimum": 2}]},
        "not": {"not": {"const": "no"}},
        "list": {
            "type": "array",
            "items": {"type": "number", "minimum": 0, "maximum": 10},
            "minItems": 1,
            "maxItems": 3,
        },
        "text": {"type": ["string", "null"], "minLength": 2, "maxLength": 4, "pattern": "^[a-z]+$"},
        "nonblank": {"pattern": "\\S"},
        "loose": {"minimum": 1, "maxLength": 2, "minItems": 1, "required": ["x"]},
        "closed": {"type": "object", "properties": {"a": {"type": "boolean"}}, "additionalProperties": False},
        "typed": {"additionalProperties": {"type": "integer"}, "dependentRequired": {"a": ["b"]}},
        "same": {"const": {"x": [1, True]}},
        "number": {"const": 2},
        TRICKY: {"const": TRICKY},
        "cond": {
            "if": {"properties": {"k": {"const": "x"}}, "required": ["k"]},
            "then": {"required": ["then"]},
            "else": {"required": ["else"]},
        },
        "any": {"anyOf": [{"type": "null"}, {"type": "string", "minLength": 1}, {"type": "object", "required": ["z"]}]},
        "unsupported": {"uniqueItems": True},
        "switch": {
            "allOf": [  # a record-type switch on a value that may not be an object
                {
                    "if": {"required": ["t"], "properties": {"t": {"const": "a"}}},
                    "then": {"minLength": 3, "required": ["a"]},
                },
                {
                    "if": {"required": ["t"], "properties": {"t": {"const": "b"}}},
                    "then": {"maxLength": 1, "required": ["b"]},
                },
            ]
        },
        "nothing": False,
        "everything": True,
    },
    "allOf": [
        {"if": {"required": ["kind"], "properties": {"kind": {"const": "a"}}}, "then": {"required": ["a_only"]}},
        {
            "if": {"required": ["kind"], "properties": {"kind": {"const": "b"}}},
            "then": {"properties": {"tree": {"type": "object"}}},
        },
    ],
    "$defs": {
        "tree": {
            "type": "object",
            "properties": {
                "value": {"type": "integer"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/tree"}},
            },
        }
    },
}
FIELDS = list(SYNTHETIC["properties"]) + ["a_only", "other", "t", "a", "b"]
SYNTHETIC_VALUES = (
    VALUES
    | JSON
    | st.sampled_from(
        [
            float("nan"),
            math.inf,
            -math.inf,
            3,
            11,
            2.5,
            "ab",
            "abcde",
            "A1",
            "ab\n",
            [0, 10],
            [0, 11],
            {"x": 1},
            {"a": True},
            {"a": 1, "b": 2},
            {"a": 1},
            {"x": [1, True]},
            {"x": [1, 1]},
            {"k": "x", "then": 1},
            {"k": "x"},
            {"else": 1},
            {"z": 1},
            {"value": 1, "children": [{"value": 2, "children": [{"value": "deep"}]}]},
            {"children": [{"children": []}]},
            "no",
            TRICKY,
            [1, 1],
            [1, 2],
            "\u2003",
            "\x1c\x1f",
            " \t\n",
            "\u200b",
            "\xa0x",
        ]
    )
    | st.text(st.sampled_from(" \t\n\x0b\x1c\x85\xa0\u2028\u3000a_"), max_size=3)
)


@lru_cache(maxsize=1)
def synthetic_check():
    return compile_schema(SYNTHETIC, Registry(), SYNTHETIC["$id"]), Draft202012Validator(SYNTHETIC)


@settings(max_examples=800, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.dictionaries(st.sampled_from(FIELDS), SYNTHETIC_VALUES, max_size=5) | SYNTHETIC_VALUES)
def test_generated_checks_equal_jsonschema_on_every_keyword(document):
    check, validator = synthetic_check()
    assert check(document) == validator.is_valid(document), json.dumps(document, default=str)[:300]


@pytest.mark.parametrize(
    "document, valid",
    [
        ({"kind": "a"}, False),
        ({"kind": "a", "a_only": 1}, True),
        ({"kind": "b", "tree": []}, False),
        ({"kind": None, "tree": {"children": [{"children": [{"value": "x"}]}]}}, False),
        ({"kind": 1, "list": [float("nan")]}, True),  # jsonschema: NaN is neither below a minimum nor above a maximum
        ({"kind": 1, TRICKY: TRICKY}, True),
        ({"kind": 1, TRICKY: "x"}, False),
        ({"kind": 1, "number": 2.0}, True),
        ({"kind": 1, "number": True}, False),
        ({"kind": 1, "same": {"x": [1.0, True]}}, True),
        ({"kind": 1, "same": {"x": [1, 1]}}, False),
        ({"kind": 1, "unsupported": [1, 1]}, False),
        ({"kind": 1, "nothing": None}, False),
        ({"kind": 1, "one": 3}, False),
        ({"kind": 1, "one": 1}, True),
        ({"kind": 1, "one": 2.5}, True),
        ({"kind": 1, "one": 0.5}, False),
        ({"kind": 1, "typed": {"a": 1}}, False),
        ({"kind": 1, "typed": {"a": 1, "b": 2}}, True),
        ({"kind": 1, "typed": {"c": "x"}}, False),
        ({"kind": 1, "closed": {"a": True, "b": 1}}, False),
        ({"kind": 1, "closed": {"a": True}}, True),
        ({"kind": 1, "switch": "ab"}, False),
        ({"kind": 1, "switch": 5}, True),
        ({"kind": 1, "switch": {"t": "a"}}, False),
        ({"kind": 1, "switch": {"t": "a", "a": 1}}, True),
        ({"kind": 1, "switch": {"t": "b", "b": 1}}, True),
        ({"kind": 1, "switch": {"t": 5}}, True),
        ({"kind": 1, "cond": {"k": "x"}}, False),
        ({"kind": 1, "cond": {"k": "x", "then": 1}}, True),
        ({"kind": 1, "cond": {}}, False),
        ({"kind": 1, "any": None}, True),
        ({"kind": 1, "any": ""}, False),
        ({"kind": 1, "any": {"z": 0}}, True),
        ({"kind": 1, "text": "ab\n"}, True),
        ({"kind": 1, "text": "abcde"}, False),
        ({"kind": 1, "loose": {"y": 1}}, False),
        ({"kind": 1, "loose": 0}, False),
        ("not an object", False),
        ([], False),
    ],
)
def test_generated_checks_on_known_cases(document, valid):
    check, validator = synthetic_check()
    assert validator.is_valid(document) == valid
    assert check(document) == valid


def test_recursive_schemas_compile_to_calls_not_endless_inlining():
    schema = {
        "$id": "https://example.invalid/list.json",
        "anyOf": [{"type": "null"}, {"type": "object", "properties": {"next": {"$ref": "#"}}}],
    }
    check = compile_schema(schema, Registry(), schema["$id"])
    chain: object = None
    for _ in range(50):
        chain = {"next": chain}
    assert check(chain) and not check({"next": {"next": 3}})


def test_the_non_regex_pattern_equals_the_regex_for_every_character():
    import re

    search = re.compile(r"\S").search
    spaces = [chr(code) for code in range(sys.maxunicode + 1) if search(chr(code)) is None]
    assert spaces == [chr(code) for code in range(sys.maxunicode + 1) if chr(code).isspace()]
    for text in ("", " ", "".join(spaces), "".join(spaces) + "x", "x" + "".join(spaces)):
        assert (search(text) is not None) == (text != "" and not text.isspace())
