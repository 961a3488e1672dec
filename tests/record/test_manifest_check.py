"""Issue 16.1: writers validate run.json (the full schema) before any append; a hostile shape
is one line naming run.json and the JSON path (exit 1), never a TypeError/KeyError (exit 70)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hostile_runs import coldstart, copy_run, edit_manifest, no_traceback

from pytest_coldstart.record import manifest_check
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.layout import RunDir

SHAPES: dict[str, tuple[Any, str]] = {
    "null redaction pattern": (
        lambda m: m["logging"]["redaction"]["patterns"].append(None),
        "$.logging.redaction.patterns",
    ),
    "missing run_id": (lambda m: m.pop("run_id"), "'run_id' is a required property"),
    "string clock origin": (lambda m: m["clock"].update(monotonic_origin_ns="12"), "$.clock.monotonic_origin_ns"),
    "non-object logging": (lambda m: m.update(logging=[1]), "$.logging"),
    "number tool": (lambda m: m.update(tool=-1), "$.tool"),
    "number environment field": (lambda m: m.update(environment={"os": 3}), "$.environment.os"),
    "array status": (lambda m: m.update(status=[]), "$.status"),
    "string redaction keys": (lambda m: m["logging"]["redaction"].update(keys="token"), "$.logging.redaction.keys"),
    "object salt env": (lambda m: m["logging"]["redaction"].update(salt={"env": 5}), "$.logging.redaction.salt.env"),
}
WRITERS = {
    "mark": ("trace", "mark", "--name", "x"),
    "review": ("trace", "review", "--id", "a.b", "--status", "pending", "--by", "me"),
    "call": ("trace", "call", "--call-id", "c-new", "--tool", "bash"),
}


@pytest.mark.parametrize("writer", sorted(WRITERS))
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_hostile_manifest_stops_every_writer_with_one_line(shape: str, writer: str, tmp_path: Path) -> None:
    change, words = SHAPES[shape]
    run = copy_run("pending_reviews", tmp_path / "run")
    edit_manifest(run, change)
    before = {p.name: p.read_bytes() for p in run.iterdir() if p.is_file()}
    args = WRITERS[writer]
    done = coldstart(*args[:2], "--run-dir", str(run), *args[2:])
    no_traceback(done.stderr)
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith("coldstart: run.json: not a valid run manifest") and words in done.stderr
    assert {p.name: p.read_bytes() for p in run.iterdir() if p.is_file()} == before


@pytest.mark.parametrize("target", ["trajectory.jsonl", "reviews.jsonl"])
def test_a_deeply_nested_last_line_is_named_not_a_recursion_error(target: str, tmp_path: Path) -> None:
    run = copy_run("pending_reviews", tmp_path / "run")
    with open(run / target, "a", encoding="utf-8") as handle:
        handle.write('{"a":' * 100_000 + "1" + "}" * 100_000 + "\n")
    for name, args in WRITERS.items():
        done = coldstart(*args[:2], "--run-dir", str(run), *args[2:])
        no_traceback(done.stderr)
        reads_it = target == "trajectory.jsonl" or name == "review"  # the writer continues that file
        assert done.returncode == (1 if reads_it else 0), done.stderr
        if reads_it:
            assert f"{target}: last line is not valid JSON" in done.stderr, done.stderr


def test_the_check_runs_once_per_file_identity(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = copy_run("pending_reviews", tmp_path / "run")
    calls: list[Any] = []
    real = manifest_check.check_manifest
    monkeypatch.setattr(manifest_check, "check_manifest", lambda m: calls.append(1) or real(m))
    for _ in range(5):
        manifest_check.writable_manifest(RunDir(run))
    assert len(calls) == 1  # appends stay O(1): the manifest is validated once per process
    edit_manifest(run, lambda m: m.update(tool=-1))  # a rewrite: a new identity, checked again
    with pytest.raises(ColdstartError, match=r"\$\.tool"):
        manifest_check.writable_manifest(RunDir(run))
    assert len(calls) == 2


@pytest.mark.parametrize("form", ["self-loop", "loop-in-parent", "dangling"])
def test_trace_init_on_a_symlink_that_leads_nowhere_is_one_line(form: str, tmp_path: Path) -> None:
    if form == "self-loop":
        target = tmp_path / "loop"
        os.symlink("loop", target)
    elif form == "loop-in-parent":
        os.symlink("p", tmp_path / "p")
        target = tmp_path / "p" / "run"
    else:
        target = tmp_path / "gone"
        os.symlink(tmp_path / "nowhere" / "x", target)
    done = coldstart(
        "trace", "init", "--run-dir", str(target), "--run-id", "r", "--task-text", "t",
        "--harness", "pi", "--model", "m", "--provider", "p", "--harness-version", "1",
    )  # fmt: skip
    no_traceback(done.stderr)
    assert done.returncode == 1 and "run directory" in done.stderr, done.stderr
    assert not (tmp_path / "nowhere").exists()
