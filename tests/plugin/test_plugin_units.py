"""Pure parts of the plugin: terminal cleaning, review mapping, the SVG timeline (hypothesis)."""

from __future__ import annotations

import unicodedata
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_coldstart.audit.audit_report import AuditReport, ReportFormatError, TimelineEntry
from pytest_coldstart.pytest_plugin.items import safe_name
from pytest_coldstart.pytest_plugin.outcomes import FAILED, PASSED, XFAILED, clean, review_verdict, validate_verdict
from pytest_coldstart.pytest_plugin.timeline import render_svg, render_table

text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)


@given(text)
def test_clean_never_lets_a_control_or_format_character_through(value: str) -> None:
    out = clean(value)
    assert all(c == "\n" or unicodedata.category(c) not in ("Cc", "Cf", "Zl", "Zp", "Co") for c in out)
    if value.isprintable():
        assert out == value


@given(text)
def test_item_names_stay_in_the_safe_charset(value: str) -> None:
    name = safe_name("review", value)
    assert name.startswith("review-") and all(c.isascii() and (c.isalnum() or c in "._-") for c in name)
    assert "[" not in name and "::" not in name


def _report(
    review_status: str, *, malformed: list[str] | None = None, problems: list[str] | None = None
) -> AuditReport:
    """A report whose one flag requires machine_operated.causality, in state ``review_status``."""
    resolutions = []
    if review_status in ("resolved", "rejected", "unresolved-refs"):
        resolutions = [
            {
                "id": "machine_operated.causality",
                "status": "rejected" if review_status == "rejected" else "resolved",
                "by": "r",
                "at": "2026-01-01T00:00:00Z",
                "note": None,
                "evidence": ["testmod:seq5"],
                "line": 1,
                "refs_resolved": review_status != "unresolved-refs",
            }
        ]
    flag = {
        "flag": "machine_operated",
        "status": "PENDING",
        "summary": "",
        "evidence": [],
        "missing": [],
        "required_review": [{"id": "machine_operated.causality", "question": "q?"}],
        "review_resolutions": resolutions,
        "mechanical_status": "PASS",
    }
    review = {"id": "machine_operated.causality", "flag": "machine_operated", "question": "q?", "status": review_status}
    if malformed:
        review["malformed"] = malformed
    if problems:
        review["problems"] = problems
    return AuditReport.from_json(
        {
            "schemaVersion": 2,
            "run_id": "r",
            "overall": "PENDING",
            "failure_class": None,
            "flags": [flag],
            "required_reviews": [review],
            "infra_errors": list(malformed or []),
            "fixture_errors": [],
            "pending_reasons": [],
            "review_problems": list(problems or []),
            "information": [],
            "inputs": {},
            "tool": {"name": "pytest-coldstart", "version": "0"},
            "refs": {},
            "timeline": [],
            "unknown_orderings": [],
        }
    )


def test_review_statuses_map_to_outcomes() -> None:
    cases = {"resolved": PASSED, "rejected": FAILED, "unresolved": XFAILED, "unresolved-refs": XFAILED}
    for status, outcome in cases.items():
        report = _report(status)
        assert review_verdict(report, report.flags[0], report.required_reviews[0]).outcome == outcome
    malformed = _report(
        "resolved",
        malformed=[
            "reviews.jsonl:2: review machine_operated.causality: a resolved entry needs at least one evidence ref"
        ],
    )
    verdict = review_verdict(malformed, malformed.flags[0], malformed.required_reviews[0])
    assert (verdict.status, verdict.outcome) == ("malformed", FAILED)
    # an infra error that names the review in prose is not a structured fact: no effect
    other = replace(_report("resolved"), infra_errors=("reviews.jsonl:2: review machine_operated.causality: bad",))
    assert review_verdict(other, other.flags[0], other.required_reviews[0]).outcome == PASSED
    with pytest.raises(ReportFormatError, match="status"):  # an unknown status is no report at all
        _report("maybe")


def test_validate_fails_on_any_infra_or_fixture_error() -> None:
    assert validate_verdict(None).outcome == FAILED
    clean_report = _report("resolved")
    assert validate_verdict(clean_report).outcome == PASSED
    verdict = validate_verdict(
        replace(
            clean_report,
            infra_errors=("validate: trajectory.jsonl:3: seq goes backwards",),
            fixture_errors=("fixture invalid",),
        )
    )
    assert verdict.outcome == FAILED
    assert verdict.details[:2] == ["validate: trajectory.jsonl:3: seq goes backwards", "fixture: fixture invalid"]


events = st.lists(
    st.fixed_dictionaries(
        {
            "stream": st.sampled_from(["agent", "testmod", "logger", "other"]),
            "ref": text,
            "label": text,
            "at": st.one_of(st.none(), text),
            "tick": st.one_of(st.none(), st.integers()),
            "seq": st.one_of(st.none(), st.integers()),
        }
    ),
    max_size=12,
)


@settings(max_examples=60)
@given(events, text, st.data())
def test_timeline_is_well_formed_and_escapes_everything(timeline: list[dict], run_id: str, data: st.DataObject) -> None:
    refs = [e["ref"] for e in timeline] or ["x"]
    pairs = data.draw(st.lists(st.tuples(st.sampled_from(refs), st.sampled_from(refs)), max_size=3))
    report = replace(
        _report("resolved"),
        run_id=run_id,
        timeline=tuple(TimelineEntry(**e) for e in timeline if e["stream"] != "other"),
        unknown_orderings=tuple(pairs),
    )
    svg = render_svg(report)
    drawn = [e for e in timeline if e["stream"] != "other"]
    if not drawn:
        assert svg == ""
        return
    root = ET.fromstring(svg)  # well-formed: nothing from the run closed or opened an element
    assert root.tag.endswith("svg")
    assert len(root.findall("{http://www.w3.org/2000/svg}g[@class='event']")) == len(drawn)
    table = ET.fromstring(f"<div>{render_table(report)}</div>")
    assert len(table.findall(".//tr")) == len(drawn) + 1


def test_unknown_orderings_are_drawn() -> None:
    timeline = [
        {"stream": "logger", "ref": "logger:seq0", "label": "<armed>", "at": "t", "tick": 5, "seq": 0},
        {"stream": "testmod", "ref": "testmod:seq5", "label": "processed", "at": "t", "tick": 5, "seq": 5},
    ]
    report = replace(_report("resolved"), timeline=tuple(TimelineEntry(**e) for e in timeline))
    svg = render_svg(replace(report, unknown_orderings=(("logger:seq0", "testmod:seq5"),)))
    assert svg.count('class="unknown-ordering"') == 1 and "&lt;armed&gt;" in svg and "<armed>" not in svg
    assert render_svg(report).count("unknown-ordering") == 0
