"""agent_read_log (R2): an agent call (status ok, after the last capture) whose arguments name
the logger file AND whose result returns captured content, in a plausible read of it
(``read_plausibility``). Content without the name, the name without content, a uuid alone, a
filename echoed, content the call itself supplied, or an unknown order -> the linkage review. A read of the
test mod's own file is test-side observation and never counts. A tool name alone never counts.
"""

from __future__ import annotations

from pytest_coldstart.audit.evidence.provenance_rules import refuse
from pytest_coldstart.audit.flags.base import Context, FlagDefinition, logger_missing, require
from pytest_coldstart.audit.model import LOGGER, Call, FlagResult
from pytest_coldstart.audit.ordering import AFTER, BEFORE, UNKNOWN, compare, last_of
from pytest_coldstart.run.vocabulary import FlagName, ReviewId

NAME = FlagName.AGENT_READ_LOG


def evaluate(ctx: Context) -> FlagResult:
    flag = FlagResult(NAME)
    if logger_missing(ctx, flag, "cart_observed"):
        return flag
    if refuse(flag, ctx.evidence, "agent_logger", "logger:agent-written"):
        return flag
    captures = ctx.events(LOGGER, "cart_observed")
    if not captures:
        return flag.fail(
            "the agent logger has no cart_observed record, so there is nothing to read back", ["logger:cart_observed"]
        )
    last = last_of(captures)
    strong, ambiguous, test_side = None, [], 0
    for call in ctx.calls:
        if call.status != "ok" or not (call.names_logger or call.content):
            continue
        if call.names_testmod and not call.names_logger:
            test_side += 1
            continue
        order = compare(call, last)
        if order == BEFORE:
            continue
        if (
            call.names_logger
            and call.content == "items"
            and order == AFTER
            and not call.names_testmod
            and not call.doubt
        ):
            strong = strong or call
            continue
        if order == UNKNOWN:
            ctx.cannot_order(call, last)
        ambiguous.append((call, _reason(call, order)))
    if test_side:
        ctx.findings.info(
            f"agent_read_log: {test_side} agent call(s) read the test mod's own file; test-side observation does not count"
        )
    if strong is not None:
        return flag.ok(
            f"agent call {strong.call_id} names the logger file and returns captured content after the last capture",
            [strong.ref, last.ref],
        )
    if ambiguous:
        call, reason = ambiguous[0]
        flag.ok(
            f"no unambiguous read; {len(ambiguous)} candidate(s), first {call.call_id}: {reason}", [call.ref, last.ref]
        )
        require(flag, ReviewId.AGENT_READ_LOG_LINKAGE, f"{call.ref} ({reason})")
        return flag
    return flag.fail(
        "no agent call after the last capture reads the logger and returns its captured content; test-side observation does not count",
        ["trajectory:read-logger"],
        [last.ref],
    )


def _reason(call: Call, order: str) -> str:
    if order == UNKNOWN:
        return "its order against the last capture is unknown"
    if call.doubt and call.content == "items":
        return call.doubt
    if call.names_testmod:
        return "it reads test-side evidence as well as the logger, so the content it returns may be test-side"
    if not call.names_logger:
        return "it returns captured content without naming the logger file"
    if call.content == "uuid":
        return "it names the logger but returns a captured uuid without its items"
    return "it names the logger file but returns no captured content"


FLAG = FlagDefinition(NAME, evaluate)
