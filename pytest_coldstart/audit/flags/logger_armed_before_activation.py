"""logger_armed_before_activation: a logger_armed record ordered before the first
input_processed event (same instance/dimension; it must name the instance when the test mod
names one), and an agent call (status ok) showing the
logger being written, built or started before it was armed.

"Before the machine is actuated" (seed §5): a cart the test mod saw ejected before the first
input_processed proves the machine ran earlier still, so the first of the two is the activation."""

from __future__ import annotations

from pytest_coldstart.audit.evidence.provenance_rules import refuse
from pytest_coldstart.audit.flags.base import Context, FlagDefinition, logger_missing, require, testmod_missing
from pytest_coldstart.audit.model import LOGGER, TESTMOD, FlagResult
from pytest_coldstart.audit.ordering import (
    AFTER,
    BEFORE,
    UNKNOWN,
    Ordered,
    by_time,
    compare,
    first_of,
    scope_conflicts,
)
from pytest_coldstart.run.vocabulary import FlagName, ReviewId

NAME = FlagName.LOGGER_ARMED_BEFORE_ACTIVATION


def evaluate(ctx: Context) -> FlagResult:
    flag = FlagResult(NAME)
    if logger_missing(ctx, flag, "logger_armed") or testmod_missing(ctx, flag, "input_processed"):
        return flag
    armed = ctx.events(LOGGER, "logger_armed")
    if not armed:
        return flag.fail("the agent logger has no logger_armed record", ["logger:logger_armed"])
    processed = ctx.events(TESTMOD, "input_processed")
    if not processed:
        return flag.fail(
            "no input_processed event: there is no activation to arm the logger before", ["testmod:input_processed"]
        )
    first_armed = first_of(armed)
    first_processed = first_of(processed + ctx.events(TESTMOD, "cart_ejected"))
    activation = "the first input_processed" if first_processed.name == "input_processed" else "the first cart_ejected"
    refs = [first_armed.ref, first_processed.ref]
    experiment = next((e.get("instance") for e in ctx.evidence.stream(TESTMOD) if e.get("instance") is not None), None)
    if experiment is not None and first_armed.get("instance") is None:
        # seed §5: logger_armed carries the instance it arms; one that names none is not shown
        # to watch the experiment the test mod recorded.
        return flag.fail(
            f"logger_armed ({first_armed.ref}) names no instance: it is not shown to watch the experiment's {str(experiment)!r}",
            ["logger:logger_armed:instance"],
            refs,
        )
    conflicts = scope_conflicts(first_armed, first_processed)
    if conflicts:
        return flag.fail(
            f"logger_armed and {activation} disagree on {', '.join(conflicts)}", ["trajectory:scope"], refs
        )
    order = compare(first_armed, first_processed)
    if order == AFTER:
        return flag.fail(
            f"logger_armed ({first_armed.ref}) is ordered after {activation} ({first_processed.ref}): the logger was late",
            ["logger:logger_armed-before-activation"],
            refs,
        )
    arm_calls = [c for c in ctx.calls if c.arm and c.status == "ok"]
    if not arm_calls:
        return flag.fail(
            "no successful agent call shows the logger being written, built or started",
            ["trajectory:logger-arm-call"],
            refs,
        )
    before = [c for c in arm_calls if compare(c, first_armed) == BEFORE]
    unknown = [c for c in arm_calls if compare(c, first_armed) == UNKNOWN]
    if not before and not unknown:
        return flag.fail(
            "every agent call that writes, builds or starts the logger postdates the logger_armed record",
            ["trajectory:logger-arm-call"],
            refs + [arm_calls[0].ref],
        )
    if refuse(flag, ctx.evidence, "agent_logger", "logger:agent-written"):
        return flag
    witness = before[-1] if before else unknown[-1]
    how = _how(first_armed, first_processed, order)
    flag.ok(
        f"logger_armed {how} {activation}; agent call {witness.call_id} writes/builds/starts the logger",
        refs + [witness.ref],
    )
    if order == UNKNOWN:
        require(flag, ReviewId.LOGGER_ARMED_ORDERING, f"{first_armed.ref} vs {first_processed.ref}")
        ctx.cannot_order(first_armed, first_processed)
    if not before:
        require(flag, ReviewId.LOGGER_ARMED_ORDERING, f"{witness.ref} vs {first_armed.ref}")
        ctx.cannot_order(witness, first_armed)
    require(flag, ReviewId.LOGGER_ARMED_RUNNING)
    return flag


def _how(armed: Ordered, processed: Ordered, order: str) -> str:
    if order != BEFORE:
        return "cannot be ordered mechanically against"
    if by_time(armed, processed) == BEFORE:
        return "is ordered (by time) before"
    return f"is ordered (tick {armed.tick} < {processed.tick}) before"


FLAG = FlagDefinition(NAME, evaluate)
