"""Adversarial scenarios: another actor's work credited to the agent.

The answer is the agent's claim; an operator, the harness or the test side that writes the answer
file after the agent did makes it someone else's, however right it is. An operator who copies the
file the agent wrote out of its workspace, or a placeholder the agent then writes over, leaves it
the agent's (honest controls). A causality review that credits an operator's use of the machine,
or names no agent call at all, does not show the agent operated it.
"""

from __future__ import annotations

from typing import Any

from pytest_coldstart.demo.scenarios import story
from pytest_coldstart.demo.scenarios.adversarial_edits import F, P, S, W
from pytest_coldstart.demo.scenarios.builder import RunBuilder
from pytest_coldstart.demo.scenarios.catalogue import Scenario, _flags

AUTHOR = (
    "Actors are operator, test, agent, restore, harness, reviewer. This is how 'test preparation', "
    "'agent operation' and 'copy restoration' stay distinguishable in one file (seed §4)"
)
NOT_THE_AGENTS = "the answer is not the agent's"
CAUSALITY = 'Causality ("this traced call is what the test mod processed") ... is a required review (seed §5)'
_OPERATOR_USE = (
    9.8,
    "operator",
    "agent",
    "bridge",
    {"command": "player Romuser use once", "target": "note_block 11,-54,-23"},
)


def _causality_citing(*evidence: str) -> Any:
    def configure(b: RunBuilder) -> RunBuilder:
        _calls(_OPERATOR_USE)(b)
        b.mutate_reviews(lambda reviews: reviews[0].update(evidence=list(evidence)))
        return b

    return configure


def _calls(*calls: tuple[float, str, str, str, dict[str, Any]]) -> Any:
    """Calls (seconds, actor, phase, tool, arguments) added before the audit phase, in time order."""

    def configure(b: RunBuilder) -> RunBuilder:
        b.passing()
        for number, (seconds, actor, phase, tool, arguments) in enumerate(calls):
            call_id = f"c-{actor}-{number}"
            where = next(i for i, r in enumerate(b.records) if r.get("at", "") > story.at(seconds))
            common = {"phase": phase, "actor": actor}
            b.records[where:where] = [
                {
                    "record": "call",
                    "call_id": call_id,
                    "tool": tool,
                    "arguments": arguments,
                    **common,
                    "at": story.at(seconds),
                },
                {
                    "record": "result",
                    "call_id": call_id,
                    "status": "ok",
                    "result": {"text": "done"},
                    **common,
                    "at": story.at(seconds + 0.1),
                },
            ]
        return b

    return configure


def _not_the_agents(name: str, description: str, call: tuple[float, str, str, str, dict[str, Any]]) -> Scenario:
    """Another actor writes the answer after the agent did."""
    return S(name, description, _calls(call), F, "AGENT_FAIL", _flags(ac=F), NOT_THE_AGENTS, AUTHOR)


_FIXED = '{"carts": []}'

OTHER_ACTORS: list[Scenario] = [
    _not_the_agents(
        "answer_rewritten_by_the_operator",
        "after the agent wrote its answer, an operator call writes answer.json with the write tool",
        (23.0, "operator", "agent", "Write", {"file_path": "answer.json", "content": _FIXED}),
    ),
    _not_the_agents(
        "answer_edited_by_the_harness_after_the_run",
        "in the audit phase a harness call edits one count in answer.json with sed -i",
        (23.0, "harness", "audit", "bash", {"command": 'sed -i \'s/"count": 4/"count": 5/\' answer.json'}),
    ),
    _not_the_agents(
        "answer_copied_in_by_the_test_side",
        "a test-side call copies a file of its own over answer.json",
        (23.0, "test", "agent", "bash", {"command": "cp /srv/lab/expected.json answer.json"}),
    ),
    S(
        "answer_carried_out_by_the_operator_control",
        "honest control: the agent writes workspace/answer.json, the operator copies it to the run's answer.json",
        _calls(
            (22.5, "agent", "agent", "Write", {"file_path": "workspace/answer.json", "content": _FIXED}),
            (23.0, "operator", "audit", "bash", {"command": "cp workspace/answer.json answer.json"}),
        ),
        P,
        None,
        _flags(),
        "the answer equals the verified oracle",
        AUTHOR,
    ),
    S(
        "answer_placeholder_by_the_operator_control",
        "honest control: the operator leaves an empty answer.json before the agent starts; the agent writes over it",
        _calls((3.0, "operator", "prepare", "bash", {"command": "echo '{}' > answer.json"})),
        P,
        None,
        _flags(),
        "the answer equals the verified oracle",
        AUTHOR,
    ),
    S(
        "causality_credited_to_the_operator",
        "an operator uses the machine just before the agent's call; the causality review cites the operator's call",
        _causality_citing("trajectory:c-operator-0", "testmod:seq5"),
        W,
        None,
        _flags(mo=W),
        "trajectory:c-operator-0: not an agent call",
        CAUSALITY,
    ),
    S(
        "causality_review_cites_no_call",
        "the causality review cites only the test mod's processing record, no traced call",
        _causality_citing("testmod:seq5"),
        W,
        None,
        _flags(mo=W),
        "it cites no agent call",
        CAUSALITY,
    ),
    S(
        "causality_beside_an_operator_use_control",
        "honest control: an operator call uses the machine too, but the review cites the agent's call",
        _causality_citing("trajectory:c-actuate", "testmod:seq5"),
        P,
        None,
        _flags(),
        "the answer equals the verified oracle",
        CAUSALITY,
    ),
]
