"""lab_management: the lab manager lists labs, provisions one pinned to the reserved ports,
starts it, our own RCON client runs ``list`` on it, and it stops again.

The lab manager is any command (``lab.manager``) following the documented protocol
(docs/preflight.md): sub-commands from ``lab.*_args`` templates, a fresh RCON password in
``$COLDSTART_RCON_PASSWORD`` (generated here, never written anywhere), lab facts as a JSON
object on the last stdout line of ``provision``/``start``. ``lab.enabled: false`` or
``lab.start: false`` is SKIP, which the audit's preflight cross-check rejects.
"""

from __future__ import annotations

import re
import secrets
import sys
from pathlib import Path
from typing import Any

from pytest_coldstart.preflight.checks.base import CheckResult
from pytest_coldstart.preflight.context import Context, TemplateError, expand
from pytest_coldstart.preflight.rcon import RconClient, RconError
from pytest_coldstart.preflight.sockets import is_listening, port_state, wait_until
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.hashing import sha256_file
from pytest_coldstart.run.jsonfields import object_or_empty

PASSWORD_ENV = "COLDSTART_RCON_PASSWORD"
REFERENCE_MANAGER = Path("tools") / "lab_server.py"


class LabFailure(Exception):
    """Ends the live part of the check with a FAIL detail (the server is still stopped)."""


def last_json_value(text: str) -> Any:
    """The last stdout line that parses as JSON (lab managers print their facts last)."""
    for line in reversed(text.splitlines()):
        try:
            return jsonio.loads(line)
        except ValueError:
            continue
    return None


class LabRun:
    """State of one lab_management run: what was done, and what it proved."""

    def __init__(self, check_id: str, context: Context):
        self.check_id, self.context = check_id, context
        self.lab = context.config.section("lab")
        self.evidence: list[dict[str, Any]] = []
        ports = object_or_empty(self.lab.get("ports"))
        # raw config values (JSON): require_ports checks they are reserved integers before use
        self.game: Any = ports.get("game")
        self.rcon: Any = ports.get("rcon")
        self.host = self.lab.get("host") or "127.0.0.1"
        self.password = secrets.token_urlsafe(24)
        context.probes.add_secret(self.password)
        self.info: dict[str, Any] = {}
        self.versions: dict[str, Any] = {
            "name": self.lab.get("name"),
            "serverPort": self.game,
            "rconPort": self.rcon,
            "started": False,
        }
        self.manager = list(self.lab.get("manager") or [])
        if not self.manager and (context.cwd / REFERENCE_MANAGER).is_file():
            self.manager = [sys.executable, str(context.cwd / REFERENCE_MANAGER)]
        self.versions["manager"] = self.manager

    def step(self, step: str, template_key: str, timeout_key: str) -> str:
        """Run one manager sub-command; return its stdout or raise LabFailure."""
        values = {
            "name": self.lab.get("name"),
            "game_port": self.game,
            "rcon_port": self.rcon,
            "wait": self.lab.get("wait"),
            "java": self.lab.get("java") or "",
            "python": sys.executable,
            "out": self.context.out,
        }
        try:
            argv = self.manager + expand(list(self.lab.get(template_key) or []), values, f"lab.{template_key}")
        except TemplateError as exc:
            raise LabFailure(str(exc)) from None
        env = {
            PASSWORD_ENV: self.password,
            "COLDSTART_LAB_GAME_PORT": str(self.game),
            "COLDSTART_LAB_RCON_PORT": str(self.rcon),
        }
        run = self.context.command(
            self.check_id, step, argv, timeout=self.context.config.timeout(timeout_key), env_extra=env
        )
        self.evidence.append(run.evidence)
        if not run.ok:
            raise LabFailure(f"lab manager {step} failed ({run.describe()})")
        return run.stdout

    def absorb(self, stdout: str, step: str) -> None:
        """Merge the lab facts a step printed; reported ports must be the reserved ones."""
        facts = last_json_value(stdout)
        if not isinstance(facts, dict):
            return
        self.info.update(facts)
        for key, reserved in (("serverPort", self.game), ("rconPort", self.rcon)):
            if key in facts and facts[key] != reserved:
                raise LabFailure(
                    f"lab manager {step} reports {key} {facts[key]!r}, but the reserved port is {reserved}"
                )

    def require_ports(self) -> None:
        for label, port in (("lab.ports.game", self.game), ("lab.ports.rcon", self.rcon)):
            if not isinstance(port, int) or isinstance(port, bool):
                raise LabFailure(f"{label} is not reserved: a lab must be pinned to reserved ports")
            state = port_state(port, self.host)
            if not state.free:
                raise LabFailure(f"{label} {port} is not free before provisioning: {state.how}")

    def live(self) -> str:
        """Start, talk RCON, observe the pinned ports; return the RCON answer."""
        wait = float(self.lab.get("wait") or 300)
        self.absorb(self.step("start", "start_args", "lab_start"), "start")
        if not wait_until(lambda: is_listening(self.host, self.rcon), wait, 0.1):
            raise LabFailure(f"nothing answered on the reserved RCON port {self.host}:{self.rcon} within {wait:g} s")
        self.versions["started"] = True
        if not is_listening(self.host, self.game):
            raise LabFailure(f"the server is not listening on the reserved game port {self.host}:{self.game}")
        if self.lab.get("status_args"):
            self.absorb(self.step("status", "status_args", "lab_list"), "status")
        command = self.lab.get("rcon_command") or "list"
        lines = [f"connect {self.host}:{self.rcon}"]
        try:
            with RconClient(self.host, self.rcon, timeout=10.0) as client:
                client.login(self.password)
                lines.append("login: accepted")
                answer = client.command(command)
        except RconError as exc:
            lines.append(f"error: {exc}")
            self.evidence.append(self.context.probes.transcript(self.check_id, "rcon", "\n".join(lines)))
            raise LabFailure(f"RCON {command!r} on {self.host}:{self.rcon} failed: {exc}") from None
        lines += [f"> {command}", f"< {answer}"]
        self.evidence.append(self.context.probes.transcript(self.check_id, "rcon", "\n".join(lines)))
        self.versions["rcon_response"] = answer
        expect = self.lab.get("rcon_expect") or ""
        if expect and not re.search(expect, answer):
            raise LabFailure(f"RCON {command!r} answered {answer!r}, which does not match {expect!r}")
        return answer

    def stop(self) -> str | None:
        """Stop the lab; return a failure text when it did not stop or left its ports in use."""
        try:
            self.step("stop", "stop_args", "lab_stop")
        except LabFailure as exc:
            return str(exc)
        grace = min(10.0, self.context.config.timeout("lab_stop"))
        released = wait_until(
            lambda: not is_listening(self.host, self.rcon) and not is_listening(self.host, self.game), grace, 0.1
        )
        self.versions["stopped"] = released
        return None if released else f"the server still listens on {self.game}/{self.rcon} after stop"

    def record_console(self) -> None:
        console = self.info.get("console")
        if not isinstance(console, str) or not console:
            self.versions["console_sha256"] = None
            return
        path = Path(console) if Path(console).is_absolute() else self.context.cwd / console
        if not path.is_file():
            self.versions["console_sha256"] = None
            return
        digest, size = sha256_file(path, follow_symlinks=True)  # lab files: operator inputs
        self.versions.update(console=str(path), console_sha256=digest, console_size=size)
        self.evidence.append({"kind": "console", "path": str(path), "sha256": digest, "size": size})


class LabManagement:
    id = "lab_management"
    proves = (
        "the lab manager lists labs; with start enabled a server is provisioned pinned to the reserved ports, "
        "started, answers our RCON `list`, and stops"
    )

    def run(self, context: Context) -> CheckResult:
        lab = context.config.section("lab")
        if not lab.get("enabled", True):
            return CheckResult.skipped("lab.enabled is false: no lab was exercised")
        run = LabRun(self.id, context)
        if not run.manager:
            return CheckResult.failed(
                f"no lab manager configured (lab.manager is empty and there is no {REFERENCE_MANAGER})", **run.versions
            )
        try:
            listed = last_json_value(run.step("list", "list_args", "lab_list"))
            run.versions["labs_listed"] = len(listed) if isinstance(listed, list) else None
            if not lab.get("start") and not lab.get("provision", True):
                return CheckResult.skipped(
                    "labs listed; provision and start are disabled: no live server was exercised",
                    run.evidence,
                    **run.versions,
                )
            run.require_ports()
            if lab.get("provision", True):
                run.absorb(run.step("provision", "provision_args", "provision"), "provision")
                if run.info:
                    run.evidence.append(context.probes.file(self.id, "lab.json", jsonio.dumps_document(run.info)))
        except LabFailure as exc:
            return CheckResult.failed(str(exc), run.evidence, **run.versions)
        if not lab.get("start"):
            return CheckResult.skipped(
                "lab listed and provisioned, but start is disabled: no live server was exercised",
                run.evidence,
                **run.versions,
            )
        failure = None
        try:
            answer = run.live()
        except LabFailure as exc:
            failure = str(exc)
        finally:
            stop_failure = run.stop()
        run.record_console()
        run.versions["lab"] = run.info
        failure = failure or stop_failure
        if failure:
            return CheckResult.failed(failure, run.evidence, **run.versions)
        return CheckResult.passed(
            f"lab {run.versions['name']} started on game {run.game} / RCON {run.rcon}, answered {answer.strip()[:80]!r}, stopped",
            run.evidence,
            **run.versions,
        )
