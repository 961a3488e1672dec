"""Which cited records can support each required review (seed §5, §6).

A review resolves a semantic question about particular records; a ref to a record that cannot
show the answer resolves nothing. Each review kind names what it needs: one or more needs,
each met by at least one cited record of an accepted source (and event, for the streams).
Agent-side records (``trajectory:``, ``logger:``, the answer) never show the oracle's
independence; causality names the agent's call and the processing the test mod recorded; the
logger's running names the logger's arming or the call that started it. Other refs may be
cited beside them (a note's context), never instead.
"""

from __future__ import annotations

from collections.abc import Callable

from pytest_coldstart.audit.refs import Resolution
from pytest_coldstart.run.vocabulary import ReviewId

#: (source, event): a record of the source, of that event (None: any record of the source)
Accepted = frozenset[tuple[str, str | None]]
#: what a review needs, and how the problem reads when no cited record meets the need
Need = tuple[Accepted, str]


def _need(what: str, *accepted: tuple[str, str | None]) -> Need:
    return frozenset(accepted), what


_CALL = _need("an agent call (trajectory:<call_id>)", ("trajectory", None))
_PROCESSED = _need("the processed input (a testmod input_processed record)", ("testmod", "input_processed"))
_ARMED = _need("the logger's arming (a logger logger_armed record)", ("logger", "logger_armed"))
_CAPTURE = _need("the capture (a logger cart_observed record)", ("logger", "cart_observed"))

SUPPORT: dict[ReviewId, tuple[Need, ...]] = {
    ReviewId.MACHINE_OPERATED_CAUSALITY: (_CALL, _PROCESSED),
    ReviewId.MACHINE_OPERATED_ORDERING: (_CALL, _PROCESSED),
    ReviewId.LOGGER_ARMED_RUNNING: (
        _need(
            "the logger's arming or the call that started it (logger_armed, trajectory:<call_id>)",
            ("logger", "logger_armed"),
            ("trajectory", None),
        ),
    ),
    ReviewId.LOGGER_ARMED_ORDERING: (_ARMED, _PROCESSED),
    ReviewId.TRANSIENT_OUTPUTS_WINDOW: (
        _CAPTURE,
        _need(
            "the cart's ejection or removal (testmod cart_ejected/cart_removed)",
            ("testmod", "cart_ejected"),
            ("testmod", "cart_removed"),
        ),
    ),
    ReviewId.TRANSIENT_OUTPUTS_INVENTORY: (_CAPTURE,),
    ReviewId.AGENT_READ_LOG_LINKAGE: (_need("the agent's read (trajectory:<call_id>)", ("trajectory", None)),),
    ReviewId.ANSWER_CORRECT_ORACLE_INDEPENDENCE: (
        _need(
            "independent game-side evidence (testmod:, fixture:, restore:, preflight:); agent-side refs "
            "(trajectory:, logger:, answer) never count as independent",
            ("testmod", None),
            ("fixture", None),
            ("restore", None),
            ("preflight", None),
        ),
    ),
}


def unmet(review_id: str, refs: list[Resolution], event_of: Callable[[str], tuple[str, str | None]]) -> list[str]:
    """The needs of ``review_id`` no cited record meets. ``event_of(ref)`` is the (source,
    event) of a resolved ref, an oracle ref read as the record it names."""
    try:
        needs = SUPPORT[ReviewId(review_id)]
    except ValueError:  # not a review id of this revision: reported elsewhere
        return []
    cited = {event_of(r.ref) for r in refs if r.ok}
    cited |= {(source, None) for source, _ in cited}
    return [f"it cites no record that can show it: it needs {what}" for accepted, what in needs if not accepted & cited]
