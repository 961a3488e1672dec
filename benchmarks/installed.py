"""The environment benchmark processes run in: as installed code runs, with a bytecode cache.

pip compiles a package's modules when it installs it; a sandbox that sets
PYTHONDONTWRITEBYTECODE makes every process compile every module it imports from source
(pytest, its plugins, ours), which adds a fixed cost to each process that no user pays and
that a ratio of one process against two (xdist, a pool) counts twice. The cache lives in a
private prefix, so the checkout stays clean.
"""

from __future__ import annotations

import os
from pathlib import Path


def installed_env(pycache: Path) -> dict[str, str]:
    """``os.environ`` without PYTHONDONTWRITEBYTECODE, caching bytecode under ``pycache``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env
