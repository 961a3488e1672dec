"""Each weakness of the reference implementation (research/reference-notes.md §8, items 1-15)
as a run that now gets the protocol's answer."""

from __future__ import annotations

import json

from audit_helpers import audit, builder, flag, infra_mentions, required, statuses

from pytest_coldstart.demo.scenarios import story


def _reads(b, tool, arguments, text):
    b.call("c-read-log").update(tool=tool, arguments=arguments)
    b.call("c-read-log", "result")["result"] = {"text": text}
    return b


def _content(carts=story.CARTS):
    return "\n".join(f"{c['uuid']} " + json.dumps(c["items"]) for c in carts)


def test_01_cross_stream_seq_never_orders(tmp_path):
    b = builder(tmp_path).passing()
    processed = b.event("testmod", "input_processed")
    b.event("logger", "logger_armed").update(at=processed["at"], tick=processed["tick"], seq=0)
    report = audit(b)
    assert statuses(report)["logger_armed_before_activation"] == "PENDING"
    assert "logger_armed_before_activation.ordering" in required(report, "logger_armed_before_activation")
    assert ["logger:seq0", "testmod:seq5"] in report["unknown_orderings"]
    assert report["overall"] == "PENDING"


def test_02_a_read_ish_tool_name_never_counts(tmp_path):
    report = audit(_reads(builder(tmp_path).passing(), "locate", {"pattern": "carts"}, _content()))
    assert statuses(report)["agent_read_log"] == "PENDING"
    assert required(report, "agent_read_log") == ["agent_read_log.linkage"]
    assert "without naming the logger" in flag(report, "agent_read_log")["summary"]
    report = audit(_reads(builder(tmp_path, "b").passing(), "read", {"path": "notes.txt"}, "nothing here"))
    assert statuses(report)["agent_read_log"] == "FAIL"


def test_03_item_tokens_match_whole_ids_and_counts_in_any_format(tmp_path):
    from pytest_coldstart.audit.evidence.inventory import items_in_order, normalize_items

    assert not items_in_order(normalize_items(["minecraft:stone"]), "redstone dust")
    assert not items_in_order(normalize_items(["minecraft:air"]), "repair kit")
    assert items_in_order(
        normalize_items([{"id": "minecraft:iron_ingot", "count": 5}]), "minecraft:iron_ingot x5 (slot 7)"
    )
    assert items_in_order(
        normalize_items([{"id": "minecraft:iron_ingot", "count": 5}]), '{"id": "minecraft:iron_ingot", "count": 5}'
    )
    assert not items_in_order(normalize_items([{"id": "minecraft:iron_ingot", "count": 5}]), "minecraft:iron_ingot x50")
    cart = story.CARTS[0]
    pretty = f"pop 1: uuid {cart['uuid']} items: " + ", ".join(
        f"{i['id']} x{i['count']} (slot {i['slot']})" for i in cart["items"]
    )
    report = audit(
        _reads(builder(tmp_path).passing(), "bash", {"command": f"python read.py {story.LOGGER_PATH}"}, pretty)
    )
    assert statuses(report)["agent_read_log"] == "PASS"
    wrong = pretty.replace("minecraft:sand", "minecraft:sandstone")
    report = audit(_reads(builder(tmp_path, "b").passing(), "bash", {"command": f"cat {story.LOGGER_PATH}"}, wrong))
    assert statuses(report)["agent_read_log"] == "PENDING"  # a uuid without its items: linkage review


def test_04_arm_calls_need_the_logger_an_action_and_an_ok_result(tmp_path):
    def only(b, arguments, status="ok"):
        for call_id in ("c-write-logger", "c-build-logger"):
            b.drop_call(call_id)
        b.call("c-start-logger").update(tool="bash", arguments=arguments)
        b.call("c-start-logger", "result")["status"] = status
        return b

    report = audit(only(builder(tmp_path, "a").passing(), {"command": "cat fabric.mod.json"}))
    assert statuses(report)["logger_armed_before_activation"] == "FAIL"
    assert "no successful agent call" in flag(report, "logger_armed_before_activation")["summary"]
    report = audit(only(builder(tmp_path, "b").passing(), {"command": "grep logger_armed coldstart.py"}))
    assert statuses(report)["logger_armed_before_activation"] == "FAIL"
    report = audit(only(builder(tmp_path, "c").passing(), {"command": "javac RomLogger.java"}, status="error"))
    assert statuses(report)["logger_armed_before_activation"] == "FAIL"
    later = builder(tmp_path, "d").passing()
    later.mutate_trajectory(
        lambda r: (
            r.insert(
                -1,
                {
                    "record": "call",
                    "call_id": "c-late",
                    "tool": "bash",
                    "arguments": {"command": "make logger-docs"},
                    "phase": "agent",
                    "actor": "agent",
                    "at": story.at(23),
                },
            )
            or r.insert(
                -1,
                {
                    "record": "result",
                    "call_id": "c-late",
                    "status": "ok",
                    "result": "ok",
                    "actor": "agent",
                    "phase": "agent",
                    "at": story.at(23.5),
                },
            )
        )
    )
    assert statuses(audit(later))["logger_armed_before_activation"] == "PASS"


def test_05_oracle_refs_must_name_real_records_and_fields(tmp_path):
    b = (
        builder(tmp_path)
        .passing()
        .mutate_oracle(lambda o: o.update(evidence_refs=["testmod:whatever", "fixture:no_such_field"]))
    )
    report = audit(b)
    assert statuses(report)["answer_correct"] == "PENDING"
    assert "do not resolve" in flag(report, "answer_correct")["summary"]
    b = (
        builder(tmp_path, "b")
        .passing()
        .mutate_oracle(lambda o: o.update(evidence_refs=["trajectory:c-read-log", "logger:seq2", "answer"]))
    )
    assert statuses(audit(b))["answer_correct"] == "FAIL"  # only agent-side refs: never independent


def test_06_review_entries_are_checked_strictly(tmp_path):
    b = builder(tmp_path, "a").passing()
    bad = b.reviews.pop(0)
    report = audit(b.raw_review(dict(bad, seq=9, evidence=[], at="not-a-time")))
    assert report["failure_class"] == "INFRA_ERROR" and statuses(report)["machine_operated"] == "PENDING"
    b = builder(tmp_path, "b").passing()
    b.reviews[0]["evidence"] = ["trajectory:no-such-call", "testmod:seq999"]
    report = audit(b)
    assert statuses(report)["machine_operated"] == "PENDING" and report["overall"] == "PENDING"
    assert any("no-such-call" in p and "seq 999" in p for p in report["review_problems"])
    b = builder(tmp_path, "c").passing().review("machine_operated.vibes", evidence=["testmod:seq5"])
    assert any("machine_operated.vibes" in p for p in audit(b)["review_problems"])
    b = builder(tmp_path, "d").passing().review("machine_operated.causality", "rejected", evidence=["testmod:seq5"])
    b.review("machine_operated.causality", evidence=["testmod:seq5", "trajectory:c-actuate"])
    report = audit(b)
    assert statuses(report)["machine_operated"] == "PASS"  # latest entry wins ...
    assert any("earlier rejection was superseded" in text for text in report["information"])  # ... and it is said


def test_07_fixture_and_restore_need_an_explicit_ok(tmp_path):
    """R7 (revised): a report that says invalid/failed is FIXTURE_INVALID; any other state
    that is not an explicit ok keeps the oracle PENDING (never a PASS, never a false blame)."""
    report = audit(builder(tmp_path, "a").passing().mutate_fixture(lambda f: {"status": "broken"}))
    assert report["failure_class"] == "FIXTURE_INVALID"
    report = audit(builder(tmp_path, "b").passing().mutate_restore(lambda r: {}))
    assert (report["overall"], report["failure_class"]) == ("PENDING", None)
    assert statuses(report)["answer_correct"] == "PENDING"
    report = audit(builder(tmp_path, "c").passing().mutate_fixture(lambda f: f.update(ready=False)))
    assert (report["overall"], report["failure_class"]) == ("PENDING", None)
    report = audit(builder(tmp_path, "d").passing().mutate_restore(lambda r: r.update(status="error")))
    assert report["failure_class"] == "FIXTURE_INVALID"


def test_08_a_tampered_or_missing_oracle_is_infra(tmp_path):
    report = audit(
        builder(tmp_path, "a").passing().tamper("oracle.json", lambda d: d.replace(b"verified", b"Verified"))
    )
    assert report["failure_class"] == "INFRA_ERROR" and infra_mentions(report, "oracle", "mismatch")
    report = audit(builder(tmp_path, "b").passing().after_build(lambda root: (root / "oracle.json").unlink()))
    assert report["failure_class"] == "INFRA_ERROR" and infra_mentions(report, "oracle", "missing")


def test_09_missing_agent_output_is_the_agents_failure(tmp_path):
    report = audit(builder(tmp_path, "a").passing().undeclare("answer"))
    assert report["failure_class"] == "AGENT_FAIL" and statuses(report)["answer_correct"] == "FAIL"
    report = audit(builder(tmp_path, "b").passing().undeclare("agent_logger"))
    assert report["failure_class"] == "AGENT_FAIL"
    assert [
        statuses(report)[f] for f in ("logger_armed_before_activation", "transient_outputs_captured", "agent_read_log")
    ] == ["FAIL"] * 3
    report = audit(builder(tmp_path, "c").passing().undeclare("test_mod"))  # R6: the independent side is missing
    assert report["failure_class"] == "INFRA_ERROR" and infra_mentions(report, "no test-mod evidence is declared")


def test_10_duplicates_are_detected(tmp_path):
    report = audit(builder(tmp_path, "a").passing().mutate_answer(lambda a: a["carts"].append(dict(a["carts"][0]))))
    assert statuses(report)["answer_correct"] == "FAIL" and "repeats" in flag(report, "answer_correct")["summary"]
    report = audit(builder(tmp_path, "b").passing().mutate_oracle(lambda o: o["carts"].append(dict(o["carts"][0]))))
    assert report["failure_class"] == "INFRA_ERROR" and infra_mentions(report, "oracle", "twice")
    b = builder(tmp_path, "c").passing()
    removal = dict(b.event("testmod", "cart_removed", 0), at=story.at(11.1), tick=311, seq=40)
    b.mutate_testmod(lambda ev: ev.insert(6, removal))  # an earlier removal of cart 1: its capture is now late
    assert statuses(audit(b))["transient_outputs_captured"] == "FAIL"
    b = builder(tmp_path, "d").passing()
    again = dict(b.event("testmod", "cart_ejected", 0), seq=41)
    report = audit(b.mutate_testmod(lambda ev: ev.insert(6, again)))
    assert statuses(report)["transient_outputs_captured"] == "PASS"
    assert any("2 cart_ejected events" in text for text in report["information"])


def test_11_items_keep_their_components(tmp_path):
    def books(value):
        def change(doc):
            for cart in doc["carts"][:1]:
                cart["items"] = [{"id": "minecraft:enchanted_book", "count": 1, "components": {"enchantments": value}}]

        return change

    b = builder(tmp_path, "a").passing().mutate_answer(books({"sharpness": 5})).mutate_oracle(books({"protection": 4}))
    assert statuses(audit(b))["answer_correct"] == "FAIL"
    b = (
        builder(tmp_path, "b")
        .passing()
        .mutate_answer(lambda a: a["carts"][0].update(items={"x": {"id": "minecraft:sand"}}))
    )
    assert statuses(audit(b))["answer_correct"] == "FAIL"


def test_12_uuids_compare_case_insensitively(tmp_path):
    def upper(answer):
        for cart in answer["carts"]:
            cart["uuid"] = cart["uuid"].upper()

    b = builder(tmp_path).passing().mutate_answer(upper)
    assert statuses(audit(b))["answer_correct"] == "PASS"


def test_13_claiming_actor_agent_outside_the_agent_phase_does_not_count(tmp_path):
    b = builder(tmp_path, "a").passing()
    b.call("c-actuate")["phase"] = "prepare"
    b.call("c-actuate", "result")["phase"] = "prepare"
    for call_id in ("c-write-logger", "c-build-logger", "c-start-logger"):
        b.call(call_id)["phase"] = "prepare"
    report = audit(b)
    assert statuses(report)["machine_operated"] == "FAIL"
    b = builder(tmp_path, "b").passing()
    index = b.records.index(b.call("c-actuate"))
    b.records.insert(
        index,
        {
            "record": "phase",
            "phase": "restore",
            "actor": "restore",
            "note": "operator reset",
            "evidence": [],
            "at": story.at(9.9),
        },
    )
    b.records.insert(
        index + 2, {"record": "phase", "phase": "agent", "actor": "harness", "evidence": [], "at": story.at(10.0)}
    )
    report = audit(b)
    # an agent call still precedes the processing, but the causality review credits c-actuate,
    # which ran in the restore window: not the agent's work, so the review does not hold
    assert statuses(report)["machine_operated"] == "PENDING"
    assert flag(report, "machine_operated")["evidence"][1] == "trajectory:c-start-logger"
    assert any("trajectory:c-actuate: not an agent call" in text for text in report["review_problems"])
    assert any("prepare/restore/audit window" in text for text in report["information"])


def test_14_the_oracle_source_text_decides_nothing(tmp_path):
    b = (
        builder(tmp_path)
        .passing()
        .mutate_oracle(lambda o: o.update(source="independent of the answer and of the agent"))
    )
    assert audit(b)["overall"] == "PASS"


def test_15_an_old_review_time_never_breaks_the_trajectory(tmp_path):
    b = builder(tmp_path).passing()
    for entry in b.reviews:
        entry["at"] = "2020-01-01T00:00:00Z"
    report = audit(b)
    # reviews live outside the trajectory: their time is no trajectory error ...
    assert report["infra_errors"] == [] and report["failure_class"] is None
    # ... but a review dated before the records it cites cannot rest on them
    assert report["overall"] == "PENDING"
    assert all("a review cannot precede what it cites" in problem for problem in report["review_problems"])


def test_15_a_review_dated_after_what_it_cites_resolves(tmp_path):
    b = builder(tmp_path).passing()
    for entry in b.reviews:
        entry["at"] = "2027-01-01T00:00:00Z"
    assert audit(b)["overall"] == "PASS"
