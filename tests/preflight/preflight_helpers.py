"""Helpers shared by the preflight tests (importable as ``preflight_helpers``)."""

from __future__ import annotations

import socket
import stat
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LAB_MANAGER = HERE / "lab_manager.py"
SMOKE = HERE / "smoke_bridge.py"


def free_ports(count: int) -> list[int]:
    """Distinct ports the OS reports free right now (held together, so never the same twice)."""
    held = []
    try:
        for _ in range(count):
            sock = socket.socket()
            sock.bind(("127.0.0.1", 0))
            held.append(sock)
        return [sock.getsockname()[1] for sock in held]
    finally:
        for sock in held:
            sock.close()


def write_script(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def entry(document: dict[str, Any], check_id: str) -> dict[str, Any]:
    return next(e for e in document["checks"] if e["id"] == check_id)


def lab_section(root: Path, game: int, rcon: int, *, misbehave: str = "none", **extra: Any) -> dict[str, Any]:
    return {
        "enabled": True,
        "name": "test-lab",
        "start": True,
        "ports": {"game": game, "rcon": rcon},
        "wait": 10,
        "manager": [sys.executable, str(LAB_MANAGER), "--root", str(root), "--misbehave", misbehave],
        **extra,
    }


def fake_bridge(directory: Path, *, mcp: bool = True, help_ok: bool = True) -> Path:
    """A real executable bridge CLI (shell script) with or without its MCP extra."""
    return write_script(
        directory / "mc-bridge",
        "#!/bin/sh\n"
        f'if [ "$1" = "--help" ]; then echo "usage: mc-bridge [--help] {{call,mcp}}"; exit {0 if help_ok else 1}; fi\n'
        'if [ "$1" = "mcp" ]; then\n'
        + (
            '  echo "usage: mc-bridge mcp [--help]"; exit 0\n'
            if mcp
            else "  echo \"ModuleNotFoundError: No module named 'mcp'\" >&2; exit 2\n"
        )
        + "fi\nexit 64\n",
    )
