"""Adversarial scenarios: an answer someone other than the agent wrote.

The answer is the agent's claim; an operator, the harness or the test side that writes the answer
file after the agent did makes it someone else's, however right it is. An operator who copies the
file the agent wrote out of its workspace, or a placeholder the agent then writes over, leaves it
the agent's (honest controls).
"""

from __future__ import annotations

from typing import Any

from pytest_coldstart.demo.scenarios import story
from pytest_coldstart.demo.scenarios.adversarial_edits import F, P, S
from pytest_coldstart.demo.scenarios.builder import RunBuilder
from pytest_coldstart.demo.scenarios.catalogue import Scenario, _flags

AUTHOR = (
    "Actors are operator, test, agent, restore, harness, reviewer. This is how 'test preparation', "
    "'agent operation' and 'copy restoration' stay distinguishable in one file (seed §4)"
)
NOT_THE_AGENTS = "the answer is not the agent's"


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


_FIXED = '{"carts": []}'

ANSWER_AUTHORS: list[Scenario] = [
    S(
        "answer_rewritten_by_the_operator",
        "after the agent wrote its answer, an operator call writes answer.json with the write tool",
        _calls((23.0, "operator", "agent", "Write", {"file_path": "answer.json", "content": _FIXED})),
        F,
        "AGENT_FAIL",
        _flags(ac=F),
        NOT_THE_AGENTS,
        AUTHOR,
    ),
    S(
        "answer_edited_by_the_harness_after_the_run",
        "in the audit phase a harness call edits one count in answer.json with sed -i",
        _calls((23.0, "harness", "audit", "bash", {"command": 'sed -i \'s/"count": 4/"count": 5/\' answer.json'})),
        F,
        "AGENT_FAIL",
        _flags(ac=F),
        NOT_THE_AGENTS,
        AUTHOR,
    ),
    S(
        "answer_copied_in_by_the_test_side",
        "a test-side call copies a file of its own over answer.json",
        _calls((23.0, "test", "agent", "bash", {"command": "cp /srv/lab/expected.json answer.json"})),
        F,
        "AGENT_FAIL",
        _flags(ac=F),
        NOT_THE_AGENTS,
        AUTHOR,
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
]
