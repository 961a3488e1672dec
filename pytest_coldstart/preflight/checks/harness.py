"""harness_identity, terminal and filesystem: the harness itself and its basic tools."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from pytest_coldstart.preflight.checks.base import CheckResult
from pytest_coldstart.preflight.context import Context
from pytest_coldstart.run.hashing import sha256_bytes

POSIX_SHELLS = {"bash", "sh", "dash", "zsh", "ksh", "mksh", "ash", "busybox"}


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


class HarnessIdentity:
    id = "harness_identity"
    proves = "the configured harness command answers its version probe; model/provider are recorded, not secrets"

    def run(self, context: Context) -> CheckResult:
        config = context.config
        name, command = _text(config.get("name")), _text(config.get("command"))
        model, provider = _text(config.get("model")), _text(config.get("provider"))
        session_env = _text(config.get("session_env"))
        versions = {
            "name": name,
            "model": model,
            "provider": provider,
            "session_env_name": session_env,
            "session_env_present": bool(session_env and context.environ.get(session_env)),
        }
        tail = f"model={model or '(none)'} provider={provider or '(none)'}"
        missing = [
            label
            for label, value in (("name", name), ("command", command), ("model", model), ("provider", provider))
            if not value
        ]
        if missing:
            return CheckResult.failed(f"harness {', '.join(missing)} not configured; {tail}", None, **versions)
        run = context.command(
            self.id, "version", [command, *config.get("version_args", [])], timeout=config.timeout("command")
        )
        lines = [line for line in run.output.splitlines() if line.strip()]
        versions.update(
            command_path=context.which(command), exit_code=run.exit_code, version_output="\n".join(lines[:2])
        )
        if not run.ok:
            return CheckResult.failed(
                f"{command} version probe failed ({run.describe()}); {tail}", [run.evidence], **versions
            )
        return CheckResult.passed(f"{name}: {lines[0] if lines else '(no output)'}; {tail}", [run.evidence], **versions)


class Terminal:
    id = "terminal"
    proves = "the harness can run a shell command (the configured shell probe)"

    def run(self, context: Context) -> CheckResult:
        shell = list(context.config.get("shell") or [])
        if not shell or not _text(shell[0]):
            return CheckResult.failed("no shell probe configured (shell)")
        timeout = context.config.timeout("command")
        probe = context.command(self.id, "shell", shell, timeout=timeout)
        evidence = [probe.evidence]
        versions = {"shell": context.which(shell[0]), "first_line": (probe.output.strip().splitlines() or [""])[0]}
        if not probe.ok:
            return CheckResult.failed(f"{shell[0]} failed ({probe.describe()})", evidence, **versions)
        if Path(shell[0]).name not in POSIX_SHELLS:
            return CheckResult.passed(f"{shell[0]} ran (exit 0)", evidence, **versions)
        # A POSIX shell must also execute a command line, not just print its version.
        nonce = f"coldstart-{secrets.token_hex(6)}"
        echo = context.command(self.id, "execute", [shell[0], "-c", f"printf '%s\\n' {nonce}"], timeout=timeout)
        evidence.append(echo.evidence)
        if not echo.ok or echo.stdout.strip() != nonce:
            return CheckResult.failed(f"{shell[0]} -c did not echo the nonce ({echo.describe()})", evidence, **versions)
        return CheckResult.passed(f"{shell[0]} ran and executed a command line", evidence, **versions)


class Filesystem:
    id = "filesystem"
    proves = "a nonce file is written, read back and hashed with its exact bytes preserved"

    def run(self, context: Context) -> CheckResult:
        # Non-ASCII, CRLF and a NUL byte: any newline or encoding translation shows up.
        nonce = f"coldstart-{os.getpid()}-{secrets.token_hex(8)}\r\nünïcode ✓\x00\n".encode()
        expected = sha256_bytes(nonce)
        reference = context.probes.file(self.id, "expected.txt", nonce)
        scratch = context.out / "scratch" / "filesystem-probe.txt"
        try:
            scratch.parent.mkdir(parents=True, exist_ok=True)
            with open(scratch, "wb") as handle:
                handle.write(nonce)
                handle.flush()
                os.fsync(handle.fileno())
            data = scratch.read_bytes()
        except OSError as exc:
            return CheckResult.failed(f"could not write and read back {scratch}: {exc.strerror or exc}", [reference])
        matched = data == nonce
        readback = {
            "kind": "readback",
            "path": scratch.relative_to(context.out).as_posix(),
            "sha256": sha256_bytes(data),
            "size": len(data),
            "expected_sha256": expected,
            "matched": matched,
        }
        if not matched:
            return CheckResult.failed(
                f"read back {len(data)} bytes that differ from the {len(nonce)} written", [reference, readback]
            )
        return CheckResult.passed(
            f"wrote, read back and hashed {len(nonce)} bytes (sha256 {expected[:12]})",
            [reference, readback],
            sha256=expected,
        )
