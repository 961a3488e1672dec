"""RunBuilder extensions the research bundles use: ``manifest`` (what init_run records),
``insert`` (extra records at a point of the story, through the live recorder) and ``sealed``."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_coldstart.audit import audit_run
from pytest_coldstart.demo.scenarios import RunBuilder, story
from pytest_coldstart.demo.scenarios.builder import HARNESS
from pytest_coldstart.record import records
from pytest_coldstart.run import jsonio
from pytest_coldstart.validate.run import validate_run


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".coldstart" not in p.parts
    }


def _lines(run: Path) -> list[dict]:
    return [line.value for line in jsonio.iter_jsonl(run / "trajectory.jsonl")]


def _status(r, call_id: str) -> None:
    r.call(call_id, "bridge", {"command": "status"})
    r.result(call_id, "ok", {"machine": "idle"}, duration_ms=5.0)


def test_defaults_and_an_empty_insert_write_the_same_bytes(tmp_path: Path) -> None:
    plain = RunBuilder(tmp_path / "plain").passing().build()
    same = (
        RunBuilder(tmp_path / "same")
        .passing()
        .manifest(harness=dict(HARNESS))
        .insert("after:c-actuate", lambda r: None)
        .build()
    )
    assert _files(plain) == _files(same)


def test_inserted_records_land_at_their_points_and_keep_the_story_valid(tmp_path: Path) -> None:
    run = (
        RunBuilder(tmp_path / "run")
        .passing()
        .insert("after:phase:agent", lambda r: r.append(records.session("start", actor="harness")))
        .insert("before:c-actuate", lambda r: _status(r, "c-look"))
        .insert("before:c-read-log", lambda r: _status(r, "c-late-look"), at=story.at(15.0))
        .insert("before:c-read-log", lambda r: r.append(records.note("about to read", actor="operator")))
        .build()
    )
    lines = _lines(run)
    order = [line.get("call_id") or line.get("phase") or line["record"] for line in lines]
    assert order.index("agent") + 1 == order.index("session")
    assert order.index("c-start-logger") + 2 == order.index("c-look") and order.index("c-look") + 2 == order.index(
        "c-actuate"
    )
    assert order.index("c-late-look") + 2 == order.index("note") and order.index("note") + 1 == order.index(
        "c-read-log"
    )
    at = {(line["record"], line.get("call_id")): line["at"] for line in lines}
    # 1 ms per record after the anchor's time (or after ``at``); the story's own times are untouched.
    assert (
        at[("call", "c-look")] == "2026-01-01T12:00:08.001Z" and at[("result", "c-look")] == "2026-01-01T12:00:08.002Z"
    )
    assert (
        at[("call", "c-late-look")] == "2026-01-01T12:00:15.001Z" and at[("note", None)] == "2026-01-01T12:00:15.003Z"
    )
    assert at[("call", "c-actuate")] == story.at(10.0) and at[("call", "c-read-log")] == story.at(20.0)
    assert validate_run(run).valid
    report = audit_run(run, write=False)
    assert report["overall"] == "PASS", report


@pytest.mark.parametrize(
    "where, at, problem",
    [
        ("during:c-actuate", None, "expected 'before:<anchor>'"),
        ("before:", None, "expected 'before:<anchor>'"),
        ("after:c-nowhere", None, "the story has no such call or phase"),
        ("after:phase:nowhere", None, "the story has no such call or phase"),
        ("before:c-actuate", story.at(9.999), "past the next story record"),
        ("before:c-actuate", story.at(2.0), "earlier than the records before it"),
        ("before:c-actuate", "soon", "not a timestamp"),
    ],
)
def test_insert_refuses_points_outside_the_story(tmp_path: Path, where: str, at: str | None, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        RunBuilder(tmp_path / "run").passing().insert(
            where, lambda r: [_status(r, f"c-{n}") for n in range(3)], at=at
        ).build()


def test_manifest_records_its_options_and_sealed_seals(tmp_path: Path) -> None:
    harness = {"name": "other-harness", "version": "9", "model": "model-z", "provider": "prov-z"}
    run = (
        RunBuilder(tmp_path / "run", run_id="rich")
        .passing()
        .manifest(
            harness=harness,
            task_bytes=b"another task\n",
            experiment_id="exp-1",
            notes=["a note"],
            logging={"payload_mode": "preview", "inline_max_bytes": 256, "preview_chars": 40},
        )
        .sealed()
        .build()
    )
    manifest = jsonio.read_json_object(run / "run.json")
    assert manifest["harness"] == harness and manifest["experiment_id"] == "exp-1" and manifest["notes"] == ["a note"]
    assert (run / "task.md").read_bytes() == b"another task\n" and manifest["status"] == "sealed"
    assert manifest["logging"]["payload_mode"] == "preview" and manifest["logging"]["inline_max_bytes"] == 256
    read_back = next(line for line in _lines(run) if line["record"] == "result" and line["call_id"] == "c-read-log")
    assert read_back["result"] is None and read_back["result_payload"]["stored"] is False
    assert validate_run(run).valid
    with pytest.raises(TypeError, match="unknown option"):
        RunBuilder(tmp_path / "other").manifest(clock=None)
