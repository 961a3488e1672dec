"""Local TCP port facts: free (nothing listens, and we could bind it), listening, released."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from dataclasses import dataclass

LOOPBACK = "127.0.0.1"


@dataclass(frozen=True)
class PortState:
    port: int
    free: bool
    how: str


def port_state(port: int, host: str = LOOPBACK) -> PortState:
    """A port is free when nothing accepts a connection on ``host`` and a wildcard bind works.

    The bind catches listeners on other addresses of this machine; SO_REUSEADDR keeps a
    recently closed (TIME_WAIT) port from being reported as taken.
    """
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        return PortState(port, False, f"{port!r} is not a reservable TCP port (1-65535)")
    if is_listening(host, port):
        return PortState(port, False, f"a listener accepted a connection on {host}:{port}")
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(("", port))
    except OSError as exc:
        return PortState(port, False, f"binding 0.0.0.0:{port} failed ({exc.strerror or exc})")
    finally:
        probe.close()
    return PortState(port, True, f"connect to {host}:{port} refused and 0.0.0.0:{port} bindable")


def is_listening(host: str, port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def wait_until(predicate: Callable[[], object], seconds: float, interval: float = 0.05) -> bool:
    """Poll ``predicate`` until it holds or ``seconds`` pass (checked at least once)."""
    deadline = time.monotonic() + seconds
    while True:
        if predicate():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(interval)
