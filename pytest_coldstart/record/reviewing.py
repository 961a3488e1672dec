"""Review resolutions (seed §5): appended to reviews.jsonl under the run lock, checked as
``trace review`` checks them, the note redacted, and marked in the trajectory while unsealed."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from pytest_coldstart.record.trajectory import lock_for, read_last_line
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.clock import format_at, parse_at, zoneless
from pytest_coldstart.run.errors import ColdstartError, UsageError
from pytest_coldstart.run.paths import open_for_write
from pytest_coldstart.run.reviewers import agent_names, is_the_agent, unnamed
from pytest_coldstart.run.textsafe import blank
from pytest_coldstart.run.versioning import CURRENT, require_current
from pytest_coldstart.run.vocabulary import REVIEW_STATUSES, ReviewStatus

if TYPE_CHECKING:
    from pytest_coldstart.record.recorder import Recorder


def append_review(
    recorder: Recorder,
    review_id: str,
    status: str,
    by: str,
    *,
    evidence: list[str],
    note: str = "",
    at: str | None = None,
) -> dict[str, Any]:
    """Append an explicit review resolution to reviews.jsonl (and a mark while unsealed)."""
    if status not in REVIEW_STATUSES:
        raise UsageError(f"review status must be one of {', '.join(REVIEW_STATUSES)}")
    if not isinstance(review_id, str) or blank(review_id):
        raise UsageError("a review needs a non-empty id")
    if not isinstance(by, str) or blank(by):
        raise UsageError("a review needs a non-blank reviewer (--by): one that shows on a page")
    if unnamed(by):
        raise UsageError(f"a review needs a reviewer (--by) who is named: {by[:40]!r} names no one")
    if is_the_agent(by, agent_names(recorder.manifest)):
        raise UsageError(
            f"a review is a person's judgement: --by {by[:40]!r} is a name of the run's own agent "
            "(the agent actor, its harness, model or provider)"
        )
    refs = [ref for ref in evidence if isinstance(ref, str) and not blank(ref)]
    if status == ReviewStatus.RESOLVED and (not refs or len(refs) != len(evidence)):
        raise UsageError("a resolved review needs at least one non-blank --evidence ref")
    if at is not None and zoneless(at):
        raise UsageError(f"review time {at!r} names no zone: add Z or an offset (+02:00)")
    moment = parse_at(at) if at is not None else recorder.clock.now()
    if moment is None:
        raise UsageError(f"review time {at!r} is not a timestamp")
    note = recorder.redactor.scrub(note) if isinstance(note, str) else note  # notes are free text: secrets go
    entry = {
        "schemaVersion": CURRENT,
        "seq": 0,
        "id": review_id,
        "status": status,
        "by": by,
        "at": format_at(moment),
        "note": note,
        "evidence": refs,
    }
    with lock_for(recorder.rundir):
        last = read_last_line(recorder.rundir.reviews)
        previous: Any = {}
        if last:
            try:
                previous = jsonio.loads(last)
            except ValueError:
                raise ColdstartError(
                    "last line is not valid JSON; run `coldstart trace validate`", recorder.rundir.reviews
                ) from None
            require_current(previous, "review line", str(recorder.rundir.reviews))
        seq = previous.get("seq") if isinstance(previous, dict) else None
        entry["seq"] = (seq if isinstance(seq, int) and not isinstance(seq, bool) else 0) + 1
        fd = open_for_write(recorder.rundir.reviews, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        try:
            jsonio.append_whole(fd, jsonio.dumps_line(entry) + b"\n", recorder.rundir.reviews)
        finally:
            os.close(fd)
    if recorder.manifest.get("status") != "sealed":
        # The mark carries recorder time; the review's own time stays in data (never breaks ordering).
        recorder.append(
            {
                "record": "mark",
                "name": "review",
                "actor": "reviewer",
                "phase": "audit",
                "data": {k: entry[k] for k in ("id", "status", "by", "at", "evidence")},
            }
        )
    return entry
