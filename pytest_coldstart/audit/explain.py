"""What ``coldstart audit explain`` shows of provenance: for every declared evidence file, the
places it is known by, every call of the trajectory that writes it (agent or operator, and
how) and the independence rule it breaks, if any. The same model the audit judges with."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pytest_coldstart.audit.evidence import provenance
from pytest_coldstart.audit.evidence.content import ContentMatcher
from pytest_coldstart.audit.evidence.identity import Workspace
from pytest_coldstart.audit.evidence.load import load_evidence
from pytest_coldstart.audit.evidence.scan import Scanner
from pytest_coldstart.audit.integrity import agent_file_hash
from pytest_coldstart.audit.model import Findings
from pytest_coldstart.run.layout import RunDir


@dataclass
class Explained:
    name: str
    places: list[str] = field(default_factory=list)
    writers: list[str] = field(default_factory=list)
    verdict: str = "no independence rule broken"


def explain_provenance(run_dir: str | Path) -> tuple[str, list[Explained]]:
    """(the workspace line, one entry per declared evidence file). Raises ColdstartError for
    an unusable run.json (the CLI reports it in one line)."""
    rundir = RunDir(run_dir)
    manifest = rundir.load_manifest_fields()
    findings = Findings()
    run_id = str(manifest["run_id"]) if isinstance(manifest.get("run_id"), str) else ""
    evidence = load_evidence(rundir, run_id, findings)
    workspace = Workspace(rundir.root, manifest)
    model = provenance.for_evidence(evidence.declarations, workspace)
    scanner = Scanner(
        rundir,
        findings,
        logger_names=evidence.logger_names,
        testmod_names=evidence.testmod_names,
        matcher=ContentMatcher([]),
        payload_settings=manifest.get("logging") if isinstance(manifest.get("logging"), dict) else None,
        provenance=model,
    )
    trajectory = scanner.scan()

    digests: dict[Path, tuple[str, int]] = {}

    def hash_file(relative: str) -> str | None:
        return agent_file_hash(rundir.root, relative, digests)

    armed = trajectory.lines == 0 or any(c.arm and c.status == "ok" for c in trajectory.calls)
    model.judge(evidence.hashes, hash_file, armed, evidence.logger_hashes)
    out: list[Explained] = []
    for name in sorted(model.keys):
        entry = Explained(name)
        for key in sorted(model.keys[name]):
            inside = workspace.inside(key)
            entry.places.append(f"run:{inside}" if inside is not None else f"host:{key}")
        for write in model.writers(name):
            who = "agent" if write.agent else "operator"
            source = f" from {write.source}" if write.source else ""
            entry.writers.append(f"trajectory:{write.call_id} ({who}, {write.how}{source})")
        violation = model.refusal(name)
        if violation is not None:
            entry.verdict = f"{violation.klass}: {violation.text}"
        elif name == "agent_logger":
            entry.verdict = (
                f"agent-written (armed by trajectory:{model.armed_by})" if model.armed_by else "agent-written"
            )
        out.append(entry)
    return workspace.describe(), out
