"""Importers are found through the pluggy hook: built-ins and a third party alike."""

from __future__ import annotations

from pathlib import Path

import pytest
from importer_helpers import calls_by_id, manifest, new_run, write_lines

from pytest_coldstart.ext import manager as plugins
from pytest_coldstart.ext.hookspecs import hookimpl
from pytest_coldstart.importers import registry
from pytest_coldstart.importers.base import (
    ImportedCall,
    ImportedEvent,
    ImportedResult,
    ImportedSession,
    Importer,
    Where,
    read_lines,
)
from pytest_coldstart.importers.pipeline import import_session
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.validate.run import validate_run


class CsvLikeImporter:
    """A toy harness format: one JSON object per tool call, {id, tool, args, at, done_at, ok}."""

    name = "toy"
    version = "0.1"
    format = "toy-jsonl"
    description = "test-only harness"

    def sniff(self, first: dict) -> bool:
        return "toy" in first

    def parse(self, path: Path) -> ImportedSession:
        where = Where(path)
        calls = []
        times = []
        for item in read_lines(path):
            where.line = item.number
            value = item.value
            at = where.at(value.get("at"))
            times.append(at)
            call = ImportedCall(
                where.text(value.get("id"), "id", empty=False), value["tool"], value.get("args", {}), at, item.number
            )
            if value.get("done_at"):
                done = where.at(value["done_at"])
                times.append(done)
                call.result = ImportedResult(
                    "ok" if value.get("ok") else "error", done, item.number, text=str(value.get("out", ""))
                )
            calls.append(call)
        events = [ImportedEvent("toy.loaded", times[0], 1, "harness", {"n": len(calls)})]
        return ImportedSession("1", calls, events, "toy-session", min(times), max(times), where.line)


class ToyPlugin:
    @hookimpl
    def coldstart_register_importers(self):
        return [CsvLikeImporter()]


@pytest.fixture
def toy_registered():
    plugins.reset()
    manager = plugins.manager()
    manager.register(ToyPlugin(), name="toy-plugin")
    yield
    plugins.reset()


def test_builtins_are_listed() -> None:
    plugins.reset()
    names = [row["name"] for row in registry.listing()]
    assert names == ["claude-code", "codex", "pi"]
    assert all(isinstance(imp, Importer) for imp in registry.importers().values())


def test_a_third_party_importer_registered_from_a_test(toy_registered, tmp_path: Path) -> None:
    assert "toy" in registry.importers()
    session = write_lines(
        tmp_path / "toy.jsonl",
        [
            {
                "toy": 1,
                "id": "t1",
                "tool": "probe",
                "args": {"x": 1},
                "at": "2026-03-01T00:00:00Z",
                "done_at": "2026-03-01T00:00:01Z",
                "ok": True,
                "out": "fine",
            },
            {"toy": 1, "id": "t2", "tool": "probe", "at": "2026-03-01T00:00:02Z"},
        ],
    )
    run = new_run(tmp_path / "run")
    import_session(run, "auto", session)
    got = calls_by_id(run)
    assert got["t1"]["result"]["status"] == "ok" and got["t1"]["result"]["duration_ms"] == 1000
    assert got["t2"]["result"]["status"] == "open"
    entry = manifest(run)["imports"][0]
    assert (entry["importer"], entry["importer_version"], entry["format"]) == ("toy", "0.1", "toy-jsonl")
    assert validate_run(run).valid


def test_a_plugin_error_is_reported_with_the_source_line(toy_registered, tmp_path: Path) -> None:
    session = write_lines(tmp_path / "toy.jsonl", [{"toy": 1, "id": "", "tool": "x", "at": "2026-03-01T00:00:00Z"}])
    with pytest.raises(ColdstartError) as info:
        import_session(new_run(tmp_path / "run"), "toy", session)
    assert info.value.one_line().startswith(f"{session}:1: id must be a non-empty string")


def test_a_plugin_with_bad_times_is_refused(toy_registered, tmp_path: Path, monkeypatch) -> None:
    real = CsvLikeImporter.parse

    def sloppy(self, path):
        session = real(self, path)
        session.calls[0].at = "yesterday"
        return session

    monkeypatch.setattr(CsvLikeImporter, "parse", sloppy)
    session = write_lines(tmp_path / "toy.jsonl", [{"toy": 1, "id": "a", "tool": "x", "at": "2026-03-01T00:00:00Z"}])
    run = new_run(tmp_path / "run")
    with pytest.raises(ColdstartError, match="not ISO-8601"):
        import_session(run, "toy", session)
    assert manifest(run)["imports"] == [] and not any((run / "imports").iterdir())


def test_two_importers_with_one_name_are_an_error(tmp_path: Path) -> None:
    class Clash:
        @hookimpl
        def coldstart_register_importers(self):
            importer = CsvLikeImporter()
            importer.name = "pi"
            return [importer]

    plugins.reset()
    try:
        plugins.manager().register(Clash(), name="clash")
        with pytest.raises(ColdstartError, match="two importers are registered as 'pi'"):
            registry.importers()
    finally:
        plugins.reset()


def test_the_documented_plugin_example_works(tmp_path: Path) -> None:
    """docs/importers.md's third-party example, executed as written and registered as a module."""
    import re
    import types

    text = (Path(__file__).resolve().parents[2] / "docs" / "importers.md").read_text("utf-8")
    source = re.search(r"```python\n(# my_harness/coldstart_plugin.py.*?)```", text, re.S).group(1)
    module = types.ModuleType("my_harness_coldstart_plugin")
    exec(compile(source, "docs/importers.md", "exec"), module.__dict__)
    session = write_lines(
        tmp_path / "mine.jsonl",
        [
            {"kind": "my-harness-session"},
            {
                "kind": "tool",
                "id": "m1",
                "tool": "shell",
                "args": {"cmd": "make"},
                "at": "2026-05-05T10:00:00Z",
                "done_at": "2026-05-05T10:00:02.5Z",
                "output": "built",
            },
            {"kind": "tool", "id": "m2", "tool": "shell", "at": "2026-05-05T10:00:03Z"},
        ],
    )
    plugins.reset()
    try:
        plugins.manager().register(module, name="my-harness")
        run = new_run(tmp_path / "run")
        import_session(run, "auto", session)
    finally:
        plugins.reset()
    got = calls_by_id(run)
    assert got["m1"]["result"]["duration_ms"] == 2500 and got["m1"]["result"]["result"]["text"] == "built"
    assert got["m2"]["result"]["status"] == "open"
    assert manifest(run)["imports"][0]["importer"] == "my-harness"
    assert validate_run(run).valid
