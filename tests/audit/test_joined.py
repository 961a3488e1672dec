"""Names joined from pieces (audit/evidence/joined.py): pieces kept in variables and joined in a
later statement, and joins with a separator."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence import joined


@pytest.mark.parametrize(
    "text",
    [
        """ruby -e 'a="ora"; b=a+"cle.json"; puts File.read(b)'""",
        """node -e "const a='ora'; const f=a+'cle.json'; console.log(f)\"""",
        """lua -e 'local a = "ora"; print(io.open(a.."cle.json"):read("a"))'""",
        """php -r '$a="ora"; $b=$a."cle.json"; echo file_get_contents($b);'""",
        """perl -e 'my $a = "ora"; my $b = $a . "cle.json"; open(F, $b)'""",
        """ruby -e 'a="ora"; puts File.read("#{a}cle.json")'""",
        "a = 'or'\nb = a + 'acle'\nc = b + '.json'\nputs File.read(c)\n",
        "$a='orac'; $b='le.json'; Get-Content ($a+$b)",
        "$a='orac'; $b='le.json'; Get-Content (-join($a,$b))",
        "$a='orac'; $b='le.json'; Get-Content (($a,$b) -join '')",
        "$a='orac'; $b='le.json'; [IO.File]::ReadAllText($a+$b)",
        """php -r '$a="orac"; $b="le.json"; echo file_get_contents($a.$b);'""",
    ],
)
def test_a_piece_kept_in_a_variable_is_joined_where_it_is_used(text):
    assert any('"oracle.json"' in reading or "'oracle.json'" in reading for reading in joined.readings(text))


@pytest.mark.parametrize(
    "text",
    [
        """perl -e 'open(O, ">", join("/", ".", "p.sh"))'""",
        """php -r 'fopen(implode("/", [".", "p.sh"]), "w");'""",
        """node -e "fs.writeFileSync(['.', 'p.sh'].join('/'), '')\"""",
        """ruby -e 'File.write(File.join(".", "p.sh"), "")'""",
    ],
)
def test_a_join_with_a_separator_makes_the_path(text):
    assert any('"./p.sh"' in reading for reading in joined.readings(text))


def test_a_piece_an_earlier_call_assigned_is_joined_where_it_is_used():
    readings = list(joined.readings("$b='le.json'; gc ($a+$b)", {"a": "orac"}))
    assert any("'oracle.json'" in reading or '"oracle.json"' in reading for reading in readings)
    assert list(joined.readings("gc ($x+$y)", {"a": "orac"})) == []  # nothing known is used


@given(st.text(alphabet="ab$=\"'.+ ;#{}()/,join", max_size=200), st.text(max_size=64))
def test_readings_with_known_values_are_total_and_bounded(text, value):
    for reading in joined.readings(text, {"a": value, "b": "x"}):
        assert len(reading) <= 4 * len(text) * (len(value) + 3) + 64 * 258


def test_an_honest_join_reads_as_what_it_makes():
    readings = list(joined.readings("""ruby -e 'd="agent"; puts File.read(d+"/romlog.jsonl")'"""))
    assert any('"agent/romlog.jsonl"' in reading for reading in readings)
    assert not any("oracle" in reading for reading in readings)


def test_a_comparison_is_no_assignment():
    assert list(joined.readings("""if a == "x" then print(a.."y") end""")) == []


@given(st.text(alphabet="ab$=\"'.+ ;#{}()/,join", max_size=200))
def test_readings_are_total_and_bounded(text):
    for reading in joined.readings(text):
        assert len(reading) <= 4 * len(text) + 64 * 258
