"""Fixtures for the preflight tests: real ports, a loopback HTTP server, real scripts.

Nothing here stubs a check: configs point the real checks at real things on this machine
(bash, files, sockets, the installed JDK, a lab manager that starts a real RCON server).
"""

from __future__ import annotations

import contextlib
import http.server
import os
import signal
import socket
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from preflight_helpers import free_ports

from pytest_coldstart.preflight.config import from_document
from pytest_coldstart.preflight.pipeline import PreflightOutcome, run_preflight


@pytest.fixture
def ports() -> list[int]:
    return free_ports(4)


@pytest.fixture
def base_config(ports: list[int]) -> dict[str, Any]:
    """A version-2 config whose every part points at something real on this machine."""
    return {
        "schemaVersion": 2,
        "name": "test-harness",
        "command": sys.executable,
        "version_args": ["--version"],
        "model": "test-model",
        "provider": "test-provider",
        "shell": ["bash", "--version"],
        "fetch_urls": [],
        "build": {"java": "", "min_java": 0},
        "bridge": {"enabled": False},
        "ports": {"api": ports[0], "mod": ports[1], "range": [1024, 65535]},
        "lab": {"enabled": False, "ports": {"game": ports[2], "rcon": ports[3]}},
    }


@pytest.fixture
def preflight(tmp_path: Path):
    """``preflight(document, checks=..., skip=..., sets=...)`` runs the real pipeline in-process."""
    counter = iter(range(1, 1000))

    def run(
        document: dict[str, Any], *, checks=None, skip=None, sets=(), environ=None, run_dir=None
    ) -> PreflightOutcome:
        config = from_document(document, list(sets))
        out = tmp_path / f"out-{next(counter)}"
        return run_preflight(config, out, checks=checks, skip=skip, environ=environ, cwd=tmp_path, run_dir=run_dir)

    return run


@pytest.fixture
def listener() -> Iterator[int]:
    """A port with a real listener on it (the test's own)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    try:
        yield sock.getsockname()[1]
    finally:
        sock.close()


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path.startswith("/ok"):
            body = b'{"versions": ["0.1"]}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            self.server.agents.append(self.headers.get("User-Agent"))  # type: ignore[attr-defined]
        else:
            self.send_error(404, "no such endpoint")

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def http_server() -> Iterator[tuple[str, list[str]]]:
    """A real HTTP server on 127.0.0.1: (base URL, user agents seen)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.agents = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", server.agents  # type: ignore[attr-defined]
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def lab_root(tmp_path: Path) -> Iterator[Path]:
    """The test lab manager's root; any server it started is ended afterwards (by its pid)."""
    root = tmp_path / "labs"
    root.mkdir()
    try:
        yield root
    finally:
        for pid_file in [*root.glob("*/server.pid"), *tmp_path.glob("*.pid")]:
            with contextlib.suppress(ValueError, ProcessLookupError, PermissionError):
                os.kill(int(pid_file.read_text()), signal.SIGKILL)
