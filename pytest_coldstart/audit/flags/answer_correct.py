"""answer_correct: the answer matches a verified oracle cart by cart (ordered, normalised
items), covers exactly the oracle's carts, and the oracle's refs resolve to independent
game-side evidence (R4, R8). The oracle's free-text ``source`` decides nothing. An agent call
that names the oracle's file (reads, copies or lists it) fails the flag: the standard answer
was within the agent's reach."""

from __future__ import annotations

from typing import Any

from pytest_coldstart.audit.evidence.inventory import (
    ItemError,
    carts_of,
    components_unchecked,
    normalize_items,
    same_item,
)
from pytest_coldstart.audit.evidence.provenance_rules import refuse
from pytest_coldstart.audit.flags.base import Context, FlagDefinition, require
from pytest_coldstart.audit.model import FlagResult
from pytest_coldstart.run.jsonio import type_name
from pytest_coldstart.run.vocabulary import FlagName, ReviewId

SHOWN = 6
#: keys beside ``status: verified`` that can say the oracle is not verified yet
NOT_YET_KEYS = ("verified", "pending", "unverified")


def _says_not_yet(key: str, value: Any) -> bool:
    if value is None:
        return False
    return value is not True if key == "verified" else value is not False


NAME = FlagName.ANSWER_CORRECT


def evaluate(ctx: Context) -> FlagResult:
    flag = FlagResult(NAME)
    if not ctx.evidence.declared("answer"):
        return flag.fail("no answer is declared: the agent produced no answer", ["answer"])
    answer = ctx.document("answer")
    if answer is None:
        return flag.fail("the declared answer is unusable (see infra_errors)", ["answer"])
    try:
        carts = carts_of(answer)
    except ItemError as exc:
        return flag.fail(f"the answer is ambiguous: {exc}", ["answer:carts"], ["answer"])
    if not isinstance(carts, list) or not carts:
        return flag.fail("the answer has no non-empty carts list", ["answer:carts"], ["answer"])
    if refuse(flag, ctx.evidence, "answer", "answer:the-agent's") is not None:
        return flag
    if not ctx.evidence.declared("oracle"):
        return flag.pending("no oracle is declared yet: correctness cannot be judged", ["oracle"])
    oracle = ctx.document("oracle")
    if oracle is None:
        return flag.pending("the declared oracle is unusable (see infra_errors)", ["oracle"])
    refused: FlagResult | None = refuse(flag, ctx.evidence, "oracle", "oracle:independent")
    if refused is not None:
        return refused
    peek = next((call for call in ctx.calls if call.names_oracle), None)
    if peek is not None:
        return flag.fail(
            f"agent call {peek.call_id} names the oracle's file: the standard answer was within the agent's "
            "reach (seed §3), so an answer that matches it proves nothing",
            ["oracle:out-of-reach"],
            [peek.ref, "oracle"],
        )
    if ctx.oracle_reads_elsewhere:
        call_id, why = ctx.oracle_reads_elsewhere[0]
        return flag.fail(
            f"agent call {call_id} names the oracle's file ({why}, but it ran): the standard answer was within "
            "the agent's reach (seed §3)",
            ["oracle:out-of-reach"],
            [f"trajectory:{call_id}", "oracle"],
        )
    status = oracle.get("status")
    if not isinstance(status, str) or status.strip().lower() != "verified":
        return flag.pending(
            f"the oracle is not verified (status {status!r}); correctness is not claimed early", ["oracle:verified"]
        )
    doubt = next((f"{key}: {oracle[key]!r}" for key in NOT_YET_KEYS if _says_not_yet(key, oracle.get(key))), None)
    if doubt is not None:  # the oracle says "verified" and, in another key, "not yet"
        return flag.pending(
            f"the oracle's status says verified but its {doubt} says not yet; correctness is not claimed early",
            ["oracle:verified"],
        )
    refs = oracle.get("evidence_refs")
    if refs is not None and not isinstance(refs, list):  # a malformed oracle is the tools', not the agent's
        ctx.findings.infra(f"oracle: evidence_refs must be a list of refs, got {type_name(refs)}")
    if not isinstance(refs, list) or not refs:
        return flag.fail(
            "the oracle names no evidence_refs: nothing ties it to game-side evidence",
            ["oracle:evidence_refs"],
            ["oracle"],
        )
    resolved = [ctx.index.resolve(ref) for ref in refs]
    problems = [r.problem for r in resolved if r.problem and r.source not in ("trajectory", "logger", "answer")]
    if problems:
        return flag.pending(
            "the oracle's evidence refs do not resolve: " + "; ".join(problems[:SHOWN]), ["oracle:evidence_refs"]
        )
    independent = [r.ref for r in resolved if r.independent]
    if not independent:
        return flag.fail(
            "the oracle has no independent game-side evidence ref (agent-side refs never count)",
            ["oracle:independent-ref"],
            ["oracle"],
        )
    unverified = [name for name in ("fixture", "restore") if ctx.evidence.states.get(name) == "pending"]
    if unverified and all(ctx.evidence.declared(name) for name in unverified):
        return flag.pending(
            f"the {' and '.join(unverified)} report is new or unverified: the oracle stays pending and correctness is not claimed early",
            [f"{name}:verified" for name in unverified],
        )
    oracle_carts = _oracle_carts(ctx, oracle)
    if oracle_carts is None:
        return flag.pending("the oracle's carts are unusable (see infra_errors)", ["oracle:carts"])
    if not oracle_carts:
        return flag.fail("the verified oracle lists no carts", ["oracle:carts"], ["oracle"])
    evidence = ["oracle"] + [f"oracle:{ref}" for ref in independent[:SHOWN]] + ["answer"]
    mismatch = _compare(ctx, flag, carts, oracle_carts, evidence)
    if mismatch is not None:
        return mismatch
    flag.ok(
        f"the answer equals the verified oracle for {len(oracle_carts)} cart(s) and covers every oracle cart", evidence
    )
    require(flag, ReviewId.ANSWER_CORRECT_ORACLE_INDEPENDENCE)
    return flag


def _oracle_carts(ctx: Context, oracle: dict[str, Any]) -> dict[str, list[Any]] | None:
    try:
        carts = carts_of(oracle)
    except ItemError as exc:
        ctx.findings.infra(f"evidence oracle: {exc}")
        return None
    if not isinstance(carts, list):
        ctx.findings.infra(f"evidence oracle: carts must be a list, got {type_name(carts)}")
        return None
    out: dict[str, list[Any]] = {}
    for number, cart in enumerate(carts, 1):
        uuid = cart.get("uuid") if isinstance(cart, dict) else None
        if not isinstance(uuid, str) or not uuid.strip():
            ctx.findings.infra(f"evidence oracle: cart {number} has no uuid string")
            return None
        key = uuid.strip().lower()
        if key in out:
            ctx.findings.infra(f"evidence oracle: cart uuid {uuid} appears twice (the oracle is ambiguous)")
            return None
        try:
            out[key] = normalize_items(cart.get("items"))
        except ItemError as exc:
            ctx.findings.infra(f"evidence oracle: cart {uuid}: {exc}")
            return None
    return out


def _compare(
    ctx: Context, flag: FlagResult, carts: list[Any], oracle: dict[str, list[Any]], evidence: list[str]
) -> FlagResult | None:
    answered: dict[str, Any] = {}
    malformed, duplicates = [], []
    for number, cart in enumerate(carts, 1):
        uuid = cart.get("uuid") if isinstance(cart, dict) else None
        if not isinstance(uuid, str) or not uuid.strip():
            malformed.append(f"cart {number} has no uuid")
            continue
        key = uuid.strip().lower()
        if key in answered:
            duplicates.append(uuid)
            continue
        answered[key] = cart.get("items")
    if duplicates:
        return flag.fail(
            f"the answer repeats cart(s): {', '.join(duplicates[:SHOWN])}", ["answer:unique-carts"], evidence
        )
    if malformed:
        return flag.fail("the answer is malformed: " + "; ".join(malformed[:SHOWN]), ["answer:carts"], evidence)
    omitted = [u for u in oracle if u not in answered]
    if omitted:
        return flag.fail(
            f"the answer omits {len(omitted)} oracle cart(s): {', '.join(omitted[:SHOWN])}",
            [f"answer:missing:{u}" for u in omitted],
            evidence,
        )
    extra = [u for u in answered if u not in oracle]
    if extra:
        return flag.fail(
            f"the answer names cart(s) absent from the oracle: {', '.join(extra[:SHOWN])}",
            [f"answer:extra:{u}" for u in extra],
            evidence,
        )
    mismatches, unchecked = [], []
    for uuid, raw in answered.items():
        try:
            items = normalize_items(raw)
        except ItemError as exc:
            mismatches.append(f"{uuid}: {exc}")
            continue
        expected = oracle[uuid]
        if len(items) != len(expected) or not all(
            same_item(a, b) and not (b.components and not a.components) for a, b in zip(items, expected, strict=False)
        ):
            mismatches.append(
                f"{uuid}: answered [{', '.join(i.label(slot=True) for i in items)}], "
                f"oracle [{', '.join(i.label(slot=True) for i in expected)}]"
            )
        elif components_unchecked(items, expected):
            unchecked.append(uuid)
    if mismatches:
        return flag.fail(
            f"{len(mismatches)} cart(s) differ from the oracle: " + "; ".join(mismatches[:SHOWN]),
            [f"answer:cart:{m.split(':', 1)[0]}" for m in mismatches],
            evidence,
        )
    if unchecked:
        ctx.findings.info(
            f"answer_correct: item components (NBT) present on one side only were not compared for: {', '.join(unchecked[:SHOWN])}"
        )
    return None


FLAG = FlagDefinition(NAME, evaluate)
