"""Names Python code computes from literals (audit/evidence/folding.py): the folder reads what
an expression makes, never runs it, and stays bounded on any text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence import folding


def readings(text: str) -> list[str]:
    return list(folding.readings(text))


@pytest.mark.parametrize(
    "text",
    [
        "open(chr(111)+chr(114)+chr(97)+chr(99)+chr(108)+chr(101)+'.json')",
        "open('nosj.elcaro'[::-1])",
        "open('ora' 'cle.json')",
        "open('%s.json' % 'oracle')",
        "open('%s%s' % ('oracle', '.json'))",
        "open('{}.json'.format('oracle'))",
        "open('{0}.{1}'.format('oracle', 'json'))",
        "x = 'ora'\nopen(f'{x}cle.json')",
        "n = ['o', 'r', 'a', 'c', 'l', 'e']\nopen(''.join(n) + '.json')",
        "open(codecs.decode('benpyr.wfba', 'rot13'))",
        "open(''.join(map(chr, [111, 114, 97, 99, 108, 101])) + '.json')",
        "open(''.join([chr(c) for c in [111, 114, 97, 99, 108, 101]]) + '.json')",
        "open(''.join(chr(c + 1) for c in [110, 113, 96, 98, 107, 100]) + '.json')",
        "open(''.join(reversed('elcaro')) + '.json')",
        "open(bytes([111, 114, 97, 99, 108, 101]).decode() + '.json')",
        "open(bytes.fromhex('6f7261636c65').decode() + '.json')",
        "open('ORACLE.JSON'.lower())",
        "open('oracle.txt'.replace('txt', 'json'))",
        "x = 'ora'\nx += 'cle'\nopen(x + '.json')",
        "open(os.path.join('.', 'ora' + 'cle.json'))",
        "require('fs').readFileSync(String.fromCharCode(111, 114, 97, 99, 108, 101) + '.json')",
        "python3 -c \"x='ora'; print(open(f'{x}cle.json').read())\"",
        "python3 -c 'print(open(\"nosj.elcaro\"[::-1]).read())'",
        "python3 - <<'EOF'\nprint(open('nosj.elcaro'[::-1]).read())\nEOF",
    ],
)
def test_a_name_code_computes_is_read_as_a_literal(text):
    assert any("oracle.json'" in reading for reading in readings(text)), readings(text)


@pytest.mark.parametrize(
    "text",
    [
        "print('hello world')",  # nothing computed
        "open(x + '.json')",  # an unknown part: no value
        "open(input())",
        "print('a' * 2)",  # too short to name anything
        "ls -la; cat notes.txt",
        "x = 'oracle.json'\nopen(x)",  # the literal is there already: no news
    ],
)
def test_code_that_computes_no_new_name_has_no_reading(text):
    assert readings(text) == []


def test_the_reading_keeps_the_code_around_the_folded_expression():
    (reading,) = readings("f = open('lnosj.domtset/tset'[::-1], 'a'); f.write('{}')")
    assert reading == "f = open('test/testmod.jsonl', 'a'); f.write('{}')"


@pytest.mark.parametrize(
    "text",
    [
        "open('a' * 10**9)",
        "open('a' * 5000)",
        "open('%1000000000s' % 'x')",
        "open('{:>1000000000}'.format('x'))",
        "open('x'.replace('', 'y' * 4000))",
        "open(chr(10**12))",
        "open((1 << 10**6) and 'x')",
        "x = 'ab'\n" + "x = x + x\n" * 40 + "open(x)",
        "open(" * 500 + "'x'" + ")" * 500,
        "open(" + "+".join(["'ab'"] * 5000) + ")",
    ],
)
def test_hostile_expressions_fold_to_nothing_or_within_the_bound(text):
    for reading in readings(text):
        assert len(reading) <= len(text) + folding.MAX_CHARS + 2


def test_the_step_budget_bounds_a_long_text():
    text = "x = 'ab'[::-1] + chr(111); " * 4000 + "open(x + 'racle.json')"
    assert all(len(r) < 4 * len(text) for r in readings(text))


@pytest.mark.parametrize(
    "command",
    [
        "python3 -c \"print(open(chr(111)+'racle.json').read())\"",
        "python3 -c \"print(open('%s.json' % 'oracle').read())\"",
        "python3 -c \"x='ora'; print(open(f'{x}cle.json').read())\"",
        "python3 -c \"print(open('ora' 'cle.json').read())\"",
    ],
)
def test_the_naming_reads_the_folded_name(model, command):
    raw = ('"arguments": {"command": ' + __import__("json").dumps(command) + "}").lower().encode()
    assert model.may_matter(raw, "bash")
    assert "oracle" in model.names({"command": command})


@pytest.mark.parametrize(
    "command",
    [
        "python3 -c \"open('lnosj.domtset/tset'[::-1], 'a').write('x')\"",
        "python3 -c \"open('%s/%s.jsonl' % ('test', 'testmod'), 'a').write('x')\"",
        "python3 -c \"import codecs; open(codecs.decode('grfg/grfgzbq.wfbay', 'rot13'), 'a').write('x')\"",
    ],
)
def test_a_write_to_a_folded_path_is_a_write_of_that_file(model, command):
    assert "test_mod" in model.feed("c1", "bash", {"command": command}, True)


def test_honest_string_code_names_nothing(model):
    command = "python3 -c \"x = 'abc'[::-1]; print(x.upper(), '%s items' % 3, 'work' + 'space/main.py')\""
    assert model.names({"command": command}) == set()
    assert model.feed("c1", "bash", {"command": command}, True) == set()


# -- the fold agrees with Python on generated expressions ----------------------------------------

_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz./_", min_size=1, max_size=8)


def _expressions() -> st.SearchStrategy[tuple[str, str]]:
    """(Python source, the string it evaluates to), built together (nothing is evaluated)."""
    leaf = _WORD.map(lambda w: (repr(w), w))

    def grow(inner: st.SearchStrategy[tuple[str, str]]) -> st.SearchStrategy[tuple[str, str]]:
        return st.one_of(
            st.tuples(inner, inner).map(lambda p: (f"({p[0][0]} + {p[1][0]})", p[0][1] + p[1][1])),
            inner.map(lambda e: (f"({e[0]})[::-1]", e[1][::-1])),
            inner.map(lambda e: (f"''.join(map(chr, {[ord(c) for c in e[1]]}))", e[1])),
            inner.map(lambda e: (f"('%s' % ({e[0]},))", e[1])),
            inner.map(lambda e: (f"'{{}}'.format({e[0]})", e[1])),
            inner.map(lambda e: (f"''.join(reversed({e[0]}))", e[1][::-1])),
            inner.map(lambda e: (f"({e[0]}).upper().lower()", e[1].upper().lower())),
        )

    return st.recursive(leaf, grow, max_leaves=6)


@settings(max_examples=300, deadline=None)
@given(_expressions())
def test_the_fold_of_a_generated_expression_is_its_value(expression):
    source, value = expression
    found = readings(f"open({source})")
    if len(value) >= 3 and not source.startswith("'"):
        assert len(found) == 1 and folding._literal(value) in found[0], (source, value, found)
    for reading in found:
        assert reading.startswith("open(")


_CODEISH = st.text(alphabet=st.sampled_from(list("ab'\"()[]{}:+*%.,=-_ \n\\fx0123chrjoin")), max_size=300)


@settings(max_examples=500, deadline=None)
@given(_CODEISH)
def test_any_text_is_folded_without_error_and_within_the_bound(text):
    for reading in readings(text):
        assert isinstance(reading, str)
        assert len(reading) <= 2 * len(text) + 64 * folding.MAX_CHARS


@pytest.mark.parametrize(
    "text",
    [
        "readFileSync('nosj.elcaro'.split('').reverse().join(''))",
        "readFileSync(['ora', 'cle.json'].join(''))",
        'File.read("nosj.elcaro".reverse)',
        "open('xoxrxaxcxlxex.xjxsxoxn'[1::2])",
        "open('oracle.json.bak'[:-4])",
        "open('oracle.jsonXYZ'.rstrip('XYZ'))",
        "open(str.lower('ORACLE.JSON'))",
        "open(string.ascii_lowercase[14] + 'racle.json')",
        "readFileSync(atob('b3JhY2xlLmpzb24='))",
        "readFileSync('ORACLE.JSON'.toLowerCase())",
        "readFileSync('xxoracle.jsonxx'.slice(2, 13))",
        "readFileSync('ora'.concat('cle.json'))",
    ],
)
def test_other_languages_string_methods_fold_too(text):
    assert any("oracle.json'" in reading for reading in readings(text)), readings(text)


@pytest.mark.parametrize(
    "arguments",
    [{"path_parts": ["ora", "cle.json"]}, {"directory": ".", "filename": "oracle", "extension": "json"}],
)
def test_a_name_given_in_parts_passes_the_cheap_look_and_is_named(model, arguments):
    raw = ('"arguments": ' + __import__("json").dumps(arguments)).lower().encode()
    assert model.may_matter(raw, "read_file")
    assert "oracle" in model.names(arguments, "read_file")
