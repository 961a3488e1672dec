"""``coldstart demo --out DIR``: deterministic sample bundles, byte-identical on every regeneration.

DIR receives one run per audit scenario (``pytest_coldstart.demo.scenarios``) and the research-grade
bundles of ``demo_research`` (the valid cold-start story told with every record family, payload
store, redaction and decisions; one audits PASS, the preview-only one PENDING), each audited (``audit/``) and summarized (``summary.json``), plus ``demo.json``, an index. Every
clock is a ``FixedClock`` and every machine, repository and tool fact is fixed, so nothing of
the generating machine leaks into the bytes. The private ``.coldstart/`` state is removed.

Regenerating into a DIR that a previous demo wrote replaces exactly the runs its index lists;
any other non-empty DIR is refused (nothing is ever deleted that the demo did not write).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from pytest_coldstart._version import __version__
from pytest_coldstart.analysis import summary
from pytest_coldstart.audit.engine import audit_run
from pytest_coldstart.demo import research
from pytest_coldstart.demo.facts import clock_for
from pytest_coldstart.demo.scenarios import SCENARIOS, build_run
from pytest_coldstart.run import jsonio, layout
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.versioning import CURRENT, is_version

INDEX = "demo.json"


def _audit(run_dir: Path) -> str:
    """Write audit/ for one run; its verdict."""
    report = audit_run(run_dir, out=run_dir / layout.AUDIT_DIR)
    return str(report["overall"])


def _plan() -> list[tuple[str, str, Any]]:
    """(name, kind, builder(run_dir, clock)) of every demo run, in a fixed order."""
    plan: list[tuple[str, str, Any]] = []
    for name in sorted(SCENARIOS):
        plan.append((name, "scenario", lambda run_dir, clock, name=name: build_run(run_dir, name, clock=clock)))
    for name, options in research.BUNDLES.items():
        # Their own clock: the story's times are fixed, so the rest follows them, not clock_for().
        plan.append((name, "research", lambda run_dir, clock, options=options: research.build(run_dir, **options)))
    return plan


def _previous_names(out: Path) -> list[str]:
    """Names a previous demo wrote into ``out``; refuses any other non-empty directory."""
    if not out.exists():
        return []
    if not out.is_dir():
        raise ColdstartError("demo output exists and is not a directory", out)
    entries = [p.name for p in out.iterdir()]
    if not entries:
        return []
    index = out / INDEX
    if not index.is_file():
        raise ColdstartError(f"is not empty and holds no {INDEX} from a previous demo; refusing to overwrite it", out)
    document = jsonio.read_json_object(index, what=INDEX)
    if not is_version(document.get("schemaVersion"), CURRENT) or not isinstance(document.get("runs"), list):
        raise ColdstartError(f"{INDEX} is not a version-{CURRENT} demo index; refusing to overwrite", out)
    names = [r.get("name") for r in document["runs"] if isinstance(r, dict)]
    valid = [n for n in names if isinstance(n, str) and n and "/" not in n and n not in (".", "..")]
    if len(valid) != len(names):
        raise ColdstartError(f"{INDEX} lists an invalid run name; refusing to overwrite", out)
    return valid


def generate(out: str | Path) -> dict[str, Any]:
    """Write every demo run into ``out``; returns the index document."""
    out = Path(out)
    previous = _previous_names(out)
    out.mkdir(parents=True, exist_ok=True)
    entries: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(dir=out, prefix=".demo-build-") as tmp:
        build = Path(tmp)
        for index, (name, kind, builder) in enumerate(_plan()):
            run_dir = build / name
            builder(run_dir, clock_for(index))
            overall = _audit(run_dir)
            try:
                document = summary.write(run_dir)
            except ColdstartError as exc:  # e.g. the unknown-version scenario: no summary, by design
                document = None
                problem = exc.one_line()
            shutil.rmtree(run_dir / layout.STATE_DIR, ignore_errors=True)
            entry: dict[str, Any] = {"name": name, "kind": kind, "overall": overall}
            if document is not None:
                entry.update(
                    run_id=document["run_id"],
                    calls=document["calls"]["total"],
                    records=document["records"]["total"],
                    summary=layout.SUMMARY_JSON,
                )
            else:
                entry.update(
                    run_id=None, calls=None, records=None, summary=None, missing_reason=f"no summary: {problem}"
                )
            entries.append(entry)
        trash = build / ".previous"
        trash.mkdir()
        for name in sorted(set(previous) | {e["name"] for e in entries}):
            if (out / name).exists() or (out / name).is_symlink():
                os.replace(out / name, trash / name)
        for entry in entries:
            os.replace(build / entry["name"], out / entry["name"])
    index_doc = {
        "schemaVersion": CURRENT,
        "generator": {"name": "pytest-coldstart demo", "version": __version__},
        "note": "deterministic sample runs: regenerate with `coldstart demo --out DIR`; every byte is the same on each regeneration",
        "runs": entries,
    }
    jsonio.write_json_atomic(out / INDEX, index_doc)
    return index_doc
