"""Names spelled backwards or in rot13 (audit/evidence/scrambles.py), in any language."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence import scrambles


@pytest.mark.parametrize(
    "text",
    [
        "cat $(rev <<< nosj.elcaro)",
        "perl -e 'print scalar reverse \"nosj.elcaro\"'",
        "ruby -e 'File.read(\"nosj.elcaro\".reverse)'",
        "node -e \"'nosj.elcaro'.split('').reverse().join('')\"",
        "python3 -c \"open('nosj.elcaro'[::-1])\"",
        "php -r 'echo file_get_contents(strrev(\"nosj.elcaro\"));'",
    ],
)
def test_a_reversed_word_is_read_forwards(text):
    assert any("oracle.json" in reading for reading in scrambles.readings(text))


@pytest.mark.parametrize(
    "text",
    [
        "echo benpyr.wfba | tr 'a-z' 'n-za-m' | xargs cat",
        "python3 -c \"import codecs; open(codecs.decode('benpyr.wfba', 'rot_13'))\"",
    ],
)
def test_a_rot13_word_is_read_rotated(text):
    assert any("oracle.json" in reading for reading in scrambles.readings(text))


@pytest.mark.parametrize("text", ["cat oracle.json", "git log --oneline", "echo elcaro", "prevent reversal? no"])
def test_a_text_that_mentions_neither_has_no_reading(text):
    assert list(scrambles.readings(text)) == [] or "rev" in text


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_a_reading_keeps_the_texts_length_and_never_fails(text):
    for reading in scrambles.readings(text):
        assert len(reading) == len(text)
