"""Every evidence file a user produces has a schema, a section in docs/formats.md naming each of
its fields, and `first_problem` names the first way a file differs from it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_coldstart.audit.evidence.aliases import ALIASES, LOGGER_EVENTS, TESTMOD_EVENTS
from pytest_coldstart.record.evidence_shape import SHAPES, first_problem
from pytest_coldstart.run import schemas

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "run-01"
FORMATS = (REPO / "docs" / "formats.md").read_text(encoding="utf-8")
SECTION = FORMATS.split("## Evidence files: what a user produces", 1)[1].split("\n## ", 1)[0]
EXAMPLES = {
    "test_mod": "testmod.jsonl",
    "agent_logger": "romlog.jsonl",
    "answer": "answer.json",
    "oracle": "oracle.json",
    "fixture": "fixture-ready.json",
    "restore": "restore-verify.json",
}
EVIDENCE_SCHEMAS = [kind for kind in schemas.available() if kind.startswith("evidence/")]


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_shipped_examples_have_their_documented_shape(name: str) -> None:
    assert first_problem(name, EXAMPLE / EXAMPLES[name]) is None


def test_every_evidence_schema_is_used_and_documented_field_by_field() -> None:
    assert sorted(kind for kind, _ in SHAPES.values() if kind.startswith("evidence/")) == sorted(EVIDENCE_SCHEMAS)
    for kind in EVIDENCE_SCHEMAS:
        assert f"`{kind}.schema.json`" in SECTION, kind
        for key in schemas.load(kind).get("properties", {}):
            assert f"`{key}`" in SECTION, (kind, key)


def test_the_stream_schemas_know_every_alias_and_event() -> None:
    for kind, events in (("evidence/testmod-event", TESTMOD_EVENTS), ("evidence/agent-logger-record", LOGGER_EVENTS)):
        schema = schemas.load(kind)
        assert schema["x-aliases"] == {k: list(v) for k, v in ALIASES.items()}
        assert schema["x-known-events"] == list(events)
        assert all(key in schema["properties"] for keys in ALIASES.values() for key in keys)
        for event in events:
            assert f"`{event}`" in SECTION, event
    for canonical, keys in ALIASES.items():  # the alias table lists them in the order that wins
        assert f"| `{canonical}` | {', '.join(f'`{k}`' for k in keys)} |" in SECTION, canonical


def _lines(path: Path, *values: object) -> Path:
    path.write_text("".join((v if isinstance(v, str) else json.dumps(v)) + "\n" for v in values), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "name, content, problem",
    [
        ("test_mod", ['{"event": "end", "tick": 1}', "{not json"], "line 2: not JSON"),
        ("test_mod", [{"event": "end"}, {"tick": 3}], "line 2: "),
        ("test_mod", [{"type": "end", "serverTick": "late"}], "line 1: $.serverTick: expected integer"),
        ("test_mod", [{"event": "end", "schemaVersion": 7}], "line 1: $.schemaVersion"),
        ("agent_logger", [{"event": "cart_observed", "at": "yesterday"}], "line 1: $.at"),
        ("agent_logger.normalized", [{"event": "logger_armed", "at": 1767268800}], "line 1: $: 'source_sha256'"),
        ("answer", [{"carts": [{"uuid": "u"}]}], "$.carts[0]: 'items' is a required property"),
        ("oracle", [{"status": "verified", "carts": [], "evidence_refs": []}], "$.evidence_refs"),
        ("fixture", [{"instance": "lab-a"}], "$: "),
        ("restore", [{"status": 1}], "$.status: expected string"),
        ("restore", ["[1, 2"], "not JSON"),
    ],
)
def test_the_first_problem_is_named(name: str, content: list[object], problem: str, tmp_path: Path) -> None:
    found = first_problem(name, _lines(tmp_path / "file", *content))
    assert found is not None and found.startswith(problem), found
    assert found.endswith(f"(schema {SHAPES[name][0]}.schema.json)") or "not JSON" in found


def test_epoch_seconds_and_aliases_are_accepted(tmp_path: Path) -> None:
    raw = "a" * 64
    path = _lines(
        tmp_path / "norm.jsonl",
        {"kind": "logger_armed", "time": 1767268800.5, "serverTick": 3, "lab": 7, "source_sha256": raw},
        {"name": "cart_observed", "timestamp": "2026-01-01T12:00:00", "inventory": ["stone x4"], "source_sha256": raw},
    )
    assert first_problem("agent_logger.normalized", path) is None
