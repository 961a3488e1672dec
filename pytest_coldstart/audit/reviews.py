"""Ruling R3: explicit review resolutions (reviews.jsonl).

A line must be well-formed: ``resolved`` and ``rejected`` entries carry a non-blank ``by``
and a parseable ``at``; ``resolved`` also a non-empty list of non-blank refs. A malformed
line is an INFRA_ERROR and is ignored. The latest well-formed entry per id wins. A resolved
entry counts only when every ref resolves against the run (else the flag stays PENDING and
``review_problems`` says why); it restores the flag's mechanical outcome and never turns a
mechanical FAIL into PASS. ``rejected`` fails the flag, also when this audit did not
require that id (a reviewer's judgement that the evidence is insufficient is never ignored).
A review cites at least one run record (``trajectory:``, ``testmod:``/``logger:seqN``,
``fixture:``/``restore:``/``preflight:``), never the agent's answer, and cannot be dated before
the run.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from pytest_coldstart.audit import integrity
from pytest_coldstart.audit.audit_report import ReviewResolution
from pytest_coldstart.audit.evidence.load import Evidence, check_hash
from pytest_coldstart.audit.evidence.reader import HashedLines
from pytest_coldstart.audit.model import Findings, FlagResult
from pytest_coldstart.audit.refs import RefIndex, Resolution
from pytest_coldstart.audit.review_support import unmet
from pytest_coldstart.run.clock import ZONE_EARLIER, format_at, parse_at, zoneless
from pytest_coldstart.run.reviewers import is_the_agent, unnamed
from pytest_coldstart.run.textsafe import blank
from pytest_coldstart.run.vocabulary import REVIEW_IDS, REVIEW_STATUSES, ReviewId, ReviewStatus, Status


def load_reviews(evidence: Evidence, run_id: str, findings: Findings) -> dict[str, dict[str, Any]]:
    """Latest well-formed entry per review id, each with its file ``line``."""
    path: Path | None = evidence.review_file
    if path is None:
        return {}
    label = path.name if evidence.review_declaration is None else f"evidence review ({path.name})"
    relative = path.relative_to(evidence.root).as_posix() if evidence.root is not None else path.name
    latest: dict[str, dict[str, Any]] = {}
    history: dict[str, list[str]] = {}
    lines = HashedLines(path)
    try:
        for line in lines:
            where = f"{label}:{line.number}"
            if line.problem:
                findings.infra(f"{where}: {line.problem}", integrity.line(relative, line.number, "unparsed"))
                continue
            problem = entry_problem(line.value, run_id)
            if problem:
                named = line.value.get("id")
                findings.infra(
                    f"{where}: {problem[1]}",
                    integrity.line(relative, line.number, problem[0]),
                    review=named if isinstance(named, str) and problem[0] != "version" else None,
                )
                continue
            entry = dict(line.value, line=line.number)
            latest[entry["id"]] = entry
            history.setdefault(entry["id"], []).append(entry["status"])
    except OSError as exc:
        findings.infra(f"{label}: unreadable ({exc.strerror or exc})")
        return {}
    if evidence.review_declaration is not None:
        if not check_hash(
            findings, evidence.version, "review", evidence.review_declaration, lines.sha256 or "", lines.size
        ):
            return {}
    for review_id, statuses in history.items():
        if ReviewStatus.REJECTED in statuses[:-1] and statuses[-1] != ReviewStatus.REJECTED:
            findings.info(
                f"review {review_id}: an earlier rejection was superseded by a later {statuses[-1]} entry (latest entry wins)"
            )
    return latest


def named_calls(latest: dict[str, dict[str, Any]]) -> set[str]:
    """Call ids the review entries cite (``trajectory:<call_id>``), as the report looks them up."""
    out = set()
    for entry in latest.values():
        for ref in entry.get("evidence") or []:
            prefix, _, suffix = str(ref).partition(":")
            if prefix.lower() == "trajectory":
                out.add(suffix)
    return out


def entry_problem(entry: dict[str, Any], run_id: str) -> tuple[str, str] | None:
    """(kind, problem) of a review line that cannot be used: kind "version", "run" or "shape"."""
    version = entry.get("schemaVersion")
    if version is not None and (type(version) is not int or version not in (1, 2)):  # no bool, no 2.0
        return "version", f"schemaVersion {version!r} is not a version this build reads"
    review_id = entry.get("id")
    if not isinstance(review_id, str) or blank(review_id):
        return "shape", "review entry without an id"
    status = entry.get("status")
    if status not in REVIEW_STATUSES:
        return "shape", f"review {review_id}: status {status!r} is not one of {', '.join(REVIEW_STATUSES)}"
    if "run_id" in entry and entry["run_id"] != run_id:
        return "run", f"review {review_id}: belongs to run {entry['run_id']!r}, not {run_id!r}"
    if status in (ReviewStatus.RESOLVED, ReviewStatus.REJECTED):
        by = entry.get("by")
        if not isinstance(by, str) or unnamed(by):
            named = "" if not isinstance(by, str) or blank(by) else f": {by[:40]!r} names no one"
            return "shape", f"review {review_id}: a {status} entry needs a non-blank reviewer (by){named}"
        if parse_at(entry.get("at")) is None or not isinstance(entry.get("at"), str):
            return "shape", f"review {review_id}: at {str(entry.get('at'))[:40]!r} is not a timestamp"
    evidence = entry.get("evidence", [])
    if not isinstance(evidence, list):
        return "shape", f"review {review_id}: evidence must be a list of refs"
    if status == ReviewStatus.RESOLVED:
        if not evidence:
            return "shape", f"review {review_id}: a resolved entry needs at least one evidence ref"
        if any(not isinstance(ref, str) or blank(ref) for ref in evidence):
            return "shape", f"review {review_id}: evidence refs must be non-blank strings"
    if "note" in entry and entry["note"] is not None and not isinstance(entry["note"], str):
        return "shape", f"review {review_id}: note must be a string"
    return None


def resolution_of(entry: dict[str, Any], *, refs_resolved: bool) -> ReviewResolution:
    """A well-formed resolved/rejected entry as the report records it."""
    evidence = entry.get("evidence")
    return ReviewResolution(
        id=entry["id"],
        status=ReviewStatus(entry["status"]),
        by=entry.get("by"),
        at=entry.get("at"),
        note=entry.get("note"),
        evidence=None if evidence is None else tuple(ref for ref in evidence if isinstance(ref, str)),
        line=entry["line"],
        refs_resolved=refs_resolved,
    )


#: the sources a review's refs may name (seed §5): run records, not the answer or the oracle
#: reviews of what the agent itself did: the calls they cite are the agent's
AGENT_ACTIONS = frozenset([ReviewId.MACHINE_OPERATED_CAUSALITY, ReviewId.LOGGER_ARMED_RUNNING])
_REVIEW_SOURCES = frozenset(["trajectory", "testmod", "logger", "fixture", "restore", "preflight"])


def _cites_run_record(ref: str, source: str | None, index: RefIndex) -> bool:
    """A run record, directly or as one of the oracle's refs (``oracle:testmod:seq7``)."""
    if source == "oracle" and ":" in ref:
        return _cites_run_record(ref.split(":", 1)[1], index.resolve(ref.split(":", 1)[1]).source, index)
    return source in _REVIEW_SOURCES


def too_early(
    entry: dict[str, Any], index: RefIndex, times: dict[tuple[str, int], datetime], opened: datetime | None = None
) -> str | None:
    """A resolved entry dated before the run began, or before a record it cites was made,
    cannot rest on that record (the reviewer confirmed what did not yet exist: written ahead,
    or by the running agent)."""
    at = parse_at(entry.get("at"))
    if at is None:
        return None
    # a time with no zone may be 14 hours earlier than it reads: it must follow even then
    zone = " (no zone: as early as UTC+14 reads it)" if zoneless(entry.get("at")) else ""
    if zone:
        at -= timedelta(seconds=ZONE_EARLIER)
    for ref in entry.get("evidence") or []:
        where = index.locate(ref) if isinstance(ref, str) else None
        made = times.get(where[:2]) if where is not None else None
        if made is not None and at < made:  # parse_at and the streams give UTC-aware times
            return f"it is dated {entry.get('at')}{zone}, before {ref} was recorded ({format_at(made)}): a review cannot precede what it cites"
    if opened is not None and at < opened:
        return f"it is dated {entry.get('at')}{zone}, before the run began ({format_at(opened)}): a review cannot precede the run"
    return None


def not_the_agents(review_id: str, refs: list[Resolution], agent_calls: set[str]) -> list[str]:
    """Causality is "this traced call (the agent's) is what the test mod processed", and the
    logger was loaded by the agent: a call of the operator or the harness cited there credits
    someone else's action to the agent; causality must name at least one agent call."""
    if review_id not in AGENT_ACTIONS:
        return []
    cited = [r.ref for r in refs if r.source == "trajectory"]
    out = [
        f"{ref}: not an agent call (another actor's action is not the agent's)"
        for ref in cited
        if ref.split(":", 1)[1] not in agent_calls
    ]
    if review_id == ReviewId.MACHINE_OPERATED_CAUSALITY and not out and not cited:
        out.append("it cites no agent call: causality names the agent's traced call the test mod processed")
    return out


def record_times(streams: list[list[Any]]) -> dict[tuple[str, int], datetime]:
    """(stream, line) -> time of every timed record (test mod, logger, agent calls)."""
    return {(r.stream, r.line): r.at for records in streams for r in records if r.at is not None}


def record_events(streams: list[list[Any]]) -> dict[tuple[str, int], str]:
    """(stream, line) -> event name of every test-mod and logger record."""
    return {(r.stream, r.line): r.name for records in streams for r in records}


def _event_of(index: RefIndex, events: dict[tuple[str, int], str]) -> Any:
    """(source, event) of a resolved ref; an oracle ref is read as the record it names."""

    def event_of(ref: str) -> tuple[str, str | None]:
        prefix, _, rest = ref.partition(":")
        if prefix.lower() == "oracle" and rest:
            return event_of(rest)
        where = index.locate(ref)
        if where is not None:
            return where[0], events.get(where[:2])
        return index.resolve(ref).source or "", None

    return event_of


def apply_reviews(
    flags: list[FlagResult],
    latest: dict[str, dict[str, Any]],
    index: RefIndex,
    findings: Findings,
    times: dict[tuple[str, int], datetime] | None = None,
    opened: datetime | None = None,
    agent_calls: set[str] | None = None,
    events: dict[tuple[str, int], str] | None = None,
    agents: frozenset[str] = frozenset(),
) -> None:
    """``opened``: when the run began (no review can be dated before it); ``agent_calls``: the
    ids of the agent's calls (a review of what the agent did cites them, not another actor's);
    ``events``: the event name of each stream record (a review cites records that can show it);
    ``agents``: the run's own agent names (``reviewers.agent_names``: no reviewer of the run)."""
    event_of = _event_of(index, events or {})
    required = {item["id"] for flag in flags for item in flag.required_review}
    for review_id, entry in sorted(latest.items()):
        if review_id not in REVIEW_IDS:
            findings.review(f"review {review_id}: not a required-review id of this protocol revision (ignored)")
        elif review_id not in required and entry["status"] == ReviewStatus.RESOLVED:
            findings.info(f"review {review_id}: {entry['status']}, but this audit does not require it")
    for flag in flags:
        rejected, unresolved = [], []
        own = {item["id"] for item in flag.required_review}
        for review_id, entry in sorted(latest.items()):  # a rejection the audit did not ask for still counts
            if review_id in REVIEW_IDS and review_id not in own and review_id.split(".")[0] == flag.flag:
                if entry["status"] == ReviewStatus.REJECTED:
                    flag.review_resolutions.append(resolution_of(entry, refs_resolved=True))
                    rejected.append(review_id)
        for item in flag.required_review:
            found = latest.get(item["id"])
            if found is None or found["status"] == ReviewStatus.PENDING:
                unresolved.append(item["id"])
                continue
            entry = found
            refs = [index.resolve(ref) for ref in entry.get("evidence", [])]
            problems = [r.problem for r in refs if r.problem]
            problems += [
                f"{r.ref}: the agent's own answer is no evidence for a review" for r in refs if r.source == "answer"
            ]
            if refs and not problems and not any(_cites_run_record(r.ref, r.source, index) for r in refs):
                problems.append(
                    "it cites no run record (trajectory:, testmod:/logger:seqN, fixture:/restore:/preflight:)"
                )
            if agent_calls is not None and not problems:
                problems += not_the_agents(item["id"], refs, agent_calls)
            if events is not None and not problems:
                problems += unmet(item["id"], refs, event_of)
            if entry["status"] == ReviewStatus.RESOLVED and is_the_agent(entry["by"], agents):
                problems.append(
                    f"it is signed {entry['by'][:40]!r}, a name of the run's own agent (its actor, harness, model "
                    "or player): the agent's word about itself is no review"
                )
            early = too_early(entry, index, times or {}, opened) if entry["status"] == ReviewStatus.RESOLVED else None
            if early is not None:
                problems.append(early)
            flag.review_resolutions.append(resolution_of(entry, refs_resolved=not problems))
            if entry["status"] == ReviewStatus.REJECTED:
                rejected.append(item["id"])
            elif problems:
                unresolved.append(item["id"])
                findings.review(
                    f"review {item['id']} (line {entry['line']}): " + "; ".join(problems), review=item["id"]
                )
        if rejected:
            flag.status = Status.FAIL
            flag.summary = f"review(s) rejected: {', '.join(rejected)} (the reviewer judged the evidence insufficient)"
            flag.missing = list(dict.fromkeys(flag.missing + rejected))
        elif unresolved:
            flag.missing = list(dict.fromkeys(flag.missing + unresolved))
            if flag.status == Status.PASS:
                flag.status = Status.PENDING
                flag.summary = (
                    f"mechanically satisfied but awaiting explicit review: {', '.join(unresolved)} ({flag.summary})"
                )
            elif flag.status == Status.PENDING:
                flag.summary = f"{flag.summary}; also awaiting review: {', '.join(unresolved)}"
