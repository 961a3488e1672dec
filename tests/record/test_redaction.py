"""Redaction rules: key denylist, secret values and patterns inside strings, hashed identifiers,
digests that prove a withheld value, and hypothesis properties over arbitrary nesting."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import string
from pathlib import Path
from typing import Any

import pytest
from bundle_helpers import all_bytes, new_run
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_coldstart.record import logsettings, records
from pytest_coldstart.record.redaction import DEFAULT_DENYLIST, MARKER, Redactor, key_words
from pytest_coldstart.run.errors import ColdstartError, UsageError

SENSITIVE_KEYS = [
    "apiKey",
    "X-Api-Key",
    "API_KEY",
    "AUTH_TOKEN",
    "client-secret",
    "Set-Cookie",
    "db_password",
    "passwordHash",
    "Authorization",
    "refreshToken",
    "privateKey",
    "aws_access_key",
]
BENIGN_KEYS = ["keyboard", "monkey", "tokens", "secretary", "max_tokens", "passage", "path", "author", "cooking"]


def test_key_words_split_every_style() -> None:
    assert key_words("apiKey") == ["api", "key"]
    assert key_words("X-Auth-Token") == ["x", "auth", "token"]
    assert key_words("HTTPHeaderAPIKey") == ["http", "header", "api", "key"]
    assert key_words("client_secret2") == ["client", "secret2"]


def test_denylist_matches_whole_words_only() -> None:
    redactor = Redactor()
    for key in SENSITIVE_KEYS:
        assert redactor.is_sensitive(key), key
    for key in BENIGN_KEYS:
        assert not redactor.is_sensitive(key), key


def test_a_redacted_value_leaves_a_provable_digest() -> None:
    redactor = Redactor()
    secret = {"user": "bot", "pin": 1234}
    out = redactor.apply({"credentials": secret, "note": "kept"})
    expected = hashlib.sha256(json.dumps(secret, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    assert out == {"credentials": f"<redacted sha256:{expected}>", "note": "kept"}
    assert redactor.paths == ["/credentials"]


def test_env_values_and_patterns_are_redacted_inside_strings() -> None:
    env = {"BRIDGE_CRED": "s3cret-value-xyz", "SHORT": "abc", "EMPTY": ""}
    redactor = Redactor(env=["BRIDGE_CRED", "SHORT", "EMPTY", "UNSET"], environ=env)
    text = (
        "cred=s3cret-value-xyz; abc stays; key sk-abcdefghijklmnopqrstu; gh ghp_"
        + "a" * 36
        + "; aws AKIAABCDEFGHIJKLMNOP; "
        "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY----- Authorization: Bearer abc.def.ghi123"
    )
    out = redactor.apply({"text": text})["text"]
    for secret in (
        "s3cret-value-xyz",
        "sk-abcdefghijklmnopqrstu",
        "ghp_",
        "AKIAABCDEFGHIJKLMNOP",
        "MIIB",
        "abc.def.ghi123",
    ):
        assert secret not in out, secret
    assert "abc stays" in out  # values shorter than MIN_SECRET_CHARS are not treated as secrets
    assert "Authorization: " in out  # a named group 'secret' keeps the surrounding text
    assert out.count("<redacted sha256:") == 6  # the Bearer token once (the scheme word "Bearer" stays)
    assert redactor.apply({"text": out})["text"] == out  # markers survive a second pass unchanged


def test_user_patterns_with_a_secret_group() -> None:
    redactor = Redactor(patterns=[r"session=(?P<secret>\w+)"])
    assert redactor.scrub("GET /?session=abcdef&x=1").startswith("GET /?session=<redacted sha256:")
    with pytest.raises(UsageError, match="not a regular expression"):
        Redactor(patterns=["(unclosed"])


def test_identifiers_become_stable_pseudonyms() -> None:
    redactor = Redactor(hash_keys=["player_id", "profile_id"])
    a = redactor.apply({"player": {"playerId": "p-42", "hp": 3}})
    b = redactor.apply([{"player_id": "p-42"}, {"profile_id": "p-43"}])
    assert a["player"]["playerId"] == b[0]["player_id"] and a["player"]["playerId"].startswith("<hashed sha256:")
    assert b[1]["profile_id"] != b[0]["player_id"] and a["player"]["hp"] == 3


def test_hmac_digests_need_the_salt_and_never_record_it(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("RUN_SALT", "pepper-0123456789")
    rules = {"digest": "hmac-sha256", "salt": {"env": "RUN_SALT"}}
    recorder = new_run(tmp_path / "run", logging={"redaction": rules})
    recorded = recorder.manifest["logging"]["redaction"]
    assert (
        recorded["digest"] == "hmac-sha256"
        and recorded["salt"]["env"] == "RUN_SALT"
        and len(recorded["salt"]["fingerprint"]) == 16
    )
    call = recorder.call("c1", "bash", {"password": "hunter2"})
    expected = hmac.new(b"pepper-0123456789", b'"hunter2"', hashlib.sha256).hexdigest()
    assert call["arguments"]["password"] == f"<redacted hmac-sha256:{expected}>"
    assert not any(b"pepper-0123456789" in data for data in all_bytes(tmp_path / "run").values())
    monkeypatch.setenv("RUN_SALT", "another-salt")
    with pytest.raises(ColdstartError, match="not the one this run was opened with"):
        type(recorder)(tmp_path / "run")
    monkeypatch.delenv("RUN_SALT")
    with pytest.raises(ColdstartError, match="needs its salt"):
        type(recorder)(tmp_path / "run")
    with pytest.raises(ColdstartError, match="unknown"):
        Redactor(digest="md5")


def test_records_name_what_was_redacted_and_notes_are_redacted(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("OPERATOR_CRED", "operator-cred-998877")
    recorder = new_run(tmp_path / "run", logging=logsettings.with_rules(env=["OPERATOR_CRED"]))
    record = recorder.append(
        records.error("http_error", "401 with operator-cred-998877", detail={"headers": {"Cookie": "a=b"}})
    )
    assert record["redacted"] == ["/message", "/detail/headers/Cookie"]
    assert recorder.manifest["logging"]["redaction"]["env"] == ["OPERATOR_CRED"]
    run = new_run(tmp_path / "run2", logging=logsettings.with_rules(env=["OPERATOR_CRED"]))
    assert run.manifest["notes"] == []
    from pytest_coldstart.record.recorder import init_run

    made = init_run(
        tmp_path / "run3",
        run_id="r3",
        task_bytes=b"t",
        task_source="inline",
        harness={},
        notes=["started with operator-cred-998877"],
        logging=logsettings.with_rules(env=["OPERATOR_CRED"]),
    )
    assert "operator-cred-998877" not in json.dumps(made.manifest)


def test_settings_record_names_never_values(monkeypatch) -> None:
    monkeypatch.setenv("SOME_TOKEN", "value-that-must-not-appear")
    settings = logsettings.with_rules(
        env=["SOME_TOKEN"], patterns=[r"x-\d+"], hash_keys=["player_id"], extra_keys=["pin"]
    )
    text = json.dumps(settings)
    assert "value-that-must-not-appear" not in text
    rules = settings["redaction"]
    assert (
        rules["env"] == ["SOME_TOKEN"]
        and "pin" in rules["keys"]
        and rules["hash_keys"] == ["player_id"]
        and r"x-\d+" in rules["patterns"]
    )
    assert rules["digest"] == "sha256" and rules["salt"] is None and "canonical JSON" in rules["digest_input"]
    with pytest.raises(UsageError, match="unknown logging setting"):
        logsettings.complete({"payload_mod": "full"})


# -- properties ---------------------------------------------------------------------------------

SECRET_TEXT = st.from_regex(r"S3CR3T-[A-Za-z0-9]{6,14}", fullmatch=True)
BENIGN_TEXT = st.text(alphabet=string.ascii_lowercase + " ", max_size=12)


def styled(term: str):
    """A denylisted term written in some naming style, with optional neighbouring words."""
    words = term.split("_")
    forms = [
        "_".join(words),
        "-".join(words).upper(),
        words[0] + "".join(w.title() for w in words[1:]),
        "X-" + "-".join(w.title() for w in words),
        "db_" + "_".join(words),
        "_".join(words) + "_value",
    ]
    return st.sampled_from(forms)


SENSITIVE = st.sampled_from(DEFAULT_DENYLIST).flatmap(styled)
BENIGN_KEY = st.sampled_from(["name", "path", "keyboard", "tokens", "count", "items", "monkey", "author", "secretary"])
SECRET_VALUE = st.recursive(
    SECRET_TEXT | st.integers(min_value=10**6),
    lambda inner: st.lists(inner, min_size=1, max_size=3) | st.dictionaries(BENIGN_KEY, inner, min_size=1, max_size=3),
    max_leaves=6,
)


def documents():
    def extend(children):
        return st.lists(children, max_size=4) | st.dictionaries(
            st.one_of(BENIGN_KEY, SENSITIVE), children, max_size=4
        ).flatmap(
            lambda d: st.fixed_dictionaries(
                {k: (SECRET_VALUE if Redactor().is_sensitive(k) else st.just(v)) for k, v in d.items()}
            )
        )

    return st.recursive(BENIGN_TEXT | st.integers() | st.booleans() | st.none(), extend, max_leaves=25)


def leaves(value: Any):
    if isinstance(value, dict):
        for item in value.values():
            yield from leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from leaves(item)
    else:
        yield value


def sensitive_values(value: Any, redactor: Redactor):
    if isinstance(value, dict):
        for key, item in value.items():
            if redactor.is_sensitive(key) and item is not None:
                yield item
            else:
                yield from sensitive_values(item, redactor)
    elif isinstance(value, list):
        for item in value:
            yield from sensitive_values(item, redactor)


@settings(max_examples=150, deadline=None)
@given(documents())
def test_no_denylisted_key_keeps_its_value_at_any_depth(document: Any) -> None:
    redactor = Redactor()
    before = copy.deepcopy(document)
    out = redactor.apply(document)
    assert document == before  # the input is never modified
    for value in sensitive_values(out, redactor):
        assert isinstance(value, str) and MARKER.fullmatch(value), value
    dumped = MARKER.sub("|", json.dumps(out))
    for secret in leaves(list(sensitive_values(document, redactor))):
        if isinstance(secret, str):
            assert secret not in dumped
    assert "S3CR3T" not in dumped
    assert redactor.apply(out) == out  # idempotent: markers are kept as they are


@settings(max_examples=150, deadline=None)
@given(documents(), st.from_regex(r"[A-Za-z0-9]{4,20}", fullmatch=True))
def test_secret_values_never_survive_inside_strings(document: Any, secret: str) -> None:
    """An environment secret embedded anywhere in any string is gone after redaction."""
    planted = {"a": f"x{secret}y", "b": [f"{secret} {secret}"], "doc": document, "c": {f"k{secret}": 1}}
    redactor = Redactor(env=["CRED"], environ={"CRED": secret})
    out = redactor.apply(planted)
    for text in _strings(out):  # numbers and literals may hold the digits or letters of a secret
        assert secret not in MARKER.sub("|", text)  # a digest may contain any hex run


def _strings(value: Any) -> Any:
    """Every string of a JSON value: keys and string values, at any depth."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


EXAMPLES = [
    "-----BEGIN EC PRIVATE KEY-----\nabc\n-----END EC PRIVATE KEY-----",
    "key sk-proj-abcdefghijklmnopqrstuv",
    "ghs_" + "b" * 36,
    "github_pat_" + "c" * 40,
    "xoxb-123456789012-abc",
    "AKIAABCDEFGHIJKLMNOP",
    "AIza" + "d" * 35,
    "Bearer abcdefgh12345",
    "https://user:pw1234@example.org/x",
    "curl --user bot:hunter22 x",
    "AUTHORIZATION = Basic dXNlcjpwdw==",
    "PASSWORD: hunter22",
    "Api-Key=abcd1234",
    "sk_live_" + "e" * 24,
    "glpat-" + "f" * 20,
    "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
    "ASIAABCDEFGHIJKLMNOP",
    "ya29." + "g" * 30,
    "hf_" + "h" * 34,
    "npm_" + "i" * 36,
    "pypi-AgEIcHlwaS5vcmc" + "j" * 50,
    "SG." + "k" * 22 + "." + "l" * 43,
    "dop_v1_" + "a" * 64,
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmnop",
]


def test_every_default_pattern_has_a_literal_that_must_occur() -> None:
    """The literal pre-check only skips a pattern when it cannot match: each example matches its
    pattern, contains one of its literals, and is redacted by the default redactor."""
    from pytest_coldstart.record.secret_rules import EARLIER, RULES

    for pattern, triggers in RULES + EARLIER:
        matching = [text for text in EXAMPLES if __import__("re").search(pattern, text)]
        assert matching, pattern
        for text in matching:
            assert any(t in text.casefold() for t in triggers), (pattern, text)
    redactor = Redactor()
    for text in EXAMPLES:
        assert "<redacted sha256:" in redactor.scrub(text), text


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_literal_pre_check_never_skips_a_possible_match(data) -> None:
    """Strings generated FROM each default pattern always contain one of its literals."""
    from pytest_coldstart.record.secret_rules import EARLIER, RULES

    pattern, triggers = data.draw(st.sampled_from(RULES + EARLIER))
    text = data.draw(st.from_regex(pattern))
    assert any(t in text.casefold() for t in triggers), (pattern, text)
