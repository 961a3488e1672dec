"""Preflight checks in pytest (entry point ``coldstart_preflight``).

- ``--coldstart-preflight=CONFIG`` (ini ``coldstart_preflight``) collects one item per check,
  named by the check id: PASS -> passed, FAIL -> failed with the detail, SKIP -> skipped with
  the reason.
- ``@pytest.mark.coldstart_preflight("ports", "build_install", config="harness.json")`` gates
  a test on those checks (no ids: every check). A failed check fails the test with the
  check's detail, or skips it under ``--coldstart-preflight-policy=skip`` (or the mark's
  ``policy="skip"``). A SKIPped check skips the test: SKIP never counts as PASS.

Each check runs at most once per session, shared by items, gates and xdist workers on one host
(``pytest_coldstart.preflight.cache``); probes and preflight.json go under pytest's basetemp
(``<basetemp>/coldstart-preflight/<config>-<hash>/``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_coldstart.preflight.cache import SharedResults
from pytest_coldstart.preflight.checks.base import FAIL, SKIP
from pytest_coldstart.run.errors import ColdstartError

MARKER = "coldstart_preflight"
POLICIES = ("fail", "skip")


class PreflightFailed(Exception):
    """A preflight check (or its config) failed; the text is the whole report."""


class PreflightState:
    """Per-session state (kept in ``config.stash``, never in module globals)."""

    def __init__(self, config: pytest.Config):
        self.config = config
        self.shared: dict[Path, SharedResults] = {}

    def default_config(self) -> Path | None:
        option = self.config.getoption("coldstart_preflight")
        if option:
            return (self.config.invocation_params.dir / str(option)).resolve()
        ini = self.config.getini("coldstart_preflight")
        return (self.config.rootpath / ini).resolve() if ini else None

    def policy(self, mark: pytest.Mark | None = None) -> str:
        chosen = (mark.kwargs.get("policy") if mark else None) or self.config.getoption("coldstart_preflight_policy")
        chosen = chosen or self.config.getini("coldstart_preflight_policy") or "fail"
        if chosen not in POLICIES:
            raise PreflightFailed(f"preflight policy {chosen!r} is not one of {', '.join(POLICIES)}")
        return chosen

    def base_dir(self) -> Path:
        # No public accessor outside a fixture: the tmp_path_factory fixture returns this object.
        factory: pytest.TempPathFactory = self.config._tmp_path_factory  # type: ignore[attr-defined]
        base = factory.getbasetemp()
        if hasattr(self.config, "workerinput"):
            base = base.parent  # shared by every worker of this session
        return base / "coldstart-preflight"

    def results_for(self, path: Path) -> SharedResults:
        """The shared results of one config file; a bad config raises PreflightFailed."""
        from pytest_coldstart.preflight.config import load_config
        from pytest_coldstart.preflight.registry import all_checks

        path = path.resolve()
        if path not in self.shared:
            try:
                config = load_config(path)
                checks = all_checks()
            except ColdstartError as exc:
                raise PreflightFailed(f"preflight config: {exc.one_line()}") from None
            digest = hashlib.sha256(str(path).encode()).hexdigest()[:12]
            out = self.base_dir() / f"{path.stem}-{digest}"
            self.shared[path] = SharedResults(config, out, checks, cwd=self.config.invocation_params.dir)
        return self.shared[path]


_STATE = pytest.StashKey[PreflightState]()


def _state(config: pytest.Config) -> PreflightState:
    return config.stash[_STATE]


def describe(entry: dict[str, Any]) -> str:
    probes = [
        str(e["path"]) for e in entry.get("evidence", []) if isinstance(e, dict) and isinstance(e.get("path"), str)
    ]
    lines = [f"preflight check {entry['id']} {entry['status']}: {entry['detail']}"]
    if probes:
        lines.append("probes: " + ", ".join(probes))
    return "\n".join(lines)


# -- hooks -------------------------------------------------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    """pytest_addoption: --coldstart-preflight, --coldstart-preflight-policy and ini keys."""
    group = parser.getgroup("coldstart")
    group.addoption(
        "--coldstart-preflight",
        default=None,
        metavar="CONFIG",
        help="Collect one item per preflight check of this harness config (and use it for "
        "coldstart_preflight marks without config=). Write it as --coldstart-preflight=CONFIG.",
    )
    group.addoption(
        "--coldstart-preflight-policy",
        default=None,
        choices=POLICIES,
        help="What a failed preflight gate does to a marked test: fail it (default) or skip it",
    )
    parser.addini(
        "coldstart_preflight", "Harness config for preflight items and marks (relative to rootdir)", default=""
    )
    parser.addini(
        "coldstart_preflight_policy", "fail | skip: a failed preflight gate fails or skips the test", default="fail"
    )


def pytest_configure(config: pytest.Config) -> None:
    """pytest_configure: register the marker (works under --strict-markers) and the state."""
    config.addinivalue_line(
        "markers",
        f"{MARKER}(*checks, config=None, policy=None): run these preflight checks once per session "
        "(no ids: all) and fail (or skip) the test unless they PASS",
    )
    if config.getini("coldstart_preflight_policy") not in POLICIES:
        raise pytest.UsageError(f"ini coldstart_preflight_policy must be one of {', '.join(POLICIES)}")
    config.stash[_STATE] = PreflightState(config)


def pytest_report_header(config: pytest.Config) -> str | None:
    """pytest_report_header: which config the preflight items use, and where probes go."""
    state = _state(config)
    path = state.default_config()
    if path is None:
        return None
    return f"coldstart preflight: {path} (policy {state.policy()}; probes under {state.base_dir()})"


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """pytest_collect_file: the configured harness config, when it is among the collected paths."""
    path = _state(parent.config).default_config()
    if path is not None and file_path.resolve() == path:
        return PreflightFile.from_parent(parent, path=file_path)
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """pytest_collection_modifyitems: add the check items when the config was not collected
    as a path (tryfirst, so -k/-m/--lf see them)."""
    path = _state(config).default_config()
    if path is None or any(isinstance(item, PreflightItem) for item in items):
        return
    if not path.is_file():
        raise pytest.UsageError(f"--coldstart-preflight: {path} is not a file")
    items[:0] = list(PreflightFile.from_parent(session, path=path).collect())


_GATE_FAILURE = pytest.StashKey[str]()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """pytest_runtest_setup: evaluate coldstart_preflight gates before the test runs (a
    SKIPped check, or a failed one under the skip policy, skips here)."""
    if isinstance(item, PreflightItem):
        return
    state = _state(item.config)
    for mark in item.iter_markers(MARKER):
        try:
            _gate(state, item, mark)
        except PreflightFailed as exc:
            item.stash[_GATE_FAILURE] = str(exc)
            return


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> None:
    """pytest_runtest_call: a failed gate fails the test itself (a failure, not a setup error),
    and the test body never runs."""
    failure = item.stash.get(_GATE_FAILURE, None)
    if failure is not None:
        pytest.fail(failure, pytrace=False)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """pytest_sessionfinish: write preflight.json for every config this process probed."""
    for shared in _state(session.config).shared.values():
        if shared.ran_here:
            shared.write_report()


def _gate(state: PreflightState, item: pytest.Item, mark: pytest.Mark) -> None:
    configured = mark.kwargs.get("config")
    path: Path | None
    if configured:
        path = Path(configured)
        path = path if path.is_absolute() else item.config.rootpath / path
    else:
        path = state.default_config()
    if path is None:
        raise PreflightFailed(f"@pytest.mark.{MARKER} needs config=... or --coldstart-preflight=CONFIG")
    shared = state.results_for(path)
    wanted = [str(arg) for arg in mark.args] or list(shared.by_id)
    unknown = [i for i in wanted if i not in shared.by_id]
    if unknown:
        raise PreflightFailed(
            f"unknown preflight check {', '.join(map(repr, unknown))} (known: {', '.join(shared.by_id)})"
        )
    entries = [shared.result(check_id) for check_id in wanted]
    failed = [e for e in entries if e["status"] == FAIL]
    if failed:
        text = "\n".join(describe(e) for e in failed)
        if state.policy(mark) == "skip":
            pytest.skip(text.replace("\n", "; "))
        raise PreflightFailed(text)
    skipped = [e for e in entries if e["status"] == SKIP]
    if skipped:
        pytest.skip("; ".join(f"preflight check {e['id']} was SKIP (never a PASS): {e['detail']}" for e in skipped))


# -- collection nodes ----------------------------------------------------------------------------


class PreflightFile(pytest.File):
    """A harness config file: one item per registered check."""

    def collect(self) -> Iterator[PreflightItem]:
        try:
            shared = _state(self.config).results_for(self.path)
        except PreflightFailed as exc:
            yield PreflightItem.from_parent(self, name="config", check_id=None, problem=str(exc))
            return
        for check in shared.checks:
            yield PreflightItem.from_parent(self, name=check.id, check_id=check.id)


class PreflightItem(pytest.Item):
    def __init__(self, *, check_id: str | None, problem: str | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.check_id, self.problem = check_id, problem
        self.add_marker(MARKER)
        self.user_properties.append(("coldstart.preflight_check", check_id or ""))

    def runtest(self) -> None:
        if self.check_id is None:
            raise PreflightFailed(self.problem or "preflight config could not be loaded")
        entry = _state(self.config).results_for(self.path).result(self.check_id)
        self.user_properties.append(("coldstart.status", entry["status"]))
        if entry["status"] == SKIP:
            pytest.skip(f"preflight check {entry['id']} SKIP: {entry['detail']}")
        if entry["status"] == FAIL:
            raise PreflightFailed(describe(entry))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, PreflightFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"preflight {self.check_id or 'config'}"
