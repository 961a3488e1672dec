"""transient_outputs_captured: every ejected cart has a capture ordered after its ejection and
before its removal (same instance/dimension), each carrying an items list."""

from __future__ import annotations

from pytest_coldstart.audit.evidence.inventory import Item, ItemError, normalize_items, recorded_inventories, same_items
from pytest_coldstart.audit.evidence.provenance import Provenance
from pytest_coldstart.audit.evidence.provenance_rules import refuse
from pytest_coldstart.audit.flags.base import Context, FlagDefinition, logger_missing, require, testmod_missing
from pytest_coldstart.audit.model import LOGGER, TESTMOD, Event, FlagResult
from pytest_coldstart.audit.ordering import (
    AFTER,
    BEFORE,
    UNKNOWN,
    compare,
    earliest,
    first_of,
    latest,
    scope_conflicts,
)
from pytest_coldstart.run.vocabulary import FlagName, ReviewId

EVIDENCE_PAIRS = 16


def by_uuid(events: list[Event]) -> dict[str, list[Event]]:
    groups: dict[str, list[Event]] = {}
    for event in events:
        uuid = event.get("uuid")
        if isinstance(uuid, str) and uuid.strip():
            groups.setdefault(uuid.strip().lower(), []).append(event)
    return groups


NAME = FlagName.TRANSIENT_OUTPUTS_CAPTURED


def evaluate(ctx: Context) -> FlagResult:
    flag = FlagResult(NAME)
    if testmod_missing(ctx, flag, "cart_ejected"):
        return flag
    ejected = ctx.events(TESTMOD, "cart_ejected")
    if not ejected:
        return flag.fail("the test mod recorded no cart_ejected event: nothing to capture", ["testmod:cart_ejected"])
    if logger_missing(ctx, flag, "cart_observed"):
        return flag
    if refuse(flag, ctx.evidence, "agent_logger", "logger:agent-written"):
        return flag
    captures = by_uuid(ctx.events(LOGGER, "cart_observed"))
    if not captures:
        return flag.fail("the agent logger has no cart_observed record", ["logger:cart_observed"])
    removals = by_uuid(ctx.events(TESTMOD, "cart_removed"))
    ejections = by_uuid(ejected)
    recorded = recorded_inventories(ctx.evidence.stream(TESTMOD))
    missing = [
        f"testmod:{e.ref.split(':', 1)[1]}:uuid"
        for e in ejected
        if not isinstance(e.get("uuid"), str) or not e.get("uuid").strip()
    ]
    unscoped: list[str] = []
    early: list[str] = []
    late: list[str] = []
    window: list[str] = []
    inventory: list[str] = []
    evidence: list[str] = []
    for uuid, group in ejections.items():
        ejection = first_of(group)
        if len(group) > 1:
            ctx.findings.info(
                f"cart {uuid}: {len(group)} cart_ejected events; the earliest ({ejection.ref}) opens its window"
            )
        if uuid not in captures:
            missing.append(f"logger:cart_observed:{uuid}")
            continue
        capture = first_of(captures[uuid])
        evidence += [ejection.ref, capture.ref]
        if scope_conflicts(capture, ejection):
            unscoped.append(uuid)
        removal = earliest(removals.get(uuid, []))
        if removal is None:
            window.append(uuid)
        for bound, wrong, bucket in ((ejection, BEFORE, early), (removal, AFTER, late)):
            if bound is None:
                continue
            if bound is removal and scope_conflicts(capture, removal):
                unscoped.append(uuid)
            order = compare(capture, bound)
            if order == wrong:
                bucket.append(uuid)
            elif order == UNKNOWN:
                window.append(uuid)
                ctx.cannot_order(capture, bound)
        # every capture of the cart, not the first alone: a second one listing other items contradicts it
        for each in captures[uuid]:
            problem = _inventory_problem(each, recorded.get(uuid))
            if problem is not None:
                inventory.append(uuid)
                ctx.findings.info(f"transient_outputs_captured: the capture {each.ref} of cart {uuid} {problem}")
                break
    if missing:
        return flag.fail(
            f"{len(missing)} ejected cart(s) have no capture by the agent logger",
            missing,
            evidence[: 2 * EVIDENCE_PAIRS],
        )
    if unscoped:
        return flag.fail(
            f"captures and test-mod events disagree on instance/dimension for: {', '.join(sorted(set(unscoped)))}",
            ["trajectory:scope"],
            evidence[: 2 * EVIDENCE_PAIRS],
        )
    if early:
        return flag.fail(
            f"cart(s) captured before they were ejected (not the transient output): {', '.join(early)}",
            [f"logger:cart_observed-after-ejection:{u}" for u in early],
            evidence[: 2 * EVIDENCE_PAIRS],
        )
    if late:
        return flag.fail(
            f"cart(s) captured only after they were removed: {', '.join(late)}",
            [f"logger:cart_observed-before-removal:{u}" for u in late],
            evidence[: 2 * EVIDENCE_PAIRS],
        )
    count = sum(len(group) for group in captures.values())
    flag.ok(
        f"{count} capture(s) cover {len(ejections)} ejected cart(s), each inside its ejection-removal window",
        evidence[: 2 * EVIDENCE_PAIRS],
    )
    rewritten = _rewritten(ctx, latest([e for group in removals.values() for e in group]))
    if rewritten is not None:
        ctx.findings.info(f"transient_outputs_captured: {rewritten}")
        window.append("the logger's output was rewritten after the last removal")
    for uuid in sorted(set(removals) - set(ejections)):  # the test mod saw it leave, never eject: no window opens
        ctx.findings.info(
            f"transient_outputs_captured: cart {uuid} was removed but the test mod recorded no cart_ejected"
        )
        window.append(f"{uuid} (removed, never recorded ejected)")
    if window:
        require(flag, ReviewId.TRANSIENT_OUTPUTS_WINDOW, ", ".join(dict.fromkeys(window)))
    if inventory:
        require(flag, ReviewId.TRANSIENT_OUTPUTS_INVENTORY, ", ".join(inventory))
    return flag


def _rewritten(ctx: Context, last_removal: Event | None) -> str | None:
    """An agent call that writes the logger's output itself (not the logger program it started)
    after the last cart was removed: the captures it holds may have been written after the fact."""
    model = ctx.evidence.provenance
    if not isinstance(model, Provenance) or last_removal is None:
        return None
    calls = {call.call_id: call for call in ctx.calls}
    for write in model.writers("agent_logger"):
        call = calls.get(write.call_id)
        # a qualified write ("(may write)", "(a path that is no literal)") is a fail-closed guess
        if write.agent and "(" not in write.how and call is not None:
            if compare(call, last_removal) == AFTER:
                return (
                    f"agent call {write.call_id} writes the logger's output ({write.how}) after the last cart "
                    f"was removed ({last_removal.ref}): its captures may have been written after the fact"
                )
    return None


def _inventory_problem(capture: Event, recorded: tuple[str, list[Item]] | None) -> str | None:
    """Why the capture's items are no usable record of the cart: none, not an item list, or a
    list the test mod's own inventory of the cart (what it held when removed) contradicts."""
    raw = capture.get("items")
    if raw is None:
        return "carries no items list"
    try:
        items = normalize_items(raw)
    except ItemError as exc:
        return f"carries no usable items list ({exc})"
    if recorded is not None and not same_items(items, recorded[1]):
        ref, expected = recorded
        return (
            f"lists [{', '.join(i.label(slot=True) for i in items)}] but the test mod recorded "
            f"[{', '.join(i.label(slot=True) for i in expected)}] ({ref})"
        )
    return None


FLAG = FlagDefinition(NAME, evaluate)
