"""``AuditReport``: audit.json (schemaVersion 2) as frozen, typed values.

The audit builds one of these and writes ``to_json()``; every reader (the pytest items, the
CLI, the HTML report, analysis) gets one from ``AuditReport.from_json(document)`` and reads
attributes instead of re-checking dict keys. ``from_json`` checks types and the closed
vocabularies and raises ``ReportFormatError`` naming the first bad field; it does not repeat
every rule of audit.schema.json (``run.schemas`` validates documents against it).
``from_json(report.to_json()) == report``, and ``to_json(from_json(doc)) == doc`` for every
report the audit writes (the keys in the order the audit writes them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, cast, final

from pytest_coldstart.run import jsonfields as fields
from pytest_coldstart.run.jsonfields import FieldError
from pytest_coldstart.run.vocabulary import FailureClass, FlagName, ReviewId, ReviewState, ReviewStatus, Status

SCHEMA_VERSION = 2
TimelineStream = Literal["agent", "testmod", "logger"]
TIMELINE_STREAMS: tuple[TimelineStream, ...] = ("agent", "testmod", "logger")


class ReportFormatError(FieldError):
    """An audit report that is not a version-2 audit.json (names the first bad field)."""


# -- the parts -----------------------------------------------------------------------------


@final
@dataclass(frozen=True, slots=True)
class ReviewRequest:
    """A review a flag requires (``flags[].required_review[]``)."""

    id: ReviewId
    question: str

    @classmethod
    def from_json(cls, data: object, where: str) -> ReviewRequest:
        raw = fields.obj(data, where)
        return cls(
            fields.member(ReviewId, raw.get("id"), f"{where}.id"), fields.text(raw.get("question"), f"{where}.question")
        )

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id.value, "question": self.question}


@final
@dataclass(frozen=True, slots=True)
class ReviewResolution:
    """A reviews.jsonl entry the audit applied to a flag (``flags[].review_resolutions[]``)."""

    id: str
    status: ReviewStatus  # resolved or rejected (a pending entry resolves nothing)
    by: str | None
    at: str | None
    note: str | None
    evidence: tuple[str, ...] | None
    line: int
    refs_resolved: bool

    @classmethod
    def from_json(cls, data: object, where: str) -> ReviewResolution:
        raw = fields.obj(data, where)
        evidence = raw.get("evidence")
        return cls(
            id=fields.text(raw.get("id"), f"{where}.id"),
            status=fields.member(ReviewStatus, raw.get("status"), f"{where}.status"),
            by=fields.opt_text(raw.get("by"), f"{where}.by"),
            at=fields.opt_text(raw.get("at"), f"{where}.at"),
            note=fields.opt_text(raw.get("note"), f"{where}.note"),
            evidence=None if evidence is None else fields.texts(evidence, f"{where}.evidence"),
            line=fields.integer(raw.get("line"), f"{where}.line"),
            refs_resolved=fields.flag(raw.get("refs_resolved"), f"{where}.refs_resolved"),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "status": self.status.value,
            "by": self.by,
            "at": self.at,
            "note": self.note,
            "evidence": None if self.evidence is None else list(self.evidence),
            "line": self.line,
            "refs_resolved": self.refs_resolved,
        }


@final
@dataclass(frozen=True, slots=True)
class FlagReport:
    """One flag's verdict (``flags[]``): final status, the mechanical one, and why."""

    flag: FlagName
    status: Status
    summary: str
    evidence: tuple[str, ...]
    missing: tuple[str, ...]
    required_review: tuple[ReviewRequest, ...]
    review_resolutions: tuple[ReviewResolution, ...]
    mechanical_status: Status | None

    @classmethod
    def from_json(cls, data: object, where: str) -> FlagReport:
        raw = fields.obj(data, where)
        mechanical = raw.get("mechanical_status")
        return cls(
            flag=fields.member(FlagName, raw.get("flag"), f"{where}.flag"),
            status=fields.member(Status, raw.get("status"), f"{where}.status"),
            summary=fields.text(raw.get("summary"), f"{where}.summary"),
            evidence=fields.texts(raw.get("evidence"), f"{where}.evidence"),
            missing=fields.texts(raw.get("missing"), f"{where}.missing"),
            required_review=tuple(
                ReviewRequest.from_json(item, f"{where}.required_review[{i}]")
                for i, item in enumerate(fields.array(raw.get("required_review"), f"{where}.required_review"))
            ),
            review_resolutions=tuple(
                ReviewResolution.from_json(item, f"{where}.review_resolutions[{i}]")
                for i, item in enumerate(fields.array(raw.get("review_resolutions"), f"{where}.review_resolutions"))
            ),
            mechanical_status=None
            if mechanical is None
            else fields.member(Status, mechanical, f"{where}.mechanical_status"),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "flag": self.flag.value,
            "status": self.status.value,
            "summary": self.summary,
            "evidence": list(self.evidence),
            "missing": list(self.missing),
            "required_review": [item.to_json() for item in self.required_review],
            "review_resolutions": [item.to_json() for item in self.review_resolutions],
            "mechanical_status": None if self.mechanical_status is None else self.mechanical_status.value,
        }

    def resolution(self, review_id: str) -> ReviewResolution | None:
        """The latest resolution applied for ``review_id`` (the protocol's latest-wins rule)."""
        found = None
        for entry in self.review_resolutions:
            if entry.id == review_id:
                found = entry
        return found


@final
@dataclass(frozen=True, slots=True)
class RequiredReview:
    """A review the run needs before it can PASS (``required_reviews[]``), with its state.

    ``malformed``: the reviews file's unusable lines about this review (each also an infra
    error); ``problems``: why a resolved entry is not usable yet (each also a review problem).
    Both are written only when non-empty (additive optional fields of schemaVersion 2)."""

    id: ReviewId
    flag: FlagName
    question: str
    status: ReviewState
    malformed: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, data: object, where: str) -> RequiredReview:
        raw = fields.obj(data, where)
        return cls(
            id=fields.member(ReviewId, raw.get("id"), f"{where}.id"),
            flag=fields.member(FlagName, raw.get("flag"), f"{where}.flag"),
            question=fields.text(raw.get("question"), f"{where}.question"),
            status=fields.member(ReviewState, raw.get("status"), f"{where}.status"),
            malformed=fields.texts(raw.get("malformed", []), f"{where}.malformed"),
            problems=fields.texts(raw.get("problems", []), f"{where}.problems"),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id.value,
            "flag": self.flag.value,
            "question": self.question,
            "status": self.status.value,
        }
        if self.malformed:
            out["malformed"] = list(self.malformed)
        if self.problems:
            out["problems"] = list(self.problems)
        return out


@final
@dataclass(frozen=True, slots=True)
class RefTarget:
    """Where a cited ref points (``refs[ref]``) and the record there (cut to ~300 characters)."""

    stream: str | None
    file: str | None
    line: int | None
    record: object  # raw JSON: the record or document, as the run holds it

    @classmethod
    def from_json(cls, data: object, where: str) -> RefTarget:
        raw = fields.obj(data, where)
        if "record" not in raw:
            raise ReportFormatError(f"{where}.record is missing")
        return cls(
            stream=fields.opt_text(raw.get("stream"), f"{where}.stream"),
            file=fields.opt_text(raw.get("file"), f"{where}.file"),
            line=fields.opt_integer(raw.get("line"), f"{where}.line"),
            record=raw["record"],
        )

    def to_json(self) -> dict[str, Any]:
        return {"stream": self.stream, "file": self.file, "line": self.line, "record": self.record}

    @property
    def where(self) -> str:
        """``file:line`` (or what of it is known)."""
        where = self.file or ""
        return f"{where}:{self.line}" if self.line is not None else where


@final
@dataclass(frozen=True, slots=True)
class TimelineEntry:
    """One point of the run's capped timeline (``timeline[]``)."""

    stream: TimelineStream
    ref: str
    label: str
    at: str | None
    tick: int | None
    seq: int | None

    @classmethod
    def from_json(cls, data: object, where: str) -> TimelineEntry:
        raw = fields.obj(data, where)
        stream = raw.get("stream")
        if stream not in TIMELINE_STREAMS:
            raise fields.bad(f"{where}.stream", "one of " + ", ".join(TIMELINE_STREAMS), stream)
        return cls(
            stream=cast(TimelineStream, stream),
            ref=fields.text(raw.get("ref"), f"{where}.ref"),
            label=fields.text(raw.get("label"), f"{where}.label"),
            at=fields.opt_text(raw.get("at"), f"{where}.at"),
            tick=fields.opt_integer(raw.get("tick"), f"{where}.tick"),
            seq=fields.opt_integer(raw.get("seq"), f"{where}.seq"),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "stream": self.stream,
            "ref": self.ref,
            "label": self.label,
            "at": self.at,
            "tick": self.tick,
            "seq": self.seq,
        }


@final
@dataclass(frozen=True, slots=True)
class Tool:
    name: str
    version: str

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version}


# -- the report ----------------------------------------------------------------------------


@final
@dataclass(frozen=True, slots=True)
class AuditReport:
    """The audit of one run. ``overall``/``failure_class`` follow DESIGN R11."""

    run_id: str | None
    overall: Status
    failure_class: FailureClass | None
    flags: tuple[FlagReport, ...]
    required_reviews: tuple[RequiredReview, ...]
    infra_errors: tuple[str, ...]
    fixture_errors: tuple[str, ...]
    pending_reasons: tuple[str, ...]
    review_problems: tuple[str, ...]
    information: tuple[str, ...]
    inputs: dict[str, str | None]
    tool: Tool
    refs: dict[str, RefTarget]
    timeline: tuple[TimelineEntry, ...]
    unknown_orderings: tuple[tuple[str, str], ...]

    @classmethod
    def from_json(cls, data: object) -> AuditReport:
        """The typed report of an audit.json document (``ReportFormatError`` if it is not one)."""
        try:
            return cls._read(data)
        except ReportFormatError:
            raise
        except FieldError as exc:
            raise ReportFormatError(exc.problem) from None

    @classmethod
    def _read(cls, data: object) -> AuditReport:
        raw = fields.obj(data, "audit report")
        version = raw.get("schemaVersion")
        if type(version) is not int or version != SCHEMA_VERSION:
            raise ReportFormatError(f"schemaVersion {version!r} is not an audit report version this build reads")
        klass = raw.get("failure_class")
        inputs = fields.obj(raw.get("inputs"), "inputs")
        tool = fields.obj(raw.get("tool"), "tool")
        pairs = []
        for i, pair in enumerate(fields.array(raw.get("unknown_orderings"), "unknown_orderings")):
            refs = fields.texts(pair, f"unknown_orderings[{i}]")
            if len(refs) != 2:
                raise fields.bad(f"unknown_orderings[{i}]", "a pair of refs", pair)
            pairs.append((refs[0], refs[1]))
        return cls(
            run_id=fields.opt_text(raw.get("run_id"), "run_id"),
            overall=fields.member(Status, raw.get("overall"), "overall"),
            failure_class=None if klass is None else fields.member(FailureClass, klass, "failure_class"),
            flags=tuple(
                FlagReport.from_json(item, f"flags[{i}]")
                for i, item in enumerate(fields.array(raw.get("flags"), "flags"))
            ),
            required_reviews=tuple(
                RequiredReview.from_json(item, f"required_reviews[{i}]")
                for i, item in enumerate(fields.array(raw.get("required_reviews"), "required_reviews"))
            ),
            infra_errors=fields.texts(raw.get("infra_errors"), "infra_errors"),
            fixture_errors=fields.texts(raw.get("fixture_errors"), "fixture_errors"),
            pending_reasons=fields.texts(raw.get("pending_reasons"), "pending_reasons"),
            review_problems=fields.texts(raw.get("review_problems"), "review_problems"),
            information=fields.texts(raw.get("information"), "information"),
            inputs={fields.text(k, "inputs key"): fields.opt_text(v, f"inputs.{k}") for k, v in inputs.items()},
            tool=Tool(fields.text(tool.get("name"), "tool.name"), fields.text(tool.get("version"), "tool.version")),
            refs={
                fields.text(ref, "refs key"): RefTarget.from_json(target, f"refs[{ref!r}]")
                for ref, target in fields.obj(raw.get("refs"), "refs").items()
            },
            timeline=tuple(
                TimelineEntry.from_json(item, f"timeline[{i}]")
                for i, item in enumerate(fields.array(raw.get("timeline"), "timeline"))
            ),
            unknown_orderings=tuple(pairs),
        )

    def to_json(self) -> dict[str, Any]:
        """audit.json, keys in the order the audit has always written them."""
        return {
            "schemaVersion": SCHEMA_VERSION,
            "run_id": self.run_id,
            "overall": self.overall.value,
            "failure_class": None if self.failure_class is None else self.failure_class.value,
            "flags": [flag.to_json() for flag in self.flags],
            "required_reviews": [review.to_json() for review in self.required_reviews],
            "infra_errors": list(self.infra_errors),
            "fixture_errors": list(self.fixture_errors),
            "pending_reasons": list(self.pending_reasons),
            "review_problems": list(self.review_problems),
            "information": list(self.information),
            "inputs": dict(self.inputs),
            "tool": self.tool.to_json(),
            "refs": {ref: target.to_json() for ref, target in self.refs.items()},
            "timeline": [entry.to_json() for entry in self.timeline],
            "unknown_orderings": [list(pair) for pair in self.unknown_orderings],
        }

    def flag(self, name: str) -> FlagReport | None:
        """The verdict of flag ``name`` (None when the report lacks it)."""
        return next((flag for flag in self.flags if flag.flag == name), None)

    def flag_status(self, name: str) -> Status | None:
        flag = self.flag(name)
        return None if flag is None else flag.status

    def reviews_of(self, flag: FlagReport) -> tuple[RequiredReview, ...]:
        return tuple(review for review in self.required_reviews if review.flag == flag.flag)
