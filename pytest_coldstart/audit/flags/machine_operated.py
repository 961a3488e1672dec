"""machine_operated: >= 1 input_processed event, and an agent call in the agent phase ordered
before the first one. An input_attempt is never accepted as operation, and a processing that
comes after every cart the machine ejected did not produce them: the machine ran without it.
The test mod names who acted (the fake player's identity, seed §8): when it names the player
of the input attempts and every processed input names someone else, in the same form (a
name against a name, a uuid against a uuid), the agent's input was never processed."""

from __future__ import annotations

import re

from pytest_coldstart.audit.flags.base import Context, FlagDefinition, require, testmod_missing
from pytest_coldstart.audit.model import TESTMOD, Event, FlagResult
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
    others = _by_another_actor(attempts, processed)
    if others:
        return flag.fail(
            f"every input_processed names another actor ({others}) than the input attempts "
            f"({_actors(attempts)}): the agent's input was attempted, never processed",
            ["testmod:input_processed-by-the-agents-player"],
            [p.ref for p in processed[:4]],
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


_UUID = re.compile(r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}")


def _actor(event: Event) -> str | None:
    actor = event.get("actor")
    return actor.strip().casefold() if isinstance(actor, str) and actor.strip() else None


def _actors(events: list[Event]) -> str:
    return ", ".join(sorted({a for a in map(_actor, events) if a is not None}))


def _by_another_actor(attempts: list[Event], processed: list[Event]) -> str:
    """The processing actors when every processed input names an actor that no attempt names,
    each comparable with an attempt's (same form); "" when any could be the attempts' player
    (an unnamed processing, or a uuid beside a name, is left to the causality review)."""
    players = {a for a in map(_actor, attempts) if a is not None}
    forms = {bool(_UUID.fullmatch(p)) for p in players}
    actors = [_actor(p) for p in processed]
    if not players or any(a is None or a in players or bool(_UUID.fullmatch(a)) not in forms for a in actors):
        return ""
    return ", ".join(sorted({a for a in actors if a is not None}))


FLAG = FlagDefinition(NAME, evaluate)
