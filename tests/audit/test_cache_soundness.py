"""The cache key covers everything the verdict reads: links in the derived folders and where a
link leads now, empty folders, framed entries; and a verdict computed while the run changed is
never filed under the key taken before (audit/digest.py, audit/cache.py)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from pytest_coldstart.audit import digest
from pytest_coldstart.audit.cache import AuditCache
from pytest_coldstart.demo.scenarios import build_run


def keys(run: Path) -> tuple[str, str]:
    return digest.audit_content_digest(run), digest.audit_inputs_digest(run)


def changes_both(run: Path, change) -> None:
    before = keys(run)
    change()
    after = keys(run)
    assert before[0] != after[0] and before[1] != after[1]


def test_links_in_the_derived_folders_and_empty_folders_are_inputs(tmp_path: Path) -> None:
    run = build_run(tmp_path / "run", "passing")
    (run / "audit").mkdir(exist_ok=True)
    (run / "audit" / "audit.md").write_text("ours: no input")
    plain = keys(run)
    (run / "summary.json").write_text("{}")
    assert keys(run)[0] == plain[0]  # derived files are no input
    changes_both(run, lambda: os.symlink("../oracle.json", run / "audit" / "oracle.json"))
    changes_both(run, lambda: os.symlink("oracle.json", run / ".coldstart-extra"))
    changes_both(run, lambda: (run / "workspace" / "view").mkdir(parents=True))
    changes_both(run, lambda: (run / "payloads" / "x").mkdir(parents=True))


def test_a_link_is_keyed_by_where_it_leads_now_inside_or_outside_the_run(tmp_path: Path) -> None:
    run = build_run(tmp_path / "run", "passing")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "o").write_text("x")
    os.symlink(outside / "o", run / "notes-o")
    before = keys(run)
    (outside / "o").unlink()
    os.symlink(run / "oracle.json", outside / "o")  # only the world outside changed
    assert keys(run)[0] != before[0]
    copy = tmp_path / "copy"
    shutil.copytree(run, copy, symlinks=True)
    os.symlink(run / "oracle.json", run / "view.json")
    os.symlink(run / "oracle.json", copy / "view.json")  # the same text: the original's oracle, outside the copy
    assert keys(run)[0] != keys(copy)[0]


def test_entries_are_framed_so_two_listings_never_run_together(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    os.symlink("t\nb", one / "a")
    (one / "answer.json").write_text("{}")
    os.symlink("t", two / "a")
    (two / "b\nanswer.json").write_text("{}")
    assert digest.audit_content_digest(one) != digest.audit_content_digest(two)


def test_a_verdict_computed_while_the_run_changed_is_not_kept(tmp_path: Path) -> None:
    run = build_run(tmp_path / "run", "passing")
    cache = AuditCache(tmp_path / "cache")
    key = cache.key(run)

    def audit_while_the_run_changes() -> dict:
        (run / "answer.json").write_text((run / "answer.json").read_text() + " ")
        return {"overall": "PASS", "schemaVersion": 2}

    cache.get_or_compute("audit", key, audit_while_the_run_changes, recheck=lambda: cache.key(run))
    assert cache._read("audit", key) is None and not list((tmp_path / "cache" / "audit").rglob("*.json"))


def test_the_package_state_moves_with_ctime(tmp_path: Path, monkeypatch) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "rule.py").write_text("A = 1\n")
    monkeypatch.setattr(digest, "PACKAGE", package)
    before = digest.package_state()
    stat = (package / "rule.py").stat()
    (package / "rule.py").write_text("A = 2\n")  # the same size
    os.utime(package / "rule.py", ns=(stat.st_atime_ns, stat.st_mtime_ns))  # mtime set back; ctime moves
    assert digest.package_state() != before
