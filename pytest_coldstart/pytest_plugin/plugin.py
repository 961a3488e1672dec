"""pytest11 entry point ``coldstart``: options, markers, collection of run directories, reports.

Hooks here stay thin; the work lives in session (which runs, cached audits), collect/items
(nodes), outcomes (status -> outcome), summary (terminal) and html (pytest-html extras).
"""

from __future__ import annotations

import gc
import os
import shutil
import tempfile
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from pytest_coldstart.audit.cache import AuditCache
from pytest_coldstart.pytest_plugin import anchor, collect, conftests, markers
from pytest_coldstart.pytest_plugin import terminal as summary
from pytest_coldstart.pytest_plugin.fixtures import audit, coldstart_run, coldstart_scenarios  # noqa: F401
from pytest_coldstart.pytest_plugin.items import ColdstartItem
from pytest_coldstart.pytest_plugin.links import LinkPolicy, Tree
from pytest_coldstart.pytest_plugin.parallel import OUTCOMES, xdist_note
from pytest_coldstart.pytest_plugin.session import STASH, ColdstartSession
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.layout import RUN_JSON

_SHARED_DIR = pytest.StashKey[str]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """pytest_addoption: --coldstart-* options and coldstart_* ini keys."""
    group = parser.getgroup("coldstart", "cold-start run auditing")
    group.addoption(
        "--coldstart-runs",
        action="append",
        default=[],
        metavar="DIR",
        help="Collect every run directory (a folder holding run.json) below DIR; repeatable. "
        "Write it as --coldstart-runs=DIR (the space form can move rootdir).",
    )
    group.addoption(
        "--coldstart-cache-dir",
        default=None,
        metavar="DIR",
        help="Where audit results are cached (default: the pytest cache, .pytest_cache)",
    )
    group.addoption(
        "--coldstart-no-cache",
        action="store_true",
        default=False,
        help="Keep audit results in memory only (xdist workers then audit every run themselves)",
    )
    group.addoption(
        "--coldstart-jobs",
        type=int,
        default=None,
        metavar="N",
        help="Audit the collected runs in N processes before collection (0: all cores; default 1)",
    )
    parser.addini("coldstart_jobs", "Audit processes, like --coldstart-jobs", default="")
    parser.addini("coldstart_runs", "Run-directory roots collected like --coldstart-runs", type="paths", default=[])
    parser.addini("coldstart_cache_dir", "Audit cache directory (like --coldstart-cache-dir)", default="")
    anchor.add_options(parser)


def _given_roots(config: pytest.Config) -> list[Path]:
    invocation = config.invocation_params.dir
    roots = [invocation / value for value in config.getoption("coldstart_runs") or []]
    return roots + [Path(p) for p in config.getini("coldstart_runs") or []]


def _roots(config: pytest.Config) -> list[Path]:
    roots = _given_roots(config)
    resolved: list[Path] = []
    for root in roots:
        if not root.is_dir():
            raise pytest.UsageError(f"--coldstart-runs: {root} is not a directory")
        if root.resolve() not in resolved:
            resolved.append(root.resolve())
    return resolved


def _cache_dir(config: pytest.Config) -> Path | None:
    if config.getoption("coldstart_no_cache"):
        return None
    explicit = config.getoption("coldstart_cache_dir") or config.getini("coldstart_cache_dir")
    if explicit:
        return (config.invocation_params.dir / str(explicit)).resolve()
    cache = getattr(config, "cache", None)
    if cache is not None:
        return Path(cache.mkdir("coldstart"))
    workerinput = getattr(config, "workerinput", None)
    if workerinput and workerinput.get("coldstart_cache_dir"):
        return Path(workerinput["coldstart_cache_dir"])
    return None


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    """pytest_configure: register markers, build the session state, hook up pytest-html."""
    markers.register(config)
    inside = conftests.run_holding(config.inipath, collect.is_run) if config.inipath is not None else None
    if inside is not None:
        raise pytest.UsageError(
            f"coldstart: pytest read its configuration from {config.inipath}, inside the run {inside}: a run is "
            "agent-writable, so its options are not the lab's. Give pytest the runs' parent folder or "
            "--coldstart-runs=DIR (with '='), or pass the lab's own file with -c (docs/security.md)"
        )
    given: list[Path] = []
    if config.args_source == pytest.Config.ArgsSource.ARGS:
        given = [config.invocation_params.dir / arg.split("::", 1)[0] for arg in config.args]
    targets = [path.resolve() for path in given]
    norecurse = list(config.getini("norecursedirs") or [])
    try:
        cache = AuditCache(_cache_dir(config))
    except ColdstartError as exc:
        raise pytest.UsageError(f"coldstart: {exc.one_line()}") from None
    config.stash[STASH] = ColdstartSession(_roots(config), targets, cache, norecurse)
    anchor.configure(config, config.stash[STASH])
    trees = [Tree.of(root, explicit=True) for root in _given_roots(config)]
    trees += [Tree.of(path, explicit=False) for path in given if path.is_dir()]
    config.stash[collect.LINKS] = LinkPolicy(trees, norecurse, config.invocation_params.dir)
    if config.pluginmanager.hasplugin("html") and config.getoption("htmlpath", None):
        from pytest_coldstart.pytest_plugin.html import HtmlReporting

        config.pluginmanager.register(HtmlReporting(), "coldstart-html")


def pytest_unconfigure(config: pytest.Config) -> None:
    """pytest_unconfigure: remove the xdist share directory this controller created."""
    shared = config.stash.get(_SHARED_DIR, None)
    if shared:
        shutil.rmtree(shared, ignore_errors=True)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """pytest_collection_finish: once the runs are collected, their items and audit reports live
    until the process ends; frozen, the garbage collector stops rescanning them while the items
    run and in pytest's full collections at exit (over 2,000 runs: 4 s of a 28 s session).
    A later session in the same process (pytester, inline) thaws them first (``_thaw``)."""
    _thaw()
    if any(isinstance(item, ColdstartItem) for item in session.items):
        gc.freeze()
        _FROZEN[0] = True


#: Whether this process froze a session's objects: the collector's state is the process's, not a
#: session's (an inline pytester session must not keep the previous one's garbage alive).
_FROZEN = [False]


def _thaw() -> None:
    if _FROZEN[0]:
        gc.unfreeze()
        _FROZEN[0] = False


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """xdist pytest_configure_node: give every worker the same cache directory."""
    state = node.config.stash.get(STASH, None)
    if state is None or node.config.getoption("coldstart_no_cache"):
        return
    directory = state.cache.directory
    if directory is None:
        if _SHARED_DIR not in node.config.stash:
            node.config.stash[_SHARED_DIR] = tempfile.mkdtemp(prefix="pytest-coldstart-")
        directory = Path(node.config.stash[_SHARED_DIR])
    node.workerinput["coldstart_cache_dir"] = str(directory)


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    """pytest_report_header: the run roots and where audits are cached."""
    state = config.stash.get(STASH, None)
    if state is None or not state.roots:
        return None
    where = state.cache.directory or "memory only"
    return [f"coldstart: runs {', '.join(str(r) for r in state.roots)}; audit cache {where}"]


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session: pytest.Session) -> None:
    """pytest_collection: collect the run roots when no path was given; xdist share-out."""
    config = session.config
    state = config.stash.get(STASH, None)
    if state is None or not (state.roots or state.targets):
        return
    if state.roots and config.args_source != pytest.Config.ArgsSource.ARGS:
        config.args[:] = [str(root) for root in state.roots]
    workerinput = getattr(config, "workerinput", None)
    jobs = _jobs(config)
    if not workerinput and (jobs == 1 or config.getoption("numprocesses", None)):
        return  # serial: audits happen at collection; under xdist the workers share them out
    paths = [(config.invocation_params.dir / arg.split("::", 1)[0]) for arg in config.args]
    runs = state.discover(paths)
    lastfailed = _last_failed_runs(config)
    if lastfailed is not None:
        runs = [run for run in runs if run in lastfailed]
    if not workerinput:
        state.audit_in_pool(runs, jobs)
        return
    worker = int(str(workerinput.get("workerid", "gw0")).lstrip("gw") or 0)
    state.share_out(runs, worker, int(workerinput.get("workercount", 1)))


def _jobs(config: pytest.Config) -> int:
    """--coldstart-jobs (or the ini key): 0 means every core; a bad value is a usage error."""
    value = config.getoption("coldstart_jobs")
    if value is None:
        text = str(config.getini("coldstart_jobs") or "1").strip()
        try:
            value = int(text)
        except ValueError:
            raise pytest.UsageError(f"coldstart_jobs = {text!r}: expected a whole number") from None
    if value < 0:
        raise pytest.UsageError("--coldstart-jobs must be 0 (all cores) or more")
    return value or (os.cpu_count() or 1)


def _last_failed_runs(config: pytest.Config) -> set[Path] | None:
    """Under --lf, the run directories holding last failures (None: do not filter)."""
    plugin = config.pluginmanager.get_plugin("lfplugin")
    if plugin is None or not config.getoption("lf", False) or not getattr(plugin, "lastfailed", None):
        return None
    files = {config.rootpath / str(nodeid).split("::", 1)[0] for nodeid in plugin.lastfailed}
    return {path.parent.resolve() for path in files if path.name == RUN_JSON}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    """pytest_runtest_makereport: the run's audit time goes into its items' durations (JUnit time)."""
    report = yield
    if isinstance(item, ColdstartItem) and report.when == "call":
        report.duration += item.audit_seconds
    return report


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config) -> None:
    """pytest_load_initial_conftests: before pytest imports the conftest.py of the paths it was
    given (and their test* subfolders), those inside a run are made unimportable (``conftests``)."""
    namespace = early_config.known_args_namespace
    given = [str(arg).split("::", 1)[0] for arg in getattr(namespace, "file_or_dir", None) or []]
    given += [str(path) for path in early_config.getini("testpaths") or []]
    here = early_config.invocation_params.dir
    conftests.shield_anchors(early_config.pluginmanager, [here, *(here / arg for arg in given)], collect.is_run)


@pytest.hookimpl(tryfirst=True)
def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """pytest_collect_directory: claim run directories whole."""
    return collect.claim(path, parent)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """pytest_terminal_summary: one row per run (controller only)."""
    if not hasattr(config, "workerinput"):
        summary.write(terminalreporter)
        _xdist_note(terminalreporter, config)


def _xdist_note(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """Under -n N over runs too small for xdist to pay, say so with the figures."""
    state = config.stash.get(STASH, None)
    workers = config.getoption("numprocesses", None)
    if state is None or not state.roots or not isinstance(workers, int):
        return
    items = sum(len(terminalreporter.stats.get(kind, [])) for kind in OUTCOMES)
    note = xdist_note(state.discover(state.roots), items, workers)
    if note:
        terminalreporter.write_line(note)
