"""The harness's extra records in a research bundle, one method per point of the story
(``Session``), and the world the agent sees through the bridge (the status it reads, the
actuation it requests, the server log). Fake secrets are seeded into tool arguments, results
and error messages (``SECRETS``)."""

from __future__ import annotations

from typing import Any

from pytest_coldstart.demo.scenarios import RunBuilder, story
from pytest_coldstart.record import records
from pytest_coldstart.record.recorder import Recorder

#: Fake secrets the demo seeds; the tests prove none of them reaches any file of a bundle.
SECRETS = {
    "env": "demo-bridge-credential-4f1c9a77e2",
    "bearer": "eyJkZW1vIjoiYmVhcmVyIn0.c2lnbmF0dXJlLWRlbW8",
    "api_key": "sk-demo-0123456789abcdefABCDEF",
    "password": "correct-horse-battery-demo",
}
PLAYER = {"player_id": "4b1e0f3c-7d2a-4a55-9f0e-2c3d4e5f6a7b", "profile_id": "profile-31337", "name": "Romuser"}

TASK = (
    b"# Minecart ROM cold start (demo)\n\n"
    b"Operate the machine in the lab world through the bridge, capture every cart it ejects\n"
    b"with a logger you build yourself, read your log, and report each cart's items.\n"
)
NOTE_BLOCK = "note_block 11,-54,-23"
WRONG_BLOCK = "note_block 11,-53,-23"


def world(note_block: str = "idle", carts_ejected: int = 0) -> dict[str, Any]:
    """What the bridge's status returns (the tick is in the state's ``where``: a re-read of an
    unchanged machine hashes the same)."""
    return {
        "dimension": story.DIMENSION,
        "instance": story.INSTANCE,
        "player": dict(PLAYER),
        "machine": {"note_block": {"pos": [11, -54, -23], "state": note_block}, "carts_ejected": carts_ejected},
    }


def where(tick: int) -> dict[str, Any]:
    return {"instance": story.INSTANCE, "dimension": story.DIMENSION, "tick": tick}


def actuate(target: str) -> dict[str, Any]:
    return {"command": "player Romuser use once", "target": target}


def server_log() -> str:
    """The lab server's log as the agent reads it to confirm its mod loaded: large and
    repetitive (payload store, gzip)."""
    lines = ["[12:00:07] [main/INFO]: Loading Minecraft with Fabric Loader", "[12:00:07] [main/INFO]: Loading 43 mods:"]
    lines += [f"[12:00:07] [main/INFO]: \t- lab-support-{n:02d} 1.0.{n} (lab fixture library)" for n in range(42)]
    lines.append(f"[12:00:07] [main/INFO]: \t- romlogger 1.0 (agent-built; writes {story.LOGGER_PATH})")
    lines += [f"[12:00:07] [Worker-Main-{n % 4}/INFO]: Preparing spawn area: {n}%" for n in range(100)]
    lines += [
        f"[12:00:07] [Server thread/INFO]: [romlogger] watching chunk {x},{z} for minecarts"
        for x in range(-2, 2)
        for z in range(-3, 1)
    ]
    lines += [
        '[12:00:08] [Server thread/INFO]: Done (0.912s)! For help, type "help"',
        f"[12:00:08] [Server thread/INFO]: [romlogger] armed; appending to {story.LOGGER_PATH}",
    ]
    return "\n".join(lines) + "\n"


class Session:
    """The harness's extra records, one method per point of the story; keeps the state
    tracker and the hashes that later records link to."""

    def __init__(self, failed_builds: int = 1) -> None:
        self.failed_builds = failed_builds
        self.tracker = records.StateTracker()
        self.idle: str | None = None
        self.powered: str | None = None

    def attach(self, b: RunBuilder) -> RunBuilder:
        return (
            b.insert("after:phase:agent", self.research)
            .insert("before:c-build-logger", self.failed_build)
            .insert("after:c-build-logger", self.logger_built)
            .insert("after:c-start-logger", self.check_server_log)
            .insert("before:c-actuate", self.invalid_action)
            .insert("before:c-actuate", self.request_actuation)
            .insert("after:c-actuate", self.actuation_outcome)
            .insert("before:c-read-log", self.second_actuation, at=story.at(14.0))
            .insert("before:c-read-log", self.second_actuation_timeout, at=story.at(19.0))
            .insert("before:c-read-log", self.plan_read)
            .insert("before:phase:audit", self.close)
        )

    @staticmethod
    def tool(
        r: Recorder,
        call_id: str,
        tool: str,
        arguments: Any,
        result: Any,
        status: str = "ok",
        *,
        duration_ms: float,
        error: str | None = None,
    ) -> str:
        r.call(call_id, tool, arguments)
        r.result(call_id, status, result, duration_ms=duration_ms, **({"error": error} if error is not None else {}))
        return call_id

    def observe(self, r: Recorder, value: Any, call_id: str, tick: int) -> dict[str, Any]:
        state = self.tracker.observe(
            value,
            redactor=r.redactor,
            call_id=call_id,
            returned_to_agent=True,
            state_type="world",
            mode="survival",
            format="json",
            where=where(tick),
        )
        return r.append(state)

    def research(self, r: Recorder) -> None:
        r.append(records.session("start", session_id="demo-session-1", source="live", actor="harness", phase="agent"))
        r.append(
            records.decision(
                "read the task, then the bridge status, before touching anything",
                event="plan_update",
                intended_tool="read",
                tags=["plan"],
                alternatives=["actuate the machine first"],
                related_call_id="c-read-task",
            )
        )
        self.tool(r, "c-read-task", "read", {"path": "task.md"}, {"text": TASK.decode()}, duration_ms=12.0)
        # The bridge credential rides in the call's env: redacted (its digest stays).
        status = self.tool(
            r,
            "c-status",
            "bridge",
            {"command": "status", "env": {"MC_BRIDGE_TOKEN": SECRETS["env"]}},
            world(),
            duration_ms=85.0,
        )
        self.idle = self.observe(r, world(), status, 150)["state_hash"]
        r.append(
            records.decision(
                "arm a logger before actuating the machine",
                intended_tool="bash",
                target="romlogger.jar",
                alternatives=["actuate first and read the cart list afterwards"],
                confidence=0.8,
                tags=["logger", "risk"],
                related_state_hash=self.idle,
                related_call_id=status,
                rationale="carts are transient: anything not captured while in flight is lost",
            )
        )

    def failed_build(self, r: Recorder) -> None:
        """Builds that fail (leaking credentials in their command and output, all redacted)
        before the story's c-build-logger succeeds."""
        command = (
            f"curl -H 'Authorization: Bearer {SECRETS['bearer']}' https://maven.example/fabric.jar -o lib.jar && "
            "javac -d build workspace/logger/RomLogger.java"
        )
        for attempt in range(1, self.failed_builds + 1):
            failed = self.tool(
                r,
                f"c-build-failed-{attempt}",
                "bash",
                {"command": command},
                {
                    "text": f"RomLogger.java:3: error: cannot find symbol\nusing api_key={SECRETS['api_key']}",
                    "exit_code": 1,
                },
                "error",
                duration_ms=230.0,
                error=f"exit 1 (credential {SECRETS['env']} was in the environment)",
            )
            r.append(
                records.error(
                    "tool_error",
                    "logger build failed: missing import",
                    call_id=failed,
                    fault="agent",
                    recoverable=True,
                    recovery="add the missing import and rebuild",
                    recovery_action="retry",
                    attempt=attempt,
                    detail={"stderr": "cannot find symbol", "login": {"user": "bot", "password": SECRETS["password"]}},
                )
            )

    def logger_built(self, r: Recorder) -> None:
        r.append(
            records.decision(
                "logger built; start the server with it, then actuate",
                event="reflection",
                tags=["logger"],
                intended_tool="bash",
                related_call_id="c-build-logger",
            )
        )

    def check_server_log(self, r: Recorder) -> None:
        self.tool(r, "c-read-server-log", "read", {"path": "logs/latest.log"}, {"text": server_log()}, duration_ms=20.0)

    def invalid_action(self, r: Recorder) -> None:
        """Wrong coordinates: rejected, then a re-read of the unchanged machine (a repeated, non-actionable poll)."""
        r.append(
            records.action("requested", "a1", tool="bridge", arguments=actuate(WRONG_BLOCK), pre_state_hash=self.idle)
        )
        bad = self.tool(
            r,
            "c-use-wrong-block",
            "bridge",
            actuate(WRONG_BLOCK),
            {"status": 400, "error": "no note block at 11,-53,-23"},
            "error",
            duration_ms=30.0,
            error="HTTP 400",
        )
        r.append(
            records.action(
                "rejected",
                "a1",
                call_id=bad,
                tool="bridge",
                outcome="invalid",
                http_status=400,
                elapsed_ms=30.0,
                changed_state=False,
                request={
                    "method": "POST",
                    "path": "/player/use",
                    "headers": {"Authorization": f"Bearer {SECRETS['bearer']}"},
                    "body": actuate(WRONG_BLOCK),
                },
                response={"status": 400, "error": "no note block at 11,-53,-23"},
                error="no note block at 11,-53,-23",
                recovery="re-read the machine position from the status",
            )
        )
        r.append(
            records.error(
                "invalid_action",
                "the use targeted an empty position",
                call_id=bad,
                action_id="a1",
                fault="agent",
                recoverable=True,
                recovery_action="retry",
            )
        )
        r.append(
            records.decision(
                "wrong coordinates: re-read the status before retrying",
                event="reflection",
                related_action_id="a1",
                related_call_id=bad,
                tags=["recovery"],
                confidence=0.9,
            )
        )
        again = self.tool(r, "c-status-again", "bridge", {"command": "status"}, world(), duration_ms=80.0)
        self.observe(r, world(), again, 165)

    def request_actuation(self, r: Recorder) -> None:
        r.append(
            records.action("requested", "a2", tool="bridge", arguments=actuate(NOTE_BLOCK), pre_state_hash=self.idle)
        )

    def actuation_outcome(self, r: Recorder) -> None:
        """The story's c-actuate was accepted; one state poll times out, the retry sees the change."""
        r.append(
            records.action("accepted", "a2", call_id="c-actuate", tool="bridge", http_status=202, elapsed_ms=2000.0)
        )
        r.append(
            records.error(
                "recovery",
                "state poll timed out during the machine transition; polling again",
                action_id="a2",
                fault="environment",
                recoverable=True,
                recovery_action="poll_timeout",
                attempt=1,
            )
        )
        r.append(
            records.state(
                "unavailable",
                None,
                reason="bridge status timed out after 2000 ms",
                returned_to_agent=False,
                missing_reason={"state": "the poll timed out; nothing was observed"},
            )
        )
        poll = self.tool(r, "c-poll-status", "bridge", {"command": "status"}, world("powered", 1), duration_ms=90.0)
        self.powered = self.observe(r, world("powered", 1), poll, 342)["state_hash"]
        r.append(
            records.action(
                "resolved",
                "a2",
                call_id="c-actuate",
                tool="bridge",
                outcome="success",
                changed_state=True,
                pre_state_hash=self.idle,
                post_state_hash=self.powered,
                elapsed_ms=2100.0,
                request={"method": "POST", "path": "/player/use", "body": actuate(NOTE_BLOCK)},
                response={"status": 202, "accepted": True},
            )
        )

    def second_actuation(self, r: Recorder) -> None:
        r.append(
            records.action("requested", "a3", tool="bridge", arguments=actuate(NOTE_BLOCK), pre_state_hash=self.powered)
        )

    def second_actuation_timeout(self, r: Recorder) -> None:
        r.append(
            records.action(
                "timeout",
                "a3",
                tool="bridge",
                outcome="timeout",
                elapsed_ms=5000.0,
                error="no response within 5000 ms",
                missing_reason={"post_state_hash": "not polled after the timeout", "http_status": "no response"},
            )
        )

    def plan_read(self, r: Recorder) -> None:
        r.append(
            records.decision(
                "read my logger output and report the carts",
                intended_tool="read",
                target=story.LOGGER_PATH,
                related_state_hash=self.powered,
                related_call_id="c-read-log",
                tags=["report"],
                confidence=0.7,
            )
        )

    def close(self, r: Recorder) -> None:
        r.mark("answer_written", {"path": "answer.json"}, actor="agent", phase="agent")
        r.append(
            records.note(
                "operator: session ended normally; secrets were present in the environment and in tool output",
                actor="operator",
            )
        )
        r.append(
            records.session(
                "flush",
                records=None,
                actor="harness",
                missing_reason={"records": "the demo harness does not count its own records"},
            )
        )
        r.append(
            records.session("end", session_id="demo-session-1", reason="agent finished", actor="harness", phase="agent")
        )
