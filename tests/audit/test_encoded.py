"""Command text hidden in base64 (audit/evidence/encoded.py): decoded as data, never run."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence.encoded import opens_hidden, readable, with_decoded


def b64(text: str, encoding: str = "utf-8") -> str:
    return base64.b64encode(text.encode(encoding)).decode("ascii")


@pytest.mark.parametrize(
    "text, hidden",
    [
        (f"echo {b64('cp answer.json oracle.json')} | base64 -d | sh", "cp answer.json oracle.json"),
        (f"pwsh -EncodedCommand {b64('Set-Content oracle.json x', 'utf-16-le')}", "Set-Content oracle.json x"),
        (f"powershell -enc {b64('Copy-Item a b', 'utf-16-le')}", "Copy-Item a b"),
        (f"python3 -c \"exec(base64.b64decode('{b64('open(1)')}'))\"", "open(1)"),
        (f"[Convert]::FromBase64String('{b64('rm -rf test')}')", "rm -rf test"),
    ],
)
def test_an_encoded_command_is_read_as_a_text_of_the_call(text, hidden):
    assert hidden in list(with_decoded([text]))[1:]


def test_two_levels_deep_and_no_decoder_no_decoding():
    inner = f"echo {b64('cat oracle.json')} | base64 -d | sh"
    texts = list(with_decoded([f"echo {b64(inner)} | base64 -d | bash"]))
    assert inner in texts and "cat oracle.json" in texts
    assert list(with_decoded([f"echo {b64('cp a b')}"])) == [f"echo {b64('cp a b')}"]  # no decoder named


@pytest.mark.parametrize("blob", ["AAECAwQFBgcICQoLDA0ODw==", "not base64 at all", "////////////", "QUJDR"])
def test_binary_or_broken_blobs_are_no_text(blob):
    assert readable(blob) is None


@given(st.text(max_size=300))
def test_any_text_decodes_without_a_crash_and_keeps_itself_first(text):
    out = list(with_decoded([f"base64 -d {text}"]))
    assert out[0] == f"base64 -d {text}" and all(isinstance(t, str) for t in out)


@pytest.mark.parametrize(
    "text, reading",
    [
        ("cp a ${OUT:-oracle.json}", "cp a oracle.json"),
        ("cp a ${T=test/testmod.jsonl} && echo ${N:+x}", "cp a test/testmod.jsonl && echo x"),
        ("echo ${HOME} ${PWD}/x", None),  # no default: nothing to read
    ],
)
def test_an_expansion_default_is_read_as_its_word(text, reading):
    out = list(with_decoded([text]))
    assert out[0] == text and (out[1:] == [reading] if reading else out[1:] == [])


def test_a_value_the_record_hides_may_be_any_name() -> None:
    marker = "<redacted sha256:" + "0" * 64 + ">"
    readings = list(with_decoded([f"TOKEN={marker}; cat $TOKEN"]))
    assert any("cat *" in reading for reading in readings)
    known = {"API_KEY": marker}  # an earlier call's export, kept by the session
    assert any('cat "*"' in reading for reading in with_decoded(['cat "$API_KEY"'], known))
    assert list(with_decoded(["cat notes.md"])) == ["cat notes.md"]  # no marker: no extra reading


_HIDDEN = "<redacted sha256:" + "a" * 64 + ">"


@pytest.mark.parametrize(
    "code",
    [
        f"SECRET_KEY='{_HIDDEN}'; print(open(SECRET_KEY).read())",
        f"const K = \"{_HIDDEN}\"; fs.readFileSync(K, 'utf8')",
        f"$k = '{_HIDDEN}'; echo file_get_contents($k);",
        f"KEY: str = '{_HIDDEN}'\nPath(KEY).read_text()",
        f"print(open('{_HIDDEN}').read())",
    ],
)
def test_code_opening_a_hidden_value_reads_any_name(code: str) -> None:
    assert opens_hidden(code)
    assert "cat *" in list(with_decoded([code]))


@pytest.mark.parametrize(
    "code",
    [
        f"requests.get(u, headers={{'Authorization': 'Bearer {_HIDDEN}'}})",
        f"PW='{_HIDDEN}'; psycopg2.connect(password=PW)",
        f"KEY='{_HIDDEN}'; KEY_FILE='notes.md'; open(KEY_FILE)",
        "open('notes.md')",
    ],
)
def test_a_hidden_credential_handed_on_names_nothing(code: str) -> None:
    assert not opens_hidden(code)
    assert "cat *" not in list(with_decoded([code]))


def test_a_hidden_value_exported_earlier_and_opened_from_the_environment() -> None:
    texts = list(with_decoded(["python3 -c \"import os; open(os.environ['KEY'])\""], {"KEY": _HIDDEN}))
    assert "cat *" in texts


@given(st.text(alphabet="K=';()open<redacted sha256:a>", max_size=200))
def test_opens_hidden_never_fails(text: str) -> None:
    assert opens_hidden(text) in (True, False)
