"""Secrets seeded into harness sessions reach no file of the run (issue 7), while the stored
copy keeps its provenance (issue 6): run.json names the source's hash, validate and the audit
agree with the stored one. Everything runs through the real ``coldstart`` CLI."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from importer_helpers import CREATED, check_stored_copy, manifest, run_cli

ENV_NAME = "COLDSTART_SEEDED_SECRET"
ENV_VALUE = "envsecret-7f3a9c1e55d2"
SK_TOKEN = "sk-proj-Q7vX2mN9pL4kR8sT1wY6zB3c"
# values under denylisted keys (no pattern would find them: only the key gives them away)
KEYED = {
    "api_key": "keyed-value-api-0001",
    "access_key": "keyed-value-access-0002",
    "password": "keyed-value-pass-0003",
    "cookie": "keyed-value-cookie-0004",
}
HEADER = "keyed-value-auth-0005"
SECRETS = [ENV_VALUE, SK_TOKEN, HEADER, *KEYED.values()]
BIG = "collected output line\n" * 1200  # > 16 KiB: the result goes to the payload store


def _arguments(base: dict[str, Any]) -> dict[str, Any]:
    return {**base, **KEYED, "headers": {"Authorization": HEADER}, "note": f"uses ${ENV_NAME}={ENV_VALUE}"}


def _output(text: str) -> str:
    return f"{text}\nexport OPENAI_API_KEY={SK_TOKEN}\n{BIG}token echoed: {ENV_VALUE}\n"


def _seed_pi(lines: list[dict[str, Any]]) -> None:
    for line in lines:
        message = line.get("message") or {}
        for block in message.get("content") or []:
            if isinstance(block, dict) and block.get("type") == "toolCall":
                block["arguments"] = _arguments(block["arguments"])
                return _seed_pi_result(lines)


def _seed_pi_result(lines: list[dict[str, Any]]) -> None:
    for line in lines:
        message = line.get("message") or {}
        if message.get("role") == "toolResult":
            message["content"][0]["text"] = _output(message["content"][0]["text"])
            return


def _seed_claude(lines: list[dict[str, Any]]) -> None:
    used = results = False
    for line in lines:
        content = (line.get("message") or {}).get("content")
        for block in content if isinstance(content, list) else []:
            if block.get("type") == "tool_use" and not used:
                block["input"] = _arguments(block["input"])
                used = True
            elif block.get("type") == "tool_result" and not results:
                inner = block["content"]
                block["content"] = _output(inner if isinstance(inner, str) else inner[0]["text"])
                line.setdefault("toolUseResult", {})["stdout"] = block["content"]  # Claude repeats outputs here
                results = True


def _seed_codex(lines: list[dict[str, Any]]) -> None:
    called = answered = False
    for line in lines:
        payload = line.get("payload") or {}
        if payload.get("type") == "function_call" and not called:
            # Codex keeps arguments as a JSON string: the keys are only visible once parsed
            payload["arguments"] = json.dumps(_arguments(json.loads(payload["arguments"])))
            called = True
        elif payload.get("type") == "function_call_output" and not answered:
            payload["output"] = _output(payload["output"])
            answered = True


SEEDERS = {
    "pi-v3-basic": ("pi", _seed_pi),
    "claude-code-basic": ("claude-code", _seed_claude),
    "codex-rollout-basic": ("codex", _seed_codex),
}


def _every_byte(root: Path) -> dict[str, bytes]:
    found = {}
    for path in sorted(root.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            if path.name.endswith(".gz"):
                data += gzip.decompress(data)
            found[path.relative_to(root).as_posix()] = data
    return found


@pytest.mark.parametrize("name", sorted(SEEDERS))
def test_seeded_secrets_reach_no_file_of_the_run(name: str, samples: Path, tmp_path: Path) -> None:
    fmt, seed = SEEDERS[name]
    lines = [json.loads(line) for line in (samples / f"{name}.jsonl").read_text("utf-8").splitlines()]
    seed(lines)
    session = tmp_path / f"{name}.jsonl"
    session.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    raw = session.read_bytes()
    assert all(secret.encode() in raw for secret in SECRETS)  # the seeding worked

    run = tmp_path / "run"
    env = {ENV_NAME: ENV_VALUE}
    init = run_cli(
        "trace",
        "init",
        "--run-dir",
        str(run),
        "--run-id",
        "secrets",
        "--task-text",
        "t",
        "--harness",
        fmt,
        "--model",
        "m",
        "--provider",
        "p",
        "--harness-version",
        "1",
        "--created-at",
        CREATED,
        "--redact-env",
        ENV_NAME,
        "--compression",
        "gzip",
        env=env,
    )
    assert init.returncode == 0, init.stderr
    done = run_cli("trace", "import", "--run-dir", str(run), "--format", fmt, "--session", str(session), env=env)
    assert done.returncode == 0, done.stderr
    assert "were redacted" in done.stdout

    (entry,) = manifest(run)["imports"]
    assert entry["source_sha256"] == hashlib.sha256(raw).hexdigest() != entry["sha256"]
    assert entry["redacted"] >= len(SECRETS) and entry["complete"] is True
    check_stored_copy(run, entry, raw)
    assert list((run / "payloads").iterdir()), "the big result should be in the payload store"

    valid = run_cli("trace", "validate", "--run-dir", str(run), "--json")
    assert valid.returncode == 0, valid.stdout
    assert json.loads(valid.stdout)["valid"] is True
    reports = tmp_path / "audit"
    audit = run_cli("audit", "run", "--run-dir", str(run), "--out", str(reports), "--json")
    assert audit.returncode in (0, 1, 2), audit.stderr
    assert not [e for e in json.loads(audit.stdout)["infra_errors"] if "imports" in e]

    for where, data in {**_every_byte(run), **_every_byte(reports)}.items():
        for secret in SECRETS:
            assert secret.encode() not in data, f"{secret} in {where}"
    assert not list((run / ".coldstart").glob("*.spool")) and not list((run / ".coldstart").glob("*.tmp"))
