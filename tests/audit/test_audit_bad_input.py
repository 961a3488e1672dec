"""Reference weaknesses 16, 19-21 and 26-30, and bad input of every kind: a report with the
reason (INFRA_ERROR), never a traceback; nothing outside the run is ever read."""

from __future__ import annotations

import json
import os

import pytest
from audit_helpers import audit, builder, flag, infra_mentions, statuses

from pytest_coldstart.audit import audit_run
from pytest_coldstart.demo.scenarios import build_run, story
from pytest_coldstart.run import jsonio


def _report(run):
    report = audit_run(run, write=False)
    assert not any("internal audit error" in text for text in report["infra_errors"]), report["infra_errors"]
    return report


@pytest.mark.parametrize(
    "document, value",
    [
        ("run.json", []),
        ("evidence.json", []),
        ("run.json", "text"),
        ("evidence.json", {"schemaVersion": 2, "answer": "answer.json"}),
        ("run.json", {"schemaVersion": 2, "run_id": "test-run", "artifacts": ["x"], "imports": [7]}),
    ],
)
def test_16_wrong_json_types_are_reported_not_crashed(tmp_path, document, value):
    run = build_run(tmp_path / "run", "passing")
    if document == "run.json" and isinstance(value, dict):
        manifest = jsonio.read_json(run / "run.json")
        manifest.update(artifacts=value["artifacts"], imports=value["imports"])
        value = manifest
    (run / document).write_text(json.dumps(value))
    report = _report(run)
    assert report["failure_class"] == "INFRA_ERROR" and report["infra_errors"]


@pytest.mark.parametrize(
    "content", [b"", b"\xff\xfe\x00garbage", b"{not json\n", b'{"a": NaN}\n', b"[1,2]\n", b'{"record": "header"}']
)
def test_garbage_trajectory_is_infra(tmp_path, content):
    run = build_run(tmp_path / "run", "passing")
    (run / "trajectory.jsonl").write_bytes(content)
    report = _report(run)
    assert report["failure_class"] == "INFRA_ERROR"


def test_empty_and_missing_directories(tmp_path):
    (tmp_path / "empty").mkdir()
    assert _report(tmp_path / "empty")["failure_class"] == "INFRA_ERROR"
    assert _report(tmp_path / "nope")["failure_class"] == "INFRA_ERROR"
    (tmp_path / "file").write_text("x")
    assert _report(tmp_path / "file")["failure_class"] == "INFRA_ERROR"


def test_a_huge_line_is_reported_without_loading_it(tmp_path, monkeypatch):
    from pytest_coldstart.run import jsonio as module

    monkeypatch.setattr(module, "MAX_LINE_BYTES", 4096)
    b = (
        builder(tmp_path)
        .passing()
        .after_build(
            lambda root: (
                (root / story.TESTMOD_PATH).open("ab").write(b'{"event": "end", "x": "' + b"y" * 10000 + b'"}\n')
            )
        )
    )
    report = audit(b)
    assert infra_mentions(report, "test_mod", "longer than 4096 bytes")


def test_19_paths_never_leave_the_run(tmp_path):
    outside = tmp_path / "outside" / "answer.json"
    outside.parent.mkdir()
    outside.write_text(json.dumps(story.answer("test-run")))
    report = audit(
        builder(tmp_path)
        .passing()
        .edit_json("evidence.json", lambda e: e["answer"].update(path="../outside/answer.json"))
    )
    assert infra_mentions(report, "leaves the run directory") and statuses(report)["answer_correct"] == "FAIL"
    report = audit(
        builder(tmp_path, "abs").passing().edit_json("evidence.json", lambda e: e["answer"].update(path=str(outside)))
    )
    assert infra_mentions(report, "absolute")

    def link(root):
        (root / "answer.json").unlink()
        os.symlink(outside, root / "answer.json")

    report = audit(builder(tmp_path, "link").passing().after_build(link))
    assert infra_mentions(report, "symlink") and statuses(report)["answer_correct"] == "FAIL"

    def linked_dir(root):
        os.symlink(outside.parent, root / "elsewhere")

    b = (
        builder(tmp_path, "dir")
        .passing()
        .after_build(linked_dir)
        .edit_json("evidence.json", lambda e: e["answer"].update(path="elsewhere/answer.json"))
    )
    assert infra_mentions(audit(b), "symlink")
    b = (
        builder(tmp_path, "art")
        .passing()
        .edit_json("run.json", lambda m: m["artifacts"].append({"path": "../outside/answer.json", "sha256": "0" * 64}))
    )
    assert infra_mentions(audit(b), "artifacts", "leaves the run directory")


def test_20_the_audit_writes_only_its_own_folder(tmp_path):
    from pytest_coldstart.audit.engine import output_dir
    from pytest_coldstart.run.errors import UsageError

    run = build_run(tmp_path / "run", "passing")
    before = {p: p.read_bytes() for p in run.rglob("*") if p.is_file()}
    audit_run(run)
    after = {p: p.read_bytes() for p in run.rglob("*") if p.is_file() and "audit" not in p.relative_to(run).parts[:1]}
    assert after == {p: b for p, b in before.items() if "audit" not in p.relative_to(run).parts[:1]}
    with pytest.raises(UsageError):
        output_dir(run, run / "test")
    with pytest.raises(UsageError):
        output_dir(run, run)
    assert output_dir(run, tmp_path / "elsewhere") == tmp_path / "elsewhere"
    from pytest_coldstart.record.recorder import init_run
    from pytest_coldstart.run.errors import ColdstartError

    with pytest.raises(ColdstartError):
        init_run(run, run_id="again", task_bytes=b"t", task_source="inline", harness={"name": "h"})


def test_21_a_rewritten_import_is_infra(tmp_path):
    def add_import(root):
        (root / "imports" / "session.jsonl").write_text('{"type": "message"}\n')
        manifest = jsonio.read_json(root / "run.json")
        manifest["imports"].append({"source": "s", "path": "imports/session.jsonl", "sha256": "1" * 64, "size": 19})
        (root / "run.json").write_text(json.dumps(manifest))

    report = audit(builder(tmp_path).passing().after_build(add_import))
    assert infra_mentions(report, "imports", "hash changed")


def test_26_validation_gaps_are_closed(tmp_path):
    def result_before_call(root):
        lines = (root / "trajectory.jsonl").read_bytes().splitlines(keepends=True)
        call = next(i for i, line in enumerate(lines) if b'"c-actuate"' in line and b'"record":"call"' in line)
        lines[call], lines[call + 1] = lines[call + 1], lines[call]
        (root / "trajectory.jsonl").write_bytes(b"".join(lines))

    assert audit(builder(tmp_path, "a").passing().after_build(result_before_call))["failure_class"] == "INFRA_ERROR"
    b = builder(tmp_path, "b").passing().tamper("trajectory.jsonl", lambda d: d.replace(b'"seq":5,', b'"seq":true,', 1))
    assert audit(b)["failure_class"] == "INFRA_ERROR"


def test_27_flags_are_only_pass_fail_or_pending(tmp_path):
    from pytest_coldstart.demo.scenarios import SCENARIOS

    seen = set()
    for name in SCENARIOS:
        seen |= set(statuses(_report(build_run(tmp_path / name, name))).values())
    assert seen == {"PASS", "FAIL", "PENDING"}


def test_28_markdown_lists_pending_reasons_and_escapes_cells(tmp_path):
    b = builder(tmp_path).unreviewed().undeclare("fixture")
    b.call("c-actuate")["call_id"] = "c|<script>x"
    b.call("c-actuate", "result")["call_id"] = "c|<script>x"
    run = b.build()
    audit_run(run)
    text = (run / "audit" / "audit.md").read_text()
    assert "## Pending reasons" in text and "no fixture evidence is declared" in text
    assert "<script>" not in text and "c\\|&lt;script&gt;x" in text


def test_29_the_preflight_contract(tmp_path):
    good = {
        "schema": "mc-agent-harness-preflight/1",
        "overall": "PASS",
        "started_at": "2026-01-01T11:59:00.000Z",
        "harness": {"name": "pi", "model": "deepseek/deepseek-flash", "provider": "deepseek"},
        "environment": {"repo": "0" * 40},
        "checks": [
            {"id": "ports", "status": "PASS"},
            {"id": "lab_management", "status": "PASS", "versions": {"serverPort": 27192, "rconPort": 27193}},
        ],
    }

    def with_preflight(name, change=None):
        document = json.loads(json.dumps(good))
        if change:
            change(document)
        b = builder(tmp_path, name).passing()
        b.documents["preflight"] = document
        b.declared["preflight"] = "preflight/preflight.json"
        return audit(b)

    assert with_preflight("good")["overall"] == "PASS"
    assert infra_mentions(with_preflight("noname", lambda d: d["harness"].pop("name")), "harness name")
    assert infra_mentions(with_preflight("model", lambda d: d["harness"].update(model="other")), "harness model")
    assert infra_mentions(with_preflight("skip", lambda d: d["checks"][1].update(status="SKIP")), "lab_management")
    assert infra_mentions(with_preflight("noports", lambda d: d["checks"].pop(0)), "ports")
    assert infra_mentions(
        with_preflight("noserver", lambda d: d["checks"][1].update(versions={})), "no server was started"
    )
    assert infra_mentions(with_preflight("commit", lambda d: d["environment"].update(repo="f" * 40)), "commit")
    assert infra_mentions(with_preflight("fail", lambda d: d.update(overall="FAIL")), "overall")
    assert infra_mentions(with_preflight("untimed", lambda d: d.pop("started_at")), "is no time")


def test_30_aliases_are_used_consistently(tmp_path):
    def timestamp_only(events):
        for event in events:
            if event["event"] == "cart_observed":
                event["timestamp"] = event.pop("at")

    report = audit(builder(tmp_path).passing().mutate_logger(timestamp_only))
    assert statuses(report)["transient_outputs_captured"] == "PASS" and statuses(report)["agent_read_log"] == "PASS"


def test_unknown_event_names_and_keys_are_information(tmp_path):
    b = (
        builder(tmp_path)
        .passing()
        .mutate_testmod(lambda ev: ev.append({"event": "weather_changed", "seq": 99, "rain": True}))
    )
    b.event("testmod", "input_processed")["vendor_extension"] = {"anything": [1, 2]}
    report = audit(b)
    assert report["overall"] == "PASS"
    assert any("weather_changed x1" in text for text in report["information"])


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda ev: ev[4].update(tick="301"), ("tick must be an integer",)),
        (lambda ev: ev[4].update(at="yesterday"), ("not a timestamp",)),
        (lambda ev: ev[6].update(uuid=7), ("uuid must be a string",)),
        (lambda ev: ev[4].update(run_id="another-run"), ("belongs to run",)),
        (lambda ev: ev[0].update(schemaVersion=9), ("schemaVersion 9",)),
        (lambda ev: ev[0].update(schema="mc-agent-auditmod/7"), ("refusing to guess",)),
    ],
)
def test_testmod_records_are_validated_strictly(tmp_path, change, words):
    report = audit(builder(tmp_path).passing().mutate_testmod(change))
    assert report["failure_class"] == "INFRA_ERROR" and infra_mentions(report, *words)


def test_instances_must_not_mix(tmp_path):
    report = audit(builder(tmp_path, "a").passing().mutate_testmod(lambda ev: ev[6].update(instance="lab-b")))
    assert infra_mentions(report, "mix instances")
    report = audit(
        builder(tmp_path, "b").passing().mutate_logger(lambda ev: ev[1].update(dimension="minecraft:the_nether"))
    )
    assert infra_mentions(report, "outside the test-mod experiment")


@pytest.mark.parametrize(
    "target, change",
    [
        ("run.json", lambda d: d.update(schemaVersion=3)),
        ("evidence.json", lambda d: d.update(schemaVersion=7)),
        ("answer.json", lambda d: d.update(schemaVersion=5)),
        ("oracle.json", lambda d: d.update(schema="mc-agent-coldstart-oracle/2")),
    ],
)
def test_unknown_versions_fail_closed_on_every_reader(tmp_path, target, change):
    report = audit(builder(tmp_path).passing().edit_json(target, change))
    assert report["failure_class"] == "INFRA_ERROR"


def test_unknown_versions_in_lines_fail_closed(tmp_path):
    report = audit(
        builder(tmp_path, "r")
        .passing()
        .raw_review({"schemaVersion": 3, "id": "machine_operated.causality", "status": "pending"})
    )
    assert report["failure_class"] == "INFRA_ERROR"
    report = audit(
        builder(tmp_path, "t")
        .passing()
        .tamper("trajectory.jsonl", lambda d: d + b'{"schemaVersion": 4, "record": "note"}\n')
    )
    assert report["failure_class"] == "INFRA_ERROR"


def _padded_read(tmp_path):
    b = builder(tmp_path).passing()
    b.call("c-read-log", "result")["result"]["padding"] = "x" * 40000  # beyond inline_max_bytes: goes to payloads/
    return b.build()


def test_the_read_content_can_live_in_the_payload_store(tmp_path):
    run = _padded_read(tmp_path)
    record = next(
        json.loads(line)
        for line in (run / "trajectory.jsonl").read_text().splitlines()
        if '"c-read-log"' in line and '"result"' in line
    )
    assert record["result"] is None and record["result_payload"]["stored"] is True
    report = _report(run)
    assert report["overall"] == "PASS" and flag(report, "agent_read_log")["evidence"][0] == "trajectory:c-read-log"


def test_missing_and_altered_payloads_are_infra(tmp_path):
    run = _padded_read(tmp_path)
    (payload,) = sorted((run / "payloads").iterdir())
    payload.write_bytes(payload.read_bytes().replace(b"x", b"y", 1))
    report = _report(run)
    assert report["failure_class"] == "INFRA_ERROR" and any("payload" in text for text in report["infra_errors"])
    payload.unlink()
    assert _report(run)["failure_class"] == "INFRA_ERROR"
