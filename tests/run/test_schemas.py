"""The shipped JSON Schemas: valid draft 2020-12, in step with the vocabulary, and the compiled
fast check gives exactly jsonschema's verdict (hypothesis-generated records)."""

from __future__ import annotations

import copy
import json

import pytest
from core_helpers import lines, new_run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from pytest_coldstart.run import schemas, vocabulary
from pytest_coldstart.run.schemas.compiled import compile_schema, equal


def test_every_shipped_schema_is_a_valid_draft_2020_12_schema():
    for kind in schemas.available():
        document = schemas.load(kind)
        Draft202012Validator.check_schema(document)
        assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert document["$id"] == schemas.BASE_URI + f"{kind}.schema.json"


def test_loader_api():
    assert schemas.load("run")["title"].startswith("run.json")
    assert schemas.validator("run") is schemas.validator("run")  # cached
    assert {
        "$: 'created_at' is a required property",
        "$: 'run_id' is a required property",
        "$: 'schemaVersion' is a required property",
    } <= set(schemas.errors("run", {}))
    assert schemas.errors("run", {"schemaVersion": 2, "run_id": "r", "created_at": "x", "translated_from": 1}) == []
    with pytest.raises(KeyError):
        schemas.load("../etc/passwd")
    with pytest.raises(KeyError):
        schemas.load("no-such-kind")


def test_vocabularies_match_the_common_schema():
    defs = schemas.load("common")["$defs"]
    assert tuple(defs["phase"]["enum"]) == vocabulary.PHASES
    assert tuple(defs["actor"]["enum"]) == vocabulary.ACTORS
    assert tuple(defs["resultStatus"]["enum"]) == vocabulary.RESULT_STATUSES
    assert tuple(defs["reviewStatus"]["enum"]) == vocabulary.REVIEW_STATUSES
    assert tuple(defs["recordType"]["enum"]) == vocabulary.RECORD_TYPES
    assert tuple(defs["evidenceName"]["enum"]) == vocabulary.EVIDENCE_NAMES


def test_messages_name_the_json_path_and_stay_short():
    record = {
        "schemaVersion": 2,
        "run_id": "r",
        "seq": 1,
        "at": "2026-01-01T00:00:00.000Z",
        "monotonic_ms": 0,
        "record": "call",
        "call_id": "c",
        "parent_id": None,
        "prev": None,
        "tool": "x" * 0,
        "arguments": {},
        "phase": "x" * 500,
    }
    messages = schemas.errors("trajectory-record", record)
    assert any(m.startswith("$.phase: ") for m in messages) and any(m.startswith("$.tool: ") for m in messages)
    assert all(len(m) <= schemas.MAX_MESSAGE for m in messages)


def test_documents_written_by_the_recorder_match_their_schemas(tmp_path):
    run = new_run(tmp_path / "run")
    for kind, name in (("run", "run.json"), ("visibility", "visibility.json"), ("evidence", "evidence.json")):
        assert schemas.errors(kind, json.loads((run / name).read_text())) == []
    for record in lines(run / "trajectory.jsonl"):
        assert schemas.errors("trajectory-record", record) == []


def test_absent_record_schema_means_envelope_only(monkeypatch, tmp_path):
    # A record type whose schema file is missing still gets its envelope checked.
    record = {
        "schemaVersion": 2,
        "run_id": "r",
        "seq": 1,
        "at": "2026-01-01T00:00:00.000Z",
        "monotonic_ms": 0,
        "record": "state",
        "call_id": None,
        "parent_id": None,
        "prev": None,
    }
    monkeypatch.setattr(schemas, "HERE", tmp_path)
    (tmp_path / "records").mkdir()
    for kind in ("common", "trajectory-record"):
        (tmp_path / f"{kind}.schema.json").write_text(json.dumps(schemas.load(kind)))
    schemas.registry.cache_clear()
    schemas._load_cached.cache_clear()
    try:
        validator = Draft202012Validator(schemas.load("trajectory-record"), registry=schemas.registry())
        assert validator.is_valid(record)
        assert not validator.is_valid(dict(record, seq=0))
    finally:
        monkeypatch.undo()
        schemas.registry.cache_clear()
        schemas._load_cached.cache_clear()


# -- the compiled check equals jsonschema ------------------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(allow_nan=False, allow_infinity=False, width=32)
    | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6,
)
FIELDS = [
    "schemaVersion",
    "run_id",
    "seq",
    "at",
    "monotonic_ms",
    "record",
    "call_id",
    "parent_id",
    "prev",
    "tool",
    "arguments",
    "arguments_payload",
    "status",
    "result_payload",
    "duration_ms",
    "phase",
    "actor",
    "name",
    "created_at",
    "harness",
    "evidence",
    "translated_from",
    "migrated_from",
    "missing_reason",
    "text",
    "summary",
    "event",
    "tags",
    "branch",
    "tick",
]
INTERESTING = st.sampled_from(
    [
        2,
        1,
        0,
        -1,
        1.0,
        True,
        None,
        "",
        " ",
        "x",
        "call",
        "result",
        "header",
        "phase",
        "mark",
        "note",
        "decision",
        "state",
        "agent",
        "ok",
        "open",
        "2026-01-01T00:00:00.000Z",
        "a" * 64,
        {"sha256": "a" * 64, "size": 3, "stored": True},
        [],
        ["x"],
        {},
        {"name": "pi"},
    ]
)


VALID_FIELDS = {
    "header": {"created_at": "2026-01-01T00:00:00.000Z", "harness": {"name": "pi"}},
    "call": {"tool": "bash", "arguments": {}, "phase": "agent", "actor": "agent"},
    "result": {"status": "ok", "result": {"text": "x"}, "duration_ms": 3},
    "phase": {"phase": "agent", "actor": "operator", "evidence": []},
    "mark": {"name": "m", "data": None},
    "note": {"text": "hello"},
}


def _base(kind: str) -> dict:
    envelope = {
        "schemaVersion": 2,
        "run_id": "r",
        "seq": 1,
        "at": "2026-01-01T00:00:00.000Z",
        "monotonic_ms": 0.5,
        "record": kind,
        "call_id": "c",
        "parent_id": None,
        "prev": None,
    }
    return {**envelope, **copy.deepcopy(VALID_FIELDS.get(kind, {}))}


@st.composite
def mutated_records(draw):
    record = _base(draw(st.sampled_from(list(VALID_FIELDS) + ["decision", "state", "bogus"])))
    if draw(st.booleans()):
        record.update(translated_from=1) if draw(st.booleans()) else record.update(migrated_from=1, monotonic_ms=None)
    for _ in range(draw(st.integers(0, 3))):
        field = draw(st.sampled_from(FIELDS))
        if draw(st.booleans()) and field in record:
            del record[field]
        else:
            record[field] = draw(INTERESTING | json_values)
    return record


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated_records())
def test_compiled_trajectory_check_equals_jsonschema(record):
    assert schemas.check("trajectory-record")(record) == schemas.validator("trajectory-record").is_valid(record)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.sampled_from(["run", "evidence", "visibility", "review"]),
    st.sampled_from(FIELDS + ["task", "imports", "files", "seal", "id", "by", "answer"]),
    INTERESTING | json_values,
)
def test_compiled_document_checks_equal_jsonschema(kind, field, value):
    document = {
        "schemaVersion": 2,
        "run_id": "r",
        "created_at": "2026-01-01T00:00:00.000Z",
        "id": "a.b",
        "status": "resolved",
        "file_count": 0,
        "files": [],
    }
    document[field] = value
    assert schemas.check(kind)(document) == schemas.validator(kind).is_valid(document)


def test_compiled_check_of_unsupported_keywords_defers_to_jsonschema():
    from referencing import Registry

    schema = {
        "$id": "https://example.invalid/s.json",
        "type": "object",
        "properties": {"a": {"uniqueItems": True}, "b": {"$ref": "#/$defs/small"}},
        "$defs": {"small": {"maximum": 3}},
    }
    check = compile_schema(schema, Registry(), "https://example.invalid/s.json")
    validator = Draft202012Validator(schema)
    for value in ({"a": [1, 2]}, {"a": [1, 1]}, {"b": 3}, {"b": 4}, {"a": "x"}, []):
        assert check(value) == validator.is_valid(value), value


def test_json_equality_rules():
    assert equal(1, 1.0) and not equal(1, True) and not equal(0, False) and equal({"a": [1]}, {"a": [1.0]})
    assert not equal("1", 1) and not equal(None, False)


def test_record_schemas_of_other_modules_are_used_when_present():
    # The decision schema ships under records/: a decision without its summary is invalid.
    if not schemas.path_of("records/decision").is_file():
        pytest.fail("records/decision.schema.json is expected to ship with the package")
    record = dict(_base("decision"), call_id=None)
    messages = schemas.errors("trajectory-record", record)
    assert "$: 'summary' is a required property" in messages
    assert copy.deepcopy(record) == record
