"""The one code fingerprint and the content-addressed audit cache (audit/digest.py, audit/cache.py)."""

from __future__ import annotations

import ast
import json
import os
import shutil
from pathlib import Path
from typing import Any

from pytest_coldstart.audit import cache as cache_module
from pytest_coldstart.audit import digest
from pytest_coldstart.audit.cache import AuditCache, inspect, prune
from pytest_coldstart.demo.scenarios import build_run
from pytest_coldstart.run import schemas

PACKAGE = digest.PACKAGE


def test_the_fingerprint_covers_the_audit_import_closure_and_nothing_outside_it() -> None:
    closure = {p.relative_to(PACKAGE).as_posix() for p in digest.import_closure()}
    assert {"audit/engine.py", "audit/evidence/content.py", "audit/flags/answer_correct.py"} <= closure
    assert {"validate/trajectory.py", "run/v1.py", "run/schemas/compiled.py"} <= closure  # followed, not listed
    assert not any(p.split("/")[0] in ("cli", "pytest_plugin", "importers", "demo", "analysis") for p in closure)
    data = {
        p.relative_to(PACKAGE).as_posix()
        for f in {s.parent for s in digest.import_closure()}
        for p in digest._data_files(f)
    }
    assert "run/schemas/trajectory-record.schema.json" in data and "run/schemas/records/note.schema.json" in data


def _parsed_imports(path: Path, module: str) -> set[str]:
    """The parser's answer, which the line scan of ``digest._imports`` is held to."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    todo: list[ast.AST] = [ast.parse(path.read_bytes())]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            todo.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        todo.extend(ast.iter_child_nodes(node))
    return found


def test_the_import_scan_sees_every_import_the_parser_sees_in_every_module() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        module = ".".join(["pytest_coldstart", *(parts[:-1] if parts[-1] == "__init__" else parts)])
        scanned = set(digest._imports(path, module))
        assert _parsed_imports(path, module) <= scanned, path


def test_the_import_scan_reads_continuations_guards_and_relative_imports(tmp_path: Path) -> None:
    source = tmp_path / "mod.py"
    source.write_text(
        "from __future__ import annotations\n"
        "import os, pytest_coldstart.run.jsonio as j  # a comment\n"
        "from . import (\n    sibling,  # why\n    other as o,\n)\n"
        "from ..run.layout import \\\n    AUDIT_DIR\n"
        "if TYPE_CHECKING:\n    from pytest_coldstart.cli import main\n\n    import pytest_coldstart.typing_only\n"
        "else:\n    import pytest_coldstart.at_runtime\n"
        "def f():\n    from pytest_coldstart.lazy import thing\n",
        "utf-8",
    )
    found = set(digest._imports(source, "pytest_coldstart.audit.mod"))
    assert {
        "os",
        "pytest_coldstart.run.jsonio",
        "pytest_coldstart.audit.sibling",
        "pytest_coldstart.audit.other",
    } <= found
    assert {
        "pytest_coldstart.run.layout.AUDIT_DIR",
        "pytest_coldstart.at_runtime",
        "pytest_coldstart.lazy.thing",
    } <= found
    assert not {"pytest_coldstart.cli.main", "pytest_coldstart.typing_only"} & found
    assert found == _parsed_imports(source, "pytest_coldstart.audit.mod")


def test_the_fingerprint_is_remembered_under_the_package_state(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(digest, "_MEMO", {})
    first = digest.code_fingerprint(tmp_path)
    assert (tmp_path / "code" / digest.package_state()).read_text().strip() == first
    monkeypatch.setattr(digest, "_MEMO", {})
    monkeypatch.setattr(digest, "_fingerprint", lambda: (_ for _ in ()).throw(AssertionError("recomputed")))
    assert digest.code_fingerprint(tmp_path) == first


def test_equal_content_anywhere_is_one_entry_and_a_changed_byte_another(tmp_path: Path) -> None:
    run = build_run(tmp_path / "a" / "run", "passing")
    copy = tmp_path / "b" / "elsewhere"
    shutil.copytree(run, copy)
    cache = AuditCache(tmp_path / "cache")
    assert cache.key(run) == cache.key(copy)
    assert digest.audit_inputs_digest(run) != digest.audit_inputs_digest(copy)  # stat differs, content does not
    with open(copy / "reviews.jsonl", "ab") as handle:
        handle.write(b"\n")
    assert cache.key(copy) != cache.key(run)
    memos = list((tmp_path / "cache" / "inputs").rglob("*"))
    assert any(p.is_file() for p in memos)


def test_entries_name_their_code_and_prune_removes_other_code(tmp_path: Path) -> None:
    run = build_run(tmp_path / "run", "passing")
    cache = AuditCache(tmp_path / "cache")
    report: dict[str, Any] = {"schemaVersion": 2, "overall": "PASS", "flags": []}
    cache.get_or_compute("audit", cache.key(run), lambda: report)
    (entry,) = (tmp_path / "cache" / "audit").rglob("*.json")
    document = json.loads(entry.read_text())
    assert document["code"] == digest.code_fingerprint() and schemas.errors("audit-cache-entry", document) == []
    old = entry.with_name("0" * 64 + ".json")
    old.write_text(json.dumps({**document, "key": "0" * 64, "code": "f" * 64}))
    info = inspect(tmp_path / "cache")
    assert (info.entries, info.current, info.stale) == (2, 1, [old])
    assert prune(tmp_path / "cache") == 1 and entry.exists() and not old.exists()
    assert prune(tmp_path / "cache", everything=True) >= 1 and not entry.exists()


def test_prune_never_enters_a_symlinked_shard_or_takes_what_is_not_a_file(tmp_path: Path) -> None:
    """A shared cache someone else can write: ``audit/cd -> /elsewhere`` would have had prune
    delete the ``*.json`` files it points at; a folder or a FIFO named ``*.json`` is no entry."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious.json").write_text("{}")
    shards = tmp_path / "cache" / "audit"
    (shards / "ab" / "dir.json").mkdir(parents=True)
    os.mkfifo(shards / "ab" / "fifo.json")
    (shards / "cd").symlink_to(outside)
    assert inspect(tmp_path / "cache").entries == 0
    prune(tmp_path / "cache")
    prune(tmp_path / "cache", everything=True)
    assert (outside / "precious.json").is_file()


def test_default_directory_follows_the_environment(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("COLDSTART_CACHE_DIR", str(tmp_path / "x"))
    assert cache_module.default_directory() == tmp_path / "x"
    monkeypatch.delenv("COLDSTART_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_module.default_directory() == tmp_path / "xdg" / "pytest-coldstart"


def test_share_out_claims_a_run_before_hashing_it(tmp_path: Path, monkeypatch) -> None:
    """xdist workers split the hashing as well as the audits: a run another process holds is
    skipped without reading a byte, and the claimant's digest is remembered for the others."""
    from filelock import FileLock

    run = build_run(tmp_path / "run", "passing")
    cache = AuditCache(tmp_path / "cache")
    stat = digest.audit_inputs_digest(run)
    claim = tmp_path / "cache" / "inputs" / stat[:2] / f"{stat}.lock"
    claim.parent.mkdir(parents=True, exist_ok=True)
    hashed: list[Path] = []
    real = cache_module.audit_content_digest
    monkeypatch.setattr(cache_module, "audit_content_digest", lambda r: hashed.append(r) or real(r))
    report: dict[str, Any] = {"schemaVersion": 2, "overall": "PASS", "flags": []}
    with FileLock(str(claim)):  # held by "another worker" (a separate lock object)
        assert cache.compute_if_free("audit", run, lambda: report) is None
    assert hashed == []
    key = cache.compute_if_free("audit", run, lambda: report)
    assert key is not None and hashed == [run] and cache.computed == 1
    assert cache.compute_if_free("audit", run, lambda: report) is None  # cached now
    other = AuditCache(tmp_path / "cache")
    assert other.key(run) == key and hashed == [run]  # the memo, not a second read
    assert other.get_or_compute("audit", key, lambda: {}) == report
    files = [p for p in (tmp_path / "cache").rglob("*") if p.is_file() and p.parent.parent.name in ("inputs", "code")]
    files += [p for p in (tmp_path / "cache" / "code").glob("*") if p.is_file()]
    assert claim.exists() and inspect(tmp_path / "cache").memos == len([p for p in files if p.suffix != ".lock"])


# -- a cache folder that cannot be one ---------------------------------------------------------


def test_a_cache_folder_that_cannot_be_one_is_named_once(tmp_path: Path) -> None:
    import pytest

    from pytest_coldstart.run.errors import UsageError

    a_file = tmp_path / "file"
    a_file.write_text("x")
    for directory, reason in ((a_file, "not a directory"), (a_file / "below", "Not a directory")):
        with pytest.raises(UsageError, match=reason):
            AuditCache(directory)
    AuditCache(tmp_path / "new" / "cache")  # created on demand
    assert (tmp_path / "new" / "cache").is_dir()


def test_a_cache_that_breaks_while_running_costs_time_not_the_verdict(tmp_path: Path) -> None:
    run = build_run(tmp_path / "run", "passing")
    cache = AuditCache(tmp_path / "cache")
    shutil.rmtree(tmp_path / "cache")
    (tmp_path / "cache").write_text("the disk was swapped under us")  # no lock, no entry can be made
    key = cache.key(run)
    report = cache.get_or_compute("audit", key, lambda: {"overall": "PASS", "code": digest.code_fingerprint()})
    assert report["overall"] == "PASS" and cache.computed == 1
    assert cache.compute_if_free("audit", run, lambda: {"overall": "PASS"}) is None  # nothing to claim: no crash


def test_the_cli_audits_without_a_cache_when_the_default_folder_is_unusable(tmp_path: Path, monkeypatch) -> None:
    from pytest_coldstart.audit.verdict import default_cache

    (tmp_path / "file").write_text("x")
    monkeypatch.delenv("COLDSTART_NO_CACHE", raising=False)
    monkeypatch.delenv("COLDSTART_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))
    assert default_cache().directory is None  # ~/.cache unusable: audit anyway, in memory
    monkeypatch.setenv("COLDSTART_CACHE_DIR", str(tmp_path / "file"))
    assert default_cache().directory is None  # test_verdict: the cache never costs the verdict


def test_the_temporary_files_of_dead_writers_are_swept_and_live_ones_kept(tmp_path: Path) -> None:
    import os
    import subprocess
    import time

    folder = tmp_path / "audit" / "ab"
    folder.mkdir(parents=True)
    dead = subprocess.Popen(["true"])
    dead.wait()
    host = cache_module._HOST
    orphan = folder / f".abcdef.{host}.{dead.pid}.x1y2z3.tmp"
    live = folder / f".abcdef.{host}.{os.getpid()}.a1b2c3.tmp"
    foreign = folder / ".abcdef.elsewhere.12345.q1w2e3.tmp"
    old = folder / ".abcdef.elsewhere.12346.r1t2y3.tmp"
    for path in (orphan, live, foreign, old):
        path.write_bytes(b"{")
    stale = time.time() - cache_module.ORPHAN_AGE - 60
    os.utime(old, (stale, stale))
    assert cache_module.sweep_orphans(tmp_path) == 2
    assert sorted(p.name for p in folder.iterdir()) == sorted([live.name, foreign.name])


def test_an_entry_write_names_its_writer_in_the_temporary_file(tmp_path: Path, monkeypatch) -> None:
    seen: list[str] = []
    real = cache_module.tempfile.mkstemp

    def spy(**kwargs: Any) -> tuple[int, str]:
        fd, name = real(**kwargs)
        seen.append(Path(name).name)
        return fd, name

    monkeypatch.setattr(cache_module.tempfile, "mkstemp", spy)
    cache_module._write_atomically(tmp_path / "entry.json", b"{}")
    assert seen and cache_module._TEMP.search(seen[0]) is not None
    assert (tmp_path / "entry.json").read_bytes() == b"{}" and not list(tmp_path.glob("*.tmp"))
