"""The research-grade sample bundles of ``coldstart demo``: one agent session that exercises every
record family of the taxonomy, the payload store, redaction and decision annotations.

The story: an agent, in a fresh context, researches the Minecart ROM task, builds a logger
(one failed build, one retry), actuates the machine (one invalid action, one accepted action
whose state poll times out once, one timeout), re-reads an unchanged state (a repeated,
non-actionable poll), reads its large logger output (payload store) and annotates its decisions.
Fake secrets are seeded into tool arguments, results, error messages and an environment value;
none of them may reach any file of the bundle (``tests/bundle`` greps every byte).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pytest_coldstart import records
from pytest_coldstart.clock import Clock
from pytest_coldstart.recorder import Recorder, init_run
from pytest_coldstart.seal import seal

#: Fake secrets the demo seeds; the tests prove none of them reaches any file of a bundle.
SECRETS = {
    "env": "demo-bridge-credential-4f1c9a77e2",
    "bearer": "eyJkZW1vIjoiYmVhcmVyIn0.c2lnbmF0dXJlLWRlbW8",
    "api_key": "sk-demo-0123456789abcdefABCDEF",
    "password": "correct-horse-battery-demo",
}
SECRET_ENV = "COLDSTART_DEMO_BRIDGE_CREDENTIAL"
SALT_ENV = "COLDSTART_DEMO_SALT"
#: A fixed, published salt: it makes the demo deterministic; real runs keep theirs private.
DEMO_SALT = "demo-salt-not-secret-0001"
PLAYER = {"player_id": "4b1e0f3c-7d2a-4a55-9f0e-2c3d4e5f6a7b", "profile_id": "profile-31337", "name": "coldstart-bot"}

BUNDLES: dict[str, dict[str, Any]] = {
    "research-full": {"model": "demo-model-a", "payload_mode": "full", "compression": "gzip", "salted": False},
    "research-preview": {"model": "demo-model-b", "payload_mode": "preview", "compression": "none", "salted": True},
}

TASK = (
    b"# Minecart ROM cold start (demo)\n\n"
    b"Operate the machine in the lab world through the bridge, capture every cart it ejects\n"
    b"with a logger you build yourself, read your log, and report each cart's items.\n"
)


@contextmanager
def demo_environment(salted: bool) -> Iterator[None]:
    """Set the demo's fake secret (and salt) in this process's environment, then restore it."""
    saved = {name: os.environ.get(name) for name in (SECRET_ENV, SALT_ENV)}
    os.environ[SECRET_ENV] = SECRETS["env"]
    if salted:
        os.environ[SALT_ENV] = DEMO_SALT
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def world(carts: int, *, note_block: str = "idle", tick: int = 1200) -> dict[str, Any]:
    return {
        "dimension": "minecraft:overworld",
        "instance": "lab-a",
        "tick": tick,
        "player": dict(PLAYER),
        "machine": {"note_block": {"pos": [12, 64, -3], "state": note_block}, "ejected": carts},
    }


def logger_output(carts: int) -> dict[str, Any]:
    """A large logger read-back (well above the inline limit): goes to the payload store."""
    items = ["minecraft:rail", "minecraft:redstone", "minecraft:oak_planks", "minecraft:iron_ingot"]
    observed = [
        {"event": "cart_observed", "uuid": f"00000000-0000-4000-8000-{n:012d}", "tick": 1300 + n, "position": [12.5, 63.0, -3.5 - n],
         "items": [{"id": items[(n + k) % 4], "count": 1 + (n * 7 + k) % 64} for k in range(9)]}
        for n in range(carts)
    ]
    return {"path": "agent/logger.jsonl", "records": [{"event": "logger_armed", "tick": 1250}, *observed]}


class Story:
    """Appends one call and its result, keeping ids and durations readable."""

    def __init__(self, recorder: Recorder):
        self.r = recorder
        self.n = 0

    def tool(self, tool: str, arguments: Any, status: str = "ok", result: Any = None, *, duration_ms: float = 40.0, error: str | None = None) -> str:
        self.n += 1
        call_id = f"c{self.n}"
        self.r.call(call_id, tool, arguments)
        extra = {"error": error} if error is not None else {}
        self.r.result(call_id, status, result, duration_ms=duration_ms, **extra)
        return call_id


def build(run_dir: str | Path, *, clock: Clock, model: str, payload_mode: str, compression: str, salted: bool) -> Path:
    """Record one complete research bundle into ``run_dir`` and seal it."""
    from pytest_coldstart.demo import fixed

    rules: dict[str, Any] = {"env": [SECRET_ENV], "hash_keys": ["player_id", "profile_id"]}
    if salted:
        rules.update(digest="hmac-sha256", salt={"env": SALT_ENV})
    with demo_environment(salted):
        recorder = init_run(
            run_dir,
            run_id=Path(run_dir).name,
            task_bytes=TASK,
            task_source="demo-task.md",
            harness={"name": "demo-harness", "version": "1.0", "model": model, "provider": "demo-provider"},
            experiment_id="demo-experiment",
            notes=[
                "deterministic research-grade sample bundle (coldstart demo): every record family, payload store, redaction",
                "annotation-only: no test-mod, logger, answer or oracle evidence is declared, so the audit fails closed; "
                "the 'passing' scenario is the audited PASS",
            ],
            logging={"payload_mode": payload_mode, "compression": compression, "inline_max_bytes": 4096, "preview_chars": 400, "redaction": rules},
            clock=clock,
            **fixed(),
        )
        _record(recorder)
        seal(run_dir, recorder=recorder)
    return Path(run_dir)


def _record(r: Recorder) -> None:
    s = Story(r)
    tracker = records.StateTracker()
    r.append(records.session("start", session_id="demo-session-1", source="live", actor="harness", phase="agent"))
    r.phase("agent", actor="agent", note="fresh context; task handed over")
    r.append(records.decision("read the task, then the bridge status, before touching anything", event="plan_update",
                              intended_tool="read_file", tags=["plan"], alternatives=["actuate the machine first"]))
    s.tool("read_file", {"path": "task.md"}, result={"text": TASK.decode()}, duration_ms=12.0)

    # First state: the world as the bridge reports it (credential in the call's env: redacted).
    status = s.tool("bridge", {"command": "status", "env": {"MC_BRIDGE_TOKEN": SECRETS["env"]}}, result=world(0), duration_ms=85.0)
    first = tracker.observe(world(0), redactor=r.redactor, call_id=status, returned_to_agent=True, state_type="world", mode="survival", format="json", where={"instance": "lab-a", "dimension": "minecraft:overworld", "tick": 1200})
    state0 = r.append(first)["state_hash"]
    r.append(records.decision("arm a logger before actuating the machine", intended_tool="bash", target="agent/logger.jar",
                              alternatives=["actuate first and read the cart list afterwards"], confidence=0.8,
                              tags=["logger", "risk"], related_state_hash=state0, related_call_id=status,
                              rationale="carts are transient: anything not captured while in flight is lost"))

    # A failed build that leaks credentials in its command and output (all redacted).
    build_cmd = f"curl -H 'Authorization: Bearer {SECRETS['bearer']}' https://maven.example/fabric.jar -o lib.jar && javac LoggerMod.java"
    failed = s.tool("bash", {"command": build_cmd}, "error", {"text": f"LoggerMod.java:3: error: cannot find symbol\nusing api_key={SECRETS['api_key']}", "exit_code": 1},
                    duration_ms=2300.0, error=f"exit 1 (credential {SECRETS['env']} was in the environment)")
    r.append(records.error("tool_error", "logger build failed: missing import", call_id=failed, fault="agent", recoverable=True,
                           recovery="add the missing import and rebuild", recovery_action="retry", attempt=1,
                           detail={"stderr": "cannot find symbol", "login": {"user": "bot", "password": SECRETS["password"]}}))
    s.tool("bash", {"command": "javac LoggerMod.java && jar cf agent/logger.jar *.class"}, result={"text": "", "exit_code": 0}, duration_ms=2100.0)
    r.append(records.decision("logger built; start it, then actuate", event="reflection", tags=["logger"], intended_tool="bridge"))

    # An invalid action: wrong coordinates.
    r.append(records.action("requested", "a1", tool="bridge", arguments={"command": "use_block", "pos": [12, 65, -3]}, pre_state_hash=state0))
    bad = s.tool("bridge", {"command": "use_block", "pos": [12, 65, -3]}, "error", {"status": 400, "error": "no note block at 12,65,-3"}, duration_ms=30.0, error="HTTP 400")
    r.append(records.action("rejected", "a1", call_id=bad, tool="bridge", outcome="invalid", http_status=400, elapsed_ms=30.0, changed_state=False,
                            request={"method": "POST", "path": "/use_block", "headers": {"Authorization": f"Bearer {SECRETS['bearer']}"}, "body": {"pos": [12, 65, -3]}},
                            response={"status": 400, "error": "no note block at 12,65,-3"}, error="no note block at 12,65,-3",
                            recovery="re-read the machine position from the status"))
    r.append(records.error("invalid_action", "use_block targeted an empty position", call_id=bad, action_id="a1", fault="agent", recoverable=True, recovery_action="retry"))
    r.append(records.decision("wrong coordinates: re-read the status before retrying", event="reflection", related_action_id="a1", related_call_id=bad, tags=["recovery"], confidence=0.9))

    # A re-read of an unchanged state: a repeated, non-actionable poll.
    again = s.tool("bridge", {"command": "status"}, result=world(0), duration_ms=80.0)
    r.append(tracker.observe(world(0), redactor=r.redactor, call_id=again, returned_to_agent=True, state_type="world", mode="survival", format="json"))

    # The accepted action; one state poll times out, the retry sees the change.
    r.append(records.action("requested", "a2", tool="bridge", arguments={"command": "use_block", "pos": [12, 64, -3]}, pre_state_hash=state0))
    good = s.tool("bridge", {"command": "use_block", "pos": [12, 64, -3]}, result={"status": 202, "accepted": True}, duration_ms=35.0)
    r.append(records.action("accepted", "a2", call_id=good, tool="bridge", http_status=202, elapsed_ms=35.0))
    r.append(records.error("recovery", "state poll timed out during the machine transition; polling again", action_id="a2", fault="environment", recoverable=True, recovery_action="poll_timeout", attempt=1))
    r.append(records.state("unavailable", None, reason="bridge status timed out after 2000 ms", returned_to_agent=False,
                           missing_reason={"state": "the poll timed out; nothing was observed"}))
    poll = s.tool("bridge", {"command": "status"}, result=world(3, note_block="powered", tick=1420), duration_ms=90.0)
    changed = tracker.observe(world(3, note_block="powered", tick=1420), redactor=r.redactor, call_id=poll, returned_to_agent=True, state_type="world", mode="survival", format="json", where={"instance": "lab-a", "dimension": "minecraft:overworld", "tick": 1420})
    state1 = r.append(changed)["state_hash"]
    r.append(records.action("resolved", "a2", call_id=good, tool="bridge", outcome="success", changed_state=True, pre_state_hash=state0, post_state_hash=state1, elapsed_ms=2250.0,
                            request={"method": "POST", "path": "/use_block", "body": {"pos": [12, 64, -3]}}, response={"status": 202, "accepted": True}))

    # A second actuation that never answers.
    r.append(records.action("requested", "a3", tool="bridge", arguments={"command": "use_block", "pos": [12, 64, -3]}, pre_state_hash=state1))
    r.append(records.action("timeout", "a3", tool="bridge", outcome="timeout", elapsed_ms=5000.0, error="no response within 5000 ms",
                            missing_reason={"post_state_hash": "not polled after the timeout", "http_status": "no response"}))

    # Reading the large logger output (payload store), then the answer.
    r.append(records.decision("read my logger output and report the carts", intended_tool="read_file", target="agent/logger.jsonl", related_state_hash=state1, tags=["report"], confidence=0.7))
    s.tool("read_file", {"path": "agent/logger.jsonl"}, result=logger_output(40), duration_ms=15.0)
    s.tool("write_file", {"path": "answer.json", "content": "{\"carts\": 3}"}, result={"text": "written"}, duration_ms=5.0)
    r.mark("answer_written", {"path": "answer.json"}, actor="agent", phase="agent")
    r.append(records.note("operator: session ended normally; secrets were present in the environment and in tool output", actor="operator"))
    r.append(records.session("flush", records=None, actor="harness", missing_reason={"records": "the demo harness does not count its own records"}))
    r.append(records.session("end", session_id="demo-session-1", reason="agent finished", actor="harness", phase="agent"))
