"""validate_run: one test per finding the protocol lists, on runs written by the real recorder
and then broken in one precise way. Every test also checks that the finding names its file
(and line) and that nothing raised."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from core_helpers import codes, edit_json, edit_trajectory, lines, new_run, recorder, sha, write_lines

from pytest_coldstart.demo.scenarios.adversarial_escaped import respelled
from pytest_coldstart.record.seal import seal
from pytest_coldstart.run import schemas
from pytest_coldstart.validate.run import validate_run


def only(report, code: str):
    """The findings of ``code``; asserts the run is invalid and nothing else went wrong."""
    assert not report.valid
    found = [f for f in report.findings if f.code == code]
    assert found, f"expected {code}, got {[(f.code, f.problem) for f in report.findings]}"
    others = [f for f in report.findings if f.code != code]
    return found, others


@pytest.fixture
def run(tmp_path: Path) -> Path:
    return new_run(tmp_path / "run")


def test_a_fresh_run_is_valid_and_the_report_matches_its_schema(run):
    report = validate_run(run)
    assert report.valid, report.to_text()
    document = report.to_json()
    assert schemas.errors("validation", document) == []
    assert (
        document["counts"]["records"] == 6 and document["counts"]["calls"] == 2 and document["counts"]["results"] == 2
    )
    assert document["run_id"] == "run-01" and document["run_version"] == 2
    assert report.to_text().startswith("valid: run run-01, 6 records")


def test_an_invalid_report_matches_its_schema_and_prints_file_line_problem(run):
    edit_trajectory(
        run, lambda r: r.append(dict(r[-1], seq=99, record="call", call_id="zz", tool="bash", arguments={}))
    )
    report = validate_run(run)
    assert schemas.errors("validation", report.to_json()) == []
    text = report.to_text().splitlines()
    assert text[0] == "trajectory.jsonl:7: call 'zz' has no result (missing a result is an error)"
    assert text[-1] == "invalid: run run-01, 1 problem(s)"


# -- the run directory and its documents ------------------------------------------------------


def test_missing_run_directory(tmp_path):
    report = validate_run(tmp_path / "nope")
    assert codes(report) == ["run.missing"] and "does not exist" in report.findings[0].problem


def test_directory_without_run_json(tmp_path):
    (tmp_path / "empty").mkdir()
    report = validate_run(tmp_path / "empty")
    assert codes(report) == ["document.missing"] and report.findings[0].file == "run.json"


@pytest.mark.parametrize(
    "data, words",
    [
        (b"{not json", "malformed JSON"),
        (b'{"a": "\xff"}', "not UTF-8"),
        (b"[1, 2]", "expected a JSON object, got array"),
        (b"", "malformed JSON"),
    ],
)
def test_malformed_run_json_is_one_finding(run, data, words):
    (run / "run.json").write_bytes(data)
    report = validate_run(run)
    assert codes(report) == ["document.malformed"] and words in report.findings[0].problem


@pytest.mark.parametrize("version", [3, 0, "2", True, None])
def test_unknown_run_version_fails_closed(run, version):
    edit_json(run / "run.json", lambda d: d.update(schemaVersion=version))
    report = validate_run(run)
    assert codes(report) == ["version.unknown"]
    assert "fail closed" in report.findings[0].problem and "reads versions 1, 2" in report.findings[0].problem


def test_foreign_schema_string_fails_closed(run):
    edit_json(run / "run.json", lambda d: (d.pop("schemaVersion"), d.update(schema="mc-agent-coldstart-run/9")))
    report = validate_run(run)
    assert codes(report) == ["version.unknown"] and "refusing to guess" in report.findings[0].problem


def test_wrong_types_in_run_json_are_schema_findings(run):
    edit_json(run / "run.json", lambda d: (d["harness"].update(model=5), d.update(imports={"not": "a list"})))
    found, others = only(validate_run(run), "schema.run")
    problems = sorted(f.problem for f in found)
    assert problems == ["$.harness.model: expected string, got number", "$.imports: expected array, got object"]
    assert others == []


def test_unparseable_created_at(run):
    edit_json(run / "run.json", lambda d: d.update(created_at="yesterday"))
    found, _ = only(validate_run(run), "run.created_at")
    assert "'yesterday' is not a timestamp" in found[0].problem


def test_moved_trajectory_location_is_reported(run):
    edit_json(run / "run.json", lambda d: d.update(trajectory={"path": "elsewhere.jsonl"}))
    _found, others = only(validate_run(run), "run.location")
    assert others == []


def test_task_hash_size_and_presence(run):
    (run / "task.md").write_bytes(b"Operate the machine and report the carts!\n")
    found, others = only(validate_run(run), "task.hash")
    assert found[0].file == "task.md" and "changed" in found[0].problem and others == []
    (run / "task.md").write_bytes(b"x")
    assert {"task.hash", "task.size"} <= set(codes(validate_run(run)))
    (run / "task.md").unlink()
    assert codes(validate_run(run)) == ["task.missing"]
    (run / "task.md").mkdir()
    report = validate_run(run)
    assert codes(report) == ["task.missing"] and "is a directory" in report.findings[0].problem


def test_task_path_outside_the_run_is_never_read(run, tmp_path):
    (tmp_path / "outside.md").write_bytes(b"Operate the machine and report the carts.\n")
    edit_json(run / "run.json", lambda d: d["task"].update(path="../outside.md"))
    found, _ = only(validate_run(run), "task.path")
    assert "leaves the run directory" in found[0].problem


def test_visibility_json_hash_copies_and_count(tmp_path):
    visible = tmp_path / "docs"
    visible.mkdir()
    (visible / "guide.md").write_bytes(b"# guide\n")
    run = new_run(tmp_path / "run", visible_roots=[str(visible)])
    assert validate_run(run).valid
    copy = next((run / "visibility/files").rglob("guide.md"))
    copy.write_bytes(b"# gUide\n")
    found, others = only(validate_run(run), "visibility.copy.hash")
    assert found[0].file.endswith("guide.md") and others == []
    copy.unlink()
    assert codes(validate_run(run)) == ["visibility.copy.missing"]


def test_visibility_json_edited_after_init(run):
    edit_json(run / "visibility.json", lambda d: d.update(roots=["/somewhere/else"]))
    found, others = only(validate_run(run), "visibility.hash")
    assert found[0].file == "visibility.json" and others == []


def test_visibility_file_count_mismatch(run):
    edit_json(run / "visibility.json", lambda d: d.update(file_count=3))
    report = validate_run(run)
    assert "visibility.count" in codes(report) and "visibility.hash" in codes(report)


def test_missing_visibility_json(run):
    (run / "visibility.json").unlink()
    assert codes(validate_run(run)) == ["document.missing"]


# -- the trajectory ----------------------------------------------------------------------------


def test_missing_and_empty_trajectory(run):
    (run / "trajectory.jsonl").write_bytes(b"")
    assert codes(validate_run(run)) == ["trajectory.empty"]
    (run / "trajectory.jsonl").unlink()
    assert codes(validate_run(run)) == ["trajectory.missing"]


def test_torn_final_line_is_named_precisely(run):
    with open(run / "trajectory.jsonl", "ab") as handle:
        handle.write(b'{"schemaVersion":2,"run_id":"run-01","seq":7,"at":"2026-')
    report = validate_run(run)
    assert codes(report) == ["trajectory.torn"]
    assert report.findings[0].line == 7 and report.findings[0].to_text().startswith(
        "trajectory.jsonl:7: torn final line"
    )


@pytest.mark.parametrize(
    "raw, words",
    [
        (b"{broken\n", "malformed JSON"),
        (b'{"a": "\xc3\x28"}\n', "not UTF-8"),
        (b"[1]\n", "expected a JSON object, got array"),
        (b"NaN\n", "malformed JSON"),
    ],
)
def test_malformed_line_in_the_middle_is_named_and_later_lines_still_checked(run, raw, words):
    data = (run / "trajectory.jsonl").read_bytes().splitlines(keepends=True)
    (run / "trajectory.jsonl").write_bytes(b"".join(data[:3] + [raw] + data[3:]))
    report = validate_run(run)
    malformed = [f for f in report.findings if f.code == "trajectory.malformed"]
    assert len(malformed) == 1 and malformed[0].line == 4 and words in malformed[0].problem
    # The line after it no longer chains to its real predecessor: that is named too.
    assert [(f.code, f.line) for f in report.findings if f.code == "chain.prev"] == [("chain.prev", 5)]


def test_blank_line_is_reported(run):
    data = (run / "trajectory.jsonl").read_bytes().splitlines(keepends=True)
    (run / "trajectory.jsonl").write_bytes(b"".join(data[:2] + [b"\n"] + data[2:]))
    report = validate_run(run)
    assert ("trajectory.blank_line", 3) in [(f.code, f.line) for f in report.findings]


def test_header_must_come_first_and_only_once(run):
    edit_trajectory(run, lambda r: r.insert(0, r.pop(1)))
    report = validate_run(run)
    assert ("trajectory.header", 1) in [(f.code, f.line) for f in report.findings]
    assert ("trajectory.header", 2) in [(f.code, f.line) for f in report.findings]  # the header, later


def test_record_of_another_run(run):
    edit_trajectory(run, lambda r: r[3].update(run_id="other-run"))
    found, others = only(validate_run(run), "trajectory.run_id")
    assert found[0].line == 4 and "'other-run'" in found[0].problem and others == []


@pytest.mark.parametrize(
    "new_seq, words", [(2, "does not increase"), (1, "does not increase"), (3.0, "not an integer")]
)
def test_seq_must_strictly_increase(run, new_seq, words):
    edit_trajectory(run, lambda r: r[3].update(seq=new_seq))
    found, _ = only(validate_run(run), "trajectory.seq")
    assert found[0].line == 4 and words in found[0].problem


def test_time_must_not_decrease(run):
    edit_trajectory(run, lambda r: r[4].update(at="2020-01-01T00:00:00.000Z"))
    found, _ = only(validate_run(run), "trajectory.at")
    assert found[0].line == 5 and "earlier than line 4" in found[0].problem


def test_impossible_time(run):
    edit_trajectory(run, lambda r: r[4].update(at="2026-13-45T00:00:00.000Z"))
    found, _ = only(validate_run(run), "trajectory.at")
    assert "is not a timestamp" in found[0].problem


def test_monotonic_clock_must_not_decrease(run):
    edit_trajectory(run, lambda r: r[4].update(monotonic_ms=0.0))
    found, others = only(validate_run(run), "trajectory.monotonic")
    assert found[0].line == 5 and others == []


def test_edited_line_breaks_the_hash_chain(run):
    edit_trajectory(run, lambda r: r[2].update(arguments={"command": "rm -rf /"}), chain=False)
    found, others = only(validate_run(run), "chain.prev")
    assert [f.line for f in found] == [4] and "hash chain is broken" in found[0].problem and others == []


def test_deleted_line_breaks_the_hash_chain(run):
    data = (run / "trajectory.jsonl").read_bytes().splitlines(keepends=True)
    (run / "trajectory.jsonl").write_bytes(b"".join(data[:2] + data[4:]))  # a whole call/result pair
    found, _ = only(validate_run(run), "chain.prev")
    assert [f.line for f in found] == [3]


def test_crlf_line_ending_breaks_the_chain(run):
    data = (run / "trajectory.jsonl").read_bytes().splitlines(keepends=True)
    data[2] = data[2].replace(b"\n", b"\r\n")
    (run / "trajectory.jsonl").write_bytes(b"".join(data))
    found, _ = only(validate_run(run), "chain.prev")
    assert [f.line for f in found] == [4]


def test_first_prev_must_be_null(run):
    edit_trajectory(run, lambda r: None)
    records = lines(run / "trajectory.jsonl")
    records[0]["prev"] = "0" * 64
    write_lines(run / "trajectory.jsonl", records)
    report = validate_run(run)
    assert ("chain.prev", 1) in [(f.code, f.line) for f in report.findings]


@pytest.mark.parametrize(
    "field, value, code",
    [
        ("record", "bogus", "record.unknown_type"),
        ("phase", "lunch", "record.unknown_phase"),
        ("actor", "robot", "record.unknown_actor"),
        ("status", "maybe", "record.unknown_status"),
    ],
)
def test_unknown_vocabulary(run, field, value, code):
    index = 3 if field == "status" else 2
    edit_trajectory(run, lambda r: r[index].update({field: value}))
    found, _ = only(validate_run(run), code)
    assert found[0].line == index + 1 and repr(value).replace("'", '"') in found[0].problem


def test_record_fields_of_the_wrong_type(run):
    edit_trajectory(run, lambda r: (r[2].pop("tool"), r[3].update(duration_ms="fast")))
    found, _ = only(validate_run(run), "schema.record")
    assert {(f.line, f.problem) for f in found} == {
        (3, "$: 'tool' is a required property"),
        (4, "$.duration_ms: expected number or null, got string"),
    }


def test_duplicate_call_id(run):
    edit_trajectory(run, lambda r: r[4].update(call_id="c0"))
    report = validate_run(run)
    assert ("call.duplicate", 5) in [(f.code, f.line) for f in report.findings]


def test_call_without_result_and_result_for_unknown_call(run):
    edit_trajectory(run, lambda r: r[5].update(call_id="ghost"))
    report = validate_run(run)
    assert ("call.no_result", 5) in [(f.code, f.line) for f in report.findings]
    assert ("result.unknown_call", 6) in [(f.code, f.line) for f in report.findings]


def test_second_result_for_one_call(run):
    edit_trajectory(run, lambda r: r[5].update(call_id="c0"))
    report = validate_run(run)
    assert ("result.duplicate", 6) in [(f.code, f.line) for f in report.findings]


def test_result_before_its_call(run):
    def swap(records):
        records[2], records[3] = records[3], records[2]
        for key in ("seq", "at", "monotonic_ms"):  # only the order of the pair changes
            records[2][key], records[3][key] = records[3][key], records[2][key]

    edit_trajectory(run, swap)
    found, others = only(validate_run(run), "result.before_call")
    assert found[0].line == 3 and "comes before its call (line 4)" in found[0].problem and others == []


def test_many_findings_of_one_code_are_capped_but_counted(run):
    rec = recorder(run)
    for i in range(130):
        rec.call(f"open-{i}", "bash")
    report = validate_run(run)
    assert report.counts["findings_by_code"] == {"call.no_result": 130}
    assert report.counts["findings"] == 130 and len(report.findings) == 101
    assert report.findings[-1].code == "call.no_result.more" and "30 more" in report.findings[-1].problem


# -- files the manifest points at --------------------------------------------------------------


def _add_import(run: Path, data: bytes, **entry) -> None:
    (run / "imports/s.jsonl").write_bytes(data)
    base = {
        "source": "/elsewhere/s.jsonl",
        "path": "imports/s.jsonl",
        "sha256": sha(data),
        "size": len(data),
        "importer": "pi",
        "records": 0,
        "imported_at": "2026-09-26T07:00:00.000Z",
        "session_started_at": "2026-09-26T06:30:00.000Z",
    }
    edit_json(run / "run.json", lambda d: d["imports"].append({**base, **entry}))


def test_import_hash_size_presence_and_containment(run):
    _add_import(run, b'{"type":"session"}\n')
    assert validate_run(run).valid
    (run / "imports/s.jsonl").write_bytes(b'{"type":"sessioN"}\n')
    found, others = only(validate_run(run), "imports.hash")
    assert found[0].file == "imports/s.jsonl" and others == []
    (run / "imports/s.jsonl").unlink()
    assert codes(validate_run(run)) == ["imports.missing"]
    edit_json(run / "run.json", lambda d: d["imports"][0].update(path="/etc/passwd"))
    found, _ = only(validate_run(run), "imports.path")
    assert "absolute" in found[0].problem


def test_import_without_hash_is_reported(run):
    _add_import(run, b"{}\n")
    edit_json(run / "run.json", lambda d: d["imports"][0].pop("sha256"))
    report = validate_run(run)
    assert "imports.hash" in codes(report) and "schema.run" in codes(report)


def test_session_started_before_the_run_was_created(run):
    _add_import(run, b"{}\n", session_started_at="2026-09-26T06:00:00.000Z")
    found, others = only(validate_run(run), "imports.before_run")
    assert (
        "imports/s.jsonl" in found[0].problem
        and "open the run before the session starts" in found[0].problem
        and others == []
    )


def test_imported_call_older_than_the_run_is_named(run):
    _add_import(run, b"{}\n")
    rec = recorder(run)
    rec.call("imp-1", "bash", at="2026-09-26T06:00:00.000Z", source="import:pi", source_path="imports/s.jsonl")
    rec.result("imp-1", "ok")
    report = validate_run(run)
    found = [f for f in report.findings if f.code == "imports.before_run"]
    assert (
        len(found) == 1
        and found[0].file == "trajectory.jsonl"
        and found[0].line == 7
        and "imports/s.jsonl" in found[0].problem
    )


def test_artifact_hash_size_and_presence(run, tmp_path):
    source = tmp_path / "logger.jar"
    source.write_bytes(b"jar bytes")
    recorder(run).artifact(source, "agent logger jar")
    assert validate_run(run).valid
    target = run / "artifacts/001-logger.jar"
    target.write_bytes(b"jar bytez")
    found, others = only(validate_run(run), "artifacts.hash")
    assert found[0].file == "artifacts/001-logger.jar" and others == []
    target.write_bytes(b"jar")
    assert {"artifacts.hash", "artifacts.size"} == set(codes(validate_run(run)))
    target.unlink()
    assert codes(validate_run(run)) == ["artifacts.missing"]


def _declare(run: Path, name: str = "answer", data: bytes = b'{"carts": []}', **kw) -> None:
    (run / "answer.json").write_bytes(data)
    recorder(run).declare_evidence(name, "answer.json", **kw)


def test_evidence_hash_size_and_presence(run):
    _declare(run)
    assert validate_run(run).valid
    (run / "answer.json").write_bytes(b'{"carts": [1]')
    found, others = only(validate_run(run), "evidence.hash")
    assert found[0].file == "answer.json" and "evidence answer" in found[0].problem and others == []
    (run / "answer.json").unlink()
    assert codes(validate_run(run)) == ["evidence.missing"]


def test_evidence_normalized_view_hash(run):
    (run / "agent").mkdir()
    (run / "agent/raw.jsonl").write_bytes(b"{}\n")
    (run / "agent/norm.jsonl").write_bytes(b"{}\n")
    recorder(run).declare_evidence("agent_logger", "agent/raw.jsonl", normalized="agent/norm.jsonl")
    assert validate_run(run).valid
    (run / "agent/norm.jsonl").write_bytes(b'{"x":1}\n')
    _found, others = only(validate_run(run), "evidence.normalized.hash")
    assert others == []


@pytest.mark.parametrize(
    "path, words",
    [("/etc/hosts", "absolute"), ("../outside.json", "leaves the run directory"), ("C:\\x\\answer.json", "absolute")],
)
def test_evidence_outside_the_run_is_refused(run, tmp_path, path, words):
    (tmp_path / "outside.json").write_text("{}")
    edit_json(run / "evidence.json", lambda d: d.update(answer={"path": path, "sha256": "0" * 64, "size": 2}))
    found, others = only(validate_run(run), "evidence.path")
    assert words in found[0].problem and found[0].file == "evidence.json" and others == []


def test_evidence_through_a_symlink_is_refused(run, tmp_path):
    (tmp_path / "secret.json").write_text("{}")
    os.symlink(tmp_path / "secret.json", run / "answer.json")
    edit_json(
        run / "evidence.json", lambda d: d.update(answer={"path": "answer.json", "sha256": sha(b"{}"), "size": 2})
    )
    found, _ = only(validate_run(run), "evidence.path")
    assert "symlink" in found[0].problem


def test_evidence_declaration_of_the_wrong_type(run):
    edit_json(run / "evidence.json", lambda d: d.update(oracle="oracle.json"))
    found, _ = only(validate_run(run), "schema.evidence")
    assert found[0].problem.startswith("$.oracle")


def test_unknown_evidence_version_fails_closed(run):
    edit_json(run / "evidence.json", lambda d: d.update(schemaVersion=7))
    assert codes(validate_run(run)) == ["version.unknown"]


def test_version_1_evidence_in_a_version_2_run(run):
    edit_json(
        run / "evidence.json", lambda d: (d.pop("schemaVersion"), d.update(schema="mc-agent-coldstart-evidence/1"))
    )
    assert "version.mixed" in codes(validate_run(run))


# -- reviews -----------------------------------------------------------------------------------


def _review_line(run: Path, **entry) -> None:
    base = {
        "schemaVersion": 2,
        "seq": 1,
        "id": "machine_operated.causality",
        "status": "resolved",
        "by": "alice",
        "at": "2026-09-26T08:00:00.000Z",
        "note": "",
        "evidence": ["trajectory:c0"],
    }
    with open(run / "reviews.jsonl", "ab") as handle:
        handle.write(json.dumps({**base, **entry}).encode() + b"\n")


def test_recorded_review_is_valid(run):
    recorder(run).review("machine_operated.causality", "resolved", "alice", evidence=["trajectory:c0"])
    report = validate_run(run)
    assert report.valid and report.counts["reviews"] == 1


@pytest.mark.parametrize(
    "entry, words",
    [
        ({"evidence": []}, "$.evidence: [] should be non-empty"),
        ({"evidence": ["  "]}, "$.evidence[0]"),
        ({"by": "  "}, "$.by"),
        ({"at": "not-a-time"}, "'not-a-time' is not a parseable time"),
        ({"status": "approved"}, '"approved" is not one of resolved, rejected, pending'),
        ({"id": ""}, "$.id"),
    ],
)
def test_review_shape_rules(run, entry, words):
    _review_line(run, **entry)
    found, others = only(validate_run(run), "review.shape")
    assert found[0].file == "reviews.jsonl" and found[0].line == 1 and any(words in f.problem for f in found), found
    assert others == []


def test_pending_review_needs_no_evidence(run):
    _review_line(run, status="pending", evidence=[], by="bob")
    assert validate_run(run).valid


def test_malformed_and_torn_review_lines(run):
    _review_line(run)
    with open(run / "reviews.jsonl", "ab") as handle:
        handle.write(b"{oops\n")
        handle.write(b'{"id": "x"')
    report = validate_run(run)
    assert [(f.code, f.line) for f in report.findings] == [("review.malformed", 2), ("review.torn", 3)]


def test_review_seq_must_increase_and_unknown_review_version(run):
    _review_line(run, seq=2)
    _review_line(run, seq=2)
    _review_line(run, seq=3, schemaVersion=9)
    report = validate_run(run)
    assert [(f.code, f.line) for f in report.findings] == [("review.seq", 2), ("version.unknown", 3)]


# -- payload store -----------------------------------------------------------------------------


def _big_call(run: Path) -> str:
    record = recorder(run).call("big", "write", {"content": "x" * 40000})
    recorder(run).result("big", "ok")
    ref = record["arguments_payload"]
    assert ref["stored"] is True
    return ref["sha256"]


def test_payload_store_round_trip_is_valid(run):
    _big_call(run)
    report = validate_run(run)
    assert report.valid, report.to_text()


def test_payload_missing_or_altered(run):
    digest = _big_call(run)
    stored = next((run / "payloads").iterdir())
    stored.write_bytes(stored.read_bytes()[:-1] + b"!")
    report = validate_run(run)
    assert {f.code for f in report.findings} == {"payload.integrity"}
    assert any(f.file == "trajectory.jsonl" and f.line == 7 for f in report.findings)
    stored.unlink()
    found, _ = only(validate_run(run), "payload.missing")
    assert digest[:12] in found[0].problem


def test_a_payload_ref_whose_key_is_spelled_with_an_escape_is_still_checked(run):
    """``"arguments_p\\u0061yload"`` parses to the same key: its payload is as required."""
    digest = _big_call(run)
    respelled("big", lambda line: line.replace(b'"arguments_payload"', b'"arguments_p\\u0061yload"'))(run)
    assert b"_p\\u0061yload" in (run / "trajectory.jsonl").read_bytes()
    assert validate_run(run).valid
    next((run / "payloads").iterdir()).unlink()
    found, _ = only(validate_run(run), "payload.missing")
    assert digest[:12] in found[0].problem


def test_stray_file_in_the_payload_store(run):
    _big_call(run)
    (run / "payloads/notes.txt").write_text("hi")
    (run / "payloads" / ("a" * 64)).write_bytes(b"not what the name says")
    report = validate_run(run)
    assert sorted((f.code, f.file) for f in report.findings) == [
        ("payload.integrity", "payloads/" + "a" * 64),
        ("payload.name", "payloads/notes.txt"),
    ]


# -- seal --------------------------------------------------------------------------------------


@pytest.fixture
def sealed(run):
    (run / "answer.json").write_text("{}")
    recorder(run).declare_evidence("answer", "answer.json")
    seal(run)
    assert validate_run(run).valid, validate_run(run).to_text()
    return run


def test_sealed_run_reviews_may_follow(sealed):
    recorder(sealed).review("agent_read_log.linkage", "resolved", "alice", evidence=["trajectory:c1"])
    assert validate_run(sealed).valid


def test_record_appended_after_the_seal(sealed):
    records = lines(sealed / "trajectory.jsonl")
    extra = dict(records[-1], seq=records[-1]["seq"] + 1, note="appended later")
    edit_trajectory(sealed, lambda r: r.append(extra))
    report = validate_run(sealed)
    assert {"seal.count", "seal.head", "seal.file.hash"} <= set(codes(report))


def test_sealed_file_changed_missing_or_added(sealed):
    (sealed / "answer.json").write_text('{"x": 1}')
    assert {"seal.file.hash", "evidence.hash"} <= set(codes(validate_run(sealed)))
    (sealed / "answer.json").unlink()
    assert {"seal.file.missing", "evidence.missing"} <= set(codes(validate_run(sealed)))
    (sealed / "answer.json").write_text("{}")
    (sealed / "artifacts/late.bin").write_bytes(b"late")
    found, others = only(validate_run(sealed), "seal.file.added")
    assert found[0].file == "artifacts/late.bin" and others == []


def test_seal_status_mismatch(sealed):
    edit_json(sealed / "run.json", lambda d: d.update(status="open"))
    assert "seal.status" in codes(validate_run(sealed))


def test_state_and_audit_outputs_are_not_sealed(sealed):
    (sealed / "audit").mkdir()
    (sealed / "audit/audit.json").write_text("{}")
    (sealed / "summary.json").write_text("{}")
    assert validate_run(sealed).valid


# -- robustness --------------------------------------------------------------------------------


def test_a_crashing_check_becomes_a_finding(run, monkeypatch):
    import pytest_coldstart.validate.run as module

    def broken(ctx, manifest):
        raise TypeError("simulated bug")

    monkeypatch.setattr(module, "check_task", broken)
    report = validate_run(run)
    assert codes(report) == ["internal.error"] and "simulated bug" in report.findings[0].problem


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(task=[]),
        lambda d: d.update(visibility="x"),
        lambda d: d.update(imports=[1, None, "x"]),
        lambda d: d.update(artifacts=[{"path": 5}]),
        lambda d: d.update(seal={"files": "x", "trajectory": []}, status="sealed"),
        lambda d: d.update(migrated_from={"files": [{}]}),
        lambda d: d.update(harness=None, clock=[], logging=3),
    ],
)
def test_wrong_types_never_raise(run, change):
    edit_json(run / "run.json", change)
    report = validate_run(run)
    assert not report.valid
    assert "internal.error" not in codes(report)
