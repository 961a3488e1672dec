"""bridge_cli, bridge_mcp and bridge_smoke: the agent's call surface to the game.

``bridge.enabled: false`` (a harness without a game bridge) turns all three into SKIP, which
never counts as PASS.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any

from pytest_coldstart.preflight.checks.base import CheckResult
from pytest_coldstart.preflight.context import Context, TemplateError, expand
from pytest_coldstart.preflight.probes import CommandRun
from pytest_coldstart.preflight.sockets import port_state, wait_until

DEFAULT_BRIDGE = "mc-bridge"
#: The reference's smoke script, used when ``bridge.smoke_command`` is not configured.
REFERENCE_SMOKE = Path("tools") / "smoke_offline.py"
REFERENCE_SMOKE_ARGS = [
    "--backend",
    "echo",
    "--mod-port",
    "{mod_port}",
    "--api-port",
    "{api_port}",
    "--timeout",
    "{timeout}",
]
DISABLED = "the bridge is disabled in the config (bridge.enabled is false)"


def bridge_command(context: Context) -> str | None:
    configured = (context.config.get("bridge.command") or "").strip()
    if configured:
        return configured
    for candidate in (DEFAULT_BRIDGE, str(context.cwd / ".venv" / "bin" / DEFAULT_BRIDGE)):
        if context.which(candidate):
            return candidate
    return None


class _BridgeEntry:
    """Runs the bridge with ``args_key``'s arguments; subclasses judge the outcome."""

    step = ""
    args_key = ""

    def run(self, context: Context) -> CheckResult:
        if not context.config.get("bridge.enabled", True):
            return CheckResult.skipped(DISABLED)
        command = bridge_command(context)
        if command is None:
            return self.absent()
        argv = [command, *context.config.get(self.args_key, [])]
        run = context.command(self.id, self.step, argv, timeout=context.config.timeout("bridge"))  # type: ignore[attr-defined]
        return self.judge(
            command, run, {"command": command, "command_path": context.which(command), "exit_code": run.exit_code}
        )

    def absent(self) -> CheckResult:
        raise NotImplementedError

    def judge(self, command: str, run: CommandRun, versions: dict[str, Any]) -> CheckResult:
        raise NotImplementedError


class BridgeCli(_BridgeEntry):
    id = "bridge_cli"
    proves = "the bridge JSON CLI runs (its help probe exits 0): the required call surface"
    step, args_key = "help", "bridge.help_args"

    def absent(self) -> CheckResult:
        return CheckResult.failed(f"no bridge command: {DEFAULT_BRIDGE} is not on PATH and bridge.command is empty")

    def judge(self, command: str, run: CommandRun, versions: dict[str, Any]) -> CheckResult:
        return CheckResult.verdict(run.ok, f"{command} help probe: {run.describe()}", [run.evidence], **versions)


class BridgeMcp(_BridgeEntry):
    id = "bridge_mcp"
    proves = "the bridge's MCP entry runs; optional: SKIP when the mcp extra is absent (the JSON CLI is accepted)"
    step, args_key = "mcp-help", "bridge.mcp_args"

    def absent(self) -> CheckResult:
        return CheckResult.skipped("no bridge command, so no MCP entry (bridge_cli reports the missing bridge)")

    def judge(self, command: str, run: CommandRun, versions: dict[str, Any]) -> CheckResult:
        if run.ok:
            return CheckResult.passed(f"{command} MCP entry answers (exit 0)", [run.evidence], **versions)
        return CheckResult.skipped(
            f"MCP entry absent ({run.describe()}); the JSON CLI is the accepted alternative", [run.evidence], **versions
        )


class BridgeSmoke:
    id = "bridge_smoke"
    proves = "the configured smoke command completes against the reserved API/mod ports and releases them"

    def run(self, context: Context) -> CheckResult:
        config = context.config
        if not config.get("bridge.enabled", True):
            return CheckResult.skipped(DISABLED)
        if not config.get("bridge.smoke", True):
            return CheckResult.skipped("bridge.smoke is false: no smoke run was exercised")
        api, mod = config.get("ports.api"), config.get("ports.mod")
        template, cwd = self._template(context)
        if not template:
            return CheckResult.failed(
                f"no smoke command: bridge.smoke_command is empty and no {REFERENCE_SMOKE} was found"
            )
        values = {
            "api_port": api,
            "mod_port": mod,
            "timeout": config.timeout("smoke"),
            "out": context.out,
            "python": sys.executable,
        }
        try:
            argv = expand(template, values, "bridge.smoke_command")
        except TemplateError as exc:
            return CheckResult.failed(str(exc))
        versions: dict[str, Any] = {"api_port": api, "mod_port": mod, "command": argv}
        busy = [
            f"{name} port {port}: {state.how}"
            for name, port in (("api", api), ("mod", mod))
            if not (state := port_state(port)).free
        ]
        if busy:
            return CheckResult.failed(f"reserved port(s) not free before the smoke: {'; '.join(busy)}", **versions)
        env = {"COLDSTART_API_PORT": str(api), "COLDSTART_MOD_PORT": str(mod), "PYTHONDONTWRITEBYTECODE": "1"}
        run = context.command(self.id, "smoke", argv, timeout=config.timeout("smoke_total"), env_extra=env, cwd=cwd)
        evidence = [run.evidence]
        versions["exit_code"] = run.exit_code
        marker = config.get("bridge.smoke_ok") or ""
        if not run.ok:
            return CheckResult.failed(f"smoke failed ({run.describe()})", evidence, **versions)
        if marker and marker not in run.output:
            return CheckResult.failed(f"smoke exited 0 but never printed {marker!r}", evidence, **versions)
        grace = min(5.0, config.timeout("smoke"))  # a smoke's children may take a moment to exit
        left = [str(p) for p in (api, mod) if not wait_until(functools.partial(_free, p), grace)]
        if left:
            return CheckResult.failed(f"smoke passed but left port(s) {', '.join(left)} in use", evidence, **versions)
        return CheckResult.passed(
            f"smoke completed on api {api} / mod {mod}" + (f" and printed {marker!r}" if marker else ""),
            evidence,
            **versions,
        )

    def _template(self, context: Context) -> tuple[list[str], Path | None]:
        configured = list(context.config.get("bridge.smoke_command") or [])
        if configured:
            return configured, None
        roots = [context.config.get("bridge.siblings_root") or "", str(context.cwd), str(context.cwd.parent)]
        for root in filter(None, roots):
            script = Path(root) / REFERENCE_SMOKE
            if script.is_file():
                return ["{python}", str(script), *REFERENCE_SMOKE_ARGS], script.parent.parent
        return [], None


def _free(port: int) -> bool:
    return port_state(port).free
