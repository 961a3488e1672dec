"""Preflight-gated tests: run the tests of this folder only where the harness environment works.

How to use: copy this file into a folder of tests that need the real lab environment (a JDK,
free ports, the bridge ...), e.g. ``tests/lab/``, and point ``COLDSTART_PREFLIGHT_CONFIG`` (or
``CONFIG`` below) at your harness configuration JSON (``coldstart preflight list`` shows the
checks). Every test collected below this folder gets
``@pytest.mark.coldstart_preflight(*CHECKS, config=CONFIG, policy=POLICY)``: the
pytest-coldstart plugin runs each named check once per session (cached, shared by xdist
workers) and, when one fails, skips the gated tests with the check's own reason (``POLICY =
"fail"`` fails them instead). A check that reports SKIP skips them too: SKIP never counts as
PASS. A test that carries its own ``coldstart_preflight`` mark keeps it.
``pytest --coldstart-preflight=CONFIG`` additionally collects every check as its own item.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
CONFIG = os.environ.get("COLDSTART_PREFLIGHT_CONFIG") or str(HERE / "harness.json")
CHECKS = ("harness_identity", "terminal", "filesystem", "ports")
POLICY = os.environ.get("COLDSTART_PREFLIGHT_POLICY") or "skip"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    gate = pytest.mark.coldstart_preflight(*CHECKS, config=CONFIG, policy=POLICY)
    for item in items:
        if HERE in item.path.parents and item.get_closest_marker("coldstart_preflight") is None:
            item.add_marker(gate)
