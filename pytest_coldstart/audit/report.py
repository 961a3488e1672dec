"""The audit report: audit.json (schemaVersion 2, DESIGN §2 keys plus ``refs``, ``timeline``
and ``unknown_orderings``) and a readable audit.md. Deterministic: no wall-clock values."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytest_coldstart._version import __version__
from pytest_coldstart.audit.audit_report import (
    SCHEMA_VERSION,
    AuditReport,
    FlagReport,
    RefTarget,
    RequiredReview,
    ReviewRequest,
    TimelineEntry,
    TimelineStream,
    Tool,
)
from pytest_coldstart.audit.evidence.reader import line_at
from pytest_coldstart.audit.model import TESTMOD, Call, Event, Findings, FlagResult
from pytest_coldstart.audit.refs import RefIndex
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.clock import format_at
from pytest_coldstart.run.errors import UsageError
from pytest_coldstart.run.layout import TRAJECTORY
from pytest_coldstart.run.textsafe import one_line
from pytest_coldstart.run.vocabulary import FailureClass, FlagName, ReviewId, ReviewState, ReviewStatus, Status

CUT = 300
TIMELINE_CAP = 400
IMPORTANT_EVENTS = (
    "input_processed",
    "cart_ejected",
    "cart_removed",
    "logger_armed",
    "cart_observed",
    "instance_ready",
)


def cut(value: Any, depth: int = 0) -> Any:
    """A copy safe to embed: long strings, lists and objects are shortened."""
    if isinstance(value, str):
        return value if len(value) <= CUT else value[:CUT] + f"... [{len(value) - CUT} more characters]"
    if depth > 8:
        return "..."
    if isinstance(value, list):
        kept = [cut(v, depth + 1) for v in value[:50]]
        return kept + ([f"... [{len(value) - 50} more items]"] if len(value) > 50 else [])
    if isinstance(value, dict):
        items = list(value.items())
        out = {str(k): cut(v, depth + 1) for k, v in items[:100]}
        if len(items) > 100:
            out["..."] = f"{len(items) - 100} more keys"
        return out
    return value


def build_report(
    *,
    run_id: str | None,
    overall: Status,
    failure_class: FailureClass | None,
    flags: list[FlagResult],
    findings: Findings,
    inputs: dict[str, str | None],
    root: Path | None,
    index: RefIndex | None,
    stream_files: dict[str, str],
    documents: dict[str, Any],
    calls: list[Call],
    events: list[Event],
    unordered: list[list[str]],
    records: dict[int, dict[str, Any]] | None = None,
) -> AuditReport:
    """``records``: trajectory call records already read (by offset), quoted without reading again."""
    flag_reports = [_flag_report(flag) for flag in flags]
    cited: list[str] = []
    for flag in flag_reports:
        cited += flag.evidence
        for resolution in flag.review_resolutions:
            cited += list(resolution.evidence or ())
    cited += [ref for pair in unordered for ref in pair]
    cited = list(dict.fromkeys(cited))
    refs = {ref: describe(ref, root, index, stream_files, documents, records or {}) for ref in cited}
    return AuditReport(
        run_id=run_id,
        overall=overall,
        failure_class=failure_class,
        flags=tuple(flag_reports),
        required_reviews=tuple(
            RequiredReview(
                id=item.id,
                flag=flag.flag,
                question=item.question,
                status=review_state(flag, item.id),
                malformed=tuple(findings.about_review("infra", item.id)),
                problems=tuple(findings.about_review("review", item.id)),
            )
            for flag in flag_reports
            for item in flag.required_review
        ),
        infra_errors=tuple(findings.infra_errors),
        fixture_errors=tuple(findings.fixture_errors),
        pending_reasons=tuple(findings.pending_reasons),
        review_problems=tuple(findings.review_problems),
        information=tuple(findings.information),
        inputs=inputs,
        tool=Tool("pytest-coldstart", __version__),
        refs=refs,
        timeline=tuple(timeline(calls, events, set(cited))),
        unknown_orderings=tuple((a, b) for a, b in unordered),
    )


def _flag_report(flag: FlagResult) -> FlagReport:
    return FlagReport(
        flag=FlagName(flag.flag),
        status=Status(flag.status),
        summary=flag.summary,
        evidence=tuple(dict.fromkeys(flag.evidence)),
        missing=tuple(dict.fromkeys(flag.missing)),
        required_review=tuple(ReviewRequest(ReviewId(item["id"]), item["question"]) for item in flag.required_review),
        review_resolutions=tuple(flag.review_resolutions),
        mechanical_status=None if flag.mechanical_status is None else Status(flag.mechanical_status),
    )


def review_state(flag: FlagReport, review_id: ReviewId) -> ReviewState:
    """Where a required review stands: the first resolution applied for it decides."""
    for resolution in flag.review_resolutions:
        if resolution.id == review_id:
            if resolution.status is ReviewStatus.RESOLVED and not resolution.refs_resolved:
                return ReviewState.UNRESOLVED_REFS
            return ReviewState(resolution.status.value)
    return ReviewState.UNRESOLVED


def describe(
    ref: str,
    root: Path | None,
    index: RefIndex | None,
    stream_files: dict[str, str],
    documents: dict[str, Any],
    records: dict[int, dict[str, Any]],
) -> RefTarget:
    prefix, _, suffix = ref.partition(":")
    if prefix == "oracle" and suffix and index is not None and index.locate(suffix):
        return describe(suffix, root, index, stream_files, documents, records)
    located = index.locate(ref) if index is not None else None
    if located is not None and root is not None:
        stream, line, offset = located
        file = TRAJECTORY if stream == "trajectory" else stream_files.get(stream)
        record = records.get(offset) if stream == "trajectory" else None
        if record is None and file:
            record = line_at(root / file, offset)
        return RefTarget(stream, file, line, cut(record))
    name = prefix if prefix in documents else None
    if name is not None:
        return RefTarget(name, stream_files.get(name), None, cut(documents[name]))
    return RefTarget(prefix or None, None, None, None)


def timeline(calls: list[Call], events: list[Event], cited: set[str]) -> list[TimelineEntry]:
    """At most TIMELINE_CAP entries: cited refs first, then the protocol's key events, then
    logger-related calls, then the rest (evenly thinned), in time order."""
    tiers: list[list[Call | Event]] = [[], [], [], []]
    for call in calls:  # labels only for the entries kept: a run may hold a million calls
        tiers[0 if call.ref in cited else 2 if (call.arm or call.names_logger or call.content) else 3].append(call)
    for event in events:
        tiers[0 if event.ref in cited else 1 if event.name in IMPORTANT_EVENTS else 3].append(event)
    kept: list[TimelineEntry] = []
    for group in tiers:
        room = TIMELINE_CAP - len(kept)
        if room <= 0:
            break
        if len(group) > room:
            step = len(group) / room
            group = [group[int(i * step)] for i in range(room)]
        kept += [_entry(item) for item in group]
    kept.sort(
        key=lambda e: (
            e.at is None,
            e.at or "",
            e.tick is None,
            e.tick or 0,
            e.stream,
            e.seq or 0,
            e.ref,
        )
    )
    return kept


def _entry(record: Call | Event) -> TimelineEntry:
    stream: TimelineStream
    if isinstance(record, Call):
        stream, label = "agent", f"{record.tool} {record.call_id}"
    else:
        uuid = record.get("uuid")
        stream = "testmod" if record.stream == TESTMOD else "logger"
        label = record.name + (f" {uuid}" if isinstance(uuid, str) else "")
    return TimelineEntry(
        stream=stream,
        ref=record.ref,
        label=label[:120],
        at=format_at(record.at) if record.at is not None else None,
        tick=record.tick,
        seq=record.seq,
    )


# -- audit.md -----------------------------------------------------------------------------


def _md(text: Any) -> str:
    """Markdown-safe: control and bidi characters escaped (``textsafe``), then markup neutralised."""
    value = one_line(str(text), None).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return value.replace("|", "\\|").replace("`", "'").replace("\r", " ").replace("\n", " ")


def render_markdown(report: AuditReport) -> str:
    lines = [f"# Cold-start audit - {_md(report.run_id)}", ""]
    klass = f" ({report.failure_class})" if report.failure_class else ""
    lines += [f"- schemaVersion: {SCHEMA_VERSION}", f"- **overall: {report.overall}{klass}**", ""]
    lines += ["## Flags", "", "| flag | status | summary | evidence |", "| --- | --- | --- | --- |"]
    for flag in report.flags:
        evidence = "<br>".join(f"`{_md(ref)}`" for ref in flag.evidence) or "-"
        lines.append(f"| {flag.flag} | {flag.status} | {_md(flag.summary)} | {evidence} |")
    lines += ["", "## Required reviews (each must be resolved before PASS)", ""]
    if not report.required_reviews:
        lines.append("- none")
    for item in report.required_reviews:
        lines.append(f"- `{item.id}` ({item.status}): {_md(item.question)}")
        for flag in report.flags:
            for res in flag.review_resolutions:
                if res.id == item.id:
                    lines.append(f"  - {res.status} by {_md(res.by)} at {_md(res.at)}: {_md(res.note or '')}")
    for title, texts in (
        ("Infrastructure errors", report.infra_errors),
        ("Fixture errors", report.fixture_errors),
        ("Pending reasons", report.pending_reasons),
        ("Review problems", report.review_problems),
        ("Information", report.information),
    ):
        lines += ["", f"## {title}", ""]
        lines += [f"- {_md(text)}" for text in texts] or ["- none"]
    if report.unknown_orderings:
        lines += ["", "## Orderings the audit could not decide", ""]
        lines += [f"- `{_md(a)}` vs `{_md(b)}`" for a, b in report.unknown_orderings]
    lines += ["", "## Inputs", ""]
    lines += [f"- {name}: {_md(value) if value else '(none)'}" for name, value in report.inputs.items()]
    return "\n".join(lines) + "\n"


def write_report(report: AuditReport | dict[str, Any], out: Path) -> None:
    """audit.json and audit.md into ``out`` (a report dict is read as an ``AuditReport``)."""
    typed = report if isinstance(report, AuditReport) else AuditReport.from_json(report)
    if out.is_symlink():  # a run's own ``ln -s /elsewhere audit``: every writer refuses it here
        raise UsageError(f"{out} is a symlink; refusing to write the report through it")
    out.mkdir(parents=True, exist_ok=True)
    if out.is_symlink():  # made a link between the look and the mkdir
        raise UsageError(f"{out} is a symlink; refusing to write the report through it")
    jsonio.write_json_atomic(out / "audit.json", typed.to_json())
    jsonio.write_bytes_atomic(out / "audit.md", render_markdown(typed).encode("utf-8"))
