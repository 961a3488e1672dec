"""What a check receives: the resolved config, the output directory and a probe recorder."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_coldstart.preflight.config import HarnessConfig
from pytest_coldstart.preflight.probes import CommandRun, Probes, which

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


class TemplateError(ValueError):
    """An argv template names a placeholder the check does not provide."""


def expand(template: list[str], values: Mapping[str, Any], what: str) -> list[str]:
    """Replace ``{name}`` placeholders in each argument (only known names; no format specs)."""

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            raise TemplateError(f"{what} uses unknown placeholder {{{name}}} (known: {', '.join(sorted(values))})")
        return str(values[name])

    return [_PLACEHOLDER.sub(one, part) for part in template]


@dataclass
class Context:
    """``probes`` runs commands in ``cwd`` with ``environ``: build both from the same values
    (``Context.create``)."""

    config: HarnessConfig
    out: Path
    probes: Probes
    cwd: Path
    environ: dict[str, str]

    @classmethod
    def create(
        cls, config: HarnessConfig, out: Path, *, cwd: Path | None = None, environ: Mapping[str, str] | None = None
    ) -> Context:
        out = Path(out).resolve()
        cwd = cwd or Path.cwd()
        env = dict(os.environ if environ is None else environ)
        return cls(config, out, Probes(out, cwd=cwd, environ=env), cwd, env)

    def command(self, check_id: str, step: str, argv: list[str], **options: Any) -> CommandRun:
        """Run and record a command (``timeout=``, optional ``env_extra=``, ``cwd=``)."""
        return self.probes.command(check_id, step, argv, **options)

    def which(self, name: str) -> str | None:
        return which(name, self.environ, self.cwd)

    def workdir(self, name: str) -> Path:
        """A scratch folder under the output directory."""
        path = self.out / name
        path.mkdir(parents=True, exist_ok=True)
        return path
