"""The ten built-in checks, registered through the same pluggy hook as third-party ones.

The check modules are imported when the hook is called, not when the plugin manager loads
this module: commands that only need importers never pay for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_coldstart.ext.hookspecs import hookimpl

if TYPE_CHECKING:
    from pytest_coldstart.preflight.checks.base import Check


@hookimpl(tryfirst=True)  # built-ins come first in `preflight list` and in a default run
def coldstart_register_preflight_checks() -> list[Check]:
    from pytest_coldstart.preflight.checks.bridge import BridgeCli, BridgeMcp, BridgeSmoke
    from pytest_coldstart.preflight.checks.build import BuildInstall
    from pytest_coldstart.preflight.checks.fetch import SourceFetch
    from pytest_coldstart.preflight.checks.harness import Filesystem, HarnessIdentity, Terminal
    from pytest_coldstart.preflight.checks.lab import LabManagement
    from pytest_coldstart.preflight.checks.ports import Ports

    return [
        HarnessIdentity(),
        Terminal(),
        Filesystem(),
        Ports(),
        SourceFetch(),
        BuildInstall(),
        BridgeCli(),
        BridgeMcp(),
        BridgeSmoke(),
        LabManagement(),
    ]
