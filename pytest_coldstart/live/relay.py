"""A per-run relay that keeps the recorder loaded between hook invocations.

A harness starts one hook process per event, and most of such a process's time is spent
importing the recorder, not appending. So the first hook of a run appends directly (the
ordinary path) and starts a relay for the run in the background; later hooks hand their
payload to it over a Unix socket in the run's private state folder and wait for its answer
(the record is appended and fsynced before the relay answers, exactly as a direct append).
The relay appends through the same ``run_hook`` under the same run lock, one event at a time,
and exits when idle (``IDLE_S``), when its session ends, or when the run is sealed. Whenever
the relay cannot be reached or does not answer in time, the hook appends directly: the relay
is an accelerator, never a dependency (a call delivered twice is still recorded once).

This module is imported on the hook's fast path: standard library only.
"""

from __future__ import annotations

import json
import os
import socket
import struct
import sys
from pathlib import Path

RUN_DIR_ENV = "COLDSTART_RUN_DIR"
BUDGET_ENV = "COLDSTART_HOOK_BUDGET"
RELAY_ENV = "COLDSTART_HOOK_RELAY"  # "0": every hook appends directly
DEFAULT_BUDGET_S = 5.0
IDLE_S = 20.0
SOCKET = "hook-relay-{version}.sock"
#: AF_UNIX paths are limited to 108 bytes; longer run paths go through the folder's descriptor
PATH_LIMIT = 100
_LENGTH = struct.Struct("<I")
NOT_SENT = object()


def budget(given: float | None) -> float:
    """Seconds one event may take: the option, else $COLDSTART_HOOK_BUDGET, else 5."""
    if given is not None and 0 < given < 3600:
        return given
    try:
        value = float(os.environ.get(BUDGET_ENV, DEFAULT_BUDGET_S))
    except ValueError:
        return DEFAULT_BUDGET_S
    return value if 0 < value < 3600 else DEFAULT_BUDGET_S


def enabled() -> bool:
    return os.environ.get(RELAY_ENV, "1") != "0"


def socket_name(version: str) -> str:
    return SOCKET.format(version=version.replace("/", "_"))


class Address:
    """The relay socket's path, usable even when the run's absolute path is too long."""

    def __init__(self, state_dir: Path, version: str):
        self.full = state_dir / socket_name(version)
        self._fd: int | None = None
        if len(os.fsencode(self.full)) > PATH_LIMIT:
            self._fd = os.open(state_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
            self.path = f"/proc/self/fd/{self._fd}/{self.full.name}"
        else:
            self.path = str(self.full)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def send(message: dict[str, object], sock: socket.socket) -> None:
    data = json.dumps(message).encode("utf-8", "surrogatepass")
    sock.sendall(_LENGTH.pack(len(data)) + data)


def receive(sock: socket.socket, limit: int) -> dict[str, object] | None:
    head = _read(sock, _LENGTH.size)
    if head is None:
        return None
    (size,) = _LENGTH.unpack(head)
    if size > limit:
        return None
    body = _read(sock, size)
    if body is None:
        return None
    value = json.loads(body)
    return value if isinstance(value, dict) else None


def _read(sock: socket.socket, size: int) -> bytes | None:
    chunks, remaining = [], size
    while remaining:
        chunk = sock.recv(min(remaining, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def relay(run_dir: str, adapter: str, payload: bytes, version: str, budget_s: float) -> object:
    """Hand one event to the run's relay: its failure text (None: recorded), or NOT_SENT when
    no relay answered (the caller appends directly)."""
    state = Path(run_dir) / ".coldstart"
    try:
        if state.is_symlink() or not state.is_dir():
            return NOT_SENT
        address = Address(state, version)
    except OSError:
        return NOT_SENT
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(budget_s + 1.0)
            sock.connect(address.path)
            send({"adapter": adapter, "payload": payload.decode("utf-8", "surrogateescape"), "budget": budget_s}, sock)
            answer = receive(sock, 1 << 20)
    except (OSError, ValueError):
        return NOT_SENT
    finally:
        address.close()
    if answer is None or "failure" not in answer:
        return NOT_SENT
    failure = answer["failure"]
    return failure if isinstance(failure, str) else None


def start(run_dir: str, version: str) -> None:
    """Start the run's relay in the background (detached; it exits by itself when idle)."""
    import subprocess  # only on the slow path, which has just paid for far more

    try:
        subprocess.Popen(
            [sys.executable, "-m", "pytest_coldstart.live.relay_server", str(Path(run_dir).resolve()), version],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
        )
    except OSError:
        pass  # no relay: every hook appends directly, which is only slower
