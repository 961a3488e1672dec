"""Reviewer names: a respelled agent name or placeholder is the name it looks like; people stay people."""

from __future__ import annotations

import pytest
from core_helpers import new_run, recorder

from pytest_coldstart.run.errors import UsageError
from pytest_coldstart.run.reviewers import agent_names, is_the_agent, skeleton, unnamed

MANIFEST = {"harness": {"name": "pi", "model": "deepseek/deepseek-flash", "provider": "deepseek"}}
AGENTS = agent_names(MANIFEST, ["Romuser"])

#: the agent's own names with an invisible or look-alike character, punctuation or other separators
AGENT_SPELLINGS = [
    "a\u200bgent",
    "ag\u00adent",
    "\u0430gent",  # Cyrillic a
    "agent.",
    "AGENT!",
    "p\u0456",  # Cyrillic i
    "\u03a1I",  # Greek capital rho
    "deepseek-flash.",
    "DeepSeek Flash",
    "deepseek_flash",
    "R\u043emuser",  # Cyrillic o
    "romuser\u200b",
    "Romuser.",
    "'agent'",
    "<agent>",
    "agent\u3164",
    "a\u0301gent",
]

PLACEHOLDER_SPELLINGS = [
    "'reviewer name'",
    '"reviewer name"',
    "<reviewer name>",
    "[reviewer name]",
    "reviewer_name",
    "Reviewer-Name",
    "N.A.",
    "n / a",
    "n\u200b/a",
    "-",
    "?",
    "\u3164",
    "(none)",
]

PEOPLE = ["Pia Lindqvist (pi)", "José Núñez", "Jose Nunez", "李雷", "P", "x", "Ørjan Ødegård", "O'Brien", "Agentha"]


@pytest.mark.parametrize("name", AGENT_SPELLINGS)
def test_the_agents_name_respelled_is_the_agent(name):
    assert is_the_agent(name, AGENTS) and not unnamed(name)


@pytest.mark.parametrize("name", PLACEHOLDER_SPELLINGS)
def test_a_placeholder_respelled_names_no_one(name):
    assert unnamed(name)


@pytest.mark.parametrize("name", PEOPLE)
def test_people_are_named_and_not_the_agent(name):
    assert not unnamed(name) and not is_the_agent(name, AGENTS)


def test_the_skeleton_keeps_letters_of_any_script_and_drops_the_rest():
    assert skeleton("José Núñez") == "josenunez"
    assert skeleton("李雷") == "李雷"
    assert skeleton("<Reviewer-Name>") == "reviewername"


def test_the_recorder_refuses_the_same_spellings(tmp_path):
    rec = recorder(new_run(tmp_path / "run"))
    harness = rec.manifest["harness"]
    for name in (f"{harness['name']}.", "a\u200bgent", f"<{harness['model']}>", "\u0430gent"):
        with pytest.raises(UsageError, match="the run's own agent"):
            rec.review("machine_operated.causality", "resolved", name, evidence=["trajectory:c0"])
    for name in ("<reviewer name>", "'reviewer name'", "N.A."):
        with pytest.raises(UsageError, match="names no one"):
            rec.review("machine_operated.causality", "resolved", name, evidence=["trajectory:c0"])
    assert rec.review("machine_operated.causality", "resolved", "José Núñez", evidence=["trajectory:c0"])["by"]


def test_a_long_run_of_combining_marks_is_cut_to_the_stream_safe_bound():
    # normalization sorts a run of marks in quadratic time; the skeleton drops marks anyway
    from pytest_coldstart.run.reviewers import _SAFE_RUN, _stream_safe, skeleton

    hostile = "r" + "\u0316\u0301" * 50_000
    assert len(_stream_safe(hostile)) == 1 + _SAFE_RUN
    assert skeleton(hostile) == "r" == skeleton("r\u0316\u0301")
    assert skeleton("José Núñez") == skeleton("jose nunez")
