"""Adversarial scenarios: a visible file that carries the answer in another spelling.

The clean-context rule (seed §3) holds for an answer the agent can read in one step: a cart's
uuid without its dashes or after its items (a table's row), and a note compressed (gzip, a zip
archive), base64-encoded or in UTF-16 (``audit/visible_text.py``). The honest control keeps a
visible note of uuids alone, base64-encoded."""

from __future__ import annotations

import base64
import gzip
import io
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
