"""Where the optional external corpus is (``--coldstart-corpus=DIR``) and where our own samples are.

The suite runs on a fresh clone with nothing beside it: the harness session samples it needs
live in ``tests/data/sessions`` (written by ``tests/data/sessions/build.py``), runs are built by
the scenario builder. Tests over the external, public corpus (the real rom20 run, the corpus's
own samples) run only when ``--coldstart-corpus=DIR`` names it; ``tests/conftest.py`` passes the
folder to every process (xdist workers included) through ``COLDSTART_TEST_CORPUS``.
"""

from __future__ import annotations

import os
from pathlib import Path

ENV = "COLDSTART_TEST_CORPUS"
REPO = Path(__file__).resolve().parents[2]
SESSIONS = REPO / "tests" / "data" / "sessions"


def corpus_root() -> Path | None:
    """The external corpus folder given with --coldstart-corpus, or None."""
    value = os.environ.get(ENV)
    return Path(value) if value else None
