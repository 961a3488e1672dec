"""``preflight.json`` (schemaVersion 2) and ``preflight.md``, plus the run's trajectory mark.

The version-1 fields the audit's preflight cross-check reads are kept with their meaning:
``overall``, ``harness{name,model,provider}``, ``environment.repo`` (git HEAD of the working
directory, the same value ``trace init`` records as ``repo.commit``) and ``checks[]`` with
``id``, ``status``, ``detail``, ``evidence[]`` and ``versions{}``.
"""

from __future__ import annotations

import html
import os
import sys
from pathlib import Path
from typing import Any

from pytest_coldstart.preflight.config import HarnessConfig
from pytest_coldstart.preflight.runner import overall
from pytest_coldstart.record.redaction import Redactor
from pytest_coldstart.run import environment, jsonio
from pytest_coldstart.run.hashing import sha256_file
from pytest_coldstart.run.versioning import CURRENT

REPORT_JSON = "preflight.json"
REPORT_MD = "preflight.md"
MARK_NAME = "harness_preflight"


def build(
    config: HarnessConfig,
    entries: list[dict[str, Any]],
    *,
    started_at: str,
    ended_at: str,
    duration_ms: float,
    cwd: Path,
    selected: list[str],
    skipped: list[str],
    run_dir: str | None = None,
) -> dict[str, Any]:
    repo = environment.repo(cwd)
    identity = next((e for e in entries if e["id"] == "harness_identity"), None)
    counts = {status: sum(1 for e in entries if e["status"] == status) for status in ("PASS", "FAIL", "SKIP")}
    redactor = Redactor()
    return {
        "schemaVersion": CURRENT,
        "tool": environment.tool(),
        "harness": {
            "name": config.get("name", ""),
            "model": config.get("model", ""),
            "provider": config.get("provider", ""),
            "command": config.get("command", ""),
            "version_output": (identity or {}).get("versions", {}).get("version_output"),
        },
        "config": config.describe(),
        "started_at": started_at,
        "ended_at": ended_at,
        "duration_ms": round(duration_ms, 1),
        "overall": overall(e["status"] for e in entries),
        "counts": counts,
        "selection": {"checks": selected, "skipped": skipped},
        "checks": [redactor.apply(e) for e in entries],
        "environment": {
            **environment.machine(),
            "executable": sys.executable,
            "cwd": str(cwd),
            "repo": repo["commit"],
            "repo_branch": repo["branch"],
            "repo_dirty_entries": repo["dirty_entries"],
            "run_dir": run_dir,
        },
    }


def write(out: Path, document: dict[str, Any]) -> tuple[Path, str]:
    """Write both files atomically; return the JSON path and its sha256."""
    path = out / REPORT_JSON
    jsonio.write_json_atomic(path, document)
    jsonio.write_bytes_atomic(out / REPORT_MD, render_markdown(document).encode("utf-8"))
    digest, _ = sha256_file(path)
    return path, digest


def mark_data(document: dict[str, Any], report_path: Path, digest: str, run_dir: Path) -> dict[str, Any]:
    """The ``harness_preflight`` mark: report path relative to the run when it lies inside it."""
    real_run, real_report = os.path.realpath(run_dir), os.path.realpath(report_path)
    inside = real_report.startswith(real_run + os.sep)
    shown = Path(os.path.relpath(real_report, real_run)).as_posix() if inside else real_report
    return {
        "overall": document["overall"],
        "report": shown,
        "report_sha256": digest,
        "checks": {e["id"]: e["status"] for e in document["checks"]},
    }


def _cell(value: Any) -> str:
    text = " ".join(str(value).split())
    return html.escape(text, quote=False).replace("|", "\\|").replace("`", "\\`")


def render_markdown(document: dict[str, Any]) -> str:
    harness = document["harness"]
    lines = [
        f"# Harness preflight - {_cell(harness['name'] or '(unnamed)')}",
        "",
        f"- schemaVersion: {document['schemaVersion']}",
        f"- started: {document['started_at']}, ended: {document['ended_at']} ({document['duration_ms']:.0f} ms)",
        f"- **overall: {document['overall']}** ({', '.join(f'{k} {v}' for k, v in document['counts'].items())})",
        f"- harness: {_cell(harness['name'])}, model {_cell(harness['model'])}, provider {_cell(harness['provider'])}",
        f"- config: {_cell(document['config']['path'] or '(in memory)')} sha256 {_cell(document['config']['sha256'] or '-')}"
        f" (read as version {document['config']['source_version']})",
    ]
    for override in document["config"]["overrides"]:
        lines.append(
            f"  - override `{_cell(override['key'])}` = {_cell(jsonio.dumps_line(override['value']).decode())}"
        )
    lines += ["", "## Checks", "", "| check | status | detail | probes |", "| --- | --- | --- | --- |"]
    for check in document["checks"]:
        files = [e.get("transcript") or e.get("path") for e in check["evidence"] if isinstance(e, dict)]
        probes = "<br>".join(_cell(f) for f in files if isinstance(f, str)) or "-"
        lines.append(f"| {_cell(check['id'])} | {check['status']} | {_cell(check['detail'])} | {probes} |")
    env = document["environment"]
    lines += ["", "## Environment", ""]
    for key in ("platform", "python", "executable", "cwd", "repo", "repo_branch", "run_dir"):
        lines.append(f"- {key}: {_cell(env.get(key) if env.get(key) not in (None, '') else '-')}")
    return "\n".join(lines) + "\n"
