"""ports: the reserved API/mod ports (and the lab's game/RCON ports) are free and in range."""

from __future__ import annotations

from typing import Any

from pytest_coldstart.preflight.checks.base import CheckResult
from pytest_coldstart.preflight.context import Context
from pytest_coldstart.preflight.sockets import port_state
from pytest_coldstart.run.jsonfields import object_or_empty


def reserved_ports(context: Context) -> list[tuple[str, Any]]:
    """(name, port) of every port the run reserves: api, mod, and the lab's when it is enabled."""
    ports = context.config.section("ports")
    reserved: list[tuple[str, Any]] = [("api", ports.get("api")), ("mod", ports.get("mod"))]
    lab = context.config.section("lab")
    lab_ports = object_or_empty(lab.get("ports"))
    if lab.get("enabled", True):
        reserved += [(f"lab.{name}", lab_ports[name]) for name in ("game", "rcon") if name in lab_ports]
    return reserved


class Ports:
    id = "ports"
    proves = "the reserved API/mod ports (and the lab's game/RCON ports) are free and inside the reserved range"

    def run(self, context: Context) -> CheckResult:
        span = context.config.get("ports.range")
        low, high = (span[0], span[1]) if isinstance(span, list) and len(span) == 2 else (0, 0)
        problems: list[str] = []
        if low and low > high:
            problems.append(f"range {low}-{high} is empty")
        evidence: list[dict[str, Any]] = []
        lines = [f"reserved range: {low}-{high}" if low else "reserved range: not enforced"]
        owners: dict[Any, str] = {}
        for name, port in reserved_ports(context):
            state = port_state(port)
            inside = not low or (isinstance(port, int) and low <= port <= high)
            lines.append(
                f"{name} {port}: {'free' if state.free else 'NOT free'} ({state.how}); {'in' if inside else 'OUTSIDE'} range"
            )
            evidence.append(
                {"kind": "port", "name": name, "port": port, "free": state.free, "in_range": inside, "how": state.how}
            )
            if not state.free:
                problems.append(f"{name} port {port} is not free: {state.how}")
            if not inside:
                problems.append(f"{name} port {port} is outside the reserved range {low}-{high}")
            if port in owners:
                problems.append(f"{name} port {port} is also reserved as {owners[port]}")
            owners.setdefault(port, name)
        evidence.insert(0, context.probes.transcript(self.id, "ports", "\n".join(lines)))
        versions = {name.replace("lab.", ""): port for name, port in reserved_ports(context)}
        versions["range"] = [low, high]
        if problems:
            return CheckResult.failed("; ".join(problems), evidence, **versions)
        listed = ", ".join(f"{name} {port}" for name, port in reserved_ports(context))
        return CheckResult.passed(f"free and in range: {listed}", evidence, **versions)
