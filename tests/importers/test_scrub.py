"""Redacting the stored copy: the prefilter never passes over a line the redactor changes, and
the rewritten copy is the source line for line."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from unittest import mock

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pytest_coldstart.importers import prefilter
from pytest_coldstart.importers.scrub import scrub_copy
from pytest_coldstart.record.redaction import DEFAULT_PATTERNS, Redactor

ENV = {"SEEDED": "s3cr3t-env-Value"}
KEYS = st.sampled_from(
    [
        "api_key",
        "apiKey",
        "X-Api-Key",
        "API_KEY",
        "token",
        "totalTokens",
        "tokens",
        "input_tokens",
        "access_key",
        "accessKey",
        "sessionKey",
        "sessionId",
        "session",
        "keyboard",
        "monkey",
        "Set-Cookie",
        "cookie",
        "password",
        "PASSWORD",
        "passphrase",
        "private_key",
        "privateKey",
        "credentials",
        "auth_token",
        "player_id",
        "playerId",
        "name",
        "text",
        "arguments",
        "ſecret",
        "KEY",
        "type",
        "id",
        "a/b",
        "sk-key",
        "tok\u212aen",
    ]
) | st.text(max_size=6)
FRAGMENTS = st.sampled_from(
    [
        "sk-",
        "sk-proj-",
        "ABCDEFGHIJKLMNOPQRSTUVWX1234",
        "Bearer ",
        "bearer",
        "Authorization: ",
        "authorization=",
        "api_key=",
        "apikey: ",
        "secret: ",
        "token=",
        "password=",
        " -u ",
        "--user ",
        "bob:",
        "pw123456@",
        "https://",
        "ghp_",
        "gho_",
        "github_pat_",
        "AKIA",
        "AIza",
        "xoxb-",
        "-----BEGIN RSA PRIVATE KEY-----",
        "-----END RSA PRIVATE KEY-----",
        "\n",
        "\t",
        '"',
        "\\",
        "/",
        "é",
        "ß",
        "ſ",
        "\u212a",
        "\u0130",
        "\U0001f600",
        ENV["SEEDED"],
        ENV["SEEDED"][:6],
        "hunter2x",
        "plain words",
        " ",
        "=",
        ":",
        "{",
        "}",
        "https://bob:pw1234@h/x",
        "curl -u bob:pw12345 x",
    ]
)
STRINGS = st.lists(FRAGMENTS, max_size=5).map("".join) | st.text(max_size=10)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | STRINGS,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(KEYS, inner, max_size=4)
        | st.dictionaries(KEYS, inner, max_size=3).map(json.dumps)
    ),  # JSON held in a string (Codex arguments)
    max_leaves=10,
)
STYLES = st.sampled_from(["compact", "spaced", "ascii", "slashes"])


def _dump(value: object, style: str) -> bytes:
    if style == "compact":
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    elif style == "spaced":
        text = json.dumps(value, ensure_ascii=False)
    else:
        text = json.dumps(value)
    if style == "slashes":
        text = text.replace("/", "\\/")
    return text.encode("utf-8", "surrogatepass")


def _redactors() -> list[Redactor]:
    return [
        Redactor(env=["SEEDED"], hash_keys=["player_id"], environ=ENV),
        Redactor(env=["SEEDED"], environ=ENV, patterns=DEFAULT_PATTERNS[:3]),
    ]


def _scrubbed(data: bytes, redactor: Redactor, *, full: bool) -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "s.jsonl"
        copy.write_bytes(data)
        original = prefilter.Prefilter.__init__
        if full:

            def walk_all(self, redactor):  # every line walked in full: the oracle
                original(self, redactor)
                self.always = True

            prefilter.Prefilter.__init__ = walk_all
        try:
            with mock.patch("os.fsync"), mock.patch("pytest_coldstart.run.jsonio.fsync_directory"):  # speed only
                scrub_copy(copy, redactor, Path(folder))
        finally:
            prefilter.Prefilter.__init__ = original
        return copy.read_bytes()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example([({"url": "https://bob:pw1234@h/x"}, "slashes")])  # the trigger "://" hides behind \/
@example([({"n\u00e4me": {"api_key": "v4lue"}}, "ascii")])  # \u escapes elsewhere in the line
@example([({"args": json.dumps({"cookie": "c00kie-1"})}, "compact")])  # a denylisted key inside a JSON string
@example([({"out": "x " + ENV["SEEDED"]}, "spaced")])  # an environment value, no pattern
@example([({"totalTokens": 3, "sessionId": "s"}, "compact")])  # needles that change nothing
@given(st.lists(st.tuples(st.dictionaries(KEYS, JSON, max_size=4), STYLES), min_size=1, max_size=4))
def test_the_prefilter_never_passes_over_a_change(lines) -> None:
    data = b"".join(_dump(value, style) + b"\n" for value, style in lines)
    for redactor in _redactors():
        assert _scrubbed(data, redactor, full=False) == _scrubbed(data, redactor, full=True)


def test_a_changed_line_stays_one_line_and_crlf_and_text_lines_survive(tmp_path: Path) -> None:
    lines = [
        b'{"a":"keep me"}\r\n',
        b'{"b" : {"password" : "pw-value-1"}}\r\n',
        b"not json: Bearer abcdefgh12345678 and \xff bytes\n",
        b"\n",
        b'{"c":"sk-ABCDEFGHIJKLMNOPQRSTUV"}',  # a last line without LF
    ]
    copy = tmp_path / "s.jsonl"
    copy.write_bytes(b"".join(lines))
    done = scrub_copy(copy, Redactor(), tmp_path)
    out = copy.read_bytes().split(b"\n")
    assert done is not None and (done.values, done.lines) == (3, 3) and done.size == len(copy.read_bytes())
    assert out[0] == lines[0].rstrip(b"\n") and out[3] == b""
    assert out[1].endswith(b"\r") and json.loads(out[1])["b"]["password"].startswith("<redacted sha256:")
    assert out[2].startswith(b"not json: Bearer <redacted sha256:") and out[2].endswith(b" and \xff bytes")
    assert b"sk-ABC" not in out[4] and out[4].startswith(b'{"c":"<redacted')
    assert not list(tmp_path.glob("redacted-*"))


def test_nothing_to_redact_leaves_the_copy_untouched(tmp_path: Path) -> None:
    copy = tmp_path / "s.jsonl"
    data = b'{"usage":{"totalTokens":12,"input_tokens":3},"sessionId":"x","keyboard":"monkey"}\n' * 3
    copy.write_bytes(data)
    before = copy.stat().st_ino
    assert scrub_copy(copy, Redactor(), tmp_path) is None
    assert copy.read_bytes() == data and copy.stat().st_ino == before


def test_blocks_bigger_than_one_read(tmp_path: Path) -> None:
    """Lines spanning the reader's blocks are redacted whole; clean blocks are copied as they are."""
    filler = b'{"text":"' + b"x" * 300_000 + b'"}\n'
    secret = b'{"token":"tok-value-1"}\n'
    data = filler * 5 + secret + filler * 5 + secret
    copy = tmp_path / "s.jsonl"
    copy.write_bytes(data)
    done = scrub_copy(copy, Redactor(), tmp_path)
    stored = copy.read_bytes()
    assert done is not None and done.lines == 2 and b"tok-value-1" not in stored
    assert stored.count(filler) == 10 and stored.count(b"\n") == data.count(b"\n")
