"""Seal anchors, the ledger and Ed25519 signatures (issue 16.7), through the Python API."""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path

import pytest
from anchor_helpers import openssl_keys, reopen_and_cut, sealed_passing, ssh_keys

from pytest_coldstart.audit import anchoring, audit_run
from pytest_coldstart.record import anchor, ledger, signing
from pytest_coldstart.run import schemas
from pytest_coldstart.run.errors import ColdstartError, UsageError
from pytest_coldstart.run.hashing import sha256_bytes


def test_the_anchor_pins_the_sealed_bytes(tmp_path: Path) -> None:
    run, pinned = sealed_passing(tmp_path / "run")
    assert schemas.errors("anchor", pinned) == []
    assert pinned["manifest_sha256"] == sha256_bytes((run / "run.json").read_bytes())
    lines = (run / "trajectory.jsonl").read_bytes().splitlines()
    assert pinned["trajectory"] == {"records": len(lines), "head": sha256_bytes(lines[-1])}
    assert anchor.of_run(run) == pinned
    assert anchor.compare(pinned, run, "test") == []
    assert json.loads(anchor.one_line(pinned)) == pinned and "\n" not in anchor.one_line(pinned)


def test_the_run_writer_undoing_the_seal_is_caught_only_by_the_anchor(tmp_path: Path) -> None:
    run, pinned = sealed_passing(tmp_path / "run")
    reopen_and_cut(run)
    assert audit_run(run, write=False)["overall"] == "PASS"  # the weakness: valid without an anchor
    problems = anchor.compare(pinned, run, "ci")
    assert any("records were cut after the seal" in p for p in problems)
    assert any("the trajectory changed after the seal" in p for p in problems)
    assert any("run.json changed after the seal: it is no longer sealed" in p for p in problems)
    wanted = anchoring.expectation([anchor.one_line(pinned)])
    report = anchoring.check(audit_run(run, write=False), run, wanted)
    assert report["overall"] == "FAIL" and report["failure_class"] == "INFRA_ERROR"
    assert sum("anchor (--anchor)" in e for e in report["infra_errors"]) == 3
    assert schemas.errors("audit", report) == []


@pytest.mark.parametrize(
    "tamper, words",
    [
        ("append", "records were added after the seal"),
        ("edit_last", "the trajectory changed after the seal"),
        ("reseal_fields", "its seal, file list or fields were edited"),
        ("torn", "records were added after the seal"),
    ],
)
def test_every_change_after_the_seal_is_named(tmp_path: Path, tamper: str, words: str) -> None:
    run, pinned = sealed_passing(tmp_path / "run")
    trajectory = run / "trajectory.jsonl"
    if tamper == "append":
        trajectory.write_bytes(trajectory.read_bytes() + b'{"extra":1}\n')
    elif tamper == "edit_last":
        data = trajectory.read_bytes()
        trajectory.write_bytes(data[:-3] + b" }\n")
    elif tamper == "reseal_fields":
        manifest = json.loads((run / "run.json").read_text())
        manifest["seal"]["files"] = manifest["seal"]["files"][:-1]
        (run / "run.json").write_text(json.dumps(manifest, indent=2) + "\n")
    else:
        trajectory.write_bytes(trajectory.read_bytes() + b'{"torn":')
    problems = anchor.compare(pinned, run, "x")
    assert any(words in p for p in problems), problems


def test_an_anchor_for_another_run_is_named(tmp_path: Path) -> None:
    _, other = sealed_passing(tmp_path / "a", run_id="run-a")
    run, _ = sealed_passing(tmp_path / "b", run_id="run-b")
    assert anchor.compare(other, run, "x") == ["anchor (x) is for run 'run-a', this run is 'run-b'"]
    wanted = anchoring.expectation([anchor.one_line(other)])
    assert wanted is not None
    problems, _ = wanted.problems(run)
    assert len(problems) == 1 and "no anchor for run 'run-b'" in problems[0] and "'run-a'" in problems[0]


def test_an_unsealed_run_has_no_stated_anchor(tmp_path: Path) -> None:
    from pytest_coldstart.demo.scenarios import build_run

    run = build_run(tmp_path / "open", "passing")
    assert anchor.of_run(run) is None
    assert anchor.of_run(tmp_path / "missing") is None


@pytest.mark.parametrize(
    "text, words",
    [
        ("{", "malformed JSON"),
        ("[1]", "must be a JSON object"),
        ('{"schemaVersion": 3}', "schemaVersion 3 is not supported"),
        ('{"schemaVersion": 2.0}', "schemaVersion 2.0 is not supported"),
        ('{"schemaVersion": 2, "kind": "coldstart-anchor"}', "not an anchor"),
    ],
)
def test_a_malformed_anchor_is_a_usage_error(text: str, words: str) -> None:
    with pytest.raises(UsageError, match=words):
        anchor.parse(text)


def test_an_anchor_file_is_read(tmp_path: Path) -> None:
    _run, pinned = sealed_passing(tmp_path / "run")
    path = tmp_path / "anchor.json"
    path.write_text(anchor.one_line(pinned) + "\n")
    assert anchor.parse(str(path)) == (pinned, str(path))
    with pytest.raises(UsageError, match="file is missing"):
        anchor.parse(str(tmp_path / "nope.json"))


def test_ledger_appends_lines_and_reads_them_by_run(tmp_path: Path) -> None:
    _, first = sealed_passing(tmp_path / "a", run_id="run-a")
    _, second = sealed_passing(tmp_path / "b", run_id="run-b")
    book = tmp_path / "ledger.jsonl"
    ledger.append(book, first)
    ledger.append(book, second)
    lines = book.read_text().splitlines()
    assert len(lines) == 2 and all(schemas.errors("anchor", json.loads(line)) == [] for line in lines)
    entries = ledger.read(book)
    assert [n for n, _ in entries["run-a"]] == [1] and entries["run-b"][0][1]["manifest_sha256"] == second[
        "manifest_sha256"
    ]


def test_concurrent_ledger_appends_never_tear(tmp_path: Path) -> None:
    _, pinned = sealed_passing(tmp_path / "a")
    book = tmp_path / "ledger.jsonl"
    threads = [threading.Thread(target=lambda: [ledger.append(book, pinned) for _ in range(20)]) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    lines = book.read_bytes().split(b"\n")
    assert lines[-1] == b"" and len(lines) == 81
    assert all(json.loads(line)["run_id"] == "scenario-passing" for line in lines[:-1])


@pytest.mark.parametrize(
    "content, words",
    [
        (b'{"schemaVersion": 3, "kind": "coldstart-anchor"}\n', "schemaVersion 3 is not supported"),
        (b"not json\n", "malformed JSON"),
        (b'{"schemaVersion":2,"kind":"coldstart-anchor","run_id":"r"}\n', "not an anchor"),
    ],
)
def test_a_bad_ledger_line_is_a_usage_error_naming_it(tmp_path: Path, content: bytes, words: str) -> None:
    book = tmp_path / "ledger.jsonl"
    book.write_bytes(content)
    with pytest.raises(UsageError, match=words) as caught:
        ledger.read(book)
    assert "ledger.jsonl:1" in caught.value.one_line()


def test_a_torn_ledger_is_not_appended_to(tmp_path: Path) -> None:
    _, pinned = sealed_passing(tmp_path / "a")
    book = tmp_path / "ledger.jsonl"
    book.write_bytes(b'{"half":')
    with pytest.raises(UsageError, match="torn line"):
        ledger.check_appendable(book)
    with pytest.raises(ColdstartError, match="torn line"):
        ledger.append(book, pinned)
    assert book.read_bytes() == b'{"half":'
    with pytest.raises(UsageError, match="folder does not exist"):
        ledger.check_appendable(tmp_path / "no" / "ledger.jsonl")
    with pytest.raises(UsageError, match="does not exist"):
        ledger.read(tmp_path / "absent.jsonl")


def test_two_different_anchors_for_one_run_fail(tmp_path: Path) -> None:
    run, pinned = sealed_passing(tmp_path / "run")
    _, again = sealed_passing(tmp_path / "again")  # same run id, sealed at another time
    book = tmp_path / "ledger.jsonl"
    ledger.append(book, pinned)
    ledger.append(book, again)
    ledger.append(book, pinned)  # the same anchor twice is fine
    wanted = anchoring.expectation([], [str(book)])
    assert wanted is not None
    problems, _ = wanted.problems(run)
    assert problems == [
        f"anchor: 2 different anchors for run 'scenario-passing' ({book}:1, {book}:2, {book}:3): the run was sealed more than once"
    ]


@pytest.mark.parametrize("maker", [openssl_keys, ssh_keys])
def test_signed_anchors_verify_with_the_public_key(tmp_path: Path, maker) -> None:
    private, public = maker(tmp_path)
    run, pinned = sealed_passing(tmp_path / "run")
    signed = signing.sign(pinned, private)
    assert schemas.errors("anchor", signed) == []
    key = signing.load_public_key(public)
    assert signed["signature"]["key_id"] == signing.key_id(key)
    assert signing.problem(signed, key, "s") is None
    assert "not signed" in (signing.problem(pinned, key, "s") or "")
    forged = {**signed, "trajectory": {**signed["trajectory"], "records": 3}}
    assert "does not verify" in (signing.problem(forged, key, "s") or "")
    _, other_public = maker(tmp_path, "other")
    assert "not by the given public key" in (signing.problem(signed, signing.load_public_key(other_public), "s") or "")
    wanted = anchoring.expectation([anchor.one_line(signed)], public_key=str(public))
    assert wanted is not None and wanted.problems(run)[0] == []
    assert "signed by" in wanted.problems(run)[1][0]


def test_a_signed_ledger_entry_is_checked_against_the_key(tmp_path: Path) -> None:
    private, public = openssl_keys(tmp_path)
    run, pinned = sealed_passing(tmp_path / "run")
    book = tmp_path / "ledger.jsonl"
    ledger.append(book, pinned)  # unsigned: someone with write access to the ledger, not the key
    wanted = anchoring.expectation([], [str(book)], str(public))
    assert wanted is not None
    problems, _ = wanted.problems(run)
    assert problems == [f"anchor ({book}:1) is not signed, and a public key requires a signature"]
    book.write_text("")
    ledger.append(book, signing.sign(pinned, private))
    wanted = anchoring.expectation([], [str(book)], str(public))
    assert wanted is not None and wanted.problems(run)[0] == []


def test_bad_key_files_are_usage_errors(tmp_path: Path) -> None:
    private, public = openssl_keys(tmp_path)
    with pytest.raises(UsageError, match="not an Ed25519 public key"):
        signing.load_public_key(private)
    with pytest.raises(UsageError, match="private key"):
        signing.load_private_key(public)
    with pytest.raises(UsageError, match="cannot read"):
        signing.load_private_key(tmp_path / "absent.pem")
    rsa = tmp_path / "rsa.pem"
    from cryptography.hazmat.primitives import serialization as s
    from cryptography.hazmat.primitives.asymmetric import rsa as rsa_keys

    key = rsa_keys.generate_private_key(public_exponent=65537, key_size=1024)
    rsa.write_bytes(key.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, s.NoEncryption()))
    with pytest.raises(UsageError, match="not an Ed25519 private key"):
        signing.load_private_key(rsa)
    with pytest.raises(UsageError, match="give --anchor or --ledger"):
        anchoring.expectation([], [], str(public))


def test_without_cryptography_the_error_says_what_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    private, _ = openssl_keys(tmp_path)
    for name in [m for m in sys.modules if m == "cryptography" or m.startswith("cryptography.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "cryptography", None)
    with pytest.raises(UsageError, match=r"pytest-coldstart\[sign\]"):
        signing.load_private_key(private)


def test_a_ledger_that_is_no_regular_file_is_refused_without_waiting(tmp_path: Path) -> None:
    """s35 #9: a FIFO ledger was opened for reading and waited forever for a writer."""
    _, pinned = sealed_passing(tmp_path / "a")
    fifo = tmp_path / "ledger.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(UsageError, match="is a FIFO, not a regular file"):
        ledger.check_appendable(fifo)
    with pytest.raises(ColdstartError, match="not a regular file"):
        ledger.append(fifo, pinned)  # append re-checks on the open descriptor
    with pytest.raises(UsageError, match="not a regular file"):
        ledger.check_appendable("/dev/null")
    link = tmp_path / "linked.jsonl"
    link.symlink_to(tmp_path / "real.jsonl")
    ledger.check_appendable(link)  # an operator's symlinked ledger stays usable, as read() follows it
    ledger.append(link, pinned)
    assert list(ledger.read(link)) == [pinned["run_id"]]
