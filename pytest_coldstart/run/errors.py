"""Error types shared by the core. Every user-facing error names a file and a problem."""

from __future__ import annotations

from pathlib import Path


class ColdstartError(Exception):
    """A problem with user input: printed as one line ``<file>: <problem>``, never a traceback."""

    def __init__(self, problem: str, path: str | Path | None = None, line: int | None = None):
        self.problem = problem
        self.path = str(path) if path is not None else None
        self.line = line
        super().__init__(self.one_line())

    def one_line(self) -> str:
        where = self.path or ""
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.problem}" if where else self.problem


class UsageError(ColdstartError):
    """The caller asked for something malformed (exit 64)."""


class VersionError(ColdstartError):
    """A document carries a schema version this build does not know: fail closed."""


class ContainmentError(ColdstartError):
    """A path would leave the run directory (absolute, ``..``, or through a symlink)."""


class TornLineError(ColdstartError):
    """A JSONL file ends with a partial line (a writer crashed mid-append)."""
