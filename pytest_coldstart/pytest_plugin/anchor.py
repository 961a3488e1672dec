"""Seal anchors under pytest: ``--coldstart-anchor``, ``--coldstart-ledger``, ``--coldstart-public-key``
(and the ini options ``coldstart_anchor``, ``coldstart_ledger``, ``coldstart_public_key``).

With an anchor or a ledger given, every collected run must match an anchor held for its run
id (``audit.anchoring``): a run that does not, or has none, gets INFRA_ERROR, so its
``validate`` item fails naming the difference. Every item carries the JUnit property
``coldstart.anchor``: the run's anchor as its run.json states it (one JSON line; empty for an
unsealed run), so CI history pins exactly which sealed bytes it judged.

Hooked into plugin.py by two calls: ``add_options`` and ``configure``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_coldstart.pytest_plugin.junit import PREFIX
from pytest_coldstart.pytest_plugin.session import ColdstartSession
from pytest_coldstart.run.errors import ColdstartError

PROPERTY = PREFIX + "anchor"


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("coldstart")
    group.addoption(
        "--coldstart-anchor",
        action="append",
        default=[],
        metavar="A",
        help="Require this seal anchor (the JSON line `coldstart trace seal` printed, or a file holding it); repeatable",
    )
    group.addoption(
        "--coldstart-ledger",
        action="append",
        default=[],
        metavar="FILE",
        help="Require each run's seal anchor from this ledger (repeatable)",
    )
    group.addoption(
        "--coldstart-public-key",
        default=None,
        metavar="P",
        help="Require the anchors to be signed by this Ed25519 public key (PEM or OpenSSH)",
    )
    parser.addini("coldstart_anchor", "Seal anchors (or files holding them) every run must match", type="linelist")
    parser.addini("coldstart_ledger", "Anchor ledgers every run must be found in", type="paths", default=[])
    parser.addini("coldstart_public_key", "Ed25519 public key the anchors must be signed with", default="")


def _anchor_args(config: pytest.Config) -> list[str]:
    base = config.invocation_params.dir
    out = []
    for value in [*(config.getoption("coldstart_anchor") or []), *(config.getini("coldstart_anchor") or [])]:
        text = str(value)
        out.append(text if text.lstrip()[:1] in ("{", "[") else str(base / text))
    return out


def configure(config: pytest.Config, state: ColdstartSession) -> None:
    """Read the anchors once (a malformed one stops the session with a usage error) and hook
    the check into the session's audits and the JUnit property into its items."""
    from pytest_coldstart.audit import anchoring

    base = config.invocation_params.dir
    ledgers = [str(base / p) for p in config.getoption("coldstart_ledger") or []]
    ledgers += [str(p) for p in config.getini("coldstart_ledger") or []]
    key = config.getoption("coldstart_public_key")
    key = str(base / key) if key else (config.getini("coldstart_public_key") or None)
    try:
        wanted = anchoring.expectation(_anchor_args(config), ledgers, key)
    except ColdstartError as exc:
        raise pytest.UsageError(f"coldstart anchors: {exc.one_line()}") from None
    if wanted is not None:
        state.post_audit = lambda run_dir, report: anchoring.check(report, run_dir, wanted)
    config.pluginmanager.register(AnchorProperties(), "coldstart-anchor")


class AnchorProperties:
    """Adds ``coldstart.anchor`` to every coldstart item (one computation per run)."""

    def __init__(self) -> None:
        self._lines: dict[Path, str] = {}

    def line(self, run_dir: Path) -> str:
        if run_dir not in self._lines:
            from pytest_coldstart.record import anchor

            stated = anchor.of_run(run_dir)
            self._lines[run_dir] = anchor.one_line(stated) if stated is not None else ""
        return self._lines[run_dir]

    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        for item in items:
            run: Any = getattr(item, "run", None)
            run_dir = getattr(run, "run_dir", None)
            if isinstance(run_dir, Path) and any(key.startswith(PREFIX) for key, _ in item.user_properties):
                item.user_properties.append((PROPERTY, self.line(run_dir)))
