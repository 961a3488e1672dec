"""Seeded secrets never reach any byte of a run or of any report about it.

Secrets go into tool arguments, results, error messages, decision rationales, state snapshots,
large payloads (gzip-compressed and preview-only), run notes and environment values, through
the real CLI and the Python API. Then validate, audit, summary and compare run over the runs,
and every byte of every file (hidden ones included, payloads decompressed) and every report is
searched.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from bundle_helpers import all_bytes, run_cli

from pytest_coldstart.analysis import summary
from pytest_coldstart.demo import research as demo_research
from pytest_coldstart.record import logsettings, records
from pytest_coldstart.record.recorder import Recorder, init_run
from pytest_coldstart.record.seal import seal
from pytest_coldstart.run import jsonio

SECRETS = {
    "env": "env-only-credential-5a8b2c",
    "env_unlisted_key": "hidden-in-env-dict-77ff01",
    "api": "sk-live-ABCDEFGHIJKLMNOP0123",
    "bearer": "tok.ABCDEF0123456789.sig",
    "password": "Tr0ub4dor&3-seeded",
    "cookie": "sessionid=cafebabe4242",
    "private": "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
}
ENV = {"COLDSTART_TEST_CRED": SECRETS["env"]}


def variants(secret: str) -> list[bytes]:
    """The forms a leaked secret could take in a file: raw, JSON-escaped, gzip-wrapped (checked separately)."""
    return [secret.encode(), json.dumps(secret, ensure_ascii=True)[1:-1].encode()]


def assert_clean(name: str, data: bytes) -> None:
    blobs = [data]
    if data[:2] == b"\x1f\x8b":
        blobs.append(gzip.decompress(data))
    for blob in blobs:
        for label, secret in SECRETS.items():
            for form in variants(secret):
                assert form not in blob, f"{label} secret leaked into {name}"


def record_via_cli(run: Path) -> None:
    def ok(*args: str) -> None:
        done = run_cli(*args, env=ENV)
        assert done.returncode == 0, (args, done.stderr)
        assert_clean("stdout", done.stdout.encode())
        assert_clean("stderr", done.stderr.encode())

    ok(
        "trace",
        "init",
        "--run-dir",
        str(run),
        "--run-id",
        "cli-run",
        "--task-text",
        "task",
        "--harness",
        "pi",
        "--model",
        "m1",
        "--provider",
        "p",
        "--harness-version",
        "1",
        "--redact-env",
        "COLDSTART_TEST_CRED",
        "--compression",
        "gzip",
        "--hash-key",
        "player_id",
        "--note",
        f"operator saw {SECRETS['env']} in the shell",
    )
    arguments = {
        "command": f"curl -H 'Authorization: Bearer {SECRETS['bearer']}' -u bot:{SECRETS['password']}",
        "env": {"OPENAI_API_KEY": SECRETS["api"], "EXTRA": SECRETS["env"], "SECRET_SAUCE": SECRETS["env_unlisted_key"]},
    }
    ok(
        "trace",
        "call",
        "--run-dir",
        str(run),
        "--call-id",
        "c1",
        "--tool",
        "bash",
        "--arguments",
        json.dumps(arguments),
    )
    big = {
        "text": ("log line with " + SECRETS["env"] + " and api_key=" + SECRETS["api"] + "\n") * 400,
        "headers": {"Set-Cookie": SECRETS["cookie"]},
    }
    ok(
        "trace",
        "result",
        "--run-dir",
        str(run),
        "--call-id",
        "c1",
        "--status",
        "error",
        "--result",
        json.dumps(big),
        "--error",
        f"denied for {SECRETS['env']}",
    )
    ok(
        "trace",
        "decision",
        "--run-dir",
        str(run),
        "--summary",
        "retry without the credential",
        "--call-id",
        "c1",
        "--rationale",
        f"the token {SECRETS['env']} was rejected",
    )
    ok(
        "trace",
        "mark",
        "--run-dir",
        str(run),
        "--name",
        "env",
        "--data",
        json.dumps({"password": SECRETS["password"], "player_id": "p-1"}),
    )
    ok(
        "trace",
        "record",
        "--run-dir",
        str(run),
        "--json-text",
        json.dumps(
            records.error(
                "http_error",
                f"401: {SECRETS['env']}",
                detail={"key": f"-----BEGIN PRIVATE KEY-----\n{SECRETS['private']}\n-----END PRIVATE KEY-----"},
            )
        ),
    )
    ok("trace", "seal", "--run-dir", str(run))


def record_via_api(run: Path, payload_mode: str, monkeypatch) -> None:
    monkeypatch.setenv("COLDSTART_TEST_CRED", SECRETS["env"])
    logging = logsettings.with_rules(
        {"payload_mode": payload_mode, "inline_max_bytes": 1024}, env=["COLDSTART_TEST_CRED"], hash_keys=["player_id"]
    )
    recorder = init_run(
        run,
        run_id=f"api-{payload_mode}",
        task_bytes=b"task",
        task_source="inline",
        harness={"name": "api", "model": "m2", "provider": "p", "version": "1"},
        logging=logging,
    )
    tracker = records.StateTracker()
    state = {"player_id": "p-1", "inventory": [f"note: {SECRETS['env']}"] * 100, "auth": {"token": SECRETS["bearer"]}}
    recorder.append(tracker.observe(state, redactor=recorder.redactor, returned_to_agent=True))
    recorder.append(
        records.action(
            "resolved",
            "a1",
            outcome="rejected",
            request={"headers": {"Authorization": f"Bearer {SECRETS['bearer']}"}},
            response={"error": f"rejected password: {SECRETS['password']}"},
        )
    )
    recorder.append(records.session("logger_error", reason=f"could not write with {SECRETS['env']}"))
    recorder.call("c1", "http", {"url": "https://x", "cookie": SECRETS["cookie"]})
    recorder.result("c1", "ok", {"body": [SECRETS["api"]] * 200})
    seal(run, recorder=recorder)
    # A later process without the variable set still never writes the env secret it was not given.
    monkeypatch.delenv("COLDSTART_TEST_CRED")
    assert isinstance(Recorder(run), Recorder)


@pytest.fixture
def runs(tmp_path: Path, monkeypatch) -> Path:
    root = tmp_path / "runs"
    record_via_cli(root / "cli-run")
    record_via_api(root / "api-full", "full", monkeypatch)
    record_via_api(root / "api-preview", "preview", monkeypatch)
    return root


def test_no_secret_reaches_any_file_or_report(runs: Path) -> None:
    reports: dict[str, bytes] = {}
    for run in sorted(p for p in runs.iterdir() if p.is_dir()):
        validated = run_cli("trace", "validate", "--run-dir", str(run), "--json")
        assert validated.returncode == 0, validated.stdout
        audited = run_cli("audit", "run", "--run-dir", str(run), "--json")
        assert audited.returncode in (0, 1, 2), audited.stderr
        assert json.loads(audited.stdout)["schemaVersion"] == 2
        assert (run / "audit" / "audit.json").is_file() and (run / "audit" / "audit.md").is_file()
        reports[f"{run.name}: validate"] = validated.stdout.encode()
        reports[f"{run.name}: audit --json"] = audited.stdout.encode() + audited.stderr.encode()
        summary.write(run)
        assert (run / "summary.json").is_file()
    for form in ([], ["--csv"], ["--json"]):
        compared = run_cli("compare", str(runs), *form)
        assert compared.returncode == 0, compared.stderr
        reports[f"compare {form}"] = compared.stdout.encode()
    files = all_bytes(runs)
    assert any(
        name.startswith("cli-run/payloads/") and name.endswith(".gz") for name in files
    )  # the big result was stored, compressed
    assert any(name.startswith("api-full/payloads/") for name in files)
    assert not any(name.startswith("api-preview/payloads/") for name in files)
    assert any(name.endswith("audit/audit.json") for name in files) and any(
        name.endswith("summary.json") for name in files
    )
    for name, data in {**files, **reports}.items():
        assert_clean(name, data)


def test_redactions_are_visible_and_provable(runs: Path) -> None:
    lines = [line.value for line in jsonio.iter_jsonl(runs / "cli-run" / "trajectory.jsonl")]
    call = next(line for line in lines if line["record"] == "call")
    assert "/arguments/env/OPENAI_API_KEY" in call["redacted"] and "/arguments/command" in call["redacted"]
    assert call["arguments"]["env"]["EXTRA"].startswith("<redacted sha256:")
    manifest = json.loads((runs / "cli-run" / "run.json").read_text())
    assert (
        manifest["logging"]["redaction"]["env"] == ["COLDSTART_TEST_CRED"]
        and manifest["logging"]["compression"] == "gzip"
    )
    assert manifest["notes"][0].startswith("operator saw <redacted sha256:")
    # The digest proves the withheld value to whoever holds it.
    import hashlib

    expected = hashlib.sha256(json.dumps(SECRETS["api"]).encode()).hexdigest()
    assert call["arguments"]["env"]["OPENAI_API_KEY"] == f"<redacted sha256:{expected}>"


def test_demo_bundles_hold_none_of_their_seeded_secrets(tmp_path: Path) -> None:
    from pytest_coldstart.demo.generate import generate

    generate(tmp_path / "demo")
    for name, data in all_bytes(tmp_path / "demo").items():
        blobs = [data, gzip.decompress(data)] if data[:2] == b"\x1f\x8b" else [data]
        for blob in blobs:
            for secret in [
                *demo_research.SECRETS.values(),
                demo_research.DEMO_SALT,
                demo_research.PLAYER["player_id"],
                demo_research.PLAYER["profile_id"],
            ]:
                assert secret.encode() not in blob, (name, secret)
