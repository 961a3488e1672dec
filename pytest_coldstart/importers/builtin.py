"""The built-in importers, registered through the same hook a third-party plugin uses."""

from __future__ import annotations

from pytest_coldstart.ext.hookspecs import hookimpl
from pytest_coldstart.importers.base import Importer
from pytest_coldstart.importers.claude_code import ClaudeCodeImporter
from pytest_coldstart.importers.codex import CodexImporter
from pytest_coldstart.importers.pi import PiImporter


@hookimpl
def coldstart_register_importers() -> list[Importer]:
    return [PiImporter(), ClaudeCodeImporter(), CodexImporter()]
