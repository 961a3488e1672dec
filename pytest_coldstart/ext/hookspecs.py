"""Extension points (pluggy hookspecs). Built-ins register exactly like third-party plugins.

Third-party packages expose an entry point in the ``coldstart`` group whose object is a
module or class carrying ``@hookimpl`` functions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:  # typing only: the importers, live and preflight layers sit above this one
    from pytest_coldstart.importers.base import Importer
    from pytest_coldstart.live.adapter import LiveAdapter
    from pytest_coldstart.preflight.checks.base import Check

PROJECT = "coldstart"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def coldstart_register_importers() -> list[Importer]:  # type: ignore[empty-body]
    """Return importer objects (see ``pytest_coldstart.importers.base.Importer``).

    Each importer has a unique ``name`` (the ``--format`` value), a ``version`` and
    ``parse(path) -> ImportedSession``.
    """


@hookspec
def coldstart_register_preflight_checks() -> list[Check]:  # type: ignore[empty-body]
    """Return preflight check objects (see ``pytest_coldstart.preflight.checks.base.Check``).

    Each check has a unique ``id``, a one-line ``proves`` text and ``run(context) -> CheckResult``.
    """


@hookspec
def coldstart_register_live_adapters() -> list[LiveAdapter]:  # type: ignore[empty-body]
    """Return live-capture adapters (see ``pytest_coldstart.live.adapter.LiveAdapter``).

    Each adapter has a unique ``name`` (the word after ``coldstart hook``) and
    ``translate(payload, context) -> list of records`` for one hook invocation.
    """
