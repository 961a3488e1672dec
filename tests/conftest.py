"""Shared test configuration.

Options of this suite (beside the plugin's own ``--coldstart-*`` options):

* ``--coldstart-corpus=DIR``: also run the tests over the external corpus in DIR (in CI:
  ``../shared/corpus``). Without it they are deselected, and one line at the end says so.
* ``--coldstart-slow``: also run the slow checks (crash-safety storms, concurrency storms,
  the benchmark smoke run). ``.ci/run`` passes both.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

# Helpers shared by several test folders (imported by name, like each folder's own helpers).
sys.path.insert(0, str(Path(__file__).resolve().parent / "support"))

from corpus import ENV, SESSIONS, corpus_root

REPO = Path(__file__).resolve().parents[1]

# The suite starts hundreds of interpreters (pytest, the CLI). Where the environment forbids
# bytecode files (PYTHONDONTWRITEBYTECODE, as some sandboxes set), each would compile every
# module from source; they share a bytecode cache outside the checkout instead. Set before
# xdist starts its workers, so they inherit it too. Results do not depend on it.
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) and "PYTHONPYCACHEPREFIX" not in os.environ:
    os.environ["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / f"pytest-coldstart-pycache-{os.getuid()}")
_DESELECTED: dict[str, int] = {}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("coldstart-suite", "pytest-coldstart's own test suite")
    group.addoption(
        "--coldstart-corpus",
        metavar="DIR",
        default=None,
        help="also run the tests over the external corpus in DIR (for example ../shared/corpus)",
    )
    group.addoption(
        "--coldstart-slow",
        action="store_true",
        default=False,
        help="also run the slow checks (crash and concurrency storms, the benchmark smoke run)",
    )


_SUITE_CACHE: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    # Module-scoped fixtures run the CLI before a test's own cache is set (_private_audit_cache):
    # they share one cache of this session, never ~/.cache (xdist workers inherit it).
    if "COLDSTART_CACHE_DIR" not in os.environ:
        _SUITE_CACHE.append(tempfile.mkdtemp(prefix="coldstart-suite-cache-"))
        os.environ["COLDSTART_CACHE_DIR"] = _SUITE_CACHE[0]
    config.addinivalue_line("markers", "corpus: needs the external corpus (--coldstart-corpus=DIR)")
    value = config.getoption("coldstart_corpus", None)
    if value:
        path = Path(value).resolve()
        if not (path / "harness-sessions").is_dir():
            raise pytest.UsageError(f"--coldstart-corpus: {path} is not the corpus folder (no harness-sessions/ in it)")
        os.environ[ENV] = str(path)
    else:
        os.environ.pop(ENV, None)


@pytest.fixture(autouse=True)
def _private_audit_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test gets its own audit cache (the CLI's default is ~/.cache/pytest-coldstart): no
    test is served a verdict another test stored, and the suite leaves nothing in $HOME."""
    monkeypatch.setenv("COLDSTART_CACHE_DIR", str(tmp_path_factory.mktemp("audit-cache")))


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _SUITE_CACHE:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop("COLDSTART_CACHE_DIR", None)


def _needs_corpus(item: pytest.Item) -> bool:
    return item.get_closest_marker("corpus") is not None or "shared_dir" in getattr(item, "fixturenames", ())


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    wanted = {
        "corpus": (config.getoption("coldstart_corpus", None) is not None, _needs_corpus),
        "slow": (config.getoption("coldstart_slow", False), lambda item: item.get_closest_marker("slow") is not None),
    }
    keep, dropped = [], []
    for item in items:
        reasons = [name for name, (enabled, applies) in wanted.items() if not enabled and applies(item)]
        for name in reasons:
            _DESELECTED[name] = _DESELECTED.get(name, 0) + 1
        (dropped if reasons else keep).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """One line naming what was left out and the option that runs it (the xdist controller
    collects nothing itself, so it names the options without counts)."""
    distributed = bool(config.getoption("numprocesses", None)) and not hasattr(config, "workerinput")
    parts = []
    for name, off, what in (
        (
            "corpus",
            config.getoption("coldstart_corpus", None) is None,
            "tests over the external corpus (--coldstart-corpus=../shared/corpus)",
        ),
        ("slow", not config.getoption("coldstart_slow", False), "slow checks (--coldstart-slow)"),
    ):
        if off and distributed:
            parts.append(what)
        elif off and _DESELECTED.get(name):
            parts.append(f"{_DESELECTED[name]} {what}")
    if parts:
        terminalreporter.write_line("coldstart suite: deselected " + " and ".join(parts) + "; .ci/run runs them")


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The folder that holds the external corpus (its ``corpus/`` parent); corpus tests only."""
    root = corpus_root()
    assert root is not None, "a test over the external corpus ran without --coldstart-corpus"
    return root.parent


@pytest.fixture(scope="session")
def sessions_dir() -> Path:
    """Our own harness session samples (tests/data/sessions)."""
    return SESSIONS
