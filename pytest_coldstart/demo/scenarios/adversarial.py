"""Adversarial scenarios: runs that try to satisfy a PASS requirement falsely.

Each starts from the passing run and makes one edit - a name collision, a path alias, a
symlink inside the run, agent-written evidence, a byte-identical copy, another instance or
run, a later or earlier clock, a review citing what does not exist - and names the seed
sentence its expected verdict follows from. The tests audit every one (tests/audit/
test_audit_adversarial.py); ``coldstart demo`` ships only the few in ``SHOWCASE``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pytest_coldstart.demo.scenarios import story
from pytest_coldstart.demo.scenarios.builder import RunBuilder
from pytest_coldstart.demo.scenarios.catalogue import Scenario, _flags
from pytest_coldstart.run import jsonio

P, F, W = "PASS", "FAIL", "PENDING"
CART = story.CARTS[0]

# -- the seed sentences -------------------------------------------------------------------
R2 = "agent_read_log PASS requires an agent call after the last capture that both names the logger and returns captured observation content (seed §6)"
TEST_SIDE = "test-side-only observation is a broken run; the unit tests build ... test-side-only observation (seed §6, §9)"
ORACLE_COPY = "An oracle copied from the agent's answer fails (seed §6, the oracle rule)"
INDEPENDENT = "oracle evidence_refs must resolve against declared test-mod/fixture/restore evidence ... Agent-side refs never count as independent (seed §5)"
TESTMOD = "The independent test mod writes a JSONL file ... no test_mod file ... there is no path to PASS (seed §5, §6)"
FIXTURE = "FIXTURE_INVALID: initialisation or restore was not faithful (seed §7)"
LOGGER = "The agent chooses how to log ... raw output written by the agent's own logger (seed §5)"
SCOPE = "test-mod events must not mix instances or dimensions, and agent logger events must name the same experiment instance/dimension as the test mod (seed §5)"
UNVERIFIED = "When the fixture is new or unverified, the oracle stays pending; the audit reports PENDING and never claims correctness early (seed §6)"
CLEAN = "The session must not carry ... a standard answer ... the visible documents and skills are recorded by visibility.json (seed §3)"
REVIEW = "every ref must resolve against the run ... a well-formed entry whose refs do not resolve keeps the flag PENDING (seed §5)"
ORDER = "an agent call after the last capture (seed §6); a capture that sorts before the cart was ejected fails outright"
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
        {"record": "call", "call_id": call_id, "tool": tool, "arguments": arguments, "phase": phase, "actor": actor, "at": story.at(23.0)},
    )
    records.insert(
        -1,
        {"record": "result", "call_id": call_id, "status": "ok", "result": {"text": "done"}, "phase": phase, "actor": actor, "at": story.at(23.2)},
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
    return Scenario(name, description, configure, overall, klass, flags, because=because, follows=follows)


_ALL: list[Scenario] = [
    # -- 1. identity: the path a call names, never a file name -----------------------------
    S("name_collision_test_side_read", "logger and test mod are both events.jsonl; the agent reads the test side", _collide, F, "AGENT_FAIL", _flags(ar=F), "test-side observation does not count", TEST_SIDE),
    S("dotted_path_read", "the read names the logger as ./agent/../agent//romlog.jsonl", _read({"path": "./agent/../agent//romlog.jsonl"}), P, None, _flags(), "names the logger file", R2),
    S("backslash_path_read", "the read names the logger with Windows separators", _read({"path": "agent\\romlog.jsonl"}), P, None, _flags(), "names the logger file", R2),
    S("absolute_path_read", "the agent cwd is recorded; the read names the logger's absolute host path", _cwd("/home/lab/run", "/home/lab/run/agent/romlog.jsonl"), P, None, _flags(), "names the logger file", R2),
    S("cwd_relative_read", "the agent works in workspace/ and reads ../agent/romlog.jsonl", _cwd("/home/lab/run/workspace", "../agent/romlog.jsonl"), P, None, _flags(), "names the logger file", R2),
    S("cwd_wrong_relative_read", "the agent works in workspace/ and reads agent/romlog.jsonl (another file)", _cwd("/home/lab/run/workspace", "agent/romlog.jsonl"), W, None, _flags(ar=W), "without naming the logger file", R2),
    S("cd_in_command_read", "cd agent && cat romlog.jsonl", _read({"command": "cd agent && cat romlog.jsonl"}, tool="bash"), P, None, _flags(), "names the logger file", R2),
    S("same_name_outside_run", "the read names /tmp/romlog.jsonl, a file outside the run with the logger's name", _read({"path": "/tmp/romlog.jsonl"}), W, None, _flags(ar=W), "without naming the logger file", R2),
    S("symlink_to_logger_read", "the read names view.jsonl, a symlink inside the run to the logger", lambda b: _read({"path": "view.jsonl"})(b).after_build(_symlink("view.jsonl", story.LOGGER_PATH)), P, None, _flags(), "names the logger file", R2),
    S("symlink_to_testmod_read", "agent/peek.jsonl is a symlink to the test mod's file; the agent reads it", lambda b: _read({"path": "agent/peek.jsonl"}, _testside_text())(b).after_build(_symlink("agent/peek.jsonl", story.TESTMOD_PATH)), F, "AGENT_FAIL", _flags(ar=F), "test-side observation does not count", TEST_SIDE),
    S("case_alias_case_insensitive_host", "on a Windows host the read names Agent/RomLog.JSONL", _case("Windows"), P, None, _flags(), "names the logger file", R2),
    S("case_alias_case_sensitive_host", "on a case-sensitive host Agent/RomLog.JSONL is another file", _case("Linux"), W, None, _flags(ar=W), "without naming the logger file", R2),
    S("reads_logger_and_testmod", "one call cats the logger and the test mod's file together", _read({"command": f"cat {story.LOGGER_PATH} {story.TESTMOD_PATH}"}, tool="bash"), W, None, _flags(ar=W), "reads test-side evidence as well", TEST_SIDE),
    S("reads_oracle_not_logger", "the agent reads oracle.json (test-side) instead of its logger", _read({"path": "oracle.json"}, _testside_text()), F, "AGENT_FAIL", _flags(ar=F), "test-side observation does not count", TEST_SIDE),
    S("read_items_without_uuid", "the logger read returns one cart's full ordered item list, no uuid", _read({"path": story.LOGGER_PATH}, "stone 4, glass 4, redstone 2"), P, None, _flags(), "returns captured content", R2),
    S("read_one_item_list_without_uuid", "the logger read returns a one-item cart's list with its count, no uuid", _read({"path": story.LOGGER_PATH}, '{"items": [{"id": "minecraft:coal", "count": 2}]}'), P, None, _flags(), "returns captured content", R2),
    S("read_uuid_only", "the logger read returns the captured uuids only", _read({"path": story.LOGGER_PATH}, " ".join(c["uuid"] for c in story.CARTS)), W, None, _flags(ar=W), "uuid without its items", R2),
    # -- 2. provenance: independent evidence must not be agent-written ----------------------
    S("oracle_is_answer_file", "the oracle is declared at the answer's own file", _same_bytes("oracle", "answer"), F, "AGENT_FAIL", _flags(ac=F), "agent call c-write-answer writes it", ORACLE_COPY),
    S("oracle_byte_copy_of_answer", "oracle.json holds exactly the answer's bytes", _oracle_equals_answer, F, "AGENT_FAIL", _flags(ac=F), "byte-identical to the answer", ORACLE_COPY),
    S("oracle_written_by_agent_tool", "an agent write call writes oracle.json", _with_call("c-forge", "write", {"path": "oracle.json", "content": "{}"}), F, "AGENT_FAIL", _flags(ac=F), "agent call c-forge writes it", ORACLE_COPY),
    S("oracle_cp_from_answer", "the agent runs cp answer.json oracle.json", _with_call("c-forge", "bash", {"command": "cp answer.json oracle.json"}), F, "AGENT_FAIL", _flags(ac=F), "agent call c-forge writes it (cp)", ORACLE_COPY),
    S("oracle_redirect", "the agent redirects a script's output into ./oracle.json", _with_call("c-forge", "bash", {"command": "python make_oracle.py > ./oracle.json"}), F, "AGENT_FAIL", _flags(ac=F), "shell redirect", ORACLE_COPY),
    S("oracle_tee_alias", "the agent tees into workspace/../oracle.json", _with_call("c-forge", "bash", {"command": "cat answer.json | tee -a workspace/../oracle.json"}), F, "AGENT_FAIL", _flags(ac=F), "(tee)", ORACLE_COPY),
    S("oracle_mv_into_place", "the agent moves a file onto oracle.json after cd", _with_call("c-forge", "bash", {"command": "cd workspace && mv draft.json ../oracle.json"}), F, "AGENT_FAIL", _flags(ac=F), "(mv)", ORACLE_COPY),
    S("oracle_bytes_written_elsewhere", "the agent wrote the oracle's exact bytes to a scratch file", _content_of("oracle", "/tmp/scratch.json"), F, "AGENT_FAIL", _flags(ac=F), "byte-identical to the content agent call c-draft wrote", ORACLE_COPY),
    S("oracle_written_by_operator", "an operator call in the audit phase writes oracle.json (allowed)", _with_call("c-collect", "bash", {"command": "cp /lab/oracle.json oracle.json"}, actor="operator", phase="audit"), P, None, _flags(), "covers every oracle cart", INDEPENDENT),
    S("testmod_appended_by_agent", "the agent appends a line to the test mod's file", _with_call("c-forge", "bash", {"command": f"echo '{{}}' >> {story.TESTMOD_PATH}"}), F, "INFRA_ERROR", _flags(), "test_mod evidence is agent-written", TESTMOD),
    S("testmod_bytes_written_by_agent", "the agent wrote the test mod's exact bytes", lambda b: _extra_call(b.passing(), "c-draft", "write", {"path": "scratch.jsonl", "content": "".join(jsonio.dumps_line(e).decode() + "\n" for e in b.testmod)}), F, "INFRA_ERROR", _flags(), "test_mod evidence is byte-identical", TESTMOD),
    S("fixture_written_by_agent", "the agent writes the fixture report", _with_call("c-forge", "edit", {"path": "fixture/ready.json", "edits": []}), F, "FIXTURE_INVALID", _flags(), "fixture evidence is agent-written", FIXTURE),
    S("restore_sed_by_agent", "the agent edits the restore report in place with sed -i", _with_call("c-forge", "bash", {"command": "sed -i s/failed/ok/ restore/verify.json"}), F, "FIXTURE_INVALID", _flags(), "restore evidence is agent-written", FIXTURE),
    S("fixture_bytes_written_by_agent", "the agent wrote the fixture report's exact bytes elsewhere", _content_of("fixture", "workspace/ready.json"), F, "FIXTURE_INVALID", _flags(), "fixture evidence is byte-identical", FIXTURE),
    S("logger_copied_from_testmod", "the agent copies the test mod's file onto its logger", _with_call("c-copy", "bash", {"command": f"cp {story.TESTMOD_PATH} {story.LOGGER_PATH}"}), F, "AGENT_FAIL", _flags(la=F, to=F, ar=F), "copies test-side evidence onto the agent logger", TEST_SIDE),
    S("logger_is_testmod_file", "the logger is declared at the test mod's file", _same_bytes("agent_logger", "test_mod"), F, "INFRA_ERROR", _flags(la=F, to=F, ar=F), "byte-identical", TEST_SIDE),
    S("logger_not_agent_written", "no agent call writes, builds or starts the logger", _drop_logger_calls(None), F, "AGENT_FAIL", _flags(la=F, to=F, ar=F), "not agent-written", LOGGER),
    S("logger_started_by_operator", "only an operator call starts the logger", _drop_logger_calls("operator"), F, "AGENT_FAIL", _flags(la=F, to=F, ar=F), "not agent-written", LOGGER),
    # -- 3. scope: every event that carries an instance or a dimension ----------------------
    S("restore_event_other_instance", "restore_finished names another instance", _scope("testmod", "restore_finished", "instance", "lab-b"), F, "INFRA_ERROR", _flags(), "test-mod events mix instances", SCOPE),
    S("input_attempt_other_instance", "the input attempt names another instance", _scope("testmod", "input_attempt", "instance", "lab-b"), F, "INFRA_ERROR", _flags(), "test-mod events mix instances", SCOPE),
    S("instance_id_alias_other", "an event names another instance through the instance_id alias", _scope("testmod", "end", "instance_id", "lab-b"), F, "INFRA_ERROR", _flags(), "test-mod events mix instances", SCOPE),
    S("logger_dim_alias_other", "a capture names another dimension through the dim alias", _scope("logger", "cart_observed", "dim", "minecraft:the_nether"), F, "INFRA_ERROR", _flags(to=F), "outside the test-mod experiment", SCOPE),
    S("restore_phase_other_instance", "the trajectory's restore phase names another instance", _restore_phase_elsewhere, F, "INFRA_ERROR", _flags(), "names instance 'lab-b'", SCOPE),
    S("fixture_report_other_instance", "the fixture report is for another instance", lambda b: b.passing().mutate_fixture(lambda f: f.update(instance="lab-b")), F, "INFRA_ERROR", _flags(), "the fixture report", SCOPE),
    S("logger_mixes_instances", "the test mod carries no scope; the logger names two instances", _logger_two_instances, F, "INFRA_ERROR", _flags(), "agent logger events mix instances", SCOPE),
    # -- 4. fixture and restore states (R7 revised) -----------------------------------------
    S("fixture_unverified", "the fixture report says unverified", lambda b: b.passing().mutate_fixture(lambda f: {"status": "unverified"}), W, None, _flags(ac=W), "the oracle stays pending", UNVERIFIED),
    S("fixture_new_not_ready", "the fixture is new and not ready yet", lambda b: b.passing().mutate_fixture(lambda f: {"status": "new", "ready": False}), W, None, _flags(ac=W), "the oracle stays pending", UNVERIFIED),
    S("restore_running", "the restore verification is still running", lambda b: b.passing().mutate_restore(lambda r: r.update(status="running")), W, None, _flags(ac=W), "the oracle stays pending", UNVERIFIED),
    S("fixture_failed_verification", "the fixture report says its verification failed", lambda b: b.passing().mutate_fixture(lambda f: {"status": "failed", "ready": True}), F, "FIXTURE_INVALID", _flags(), "is not valid", FIXTURE),
    S("fixture_result_alias_invalid", "the fixture report says invalid through the result alias", lambda b: b.passing().mutate_fixture(lambda f: {"result": "invalid", "ready": True}), F, "FIXTURE_INVALID", _flags(), "is not valid", FIXTURE),
    S("restore_mismatch", "the restore verification reports a mismatch", lambda b: b.passing().mutate_restore(lambda r: r.update(status="mismatch")), F, "FIXTURE_INVALID", _flags(), "did not pass", FIXTURE),
    # -- 5. clean context: the answer must not be visible ------------------------------------
    S("visible_answer_copy", "a visible file is a byte copy of the answer", _visible(lambda b: jsonio.dumps_document(b.documents["answer"])), F, "INFRA_ERROR", _flags(), "byte copy of the answer", CLEAN),
    S("visible_oracle_carts", "a visible note lists a cart's uuid with its ordered items", _visible(lambda b: ("Expected:\n" + _cart_line(CART) + "\n").encode()), F, "INFRA_ERROR", _flags(), "carries the answer", CLEAN),
    S("task_carries_answer", "the task text itself lists a cart with its items", _task_with_answer, F, "INFRA_ERROR", _flags(), "the task carries the answer", CLEAN),
    S("visible_uuid_only", "a visible note names a cart uuid but none of its items (not the answer)", _visible(lambda b: f"cart {CART['uuid']} is the first\n".encode()), P, None, _flags(), "covers every oracle cart", CLEAN),
    # -- 6. items keep their components ------------------------------------------------------
    S("answer_omits_enchantment", "the oracle's item carries enchantments the answer leaves out", _enchanted(None), F, "AGENT_FAIL", _flags(ac=F), "differ from the oracle", ITEMS),
    S("answer_wrong_enchantment", "the answer gives the item other enchantments", _enchanted({"minecraft:sharpness": 1}), F, "AGENT_FAIL", _flags(ac=F), "differ from the oracle", ITEMS),
    S("answer_same_enchantment", "the answer gives the item the oracle's enchantments", _enchanted({"minecraft:efficiency": 5}), P, None, _flags(), "covers every oracle cart", ITEMS),
    # -- 7. reviews that cite what does not exist; clocks; other runs -----------------------
    S("review_cites_missing_call", "the causality review cites a call that does not exist", _review_cites("trajectory:c-nope"), W, None, _flags(mo=W), "awaiting explicit review", REVIEW),
    S("review_cites_missing_seq", "the running review cites a logger seq that does not exist", _review_cites("logger:seq99", "logger_armed_before_activation.running"), W, None, _flags(la=W), "awaiting explicit review", REVIEW),
    S("review_cites_absent_field", "the independence review cites a fixture field that is not there", _review_cites("fixture:no_such_field", "answer_correct.oracle_independence"), W, None, _flags(ac=W), "awaiting explicit review", REVIEW),
    S("read_before_last_capture", "the logger read happens before the last cart was captured (earlier clock)", _read_at(12.5), F, "AGENT_FAIL", _flags(ar=F), "no agent call after the last capture", ORDER),
    S("testmod_event_other_run", "one test-mod event belongs to another run", _other_run, F, "INFRA_ERROR", _flags(), "belongs to run 'some-other-run'", RUN_ID),
]

ADVERSARIAL: dict[str, Scenario] = {s.name: s for s in _ALL}
#: the few ``coldstart demo`` ships in runs/ (they help a reader; the rest are tests only)
SHOWCASE = ("name_collision_test_side_read", "oracle_byte_copy_of_answer", "fixture_unverified", "task_carries_answer")
