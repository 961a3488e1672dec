"""``audit_run``: correlate, compute the five flags, apply reviews, classify, report.

Bad run content never raises: it becomes INFRA_ERROR findings in the report. Order of work:
manifest -> evidence (hash-checked streams and documents) -> imports/artifacts -> validate,
whose one read of the trajectory the audit's scanner shares -> correlation -> flags ->
reviews -> validate's findings not already reported -> classification.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pytest_coldstart.audit import correlation, currency, fixture, integrity, preflight_contract, visibility
from pytest_coldstart.audit.audit_report import AuditReport
from pytest_coldstart.audit.classify import classify
from pytest_coldstart.audit.digest import audit_inputs_digest
from pytest_coldstart.audit.evidence import provenance
from pytest_coldstart.audit.evidence.content import ContentMatcher
from pytest_coldstart.audit.evidence.identity import Workspace
from pytest_coldstart.audit.evidence.load import Evidence, load_evidence
from pytest_coldstart.audit.evidence.scan import Scanner, Trajectory
from pytest_coldstart.audit.flags import REGISTRY, Context, compute_flags
from pytest_coldstart.audit.live import check_live
from pytest_coldstart.audit.model import LOGGER, TESTMOD, Findings, FlagResult
from pytest_coldstart.audit.ordering import earliest, latest
from pytest_coldstart.audit.refs import RefIndex
from pytest_coldstart.audit.report import build_report, write_report
from pytest_coldstart.audit.reviews import apply_reviews, load_reviews, named_calls, record_events, record_times
from pytest_coldstart.audit.subagents import check_subagents
from pytest_coldstart.run import schemas
from pytest_coldstart.run.clock import parse_at
from pytest_coldstart.run.errors import ColdstartError, UsageError
from pytest_coldstart.run.layout import AUDIT_DIR, TRAJECTORY, RunDir
from pytest_coldstart.run.reviewers import agent_names
from pytest_coldstart.run.vocabulary import EVIDENCE_NAMES


def audit_run(
    run_dir: str | Path,
    *,
    answer: str | Path | None = None,
    oracle: str | Path | None = None,
    write: bool = True,
    out: str | Path | None = None,
) -> dict[str, Any]:
    """Audit one run directory and return the report as the audit.json document (also
    written to ``out``/audit.json). ``audit_report`` gives the same report typed."""
    return audit_report(run_dir, answer=answer, oracle=oracle, write=write, out=out).to_json()


def audit_report(
    run_dir: str | Path,
    *,
    answer: str | Path | None = None,
    oracle: str | Path | None = None,
    write: bool = False,
    out: str | Path | None = None,
) -> AuditReport:
    """Audit one run directory: the typed report (written to ``out``/audit.json if ``write``)."""
    root = Path(run_dir)
    # A report written to the run's own audit/ records what it judged (audit/currency.py); an
    # explicit ``out`` (the demo's byte-identical runs, reports elsewhere) records nothing.
    reusable = write and out is None and answer is None and oracle is None and root.is_dir()
    digest = audit_inputs_digest(root) if reusable else None
    try:
        report = _audit(root, answer, oracle)
    except Exception as exc:
        findings = Findings()
        findings.infra(
            f"internal audit error (a bug in pytest-coldstart, please report it): {type(exc).__name__}: {exc}"
        )
        report = _empty_report(None, findings, "not audited: internal error")
    if write:
        target = output_dir(root, out)
        write_report(report, target)
        currency.record(target, report.to_json(), digest)
    return report


def output_dir(root: Path, out: str | Path | None) -> Path:
    """audit/ inside the run, or a directory outside it; never elsewhere inside the run."""
    default = root / AUDIT_DIR
    if out is None:
        target = default
    else:
        target = Path(out)
        real, run_real = os.path.realpath(target), os.path.realpath(root)
        inside = real == run_real or real.startswith(run_real + os.sep)
        audit_real = os.path.realpath(default)
        if inside and not (real == audit_real or real.startswith(audit_real + os.sep)):
            raise UsageError(
                f"--out {str(out)!r} is inside the run directory; only its audit/ folder may receive reports"
            )
    if target.is_symlink():
        raise UsageError(f"--out {str(target)!r} is a symlink; refusing to write through it")
    return target


def _empty_report(run_id: str | None, findings: Findings, summary: str) -> AuditReport:
    flags = [FlagResult(flag.name, summary=summary) for flag in REGISTRY]
    overall, klass = classify(flags, findings)
    return build_report(
        run_id=run_id,
        overall=overall,
        failure_class=klass,
        flags=flags,
        findings=findings,
        inputs={},
        root=None,
        index=None,
        stream_files={},
        documents={},
        calls=[],
        events=[],
        unordered=[],
    )


def _overrides(root: Path, answer: str | Path | None, oracle: str | Path | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in (("answer", answer), ("oracle", oracle)):
        if value is None:
            continue
        path = Path(value)
        if path.is_absolute():
            try:
                path = Path(os.path.relpath(path, root))
            except ValueError:
                pass
        out[name] = path.as_posix()
    return out


def _audit(root: Path, answer: str | Path | None, oracle: str | Path | None) -> AuditReport:
    findings = Findings()
    rundir = RunDir(root)
    if not root.is_dir():
        findings.infra(f"{root}: the run directory does not exist")
        return _empty_report(None, findings, "not audited: no run directory")
    try:
        written = rundir.load_manifest()
    except ColdstartError as exc:
        findings.infra(f"run.json: {exc.problem}")
        return _empty_report(None, findings, "not audited: run.json is unusable")
    # Readers see only schema-valid fields; the logging settings are checked (and named) by the
    # audit itself, type by type, so it reads them as written.
    manifest = schemas.valid_fields("run", written)
    run_id = manifest.get("run_id")
    if not isinstance(run_id, str) or not run_id:
        findings.infra("run.json: run_id must be a non-empty string")
        return _empty_report(None, findings, "not audited: run.json has no run id")
    run_id_check = correlation.RunIdCheck(run_id, findings)
    digests: dict[Path, tuple[str, int]] = {}  # every file hashed so far: validate reads none twice
    evidence = load_evidence(rundir, run_id, findings, _overrides(root, answer, oracle), run_id_check, digests)
    correlation.check_files(rundir, manifest, findings, digests)
    check_subagents(manifest, findings)
    captures = [e for e in evidence.stream(LOGGER) if e.name == "cart_observed"]
    logging = written.get("logging") if isinstance(written.get("logging"), dict) else None
    reviews = load_reviews(evidence, run_id, findings)
    model = provenance.for_evidence(evidence.declarations, Workspace(root, manifest))
    scanner = Scanner(
        rundir,
        findings,
        logger_names=evidence.logger_names,
        testmod_names=evidence.testmod_names,
        matcher=ContentMatcher(captures),
        payload_settings=logging,
        last_capture=latest(captures),
        activation=earliest(e for e in evidence.stream(TESTMOD) if e.name == "input_processed"),
        named=named_calls(reviews),
        provenance=model,
    )
    # The trajectory is read once: by validate, with the scanner fed each line it reads.
    # Never through a symlink (the scanner's own scan reports it instead).
    validation = integrity.validate(root, None if rundir.trajectory.is_symlink() else scanner, digests)
    trajectory = scanner.trajectory if scanner.finished else scanner.scan()
    check_live(trajectory.live_marks, findings)
    _independence(rundir, evidence, model, trajectory, findings, digests)
    correlation.check_scope(evidence, findings, trajectory.scopes)
    agent_start = min((c.at for c in trajectory.calls if c.agent and c.at is not None), default=None)
    preflight_contract.check_preflight(manifest, evidence.documents.get("preflight"), findings, agent_start)
    correlation.check_oracle_against_testmod(evidence, findings)
    fixture.check_fixture(evidence, findings)
    fixture.check_lifecycle(evidence, findings)
    visibility.check_clean_context(rundir, evidence, findings)
    index = RefIndex(
        call_lines=trajectory.call_lines,
        stream_seqs=evidence.seq_index,
        stream_lines=evidence.line_index,
        documents=evidence.documents,
        declared=set(evidence.declarations),
    )
    ctx = Context(
        evidence=evidence,
        calls=trajectory.calls,
        index=index,
        findings=findings,
        oracle_reads_elsewhere=trajectory.oracle_reads_elsewhere,
    )
    flags = compute_flags(ctx)
    times = record_times([*evidence.events.values(), trajectory.calls]) if reviews else {}
    opened = max((t for t in (parse_at(manifest.get("created_at")), agent_start) if t is not None), default=None)
    agent_calls = {call.call_id for call in trajectory.calls if call.agent} if reviews else set()
    events = record_events(list(evidence.events.values())) if reviews else {}
    players = [
        e.get("actor") for e in evidence.events.get(TESTMOD, []) if e.name in ("input_attempt", "input_processed")
    ]
    agents = agent_names(manifest, players)
    apply_reviews(flags, reviews, index, findings, times, opened, agent_calls, events, agents)
    integrity.fold(validation, findings)  # last: every problem the audit reported itself is known
    overall, klass = classify(flags, findings)
    return build_report(
        run_id=run_id,
        overall=overall,
        failure_class=klass,
        flags=flags,
        findings=findings,
        inputs=_inputs(evidence, trajectory),
        root=root,
        index=index,
        stream_files=_files(evidence),
        records=trajectory.records,
        documents=evidence.documents,
        calls=trajectory.calls,
        events=evidence.stream(TESTMOD) + evidence.stream(LOGGER),
        unordered=ctx.unordered,
    )


def _independence(
    rundir: RunDir,
    evidence: Evidence,
    model: provenance.Provenance,
    trajectory: Trajectory,
    findings: Findings,
    digests: dict[Path, tuple[str, int]],
) -> None:
    """The provenance rules: INFRA/FIXTURE classes become findings, AGENT_FAIL the flags'."""

    def hash_file(relative: str) -> str | None:
        return integrity.agent_file_hash(rundir.root, relative, digests)

    # Without a readable trajectory (already an infra error) nothing is known of the writers.
    armed = trajectory.lines == 0 or any(call.arm and call.status == "ok" for call in trajectory.calls)
    for violation in model.judge(evidence.hashes, hash_file, armed, evidence.logger_hashes):
        if violation.klass == "INFRA_ERROR":
            findings.infra(violation.text)
        elif violation.klass == "FIXTURE_INVALID":
            findings.fixture(violation.text)
    evidence.provenance = model


def _files(evidence: Evidence) -> dict[str, str]:
    files = dict(evidence.usable)
    if "test_mod" in files:
        files[TESTMOD] = files["test_mod"]
    if "agent_logger" in files:
        files[LOGGER] = files["agent_logger"]
    return files


def _inputs(evidence: Evidence, trajectory: Trajectory) -> dict[str, str | None]:
    inputs: dict[str, str | None] = {"run": "run.json", "trajectory": f"{TRAJECTORY} ({trajectory.lines} records)"}
    for name in EVIDENCE_NAMES:
        decl = evidence.declarations.get(name)
        path = decl.get("path") if isinstance(decl, dict) else None
        inputs[name] = path if isinstance(path, str) else None
    if inputs.get("review") is None and evidence.review_file is not None:
        inputs["review"] = evidence.review_file.name
    return inputs
