"""The provenance rules of the lab's files and of the agent logger (``Provenance.judge``).

- The run's record, its reviews and its preflight are the lab's: an agent call that writes one
  (or its exact bytes) leaves the audit nothing independent to stand on (INFRA_ERROR).
- The agent logger must be the agent's capture: not byte-identical to test-side evidence, not
  copied or redirected from it, and written, built or started by an agent call (AGENT_FAIL).
- The answer must be the agent's: a call of the operator, the harness or the test side that
  writes it (other than a copy of a file the agent wrote) makes it someone else's (AGENT_FAIL).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pytest_coldstart.audit.evidence import lab_record
from pytest_coldstart.audit.evidence.lab_record import LAB_SIDE, RECORD
from pytest_coldstart.audit.evidence.program_writes import MAY_WRITE

if TYPE_CHECKING:
    from pytest_coldstart.audit.evidence.provenance import Provenance

TEST_SIDE = ("test_mod", "oracle", "fixture", "restore")


@dataclass(frozen=True)
class Violation:
    name: str  # the declaration
    klass: str  # INFRA_ERROR | FIXTURE_INVALID | AGENT_FAIL
    text: str
    ref: str | None  # trajectory:<call_id> of the call it names, when there is one


def lab_side_violations(
    model: Provenance, hashes: dict[str, str], agent_written: dict[str, tuple[str, str]]
) -> list[Violation]:
    """The run's record, its reviews and its preflight are the lab's: an agent call that
    writes one (or its exact bytes) leaves the audit nothing independent to stand on."""
    out: list[Violation] = []
    ws = model.workspace
    for name in LAB_SIDE:
        agent = [(w, k) for k in sorted(model.keys.get(name, ())) for w in model.writes.get(k, []) if w.agent]
        if name == RECORD:
            inside = ((ws.inside(k), k) for k in model.agent_paths)
            agent += [
                (w, k)
                for relative, k in inside
                if relative is not None and lab_record.in_record_dir(relative)
                for w in model.writes.get(k, [])
                if w.agent
            ]
        what = "the run's record" if name == RECORD else f"{name} evidence"
        if agent:
            write, key = min(agent, key=lambda pair: (pair[0].order, pair[1]))
            where = ws.inside(key) or key
            out.append(
                Violation(
                    name,
                    "INFRA_ERROR",
                    f"{what} is agent-written: agent call {write.call_id} writes {where} ({write.how}); "
                    "the run's record, its reviews and its preflight are the lab's, never the agent's",
                    f"trajectory:{write.call_id}",
                )
            )
            continue
        found = hashes.get(name)
        if name != RECORD and found is not None and found in agent_written:
            text, ref = agent_written[found]
            out.append(
                Violation(
                    name,
                    "INFRA_ERROR",
                    f"{what} is byte-identical to {text}: the lab's evidence must not be agent-written",
                    ref if ref.startswith("trajectory:") else None,
                )
            )
    return out


def logger_violations(
    model: Provenance, hashes: dict[str, str], logger_armed: bool, logger_hashes: Sequence[str] = ()
) -> list[Violation]:
    if "agent_logger" not in model.keys:
        return []
    shas = {*logger_hashes, *([hashes["agent_logger"]] if "agent_logger" in hashes else [])}
    for name in TEST_SIDE:
        if hashes.get(name) in shas:
            return [
                Violation(
                    "agent_logger",
                    "AGENT_FAIL",
                    f"the agent logger is byte-identical to the {name} evidence: test-side observation, not the agent's capture",
                    None,
                )
            ]
    test_keys = {key for name in TEST_SIDE for key in model.keys.get(name, ())}
    writers = model.writers("agent_logger")
    for write in writers:
        if write.source is not None and write.source in test_keys:
            return [
                Violation(
                    "agent_logger",
                    "AGENT_FAIL",
                    f"call {write.call_id} copies test-side evidence onto the agent logger ({write.how}): "
                    "test-side observation, not the agent's capture",
                    f"trajectory:{write.call_id}",
                )
            ]
        if write.call_id in model.laundered:
            return [
                Violation(
                    "agent_logger",
                    "AGENT_FAIL",
                    f"call {write.call_id} writes the agent logger and reads {model.laundered[write.call_id]} "
                    f"evidence ({write.how}): test-side observation, not the agent's capture",
                    f"trajectory:{write.call_id}",
                )
            ]
    if not logger_armed and not any(w.agent and not w.how.endswith(MAY_WRITE) for w in writers):
        return [
            Violation(
                "agent_logger",
                "AGENT_FAIL",
                "the agent logger is not agent-written: no agent call writes it or builds/starts the logger",
                None,
            )
        ]
    return []


def answer_violations(model: Provenance) -> list[Violation]:
    """The answer is the agent's: no other actor writes it after the agent last did, except by
    copying a file the agent wrote (an operator carrying the agent's answer out of its workspace);
    a placeholder the agent then writes over stays the agent's answer."""
    writers = model.writers("answer")
    last_agent = max((w.order for w in writers if w.agent), default=-1)
    for write in writers:
        if write.agent or write.how.endswith(MAY_WRITE) or write.order < last_agent:
            continue
        if write.source is not None and write.source in model.agent_paths:
            continue
        return [
            Violation(
                "answer",
                "AGENT_FAIL",
                f"the answer is not the agent's: call {write.call_id}, not the agent's, writes it ({write.how})",
                f"trajectory:{write.call_id}",
            )
        ]
    return []


def refuse(flag: Any, evidence: Any, name: str, missing: str) -> Any:
    """Fail ``flag`` (a FlagResult) when the provenance rules refuse the ``name`` evidence
    with the AGENT_FAIL class; None otherwise."""
    refusal = getattr(getattr(evidence, "provenance", None), "refusal", None)
    violation = refusal(name) if callable(refusal) else None
    if not isinstance(violation, Violation) or violation.klass != "AGENT_FAIL":
        return None
    return flag.fail(violation.text, [missing], [violation.ref] if violation.ref else None)
