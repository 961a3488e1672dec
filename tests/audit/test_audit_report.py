"""The typed report: ``AuditReport.from_json``/``to_json`` round-trip every report the audit
writes (the shipped runs, every scenario in test_audit_scenarios, generated reports), match
audit.schema.json, and carry as structured fields what readers once found in prose."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from audit_helpers import builder
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_coldstart.audit.audit_report import (
    TIMELINE_STREAMS,
    AuditReport,
    FlagReport,
    RefTarget,
    ReportFormatError,
    RequiredReview,
    ReviewRequest,
    ReviewResolution,
    TimelineEntry,
    Tool,
)
from pytest_coldstart.audit.engine import audit_report, audit_run
from pytest_coldstart.run import schemas
from pytest_coldstart.run.vocabulary import FailureClass, FlagName, ReviewId, ReviewState, ReviewStatus, Status

RUNS = Path(__file__).resolve().parents[2] / "runs"
SHIPPED = sorted(RUNS.glob("*/audit/audit.json"))


def test_runs_are_shipped() -> None:
    assert len(SHIPPED) >= 16


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.parent.parent.name)
def test_every_shipped_report_round_trips_byte_for_byte(path: Path) -> None:
    document = json.loads(path.read_bytes())
    assert schemas.errors("audit", document) == []
    report = AuditReport.from_json(document)
    assert report.to_json() == document
    assert json.dumps(report.to_json()) == json.dumps(document)  # key order too
    assert AuditReport.from_json(report.to_json()) == report


def test_audit_report_is_audit_run_typed(tmp_path: Path) -> None:
    run = builder(tmp_path).passing().build()
    typed = audit_report(run)
    assert isinstance(typed, AuditReport) and typed.to_json() == audit_run(run, write=False)
    assert typed.overall is Status.PASS and typed.failure_class is None
    assert [flag.flag for flag in typed.flags] == list(FlagName)
    assert typed.flag_status("agent_read_log") is Status.PASS and typed.flag("no_such_flag") is None


def test_a_malformed_review_line_is_listed_under_the_review_it_names(tmp_path: Path) -> None:
    b = builder(tmp_path).unreviewed()
    b.raw_review({"id": "machine_operated.causality", "status": "resolved", "by": "x", "at": "2026-01-01T00:00:00Z"})
    report = audit_report(b.build())
    (review,) = [r for r in report.required_reviews if r.id is ReviewId.MACHINE_OPERATED_CAUSALITY]
    assert len(review.malformed) == 1 and "needs at least one evidence ref" in review.malformed[0]
    assert review.malformed[0] in report.infra_errors
    others = [r for r in report.required_reviews if r.id is not ReviewId.MACHINE_OPERATED_CAUSALITY]
    assert others and all(r.malformed == () for r in others)
    assert schemas.errors("audit", report.to_json()) == []


def test_unresolvable_review_refs_are_listed_under_the_review(tmp_path: Path) -> None:
    b = builder(tmp_path).unreviewed()
    b.review("machine_operated.causality", evidence=["trajectory:no-such-call"])
    report = audit_report(b.build())
    (review,) = [r for r in report.required_reviews if r.id is ReviewId.MACHINE_OPERATED_CAUSALITY]
    assert review.status is ReviewState.UNRESOLVED_REFS
    assert len(review.problems) == 1 and review.problems[0] in report.review_problems
    assert schemas.errors("audit", report.to_json()) == []


def test_from_json_names_the_first_bad_field() -> None:
    document = json.loads(SHIPPED[0].read_bytes())
    with pytest.raises(ReportFormatError, match=r"flags\[2\]\.status must be one of PASS, FAIL, PENDING"):
        broken = json.loads(json.dumps(document))
        broken["flags"][2]["status"] = "MAYBE"
        AuditReport.from_json(broken)
    with pytest.raises(ReportFormatError, match="schemaVersion 3"):
        AuditReport.from_json({**document, "schemaVersion": 3})
    with pytest.raises(ReportFormatError, match="must be an object"):
        AuditReport.from_json([document])


# -- generated reports: every typed value the schema allows survives the round trip -------------

texts = st.text(max_size=12)
refs = st.text(st.characters(min_codepoint=97, max_codepoint=122), min_size=1, max_size=8)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | texts,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=6,
)
lines = st.none() | st.integers(min_value=1, max_value=10**6)
resolutions = st.builds(
    ReviewResolution,
    id=st.sampled_from([r.value for r in ReviewId]),
    status=st.sampled_from([ReviewStatus.RESOLVED, ReviewStatus.REJECTED]),
    by=st.none() | texts,
    at=st.none() | texts,
    note=st.none() | texts,
    evidence=st.none() | st.tuples(refs) | st.tuples(),
    line=st.integers(min_value=1, max_value=10**6),
    refs_resolved=st.booleans(),
)


@st.composite
def reports(draw: Any) -> AuditReport:
    flags = tuple(
        FlagReport(
            flag=name,
            status=draw(st.sampled_from(Status)),
            summary=draw(texts),
            evidence=tuple(draw(st.lists(refs, max_size=3))),
            missing=tuple(draw(st.lists(texts, max_size=2))),
            required_review=tuple(
                ReviewRequest(review, draw(texts)) for review in ReviewId if review.flag is name and draw(st.booleans())
            ),
            review_resolutions=tuple(draw(st.lists(resolutions, max_size=2))),
            mechanical_status=draw(st.none() | st.sampled_from(Status)),
        )
        for name in FlagName
    )
    required = tuple(
        RequiredReview(
            id=item.id,
            flag=flag.flag,
            question=item.question,
            status=draw(st.sampled_from(ReviewState)),
            malformed=tuple(draw(st.lists(texts, max_size=2))),
            problems=tuple(draw(st.lists(texts, max_size=2))),
        )
        for flag in flags
        for item in flag.required_review
    )
    cited = {ref for flag in flags for ref in flag.evidence}
    return AuditReport(
        run_id=draw(st.none() | texts),
        overall=draw(st.sampled_from(Status)),
        failure_class=draw(st.none() | st.sampled_from(FailureClass)),
        flags=flags,
        required_reviews=required,
        infra_errors=tuple(draw(st.lists(texts, max_size=3))),
        fixture_errors=tuple(draw(st.lists(texts, max_size=2))),
        pending_reasons=tuple(draw(st.lists(texts, max_size=2))),
        review_problems=tuple(draw(st.lists(texts, max_size=2))),
        information=tuple(draw(st.lists(texts, max_size=2))),
        inputs=draw(st.dictionaries(refs, st.none() | texts, max_size=3)),
        tool=Tool("pytest-coldstart", draw(texts)),
        refs={
            ref: RefTarget(draw(st.none() | texts), draw(st.none() | texts), draw(lines), draw(json_values))
            for ref in sorted(cited)
        },
        timeline=tuple(
            draw(
                st.lists(
                    st.builds(
                        TimelineEntry,
                        stream=st.sampled_from(TIMELINE_STREAMS),
                        ref=refs,
                        label=st.text(max_size=120),
                        at=st.none() | texts,
                        tick=st.none() | st.integers(),
                        seq=st.none() | st.integers(),
                    ),
                    max_size=4,
                )
            )
        ),
        unknown_orderings=tuple(draw(st.lists(st.tuples(refs, refs), max_size=2))),
    )


@settings(max_examples=60, deadline=None)
@given(reports())
def test_generated_reports_round_trip_and_match_the_schema(report: AuditReport) -> None:
    document = report.to_json()
    assert schemas.errors("audit", document) == []
    again = AuditReport.from_json(json.loads(json.dumps(document)))
    assert again == report and again.to_json() == document
