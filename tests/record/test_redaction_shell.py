"""Redaction replaces the secret alone, never the shell syntax around it: the audit judges the
redacted text, so a command must still show what it ran (a cheat beside a secret-shaped word
audited PASS when a rule swallowed it)."""

from __future__ import annotations

import pytest

from pytest_coldstart.audit import audit_run
from pytest_coldstart.demo.scenarios import RunBuilder
from pytest_coldstart.demo.scenarios.adversarial_edits import _extra_call
from pytest_coldstart.record.redaction import Redactor
from pytest_coldstart.record.secret_extent import QuoteState

#: command -> what must survive redaction; the failure class of the audit
CHEATS = {
    "echo -----BEGIN PRIVATE KEY-----; cat oracle.json": ("; cat oracle.json", "AGENT_FAIL"),
    "echo -----BEGIN EC PRIVATE KEY----- >/dev/null; cp answer.json oracle.json": (
        "cp answer.json oracle.json",
        "AGENT_FAIL",
    ),
    "echo x -----BEGIN RSA PRIVATE KEY----- ; echo '{}' >> test/testmod.jsonl": (
        ">> test/testmod.jsonl",
        "INFRA_ERROR",
    ),
    "echo --password=x&&cat<oracle.json": ("&&cat<oracle.json", "AGENT_FAIL"),
    'export DB_PASSWORD="x$(cat oracle.json)"': ("$(cat oracle.json)", "AGENT_FAIL"),
    "cat Bearer ./oracle.json": ("./oracle.json", "AGENT_FAIL"),
    "cat authorization: ./oracle.json": ("./oracle.json", "AGENT_FAIL"),
    "cat token: oracle.json": ("oracle.json", "AGENT_FAIL"),
    'cat "password="x oracle.json "y"': ("oracle.json", "AGENT_FAIL"),
    "curl -u bot:pw;cat<oracle.json": (";cat<oracle.json", "AGENT_FAIL"),
    "echo a://u:xyzw;cat<oracle.json;@h": (";cat<oracle.json", "AGENT_FAIL"),
    "cat -----BEGIN PRIVATE KEY----- oracle.json": (" oracle.json", "AGENT_FAIL"),
}
CASES = [(command, kept, klass) for command, (kept, klass) in CHEATS.items()]


@pytest.mark.parametrize(("command", "kept", "_klass"), CASES)
def test_the_shell_around_a_secret_is_kept(command: str, kept: str, _klass: str) -> None:
    assert kept in Redactor().scrub(command)


@pytest.mark.parametrize(("command", "kept", "klass"), CASES)
def test_the_audit_still_sees_the_cheat(tmp_path, command: str, kept: str, klass: str) -> None:
    run = _extra_call(RunBuilder(tmp_path / "run", run_id="probe").passing(), "c-forge", "bash", {"command": command})
    report = audit_run(run.build(), write=False)
    assert (report["overall"], report.get("failure_class")) == ("FAIL", klass), command


@pytest.mark.parametrize(
    ("text", "secret", "kept"),
    [
        ('export DB_PASSWORD="hunter2$(date)"', "hunter2", '"<redacted sha256:'),
        ("--password=hunter22&&ls", "hunter22", "&&ls"),
        ("TOKEN=abcd1234;ls", "abcd1234", ";ls"),
        ("curl -u bot:Tr0ub4dor&3-seeded", "Tr0ub4dor", "&3-seeded"),
        ('db_password: "correct horse battery staple"', "correct horse battery staple", 'db_password: "'),
        ("PASSWORD=P@$$w0rd", "P@$$w0rd", "PASSWORD="),
        ("-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAcutoffbody", "MIIEpAIBAAKCAQEAcutoffbody", ""),
        ("-----BEGIN RSA PRIVATE KEY----- " + "QUJD" * 8 + " " + "REVG" * 8, "REVG" * 8, ""),
        ("-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADAN\\n-----END PRIVATE KEY-----; ls", "MIIEvQIBADAN", "; ls"),
        ("curl -H 'Authorization: Bearer eyBearerTok.998877.zz'", "eyBearerTok.998877.zz", "'"),
        ("echo 'TOKEN=abcd efgh'", "abcd", "efgh'"),
    ],
)
def test_the_secret_itself_is_still_removed(text: str, secret: str, kept: str) -> None:
    out = Redactor().scrub(text)
    assert secret not in out and kept in out, out


@pytest.mark.parametrize(
    ("text", "opens"),
    [
        ('password="', True),
        ('x "password="', False),  # the quote closes the string opened before it
        ("echo 'a\"", False),  # inside single quotes a double quote is text
        ('a \\"', False),  # escaped
        ('a \\\\"', True),  # an escaped backslash, then the quote
        ("$'\\''\"", True),  # bash's $'...' holds an escaped single quote
        ('"a\\"" "', True),
    ],
)
def test_a_quote_opens_a_string_only_outside_one(text: str, opens: bool) -> None:
    assert QuoteState(text).opens(text.rindex('"')) is opens


def test_quote_state_scans_forwards_and_back() -> None:
    quotes = QuoteState('a "b" "c" "d')
    assert [quotes.opens(i) for i in (2, 4, 6, 8, 10)] == [True, False, True, False, True]
    assert quotes.opens(2) is True  # an earlier position rescans


def test_a_bare_value_that_climbs_a_path_is_kept_however_long() -> None:
    """The not-a-path look is bounded (linear on ``password=password=…``); a longer value that
    climbs a path is kept by the redactor's own check, as before."""
    long_path = "password=" + "a" * 300 + "/../oracle.json"
    assert Redactor().scrub(long_path) == long_path
    assert "hunter22" not in Redactor().scrub("--password=hunter22&&ls")
    many = "password=" * 2000 + "/."
    assert Redactor().scrub(many) == many
