"""machine_operated: >= 1 input_processed event, and an agent call in the agent phase ordered
before the first one. An input_attempt is never accepted as operation, and a processing that
comes after every cart the machine ejected did not produce them: the machine ran without it."""

from __future__ import annotations

from pytest_coldstart.audit.flags.base import Context, FlagDefinition, require, testmod_missing
from pytest_coldstart.audit.model import TESTMOD, FlagResult
from pytest_coldstart.audit.ordering import BEFORE, UNKNOWN, compare, first_of, scope_conflicts
from pytest_coldstart.run.vocabulary import FlagName, ReviewId

NAME = FlagName.MACHINE_OPERATED


def evaluate(ctx: Context) -> FlagResult:
    flag = FlagResult(NAME)
    if testmod_missing(ctx, flag, "input_processed"):
        return flag
    processed = ctx.events(TESTMOD, "input_processed")
    attempts = ctx.events(TESTMOD, "input_attempt")
    if not processed and not attempts:
        return flag.fail(
            "the test mod recorded no input event at all: the machine was not operated", ["testmod:input_processed"]
        )
    if not processed:
        return flag.fail(
            f"only {len(attempts)} input attempt(s) recorded and no input_processed: an attempt is never accepted as operation",
            ["testmod:input_processed"],
            [a.ref for a in attempts[:4]],
        )
    first = first_of(processed)
    ejected = ctx.events(TESTMOD, "cart_ejected")
    if ejected and all(compare(cart, first) == BEFORE for cart in ejected):
        return flag.fail(
            f"every cart_ejected is ordered before the first input_processed ({first.ref}): the machine ran before any input was processed",
            ["testmod:input_processed-before-ejection"],
            [first.ref, ejected[0].ref],
        )
    if not ctx.calls:
        return flag.fail("no agent call in the agent phase exists", ["trajectory:agent-call"], [first.ref])
    before = [c for c in ctx.calls if compare(c, first) == BEFORE]
    unknown = [c for c in ctx.calls if compare(c, first) == UNKNOWN]
    if not before and not unknown:
        return flag.fail(
            f"agent calls exist, but none precedes the first input_processed event ({first.ref})",
            ["trajectory:agent-call-before-processing"],
            [first.ref],
        )
    witness = before[-1] if before else unknown[-1]
    conflicts = scope_conflicts(witness, first)
    if conflicts:
        return flag.fail(
            f"the agent call and the processing event disagree on {', '.join(conflicts)}",
            ["trajectory:scope"],
            [first.ref, witness.ref],
        )
    extra = f"; {len(attempts)} input attempt(s) also recorded" if attempts else ""
    if before:
        flag.ok(
            f"{len(processed)} input_processed event(s); agent call {witness.call_id} precedes the first one{extra}",
            [first.ref, witness.ref],
        )
    else:
        flag.ok(
            f"{len(processed)} input_processed event(s); no agent call is mechanically ordered before the first one, {len(unknown)} cannot be ordered{extra}",
            [first.ref, witness.ref],
        )
        require(flag, ReviewId.MACHINE_OPERATED_ORDERING, f"{witness.ref} vs {first.ref}")
        ctx.cannot_order(witness, first)
    require(flag, ReviewId.MACHINE_OPERATED_CAUSALITY)
    return flag


FLAG = FlagDefinition(NAME, evaluate)
