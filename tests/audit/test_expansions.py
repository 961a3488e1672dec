"""Names spelled at run time (audit/evidence/expansions.py): escapes, hex, joined literals,
glob classes, brace expansion and command lines inside code, each read fail closed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence import expansions
from pytest_coldstart.audit.evidence.encoded import with_decoded


def readings(text: str) -> list[str]:
    return list(expansions.readings(text))


@pytest.mark.parametrize(
    "text, reading",
    [
        ("cp a \"$(printf '\\x74est/t.jsonl')\"", "cp a \"$(printf 'test/t.jsonl')\""),
        ("echo -e '\\0164est' > x", "echo -e 'test' > x"),
        ("cp a $'\\u0074est/x'", "cp a $'test/x'"),
        (
            "open(bytes.fromhex('6f7261636c652e6a736f6e').decode(), 'w')",
            "open(bytes.fromhex('oracle.json').decode(), 'w')",
        ),
        ("shutil.copy('a', 'ora' + 'cle.json')", "shutil.copy('a', 'oracle.json')"),
        ("$x = 'ora' . 'cle.json';", "$x = 'oracle.json';"),
        ("open(os.path.join('test', 't.jsonl'), 'a')", "open('test/t.jsonl', 'a')"),
        ("open('/'.join(['test', 't.jsonl']), 'a')", "open('test/t.jsonl', 'a')"),
        ("''.join(['ora', 'cle.json'])", "'oracle.json'"),
        ("Path('test', 't.jsonl').write_text(x)", "Path('test/t.jsonl').write_text(x)"),
        ("(Path('test') / 't.jsonl').write_text(x)", "(Path('test/t.jsonl')).write_text(x)"),
        ("cp a t[e]st/x", "cp a t?st/x"),
    ],
)
def test_a_spelled_name_is_read_as_the_name(text, reading):
    assert readings(text)[0] == reading


def test_brace_expansion_reads_each_alternative_and_stays_bounded():
    assert readings("tee te{s,x}t/f") == ["tee test/f", "tee text/f"]
    assert set(readings("cp {a,b}/{c,d} x")) == {"cp a/c x", "cp a/d x", "cp b/c x", "cp b/d x"}
    many = " ".join("{" + ",".join("abcdefgh") + "}" for _ in range(6))  # 8**6 combinations
    assert 0 < len(readings(many)) <= 6 * 8
    assert readings('echo {"a": 1, "b": 2}') == []  # a JSON object is no brace expansion


@pytest.mark.parametrize(
    "text, command",
    [
        ("python3 -c \"import os; os.system('cp a test/t.jsonl')\"", "cp a test/t.jsonl"),
        ("subprocess.run(['cp', 'a', 'test/t.jsonl'])", "cp a test/t.jsonl"),
        ("require('child_process').execSync(`rm -f oracle.json`)", "rm -f oracle.json"),
        ("echo 'cp a oracle.json' > s.sh && bash s.sh", "cp a oracle.json"),
    ],
)
def test_a_command_line_inside_code_is_read_as_a_text(text, command):
    assert command in readings(text)


@pytest.mark.parametrize(
    "text, spelled",
    [
        ("import shutil as s; s.copy('/tmp/f', 'test/t.jsonl')", "shutil.copy('/tmp/f', 'test/t.jsonl')"),
        ("from shutil import copy; copy('/tmp/f', 'x')", "shutil.copy('/tmp/f', 'x')"),
        ("from shutil import copy as c; c('/tmp/f', 'x')", "shutil.copy('/tmp/f', 'x')"),
        ("f=open; f('test/t.jsonl', 'a')", "open('test/t.jsonl', 'a')"),
    ],
)
def test_pythons_other_names_for_what_it_imports_are_spelled_in_full(text, spelled):
    assert any(spelled in reading for reading in readings(text))


def test_perls_system_list_is_read_as_the_command_line_it_runs():
    assert "cp /tmp/f test/t.jsonl" in list(readings('perl -e \'system "cp", "/tmp/f", "test/t.jsonl"\''))


def test_plain_text_has_no_other_reading_and_decoding_keeps_the_text_first():
    assert readings("ls -la workspace") == []
    assert list(with_decoded(["cp a t[e]st/x"])) == ["cp a t[e]st/x", "cp a t?st/x"]


@pytest.mark.parametrize("digits", ["00010203", "zz", "6f7"])
def test_hex_that_is_no_readable_text_stays(digits):
    text = f"bytes.fromhex('{digits}')"
    assert all(digits in r for r in readings(text)) or readings(text) == []


@given(st.text(alphabet=st.sampled_from(list("ab{},[]'\"+.\\x0123/ ()$`hexjoinPath")), max_size=200))
def test_any_text_has_bounded_readings_without_a_crash(text):
    out = readings(text)
    assert all(isinstance(r, str) for r in out)
    assert len(out) <= 1 + expansions._MAX_BRACES * expansions._MAX_GROUPS + expansions._MAX_EMBEDDED


@pytest.mark.parametrize(
    ("text", "reading"),
    [
        ("x=ORACLE.json; cat ${x,,}", "x=ORACLE.json; cat oracle.json"),
        ("x=oracle.JSON; cat ${x^^}", "x=oracle.JSON; cat ORACLE.JSON"),
        ("x=Oracle.json; cat ${x,}", "x=Oracle.json; cat oracle.json"),
    ],
)
def test_a_case_changing_expansion_reads_the_changed_value(text, reading):
    assert readings(text)[0] == reading


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ('ruby -e \'x="ora"; puts File.read("#{x}cle.json")\'', "oracle.json"),
        ('perl -e \'$x="ora"; open F, "${x}cle.json"\'', "oracle.json"),
        ('perl -e \'my $x = "ora"; open F, "${x}cle.json"\'', "oracle.json"),
        ('awk \'BEGIN{f="ora" "cle.json"; getline l < f}\'', "oracle.json"),
        ('awk \'BEGIN{print "te" "st/" "testmod.jsonl"}\'', "test/testmod.jsonl"),
    ],
)
def test_interpolations_and_juxtaposed_literals_are_read_joined(text, name):
    assert any(name in reading for reading in readings(text)), readings(text)


def test_a_perl_assignment_of_an_expression_is_no_literal_value():
    assert "x" not in expansions.assignments("$x = 'ora' . 'cle.json';")
    assert expansions.assignments('$x = "ora";') == {"x": "ora"}


@pytest.mark.parametrize(
    "text, name",
    [
        ('cmd /c "set A=orac& set B=le.json& call type %A%%B%"', "type oracle.json"),
        ("set a=orac\nset B=le.json\ntype %A%%b%", "type oracle.json"),  # cmd folds case
        ('cmd /v:on /c "set A=orac& set B=le.json& type !A!!B!"', "type oracle.json"),
        ('set "F=oracle.json"\ncall type %%F%%', "type oracle.json"),
        ("set F=oracle.json & type %F:~0,11%", "type *"),  # a part of it: any name
    ],
)
def test_cmd_variables_are_read_as_their_values(text, name):
    assert any(name in reading for reading in expansions.readings(text))


def test_cmd_variables_carry_and_unknown_ones_stay():
    assert expansions.assignments("set RUN=oracle.json & type %RUN%")["%RUN"] == "oracle.json"
    assert list(expansions.readings("date +%Y%m%d && echo %PATH%")) == []


@given(st.text(alphabet='set AB=%!:~&\n"', max_size=200))
def test_cmd_readings_never_fail(text):
    for reading in expansions.readings(text):
        assert isinstance(reading, str)


@pytest.mark.parametrize(
    "text",
    [
        "printf 'r oracle.json\\n,p\\nq\\n' | ed -s",
        "printf 'e oracle.json\\n%%p\\n' | ex -s",
        "echo -e 'cat oracle.json\\n' | sh",
    ],
)
def test_escaped_line_breaks_fed_to_a_runner_end_the_name(text: str) -> None:
    assert any(" oracle.json " in reading for reading in expansions.readings(text))


@pytest.mark.parametrize(
    "text",
    ["printf 'see oracle.json\\n' | tee notes.md", "printf 'see oracle.json\\n' > notes.md", "echo 'a\\nb' | ed"],
)
def test_escaped_line_breaks_printed_only_have_no_such_reading(text: str) -> None:
    assert not any(" oracle.json " in reading for reading in expansions.readings(text))
