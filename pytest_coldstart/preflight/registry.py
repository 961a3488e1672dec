"""Every preflight check, built-in or third-party, comes through the pluggy hook
``coldstart_register_preflight_checks``; this module gathers and vets them."""

from __future__ import annotations

import re
from typing import Any

import pluggy

from pytest_coldstart.preflight.checks.base import Check
from pytest_coldstart.run.errors import ColdstartError

CHECK_ID = re.compile(r"^[a-z][a-z0-9_]*$")


def all_checks(pm: pluggy.PluginManager | None = None) -> list[Check]:
    """The registered checks in registration order (built-ins first); ids are unique."""
    if pm is None:
        from pytest_coldstart.ext import manager as plugins

        pm = plugins.manager()
    checks: list[Check] = []
    seen: dict[str, Any] = {}
    for batch in pm.hook.coldstart_register_preflight_checks():
        for check in batch or []:
            problem = defect(check)
            if problem:
                raise ColdstartError(
                    f"a registered preflight check is unusable: {problem}", "coldstart_register_preflight_checks"
                )
            if check.id in seen:
                raise ColdstartError(
                    f"preflight check id {check.id!r} is registered twice ({_origin(seen[check.id])} and {_origin(check)})",
                    "coldstart_register_preflight_checks",
                )
            seen[check.id] = check
            checks.append(check)
    return checks


def defect(check: Any) -> str | None:
    identifier = getattr(check, "id", None)
    if not isinstance(identifier, str) or not CHECK_ID.match(identifier):
        return f"{_origin(check)} has id {identifier!r} (expected [a-z][a-z0-9_]*)"
    proves = getattr(check, "proves", None)
    if not isinstance(proves, str) or not proves.strip():
        return f"check {identifier!r} has no 'proves' text"
    if not callable(getattr(check, "run", None)):
        return f"check {identifier!r} has no run(context) method"
    return None


def _origin(check: Any) -> str:
    kind = type(check)
    return f"{kind.__module__}.{kind.__qualname__}"
