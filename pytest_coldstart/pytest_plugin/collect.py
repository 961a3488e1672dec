"""Collectors: a run directory is claimed whole and yields one file node (``run.json``).

``runs/r1/run.json::flag-machine_operated`` is the resulting node id: a File anchor is what
makes node ids pasteable (a Directory node id with ``::`` is a usage error). Claiming the
directory means pytest never walks into it, so agent-written ``test_*.py`` files in a run are
never imported or executed. ``collect()`` never raises: a raise there aborts the session.
A folder name is run-provided text: a name that is not printable UTF-8 (undecodable bytes, an
escape sequence, a bidi override, a newline) is shown escaped in the node id (``textsafe.path_text``),
or JUnit, pytest-html and the terminal would crash on it or render it.
Symbolic links are judged by ``links.LinkPolicy`` first: a folder it refuses becomes an empty
node and a collection warning naming the path and the reason, so nothing is dropped silently.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, TypeVar, cast

import pytest

from pytest_coldstart.pytest_plugin import conftests, markers
from pytest_coldstart.pytest_plugin.items import ColdstartItem, ValidateItem, run_items
from pytest_coldstart.pytest_plugin.links import LinkPolicy
from pytest_coldstart.pytest_plugin.outcomes import one_line
from pytest_coldstart.pytest_plugin.run_item import NAME as RUN_ITEM
from pytest_coldstart.pytest_plugin.run_item import RunItem
from pytest_coldstart.pytest_plugin.session import STASH, RunInfo
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.layout import EVIDENCE_JSON, RUN_JSON, STATE_DIR, TRAJECTORY
from pytest_coldstart.run.textsafe import path_text

LINKS = pytest.StashKey[LinkPolicy]()
_SNIFF_BYTES = 1 << 20
_V1_SCHEMA_PREFIX = "mc-agent-coldstart-run/"


def looks_like_run(run_json: Path) -> bool:
    """A coldstart manifest (any version)? Unrelated ``run.json`` files stay pytest's business."""
    try:
        with jsonio.open_regular(run_json) as handle:  # a FIFO must not hang collection
            data = handle.read(_SNIFF_BYTES + 1)
        if len(data) > _SNIFF_BYTES:
            return False
        document = jsonio.loads(data)  # the one JSON rule (finite, unique keys, Unicode)
    except (OSError, ValueError, RecursionError):
        return False
    if not isinstance(document, dict) or "run_id" not in document:
        return False
    schema = document.get("schema")
    return "schemaVersion" in document or (isinstance(schema, str) and schema.startswith(_V1_SCHEMA_PREFIX))


def _markers(directory: Path) -> int:
    """How many of a run's own files besides run.json ``directory`` holds (a folder of that name
    that is itself a run, beside other runs, is no marker)."""
    found = sum(
        os.path.lexists(directory / name) and not (directory / name).is_dir() for name in (TRAJECTORY, EVIDENCE_JSON)
    )
    state = directory / STATE_DIR
    return found + (state.is_dir() and not os.path.lexists(state / RUN_JSON))


def _manifest(directory: Path) -> bool:
    """A run.json of any kind (a FIFO, a dangling link, a folder that is no run of its own)."""
    manifest = directory / RUN_JSON
    return os.path.lexists(manifest) and not (manifest.is_dir() and os.path.lexists(manifest / RUN_JSON))


def _run_like(directory: Path) -> bool:
    """A run, however broken, is never walked as a folder of tests: its run.json beside its
    other files, or those files without it."""
    return (directory / RUN_JSON).is_file() or _broken_run(directory)


def _broken_run(directory: Path) -> bool:
    """A run whose manifest cannot be read as one (not a regular file, too big, not JSON, or
    gone) beside its other files: claimed all the same, so its conftest.py and test_*.py stay
    data; its items say what is wrong with it."""
    return _markers(directory) >= (1 if _manifest(directory) else 2)


def is_run(directory: Path) -> bool:
    """A folder holding a coldstart manifest (``looks_like_run``)."""
    return (directory / RUN_JSON).is_file() and looks_like_run(directory / RUN_JSON)


def claim(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """pytest_collect_directory: our node for run directories, None for everything else. The
    folder of a node we return is shielded first: its conftest.py is data (``conftests``)."""
    node = _claimed(path, parent)
    if node is not None:
        conftests.shield(parent.config.pluginmanager, path)
    return node


def _claimed(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    policy = parent.config.stash.get(LINKS, None)
    refused = policy.folder(path) if policy is not None else None
    if refused is not None:
        return NotFollowed.refuse(parent, path, refused)
    if not _run_like(path):
        return None
    session = parent.config.stash.get(STASH, None)
    if (session is not None and session.wants(path)) or looks_like_run(path / RUN_JSON) or _broken_run(path):
        # Claimed even when not selected: a run's contents are evidence, never tests.
        refused = policy.run(path) if policy is not None else None
        if refused is not None:
            return NotFollowed.refuse(parent, path, refused)
        return shown(RunDirectory, parent, path)
    return None


_Node = TypeVar("_Node", bound=pytest.Directory | pytest.File)


def shown(kind: type[_Node], parent: pytest.Collector, path: Path) -> _Node:
    """``kind.from_parent``, with the node id and name escaped where the path is not printable."""
    node = cast(_Node, kind.from_parent(parent, path=path))
    if node.nodeid.isprintable() and node.name.isprintable():
        return node
    return cast(_Node, kind.from_parent(parent, path=path, nodeid=path_text(node.nodeid), name=path_text(node.name)))


class NotFollowed(pytest.Directory):
    """A folder collection must not enter (a symlink loop, a link out of the tree, a second
    path to a run collected elsewhere): claimed so pytest does not walk it, and reported."""

    @classmethod
    def refuse(cls, parent: pytest.Collector, path: Path, reason: str) -> NotFollowed:
        node = shown(cls, parent, path)
        where = parent.config.stash[LINKS].shown(path)
        node.warn(pytest.PytestCollectionWarning(f"coldstart: {one_line(where)} not collected: {one_line(reason)}"))
        return node

    def collect(self) -> list[pytest.Item | pytest.Collector]:
        return []


class RunDirectory(pytest.Directory):
    """A run directory; yields its ``run.json`` file node when the run is selected."""

    def collect(self) -> list[pytest.Item | pytest.Collector]:
        session = self.config.stash.get(STASH, None)
        if session is None or not session.wants(self.path):
            return []
        return [shown(RunFile, self, self.path / RUN_JSON)]


class RunFile(pytest.File):
    """``run.json``: audits the run (cached) and yields its items."""

    def collect(self) -> list[ColdstartItem]:
        run = self.config.stash[STASH].load(self.path.parent)
        try:
            marker = markers.class_marker(run.report.failure_class) if run.report else pytest.mark.infra_error
            if marker is not None:
                self.add_marker(marker)
            items = [*run_items(self, run), RunItem.from_parent(self, name=RUN_ITEM, run=run)]
        except Exception as exc:
            broken = RunInfo(
                run.run_dir,
                None,
                f"the audit report could not be turned into items: {one_line(exc)}",
                run.key,
                run.seconds,
            )
            self.own_markers.clear()
            self.add_marker(pytest.mark.infra_error)
            items = [
                ValidateItem.from_parent(self, name="validate", run=broken),
                RunItem.from_parent(self, name=RUN_ITEM, run=broken),
            ]
        for item in items:  # the audit served them all: each carries its share (JUnit time)
            item.audit_seconds = run.seconds / len(items)
        return items

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, 0, path_text(self.path.parent.name)
