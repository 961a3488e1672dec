"""Finding importers by name through the plugin manager (built-ins and entry points alike)."""

from __future__ import annotations

from typing import Any

from pytest_coldstart.ext import manager as plugins
from pytest_coldstart.run.errors import ColdstartError, UsageError

REQUIRED = ("name", "version", "format", "parse")


def importers() -> dict[str, Any]:
    """Every registered importer by name. Two importers claiming one name is an error."""
    found: dict[str, Any] = {}
    for batch in plugins.manager().hook.coldstart_register_importers():
        for importer in batch or []:
            missing = [attr for attr in REQUIRED if not hasattr(importer, attr)]
            if missing:
                raise ColdstartError(f"importer {importer!r} lacks {', '.join(missing)} (see docs/importers.md)")
            name = importer.name
            if not isinstance(name, str) or not name.strip():
                raise ColdstartError(f"importer {importer!r} has no usable name")
            if name in found and found[name] is not importer:
                raise ColdstartError(f"two importers are registered as {name!r}: {found[name]!r} and {importer!r}")
            found[name] = importer
    return found


def get(name: str) -> Any:
    known = importers()
    if name not in known:
        raise UsageError(f"unknown session format {name!r} (registered: {', '.join(sorted(known)) or 'none'})")
    return known[name]


def listing() -> list[dict[str, str]]:
    return [
        {
            "name": name,
            "version": str(importer.version),
            "format": str(importer.format),
            "description": str(getattr(importer, "description", "")),
        }
        for name, importer in sorted(importers().items())
    ]


def sniff(first: dict[str, Any]) -> Any:
    """The single importer whose ``sniff`` accepts this first line (for ``--format auto``)."""
    matches = [imp for imp in importers().values() if hasattr(imp, "sniff") and imp.sniff(first)]
    if len(matches) != 1:
        names = ", ".join(sorted(imp.name for imp in matches)) or "none"
        raise UsageError(f"cannot tell the session format from its first line (matching: {names}); pass --format")
    return matches[0]
