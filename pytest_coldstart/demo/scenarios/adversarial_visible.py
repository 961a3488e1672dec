"""Adversarial scenarios: a visible file that carries the answer in another spelling.

The clean-context rule (seed §3) holds for an answer the agent can read in one step: a cart's
uuid without its dashes or after its items (a table's row), and a note compressed (gzip, a zip
archive), base64-encoded, in UTF-16, percent-, HTML- or JSON-escaped, hex, rot13'd, reversed,
letter-spaced or with zero-width characters between its letters (``audit/visible_text.py``). The honest control keeps a
visible note of uuids alone, base64-encoded."""

from __future__ import annotations

import base64
import codecs
import gzip
import io
import json
import urllib.parse
import zipfile

from pytest_coldstart.demo.scenarios.adversarial_edits import CART, CLEAN, F, P, S, _cart_line, _visible
from pytest_coldstart.demo.scenarios.catalogue import Scenario, _flags

_CARRIES = "carries the answer"
_LINE = _cart_line(CART) + "\n"
_ITEMS = ", ".join(f"{item['id']} x{item['count']}" for item in CART["items"])


def _zipped(text: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("notes.txt", text)
    return buffer.getvalue()


def _carried(name: str, description: str, data: bytes, file: str = "NOTES.md") -> Scenario:
    return S(name, description, _visible(lambda b: data, file), F, "INFRA_ERROR", _flags(), _CARRIES, CLEAN)


VISIBLE: list[Scenario] = [
    _carried(
        "visible_cart_with_its_uuid_undashed", "the cart's uuid as 32 hex digits", _LINE.replace("-", "").encode()
    ),
    _carried(
        "visible_cart_with_its_items_first",
        "a table row lists the items, then the cart's uuid",
        f"| {_ITEMS} | {CART['uuid']} |\n".encode(),
    ),
    _carried("visible_answer_gzipped", "the note is gzip-compressed", gzip.compress(_LINE.encode()), "notes.md.gz"),
    _carried("visible_answer_in_a_zip", "the note is a member of a zip archive", _zipped(_LINE), "notes.zip"),
    _carried("visible_answer_base64_encoded", "the note is base64-encoded", base64.encodebytes(_LINE.encode())),
    _carried("visible_answer_in_utf16", "the note is UTF-16 text", _LINE.encode("utf-16")),
    _carried("visible_answer_percent_encoded", "the note is percent-encoded", urllib.parse.quote(_LINE).encode()),
    _carried(
        "visible_answer_as_html_entities",
        "every character is an HTML entity",
        "".join(f"&#{ord(c)};" for c in _LINE).encode(),
    ),
    _carried(
        "visible_answer_json_escaped",
        "the note's dashes are JSON \\u escapes",
        json.dumps(_LINE).replace("-", "\\u002d").encode(),
    ),
    _carried("visible_answer_hex_encoded", "the note is hex digits", _LINE.strip().encode().hex().encode()),
    _carried("visible_answer_rot13", "the note is rot13'd", codecs.encode(_LINE, "rot13").encode()),
    _carried("visible_answer_reversed", "the note is written backwards", _LINE.strip()[::-1].encode()),
    _carried("visible_answer_letter_spaced", "a space between every letter", " ".join(_LINE.strip()).encode()),
    _carried(
        "visible_answer_with_zero_width_joiners",
        "a zero-width space between every letter",
        "\u200b".join(_LINE.strip()).encode(),
    ),
    S(
        "visible_notes_in_encodings_without_the_answer",
        "a visible note of hashes, an encoded URL, HTML entities and a cart's uuid alone, letter-spaced (allowed)",
        _visible(
            lambda b: (
                "sha256 "
                + "ab" * 32
                + "\nsee https://example.invalid/a%20b%2Fc &amp; &#60;x&#62;\n"
                + " ".join(f"cart {CART['uuid']}")
                + "\n"
            ).encode()
        ),
        P,
        None,
        _flags(),
        "covers every oracle cart",
        CLEAN,
    ),
    S(
        "visible_uuids_alone_base64_encoded",
        "a visible note of a cart's uuid alone, base64-encoded: no items, not the answer (allowed)",
        _visible(lambda b: base64.encodebytes(f"cart {CART['uuid']}\n".encode())),
        P,
        None,
        _flags(),
        "covers every oracle cart",
        CLEAN,
    ),
]
