"""CI lab suite: audit every cold-start run of this repository on each CI build.

How to use: copy this file to the root of the repository whose ``labs/`` folder holds run
directories (folders with a ``run.json``), install ``pytest-coldstart[html]`` and run ``pytest``.

What you get:
- one test item per check of every run: ``validate``, ``flag-<name>`` (5),
  ``review-<id>`` per required review, and ``run`` (the run's overall verdict), e.g.
  ``labs/run-07/run.json::flag-agent_read_log``;
- FAIL fails the build, PENDING (awaiting a reviewer, an unverified oracle, no fixture
  declared ...) is reported as xfailed and does not; add ``--runxfail`` to make every PENDING
  run block the build as well (its ``run`` item then fails, even when each check passed);
- ``reports/coldstart.xml`` (JUnit; each item carries ``coldstart.*`` properties for
  dashboards) and, with pytest-html installed, ``reports/coldstart.html`` (evidence tables
  and a timeline per run), plus a one-row-per-run verdict table in the log;
- ``-n auto`` (pytest-xdist) splits the audits between workers; results are cached in
  ``.pytest_cache`` keyed by each run's inputs, so unchanged runs are not audited again.

Settings: ``COLDSTART_LABS`` names another runs folder; an explicit ``--coldstart-runs=DIR``,
``--junitxml`` or ``--html`` on the command line wins over these defaults. Run directories
are evidence: nothing inside them is imported or executed.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
LABS = Path(os.environ.get("COLDSTART_LABS") or HERE / "labs")
REPORTS = HERE / "reports"


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    if not config.getoption("coldstart_runs") and not config.getini("coldstart_runs") and LABS.is_dir():
        config.option.coldstart_runs.append(str(LABS))
    if hasattr(config, "workerinput"):
        return  # xdist workers: reports are written by the controller
    if not config.option.xmlpath:
        config.option.xmlpath = str(REPORTS / "coldstart.xml")
    if config.pluginmanager.hasplugin("html") and not config.getoption("htmlpath", None):
        config.option.htmlpath = str(REPORTS / "coldstart.html")
        config.option.self_contained_html = True
