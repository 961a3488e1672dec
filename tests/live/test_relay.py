"""The per-run relay: later hooks of a run are served by one process that keeps the recorder
loaded; without it (disabled, killed, or not yet up) every hook appends directly, the same way."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

from live_helpers import coldstart, new_run, of_kind, payloads, replay

from pytest_coldstart._version import __version__
from pytest_coldstart.live.relay import socket_name


def _socket(run: Path) -> Path:
    return run / ".coldstart" / socket_name(__version__)


def _wait(condition: Callable[[], bool], seconds: float = 15.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def _relay_pid(run: Path) -> int:
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                words = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"pytest_coldstart.live.relay_server" in words and os.fsencode(run.resolve()) in words:
                return int(entry.name)
    raise AssertionError("no relay process for the run")


def test_the_first_hook_starts_a_relay_that_serves_the_rest_the_same_way(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    events = payloads()
    replay(run, events[:1])
    assert _wait(_socket(run).exists)
    assert _socket(run).stat().st_mode & 0o777 == 0o600
    replay(run, events[1:-1])
    assert [c["call_id"] for c in of_kind(run, "call")] == [
        "toolu_01A",
        "toolu_01B",
        "toolu_01C",
        "toolu_01D",
        "toolu_01E",
    ]
    assert len(of_kind(run, "result")) == 5
    replay(run, events[-1:])  # SessionEnd: the relay stops with its session
    assert _wait(lambda: not _socket(run).exists())
    assert coldstart("trace", "validate", "--run-dir", str(run)).returncode == 0


def test_a_killed_relay_costs_nothing_but_speed(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    events = payloads()
    replay(run, events[:3])
    assert _wait(_socket(run).exists)
    os.kill(_relay_pid(run), signal.SIGKILL)  # its socket file stays behind, stale
    replay(run, events[3:-1])
    assert len(of_kind(run, "call")) == 5 and len(of_kind(run, "result")) == 5
    replay(run, events[-1:])


def test_failures_come_back_through_the_relay(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    replay(run, payloads()[:1])
    assert _wait(_socket(run).exists)
    done = coldstart("hook", "claude-code", "--run-dir", str(run), input=b"not json")
    assert done.returncode == 0 and done.stderr.startswith(b"coldstart hook claude-code: hook payload is not JSON")
    assert len(of_kind(run, "error")) == 1


def test_the_relay_can_be_turned_off(tmp_path: Path) -> None:
    run = new_run(tmp_path)
    replay(run, payloads()[:4], env={"COLDSTART_HOOK_RELAY": "0"})
    time.sleep(0.5)
    assert not _socket(run).exists() and len(of_kind(run, "call")) == 1


def test_a_run_path_too_long_for_a_socket_address_still_relays(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    run = new_run(deep)
    assert len(os.fsencode(_socket(run))) > 108
    events = payloads()
    replay(run, events[:1])
    assert _wait(_socket(run).exists)
    replay(run, events[1:])
    assert len(of_kind(run, "call")) == 5
