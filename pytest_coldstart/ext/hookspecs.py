"""Extension points (pluggy hookspecs). Built-ins register exactly like third-party plugins.

Third-party packages expose an entry point in the ``coldstart`` group whose object is a
module or class carrying ``@hookimpl`` functions.
"""

from __future__ import annotations

from typing import Any

import pluggy

PROJECT = "coldstart"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def coldstart_register_importers() -> list[Any]:
    """Return importer objects (see ``pytest_coldstart.importers.base.Importer``).

    Each importer has a unique ``name`` (the ``--format`` value), a ``version`` and
    ``parse(path) -> ImportedSession``.
    """


@hookspec
def coldstart_register_preflight_checks() -> list[Any]:
    """Return preflight check objects (see ``pytest_coldstart.preflight.checks.base.Check``).

    Each check has a unique ``id``, a one-line ``proves`` text and ``run(context) -> CheckResult``.
    """


@hookspec
def coldstart_register_live_adapters() -> list[Any]:
    """Return live-capture adapters (see ``pytest_coldstart.live.adapter.LiveAdapter``).

    Each adapter has a unique ``name`` (the word after ``coldstart hook``) and
    ``translate(payload, context) -> list of records`` for one hook invocation.
    """
