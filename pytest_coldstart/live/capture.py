"""Running one hook invocation: payload in, records appended, the agent's session never broken.

A harness waits for its hook, and a failing hook can block or derail the agent. So: the work
runs under a wall-clock budget (``COLDSTART_HOOK_BUDGET`` seconds, default 5, far below Claude
Code's 10 s hook timeout); any failure (bad payload, no run directory, a sealed run, the
budget) ends with exit 0 and one line on stderr, and is recorded in the run as an ``error``
record when the run is writable. Nothing is printed on stdout: Claude Code adds a hook's
stdout to the agent's context for some events.

Appends happen under the run lock, with the call index consulted first: a call delivered
twice is recorded once; a result whose call was never seen (the hook was installed mid-call)
records the call first, marked ``live: "late"``; a result for a call already answered is
dropped; at a session's end its calls still waiting get an ``open`` result. Harness versions without call ids get derived ids (``live-<digest>``), numbered
``#2``, ``#3``… when the same call repeats, and a result pairs with the latest open one.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

from pytest_coldstart.live import registry
from pytest_coldstart.live.adapter import CLOSES_SESSION, LATE_CALL, HookContext
from pytest_coldstart.live.relay import RUN_DIR_ENV
from pytest_coldstart.live.relay import budget as _budget
from pytest_coldstart.record.recorder import Recorder
from pytest_coldstart.record.trajectory import CallIndex, lock_for, open_index
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.errors import ColdstartError, UsageError
from pytest_coldstart.run.textsafe import one_line

#: the budget for recording a failure after the main budget is spent
FAILURE_BUDGET_S = 1.0
PAYLOAD_LIMIT = 64 << 20
OPEN_NOTE = "no result from the harness by the session's end (interrupted or killed)"


class HookTimeout(Exception):
    """The budget ran out (raised by the timer signal)."""


@dataclass
class Outcome:
    appended: int = 0
    skipped: int = 0
    failure: str | None = None
    elapsed_ms: float = 0.0
    ended: bool = False  # a session's end was recorded


def run_hook(
    adapter_name: str,
    payload_text: str | bytes,
    run_dir: str | Path | None,
    *,
    argv: tuple[str, ...] = (),
    budget_s: float | None = None,
    stderr: TextIO | None = None,
) -> Outcome:
    """Capture one hook invocation. Never raises (the outcome says what happened)."""
    started = time.monotonic()
    outcome = Outcome()
    target = run_dir if run_dir is not None else os.environ.get(RUN_DIR_ENV) or None
    try:
        with _deadline(_budget(budget_s)):
            _capture(adapter_name, payload_text, target, argv, outcome)
    except HookTimeout:
        outcome.failure = f"gave up after {_budget(budget_s):g} s (the run lock is busy or the disk is slow)"
    except ColdstartError as exc:
        outcome.failure = exc.one_line()
    except OSError as exc:  # a refused file (FIFO, sparse, link) or the machine, as the CLI words it
        where = f"{exc.filename}: " if exc.filename else ""
        outcome.failure = one_line(where + (exc.strerror or str(exc)), None)
    except Exception as exc:
        outcome.failure = f"internal error: {type(exc).__name__}: {exc}"
    if outcome.failure is not None:
        (stderr or sys.stderr).write(f"coldstart hook {adapter_name}: {outcome.failure}\n")
        if target is not None:
            _record_failure(adapter_name, Path(target), outcome.failure)
    outcome.elapsed_ms = (time.monotonic() - started) * 1000
    return outcome


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Raise HookTimeout in this (main) thread after ``seconds``; a no-op off the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise HookTimeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def parse_payload(payload_text: str | bytes) -> dict[str, Any]:
    if len(payload_text) > PAYLOAD_LIMIT:
        raise UsageError(f"hook payload is over {PAYLOAD_LIMIT >> 20} MiB")
    if isinstance(payload_text, bytes):
        try:
            payload_text = payload_text.decode("utf-8")
        except UnicodeDecodeError:
            raise UsageError("hook payload is not UTF-8") from None
    if not payload_text.strip():
        raise UsageError("no hook payload (expected one JSON object on stdin)")
    try:
        value = jsonio.loads(payload_text)
    except ValueError as exc:
        raise UsageError(f"hook payload is not JSON ({exc})") from None
    if not isinstance(value, dict):
        raise UsageError(f"hook payload must be a JSON object, not {type(value).__name__}")
    return value


def _capture(
    name: str, payload_text: str | bytes, target: str | Path | None, argv: tuple[str, ...], out: Outcome
) -> None:
    adapter = registry.get(name)
    records = adapter.translate(parse_payload(payload_text), HookContext(name, argv))
    if not records:
        return
    if target is None:
        raise UsageError(f"no run directory: pass --run-dir or set {RUN_DIR_ENV}")
    recorder = Recorder(target)
    with lock_for(recorder.rundir):
        index = open_index(recorder.rundir)
        try:
            for fields in records:
                out.ended = out.ended or CLOSES_SESSION in fields
                if _append(recorder, index, dict(fields)):
                    out.appended += 1
                else:
                    out.skipped += 1
        finally:
            index.close()


def _append(recorder: Recorder, index: CallIndex, fields: dict[str, Any]) -> bool:
    """Append one translated record (and a late call before its result); False when skipped."""
    kind = fields.get("record")
    derived = fields.pop("derived_id", False) is True
    if kind == "call":
        call_id = str(fields.get("call_id"))
        if index.state(call_id) is not None:
            if not derived:
                return False  # the same call delivered twice
            fields["call_id"] = _next_free(index, call_id)
        recorder.append(fields)
        return True
    if kind == "result":
        late = fields.pop(LATE_CALL, None)
        call_id = str(fields.get("call_id"))
        if derived:
            call_id = _latest_open(index, call_id) or call_id
            fields["call_id"] = call_id
        state = index.state(call_id)
        if state == 1:
            return False  # answered already
        if state is None and isinstance(late, dict):
            late.pop("derived_id", None)
            recorder.append({**late, "call_id": call_id, "live": "late"})
        recorder.append(fields)
        return True
    if CLOSES_SESSION in fields:
        _close_open_calls(recorder, fields.pop(CLOSES_SESSION))
    recorder.append(fields)
    return True


def _close_open_calls(recorder: Recorder, session_id: Any) -> None:
    """At a session's end, its live calls still without a result get one: ``open``."""
    from pytest_coldstart.live.crosscheck import live_calls  # once per session: off the hot path

    for call in live_calls(recorder.rundir).values():
        if call.session_id == session_id and call.status is None:
            recorder.append({"record": "result", "call_id": call.call_id, "status": "open", "note": OPEN_NOTE})


def _numbered(call_id: str) -> Iterator[str]:
    yield call_id
    number = 2
    while True:
        yield f"{call_id}#{number}"
        number += 1


def _next_free(index: CallIndex, call_id: str) -> str:
    return next(candidate for candidate in _numbered(call_id) if index.state(candidate) is None)


def _latest_open(index: CallIndex, call_id: str) -> str | None:
    """The last of ``call_id``, ``call_id#2``… still waiting for its result."""
    latest = None
    numbered = _numbered(call_id)
    candidate = next(numbered)
    while (state := index.state(candidate)) is not None:
        if state == 0:
            latest = candidate
        candidate = next(numbered)
    return latest


def _record_failure(name: str, run_dir: Path, problem: str) -> None:
    """Put the hook's failure in the run, when the run takes appends; never raises."""
    try:
        with _deadline(FAILURE_BUDGET_S):
            Recorder(run_dir).append(
                {
                    "record": "error",
                    "kind": "timeout" if problem.startswith("gave up") else "exception",
                    "message": f"live capture ({name}) failed: {problem}",
                    "fault": "harness",
                    "recoverable": True,
                    "source": f"hook:{name}",
                }
            )
    except BaseException:
        pass
