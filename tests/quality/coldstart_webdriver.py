"""A minimal W3C WebDriver client (stdlib only) driving headless Chromium through chromedriver
on loopback, for test_browser_report.py. No selenium: the protocol is a few JSON calls.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

PACKAGES = "Debian packages chromium and chromium-driver (apt-get install -y chromium chromium-driver)"
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
ARGS = [
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1600,1400",
]


def find_browser() -> tuple[str | None, str | None]:
    """(chromium, chromedriver) executables, or None for the ones that are absent."""
    chromium = next((p for p in map(shutil.which, ("chromium", "chromium-browser")) if p), None)
    return chromium, shutil.which("chromedriver")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class WebDriverError(RuntimeError):
    pass


class Browser:
    """One chromedriver process and one headless Chromium session with a fresh profile."""

    def __init__(self, chromium: str, chromedriver: str, profile: Path, log: Path, timeout: float = 30.0):
        port = _free_port()
        self.base = f"http://127.0.0.1:{port}"
        # Loopback only, and never through a proxy from the environment.
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        self._process = subprocess.Popen(
            [chromedriver, f"--port={port}", f"--log-path={log}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        self.session: str | None = None
        try:
            self._wait_ready(timeout)
            args = ARGS + [f"--user-data-dir={profile}"] + (["--no-sandbox"] if os.geteuid() == 0 else [])
            options = {"binary": chromium, "args": args}
            value = self._call(
                "POST",
                "/session",
                {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": options}}},
            )
            self.session = value["sessionId"]
        except BaseException:
            self.close()
            raise

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise WebDriverError(f"chromedriver exited with code {self._process.returncode}")
            try:
                if self._call("GET", "/status").get("ready"):
                    return
            except (OSError, WebDriverError):
                pass
            time.sleep(0.05)
        raise WebDriverError(f"chromedriver did not become ready within {timeout}s")

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        try:
            with self._opener.open(request, timeout=60) as response:
                payload = json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as exc:
            detail = json.loads(exc.read() or b"{}").get("value", {})
            raise WebDriverError(
                f"{method} {path}: {detail.get('error')}: {str(detail.get('message'))[:300]}"
            ) from None
        return payload.get("value")

    def _session(self, method: str, path: str, body: Any = None) -> Any:
        return self._call(method, f"/session/{self.session}{path}", body)

    def get(self, url: str) -> None:
        self._session("POST", "/url", {"url": url})

    def execute(self, script: str, *args: Any) -> Any:
        return self._session("POST", "/execute/sync", {"script": script, "args": list(args)})

    def console(self) -> list[dict[str, Any]]:
        """The browser log entries (console messages, uncaught errors, CSP refusals) since the last call."""
        return list(self._session("POST", "/se/log", {"type": "browser"}) or [])

    def wait_for(self, script: str, timeout: float = 20.0) -> Any:
        """Poll ``script`` until it returns a truthy value; that value."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.execute(script)
            if value:
                return value
            time.sleep(0.1)
        raise WebDriverError(f"timed out after {timeout}s waiting for: {script}")

    def screenshot(self, path: Path, element: dict[str, str] | None = None) -> Path:
        """A PNG of the viewport, or of ``element`` (a reference returned by ``execute``)."""
        if element is None:
            data = self._session("GET", "/screenshot")
        else:
            data = self._session("GET", f"/element/{element[ELEMENT]}/screenshot")
        path.write_bytes(base64.b64decode(data))
        return path

    def close(self) -> None:
        if self.session is not None:
            try:
                self._session("DELETE", "")
            except (OSError, WebDriverError):
                pass
            self.session = None
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
