"""The edits of the adversarial scenarios (``adversarial``) and the seed sentences they
follow from: each edit starts from the passing run and changes one thing."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pytest_coldstart.demo.scenarios import story
from pytest_coldstart.demo.scenarios.builder import RunBuilder
from pytest_coldstart.demo.scenarios.catalogue import Scenario
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.vocabulary import FailureClass, Status

P, F, W = "PASS", "FAIL", "PENDING"
CART = story.CARTS[0]

# -- the seed sentences -------------------------------------------------------------------
R2 = "agent_read_log PASS requires an agent call after the last capture that both names the logger and returns captured observation content (seed §6)"
TEST_SIDE = (
    "test-side-only observation is a broken run; the unit tests build ... test-side-only observation (seed §6, §9)"
)
ORACLE_COPY = "An oracle copied from the agent's answer fails (seed §6, the oracle rule)"
INDEPENDENT = "oracle evidence_refs must resolve against declared test-mod/fixture/restore evidence ... Agent-side refs never count as independent (seed §5)"
TESTMOD = "The independent test mod writes a JSONL file ... no test_mod file ... there is no path to PASS (seed §5, §6)"
FIXTURE = "FIXTURE_INVALID: initialisation or restore was not faithful (seed §7)"
LOGGER = "The agent chooses how to log ... raw output written by the agent's own logger (seed §5)"
SCOPE = "test-mod events must not mix instances or dimensions, and agent logger events must name the same experiment instance/dimension as the test mod (seed §5)"
UNVERIFIED = "When the fixture is new or unverified, the oracle stays pending; the audit reports PENDING and never claims correctness early (seed §6)"
CLEAN = "The session must not carry ... a standard answer ... the visible documents and skills are recorded by visibility.json (seed §3)"
REVIEW = "every ref must resolve against the run ... a well-formed entry whose refs do not resolve keeps the flag PENDING (seed §5)"
ORDER = (
    "an agent call after the last capture (seed §6); a capture that sorts before the cart was ejected fails outright"
)
RUN_ID = "Every event may carry run_id; when present it must match the run manifest. An event from another run is INFRA_ERROR (seed §5)"
ITEMS = "the answer matches a verified oracle cart by cart (seed §6); an item's components are part of it (R8)"


def _captured_text() -> str:
    return "".join(json.dumps({"event": "cart_observed", **c}) + "\n" for c in story.CARTS)


def _testside_text() -> str:
    return " ".join(f"cart_removed {c['uuid']} {json.dumps(c['items'])}" for c in story.CARTS)


def _read(arguments: Any, text: str | None = None, tool: str = "read") -> Callable[[RunBuilder], RunBuilder]:
    def configure(b: RunBuilder) -> RunBuilder:
        b.passing()
        b.call("c-read-log").update(tool=tool, arguments=arguments)
        if text is not None:
            b.call("c-read-log", "result")["result"] = {"text": text}
        return b

    return configure


def _extra_call(
    b: RunBuilder, call_id: str, tool: str, arguments: Any, *, actor: str = "agent", phase: str = "agent"
) -> RunBuilder:
    """One more call (and its ok result) just before the audit phase."""
    records = b.records
    records.insert(
        -1,
        {
            "record": "call",
            "call_id": call_id,
            "tool": tool,
            "arguments": arguments,
            "phase": phase,
            "actor": actor,
            "at": story.at(23.0),
        },
    )
    records.insert(
        -1,
        {
            "record": "result",
            "call_id": call_id,
            "status": "ok",
            "result": {"text": "done"},
            "phase": phase,
            "actor": actor,
            "at": story.at(23.2),
        },
    )
    return b


def _with_call(call_id: str, tool: str, arguments: Any, **kw: str) -> Callable[[RunBuilder], RunBuilder]:
    return lambda b: _extra_call(b.passing(), call_id, tool, arguments, **kw)


def _symlink(link: str, target: str) -> Callable[[Path], None]:
    def make(root: Path) -> None:
        path = root / link
        path.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(os.path.relpath(root / target, path.parent), path)

    return make


def _collide(b: RunBuilder) -> RunBuilder:
    """Logger and test mod share the file name events.jsonl; the agent reads the test side."""
    b.passing()
    b.declared.update(agent_logger="agent/events.jsonl", test_mod="test/events.jsonl")
    b.call("c-start-logger")["arguments"] = {"command": "lab start --mod romlogger.jar --log agent/events.jsonl"}
    b.call("c-read-log")["arguments"] = {"path": "test/events.jsonl"}
    b.call("c-read-log", "result")["result"] = {"text": _testside_text()}
    return b


def _cwd(cwd: str, read: str, *, os_name: str | None = None) -> Callable[[RunBuilder], RunBuilder]:
    def configure(b: RunBuilder) -> RunBuilder:
        b.passing().manifest(agent={"cwd": cwd, "run_dir": "/home/lab/run"})
        if os_name is not None:
            b.manifest(machine={**b.options["machine"], "os": os_name})
        b.call("c-read-log")["arguments"] = {"path": read}
        return b

    return configure


def _case(os_name: str) -> Callable[[RunBuilder], RunBuilder]:
    def configure(b: RunBuilder) -> RunBuilder:
        b.passing().manifest(machine={**b.options["machine"], "os": os_name})
        b.call("c-read-log")["arguments"] = {"path": "Agent/RomLog.JSONL"}
        return b

    return configure


def _same_bytes(name: str, other: str) -> Callable[[RunBuilder], RunBuilder]:
    """Declare ``name`` at the file of ``other`` (the same bytes)."""

    def configure(b: RunBuilder) -> RunBuilder:
        keep = ("path", "sha256", "size")
        return b.passing().edit_json(
            "evidence.json", lambda e: e.update({name: {k: e[other][k] for k in keep if k in e[other]}})
        )

    return configure


def _oracle_equals_answer(b: RunBuilder) -> RunBuilder:
    b.passing()
    b.documents["oracle"] = {**b.documents["answer"], "status": "verified", "evidence_refs": ["testmod:seq7"]}
    b.documents["answer"] = dict(b.documents["oracle"])
    return b


def _content_of(name: str, path: str) -> Callable[[RunBuilder], RunBuilder]:
    """The agent wrote (somewhere) exactly the bytes later declared as ``name``."""

    def configure(b: RunBuilder) -> RunBuilder:
        b.passing()
        text = jsonio.dumps_document(b.documents[name]).decode("utf-8")
        return _extra_call(b, "c-draft", "write", {"path": path, "content": text})

    return configure


def _scope(stream: str, event: str, key: str, value: str) -> Callable[[RunBuilder], RunBuilder]:
    def configure(b: RunBuilder) -> RunBuilder:
        record = b.passing().event(stream, event)
        record.pop("instance" if key in ("instance", "instance_id") else "dimension", None)
        record[key] = value
        return b

    return configure


def _restore_phase_elsewhere(b: RunBuilder) -> RunBuilder:
    b.passing()
    next(r for r in b.records if r.get("record") == "phase" and r.get("phase") == "restore")["instance"] = "lab-b"
    return b


def _logger_two_instances(b: RunBuilder) -> RunBuilder:
    b.passing()
    for event in b.testmod:
        event.pop("instance", None)
        event.pop("dimension", None)
    b.event("logger", "cart_observed", 2)["instance"] = "lab-b"
    return b


def _visible(content: Callable[[RunBuilder], bytes], name: str = "NOTES.md") -> Callable[[RunBuilder], RunBuilder]:
    def configure(b: RunBuilder) -> RunBuilder:
        b.passing()
        folder = b.root.parent / f"{b.root.name}-visible"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(content(b))
        return b.manifest(visible_roots=[str(folder)])

    return configure


def _cart_line(cart: dict[str, Any]) -> str:
    return f"cart {cart['uuid']}: " + ", ".join(f"{i['id']} x{i['count']}" for i in cart["items"])


def _task_with_answer(b: RunBuilder) -> RunBuilder:
    b.passing()
    return b.manifest(task_bytes=b.options["task_bytes"] + ("Hint: " + _cart_line(CART) + "\n").encode())


def _enchanted(answer_has: Any) -> Callable[[RunBuilder], RunBuilder]:
    def configure(b: RunBuilder) -> RunBuilder:
        b.passing()
        b.documents["oracle"]["carts"][2]["items"][0]["enchantments"] = {"minecraft:efficiency": 5}
        item = b.documents["answer"]["carts"][2]["items"][0]
        if answer_has is not None:
            item["enchantments"] = answer_has
        return b

    return configure


def _review_cites(ref: str, review_id: str = "machine_operated.causality") -> Callable[[RunBuilder], RunBuilder]:
    def configure(b: RunBuilder) -> RunBuilder:
        b.passing()
        entry = next(r for r in b.reviews if r["id"] == review_id)
        entry["evidence"] = [ref]
        return b

    return configure


def _read_at(seconds: float) -> Callable[[RunBuilder], RunBuilder]:
    def configure(b: RunBuilder) -> RunBuilder:
        b.passing()
        records = b.records
        call, result = b.call("c-read-log"), b.call("c-read-log", "result")
        records.remove(call)
        records.remove(result)
        index = next(i for i, r in enumerate(records) if r.get("call_id") == "c-actuate" and r["record"] == "result")
        call["at"], result["at"] = story.at(seconds), story.at(seconds + 0.1)
        records[index + 1 : index + 1] = [call, result]
        return b

    return configure


def _other_run(b: RunBuilder) -> RunBuilder:
    b.passing().event("testmod", "cart_removed", 1)["run_id"] = "some-other-run"
    return b


def _drop_logger_calls(actor: str | None) -> Callable[[RunBuilder], RunBuilder]:
    def configure(b: RunBuilder) -> RunBuilder:
        b.passing().drop_call("c-write-logger").drop_call("c-build-logger")
        if actor is None:
            return b.drop_call("c-start-logger")
        for record in (b.call("c-start-logger"), b.call("c-start-logger", "result")):
            record["actor"] = actor
        return b

    return configure


def S(
    name: str,
    description: str,
    configure: Callable[[RunBuilder], RunBuilder],
    overall: str,
    klass: str | None,
    flags: dict[str, str],
    because: str,
    follows: str,
) -> Scenario:
    return Scenario(
        name,
        description,
        configure,
        Status(overall),
        None if klass is None else FailureClass(klass),
        flags,
        because=because,
        follows=follows,
    )
