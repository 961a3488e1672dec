"""The relay process of one run (see ``relay``): ``python -m pytest_coldstart.live.relay_server RUN VERSION``.

It binds the socket in the run's state folder (owner-only), serves one event at a time through
``run_hook`` and exits when idle for ``IDLE_S``, after its session's end, or once the run is
sealed; a second relay of the same run finds the socket answering and exits at once.
"""

from __future__ import annotations

import contextlib
import io
import os
import socket
import sys
from pathlib import Path

from pytest_coldstart.live.capture import PAYLOAD_LIMIT, run_hook
from pytest_coldstart.live.relay import IDLE_S, Address, receive, send


def _bind(address: Address) -> socket.socket | None:
    """The listening socket, or None when another relay of this run already answers."""
    for _ in range(2):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        previous = os.umask(0o177)
        try:
            sock.bind(address.path)
            return sock
        except OSError:
            sock.close()
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
                try:
                    probe.connect(address.path)
                    return None  # a live relay
                except OSError:
                    with contextlib.suppress(OSError):
                        os.unlink(address.path)  # a stale socket file: bind again
        finally:
            os.umask(previous)
    return None


def serve(run_dir: str, version: str) -> int:
    state = Path(run_dir) / ".coldstart"
    if state.is_symlink() or not state.is_dir():
        return 1
    address = Address(state, version)
    sock = _bind(address)
    if sock is None:
        address.close()
        return 0
    ours = os.stat(address.path).st_ino
    try:
        sock.listen(16)
        sock.settimeout(IDLE_S)
        while True:
            try:
                conn, _ = sock.accept()
            except TimeoutError:
                return 0
            with conn:
                done = _one(conn, run_dir)
            if done:
                return 0
    finally:
        with contextlib.suppress(OSError):
            if os.stat(address.path).st_ino == ours:
                os.unlink(address.path)
        sock.close()
        address.close()


def _one(conn: socket.socket, run_dir: str) -> bool:
    """Serve one event; True when the relay should stop (session ended, run sealed)."""
    conn.settimeout(10.0)
    try:
        request = receive(conn, PAYLOAD_LIMIT + 4096)
    except (OSError, ValueError):
        return False
    if request is None or not isinstance(request.get("adapter"), str) or not isinstance(request.get("payload"), str):
        return False
    budget = request.get("budget")
    outcome = run_hook(
        str(request["adapter"]),
        str(request["payload"]).encode("utf-8", "surrogateescape"),
        run_dir,
        budget_s=float(budget) if isinstance(budget, (int, float)) and not isinstance(budget, bool) else None,
        stderr=io.StringIO(),
    )
    with contextlib.suppress(OSError):
        send({"failure": outcome.failure}, conn)
    return outcome.ended or (outcome.failure is not None and "sealed" in outcome.failure)


if __name__ == "__main__":
    raise SystemExit(serve(sys.argv[1], sys.argv[2]) if len(sys.argv) == 3 else 64)
