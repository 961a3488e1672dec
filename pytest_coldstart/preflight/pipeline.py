"""One preflight run, end to end: select, run, write the report, mark the run's trajectory."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_coldstart.preflight import registry, report
from pytest_coldstart.preflight.checks.base import Check
from pytest_coldstart.preflight.config import HarnessConfig
from pytest_coldstart.preflight.context import Context
from pytest_coldstart.preflight.probes import PROBES
from pytest_coldstart.preflight.runner import run_selection, select
from pytest_coldstart.run.clock import Clock, format_at
from pytest_coldstart.run.errors import ColdstartError, UsageError

if TYPE_CHECKING:
    from pytest_coldstart.record.recorder import Recorder

#: What a preflight writes into its output directory (and what --force replaces).
OUTPUTS = (PROBES, "scratch", "build", "pip", report.REPORT_JSON, report.REPORT_MD)


@dataclass
class PreflightOutcome:
    document: dict[str, Any]
    report_path: Path
    report_sha256: str
    mark: dict[str, Any] | None = None

    @property
    def overall(self) -> str:
        return str(self.document["overall"])


def prepare_out(out: Path, *, force: bool = False) -> None:
    """An empty (or new) output directory; ``force`` replaces only a previous preflight's files."""
    if out.exists() and not out.is_dir():
        raise UsageError("--out exists and is not a directory", out)
    if out.is_dir() and any(out.iterdir()):
        if not force:
            raise UsageError(
                "--out is not empty; choose a new directory or pass --force to replace a previous preflight", out
            )
        for name in OUTPUTS:
            target = out / name
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)
            elif target.exists() or target.is_symlink():
                target.unlink()
    out.mkdir(parents=True, exist_ok=True)


def open_run(run_dir: str | Path) -> Recorder:
    """The recorder of the run to mark, checked before any probe runs."""
    from pytest_coldstart.record.recorder import Recorder

    try:
        recorder = Recorder(run_dir)
    except ColdstartError as exc:
        raise UsageError(f"--run-dir: {exc.problem}", exc.path) from None
    if recorder.manifest.get("status") == "sealed":
        raise UsageError("--run-dir: the run is sealed; a preflight mark can no longer be appended", run_dir)
    return recorder


def run_preflight(
    config: HarnessConfig,
    out: str | Path,
    *,
    checks: Iterable[str] | None = None,
    skip: Iterable[str] | None = None,
    run_dir: str | Path | None = None,
    force: bool = False,
    cwd: Path | None = None,
    environ: Mapping[str, str] | None = None,
    available: list[Check] | None = None,
    clock: Clock | None = None,
) -> PreflightOutcome:
    clock = clock or Clock()
    out = Path(out)
    recorder = open_run(run_dir) if run_dir is not None else None
    selection = select(registry.all_checks() if available is None else available, checks, skip)
    prepare_out(out, force=force)
    cwd = cwd or Path.cwd()
    context = Context.create(config, out, cwd=cwd, environ=environ)
    started_at, started = format_at(clock.now()), time.monotonic()
    entries = run_selection(selection, context, clock)
    document = report.build(
        config,
        entries,
        started_at=started_at,
        ended_at=format_at(clock.now()),
        duration_ms=(time.monotonic() - started) * 1000,
        cwd=cwd,
        selected=selection.ids,
        skipped=sorted(selection.skip),
        run_dir=str(run_dir) if run_dir is not None else None,
    )
    path, digest = report.write(out, document)
    mark = None
    if recorder is not None:
        mark = report.mark_data(document, path, digest, Path(str(run_dir)))
        recorder.mark(report.MARK_NAME, mark)
    return PreflightOutcome(document, path, digest, mark)
