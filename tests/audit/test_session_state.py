"""Shell state carried from call to call: variables, functions, aliases (session_state)."""

from __future__ import annotations

import pytest

from pytest_coldstart.audit.evidence import session_state
from pytest_coldstart.audit.evidence.encoded import with_decoded
from pytest_coldstart.audit.evidence.expansions import valued_text


def _carried(*calls: str) -> dict[str, str]:
    state: dict[str, str] = {}
    for call in calls:
        session_state.carry(call, state)
    return state


@pytest.mark.parametrize(
    "calls, use, reading",
    [
        (["F=oracle"], "cat ${F}.json", "cat oracle.json"),
        (["export F=oracle"], "cat $F.json", "cat oracle.json"),
        (["declare -x F=oracle"], 'cat "$F.json"', 'cat "oracle.json"'),
        (["F=ora", "F+=cle"], "cat $F.json", "cat oracle.json"),
        (['F="ora""cle"'], "cat $F.json", "cat oracle.json"),
        (["A=(oracle json)"], "cat ${A[0]}.${A[1]}", "cat oracle.json"),
        (["F=xxoracle"], "cat ${F:2}.json", "cat oracle.json"),
        (["G=oracle", "F=G"], "cat ${!F}.json", "cat oracle.json"),
        (["F=$(ls | grep ora)"], "cat $F", "cat $(ls | grep ora)"),
        (["read -r F < /tmp/n"], "cat $F.json", "cat $(cat /tmp/n).json"),
        (["printf -v F '%s' oracle"], "cat $F.json", "cat $(printf '%s' oracle).json"),
    ],
)
def test_a_variable_an_earlier_call_made_is_read_in_a_later_one(calls, use, reading):
    assert valued_text(use, _carried(*calls)) == reading


@pytest.mark.parametrize(
    "calls, use, body",
    [
        (["show() { cat $1.json; }"], "show oracle", "cat oracle.json"),
        (["function show { cat ora$1; }"], "ls; show cle.json", "cat oracle.json"),
        (["alias show='cat $F.json'", "F=oracle"], "show", "cat oracle.json"),
        ([], "f() { cat $1.json; }; f oracle", "cat oracle.json"),
    ],
)
def test_a_kept_function_or_alias_is_read_where_a_call_runs_it(calls, use, body):
    assert any(body in text for text in with_decoded([use], _carried(*calls)))


def test_the_state_is_bounded_and_the_newest_kept():
    state = _carried(*(f"V{i}=x" for i in range(session_state.MAX_STATE + 10)), "F=oracle")
    assert len(state) == session_state.MAX_STATE and state["F"] == "oracle" and "V0" not in state


def test_a_default_naming_a_carried_variable_is_read_with_its_value():
    assert "cat oracle.json" in with_decoded(["cat ${F:-$G}.json"], _carried("G=oracle"))


def test_a_name_printed_is_no_function_run():
    state = _carried("F=oracle", "say() { echo $@; }")
    assert not any("oracle.json" in text for text in with_decoded(['echo "checked $F"'], state))


@pytest.mark.parametrize(
    "code",
    [
        "open(os.environ['F'] + '.json')",
        'open(os.getenv("F") + ".json")',
        "fs.readFileSync(process.env.F + '.json')",
    ],
)
def test_code_reading_a_carried_environment_variable_reads_its_value(code):
    assert "'oracle'" in valued_text(code, _carried("export F=oracle")).replace('"', "'")
