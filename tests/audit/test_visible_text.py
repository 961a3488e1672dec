"""The texts a visible file may carry (audit/visible_text.py): compressed, base64-encoded,
UTF-16, escaped, hex, rot13'd, reversed or letter-spaced answers are read, and every reading is
bounded whatever the file claims."""

from __future__ import annotations

import base64
import bz2
import codecs
import gzip
import io
import json
import lzma
import textwrap
import urllib.parse
import zipfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_coldstart.audit.visible_text import MAX_BYTES, MAX_READINGS, readings

LINE = "cart 0b7e7c1a-5d2e-4c3b-9a41-6f0d2c8e1a01: minecraft:iron_ingot x5, minecraft:sand x1\n"


def _zip(text: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("notes/answer.txt", text)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("how", "data"),
    [
        ("", LINE.encode()),
        (" (gzip-compressed)", gzip.compress(LINE.encode(), mtime=0)),
        (" (bzip2-compressed)", bz2.compress(LINE.encode())),
        (" (xz-compressed)", lzma.compress(LINE.encode())),
        (" (zip member 'notes/answer.txt')", _zip(LINE)),
        (" (base64-encoded)", "\n".join(textwrap.wrap(base64.b64encode(LINE.encode()).decode(), 20)).encode()),
        (" (a base64 blob in it)", b"see: " + base64.b64encode(LINE.encode()) + b" (decode it)"),
        ("", LINE.encode("utf-16")),
        ("", LINE.encode("utf-16-le")),
        (" (percent-encoded)", urllib.parse.quote(LINE).encode()),
        (" (HTML entities)", "".join(f"&#{ord(c)};" for c in LINE).encode()),
        (" (escaped)", json.dumps(LINE).replace("-", "\\u002d").encode()),
        (" (hex-encoded)", b"blob: " + LINE.strip().encode().hex().encode()),
        (" (rot13)", codecs.encode(LINE, "rot13").encode()),
        (" (reversed)", LINE.strip()[::-1].encode()),
        (" (invisible characters removed)", "\u200b".join(LINE.strip()).encode()),
        (" (letter-spaced)", " ".join(LINE.strip()).encode()),
    ],
)
def test_the_answer_is_read_however_the_file_carries_it(how, data):
    found = dict(readings(data))
    assert how in found and LINE.strip().lower() in found[how]


def test_a_compression_bomb_costs_the_bound_not_its_size():
    bomb = gzip.compress(b"0" * (3 * MAX_BYTES), mtime=0)
    found = dict(readings(bomb))
    assert len(found[" (gzip-compressed)"]) == MAX_BYTES


def test_a_damaged_archive_is_read_as_it_is():
    broken = gzip.compress(LINE.encode(), mtime=0)[:20]
    layers = ("compressed", "zip member")
    assert [how for how, _ in readings(broken) if any(layer in how for layer in layers)] == []
    assert [how for how, _ in readings(b"PK\x03\x04 not a zip") if any(layer in how for layer in layers)] == []


@settings(max_examples=300, deadline=None)
@given(
    st.binary(max_size=512)
    | st.sampled_from([b"\x1f\x8b", b"BZh9", b"\xfd7zXZ\x00", b"PK\x03\x04"]).flatmap(
        lambda head: st.binary(max_size=256).map(lambda tail: head + tail)
    )
)
def test_any_bytes_are_read_without_error_and_within_the_bounds(data):
    found = list(readings(data))
    assert found and found[0][0] == "" and len(found) <= MAX_READINGS
    assert all(isinstance(text, str) for _, text in found)
