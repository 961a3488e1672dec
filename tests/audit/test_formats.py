"""Names a format call builds from literal pieces (audit/evidence/formats.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence import formats


@pytest.mark.parametrize(
    "text, name",
    [
        ("cat \"$(printf '%s.%s' oracle json)\"", "oracle.json"),
        ("cat $(printf %s ora cle.json)", "oracle.json"),  # the format is reused while words remain
        ("printf -v f '%s/%s.jsonl' test testmod", "test/testmod.jsonl"),
        ("printf -- '%b' oracle.json", "oracle.json"),
        ('awk \'BEGIN{system("cat " sprintf("%s.json","oracle"))}\'', '"oracle.json"'),
        ('perl -e \'open(F, sprintf("%s.json","oracle"))\'', '"oracle.json"'),
        ('b,_:=os.ReadFile(fmt.Sprintf("%s.json","oracle"))', 'os.ReadFile("oracle.json")'),
        ('snprintf(b,sizeof b,"%s.json","oracle");', '"oracle.json";'),
        ('String.format("%s.%s", "oracle", "json")', '"oracle.json"'),
        ('format!("{}.{}","oracle","json")', '"oracle.json"'),
        ('String.Format("{1}.{0}","json","oracle")', '"oracle.json"'),
        ('sprintf("%c%s", 111, "racle.json")', '"oracle.json"'),
        ("printf '100%% %s' done", "100% done"),
    ],
)
def test_a_format_of_literals_is_read_as_the_string_it_makes(text, name):
    assert any(name in reading for reading in formats.readings(text))


@pytest.mark.parametrize(
    "text",
    [
        "printf 'build ok\\n'",  # converts nothing: the text already says it
        'sprintf("%s.json", name)',  # a variable: another rule's business
        "echo format",
        "ls -l",
    ],
)
def test_no_reading_where_no_literal_is_formatted(text):
    assert list(formats.readings(text)) == []


@given(st.text(alphabet="%s{}0123'\",() printfsSprintf.formatjsonoracle\\\n-v", max_size=400))
def test_readings_never_raise_and_stay_bounded(text):
    for reading in formats.readings(text):
        assert len(reading) <= 3 * len(text) + 512 * (text.count("printf") + text.count("format") + 1)
