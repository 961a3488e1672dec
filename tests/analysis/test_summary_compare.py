"""summary.json (derived, rebuildable, schema-valid, fail-closed) and `coldstart compare` on several runs."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from bundle_helpers import new_run, run_cli
from jsonschema import Draft202012Validator

from pytest_coldstart.analysis import summary
from pytest_coldstart.audit import audit_run
from pytest_coldstart.demo.scenarios import build_run
from pytest_coldstart.record import records
from pytest_coldstart.record.seal import seal
from pytest_coldstart.run import schemas
from pytest_coldstart.run.errors import VersionError

SUMMARY_SCHEMA = Draft202012Validator(json.loads((Path(schemas.HERE) / "summary.schema.json").read_text()))
COMPARE_SCHEMA = Draft202012Validator(json.loads((Path(schemas.HERE) / "compare.schema.json").read_text()))


def known_run(path: Path, *, model: str = "model-x", errors: int = 1, start: int = 0) -> Path:
    """A run whose statistics are known exactly (FixedClock: every reading advances 250 ms)."""
    r = new_run(path, harness={"name": "pi", "version": "1", "model": model, "provider": "p"}, start=start)
    r.call("c1", "bash", {"command": "ls"})
    r.result("c1", "ok", {"text": "a"}, duration_ms=100)
    r.call("c2", "bash", {"command": "ls"})
    r.result("c2", "ok", {"text": "a"}, duration_ms=300)  # same result again: a re-read with nothing new
    for n in range(errors):
        r.call(f"e{n}", "http", {"url": "x"})
        r.result(f"e{n}", "error", {"status": 500}, error="boom")
    r.call("c3", "http", {"url": "y"})  # never answered
    tracker = records.StateTracker()
    r.append(tracker.observe({"hp": 1}))
    r.append(tracker.observe({"hp": 1}))
    r.append(tracker.observe({"hp": 2}))
    r.append(records.action("requested", "a1", tool="play"))
    r.append(records.action("resolved", "a1", tool="play", outcome="invalid", elapsed_ms=40))
    r.append(records.action("requested", "a2", tool="play"))
    r.append(records.action("resolved", "a2", tool="play", outcome="success", changed_state=True))
    r.append(records.decision("try", related_action_id="a1", tags=["combat"]))
    r.append(records.decision("read", related_call_id="c1", tags=["combat", "map"]))
    r.append(records.error("invalid_action", "bad index", fault="agent", recovery_action="retry"))
    seal(path, recorder=r)
    return path


def test_summary_counts_what_happened(tmp_path: Path) -> None:
    doc = summary.build(known_run(tmp_path / "run"))
    assert list(SUMMARY_SCHEMA.iter_errors(doc)) == []
    calls = doc["calls"]
    assert calls["total"] == 4 and calls["by_status"] == {"ok": 2, "error": 1, "open": 0, "missing": 1}
    assert calls["by_tool"]["bash"]["calls"] == 2 and calls["by_tool"]["bash"]["repeated_results"] == 1
    assert calls["by_tool"]["bash"]["duration_ms"]["mean"] == 200.0 and calls["by_tool"]["http"]["error"] == 1
    assert calls["by_tool"]["http"]["missing_result"] == 1
    assert doc["rates"]["error_rate"] == {"value": 0.25, "numerator": 1, "denominator": 4}
    assert doc["rates"]["open_rate"]["value"] == 0.25
    # between a result and the next call the clock was read once: 250 ms each time.
    assert doc["timing"]["between_calls_ms"]["count"] == 3 and doc["timing"]["between_calls_ms"]["mean"] == 250.0
    assert (
        doc["timing"]["action_elapsed_ms"]["count"] == 2 and doc["timing"]["action_elapsed_ms"]["total"] == 40 + 250.0
    )  # a2: one clock reading apart
    assert doc["responses"]["bytes_total"] == 2 * len('{"text":"a"}') + len('{"status":500}')
    assert doc["responses"]["approx_tokens"] == -(-doc["responses"]["bytes_total"] // 4)
    assert (
        doc["states"]["repeated_consecutive"] == 1
        and doc["states"]["distinct"] == 2
        and doc["states"]["most_repeated"][0]["count"] == 2
    )
    assert doc["actions"]["invalid_rate"]["value"] == 0.5 and doc["actions"]["by_outcome"] == {
        "invalid": 1,
        "success": 1,
    }
    assert doc["decisions"]["outcomes"] == {"action:invalid": 1, "call:ok": 1} and doc["decisions"]["by_tag"] == {
        "combat": 2,
        "map": 1,
    }
    assert doc["errors"]["by_kind"] == {"invalid_action": 1} and doc["errors"]["recovery_actions"] == {"retry": 1}
    assert doc["outcome"]["overall"] is None and "audit" in doc["outcome"]["missing_reason"]
    assert doc["status"] == "sealed" and doc["source"]["trajectory"]["records"] == doc["records"]["total"]


def test_summary_is_rebuildable_byte_for_byte(tmp_path: Path) -> None:
    run = known_run(tmp_path / "run")
    summary.write(run)
    first = (run / "summary.json").read_bytes()
    (run / "summary.json").write_text("{}")  # a stale or edited summary never feeds the next one
    summary.write(run)
    assert (run / "summary.json").read_bytes() == first


def test_summary_reads_the_audit_outcome(tmp_path: Path) -> None:
    run = build_run(tmp_path / "passing", "passing")
    report = audit_run(run)
    doc = summary.build(run)
    assert doc["outcome"]["overall"] == report["overall"] == "PASS"
    assert doc["outcome"]["source"]["path"] == "audit/audit.json" and set(doc["outcome"]["flags"]) == {
        f["flag"] for f in report["flags"]
    }
    assert list(SUMMARY_SCHEMA.iter_errors(doc)) == []


def test_summary_dual_reads_a_real_version_1_run(tmp_path: Path, shared_dir: Path) -> None:
    source = shared_dir / "corpus" / "real" / "rom20-coldstart" / "trajectory"
    run = tmp_path / "rom20"
    run.mkdir()
    shutil.copyfile(source / "run.json", run / "run.json")
    shutil.copyfile(source / "trajectory.canonical.jsonl", run / "trajectory.jsonl")
    doc = summary.build(run)
    assert doc["harness"]["model"] == "deepseek/deepseek-flash" and doc["records"]["total"] == 347
    assert (
        doc["calls"]["total"] == 165
        and doc["calls"]["by_status"]["error"] == 2
        and doc["calls"]["by_tool"]["bash"]["calls"] == 113
    )
    assert list(SUMMARY_SCHEMA.iter_errors(doc)) == []


def test_summary_fails_closed_on_unknown_versions(tmp_path: Path) -> None:
    run = known_run(tmp_path / "run")
    lines = (run / "trajectory.jsonl").read_bytes().splitlines(keepends=True)
    lines[3] = lines[3].replace(b'"schemaVersion":2', b'"schemaVersion":9', 1)
    (run / "trajectory.jsonl").write_bytes(b"".join(lines))
    with pytest.raises(VersionError, match="schemaVersion 9"):
        summary.build(run)
    lines[3] = b"{not json\n"
    (run / "trajectory.jsonl").write_bytes(b"".join(lines))
    assert summary.build(run)["source"]["trajectory"]["problems"] == 1  # a torn/garbled line is counted, never fatal


@pytest.fixture
def fleet(tmp_path: Path) -> Path:
    root = tmp_path / "fleet"
    known_run(root / "a" / "run-a1", model="model-a", errors=0)
    known_run(root / "a" / "run-a2", model="model-a", errors=2, start=5)
    known_run(root / "b" / "run-b1", model="model-b", errors=1, start=10)
    build_run(root / "b" / "scenario", "passing")
    audit_run(root / "b" / "scenario")
    return root


def test_compare_table_groups_by_harness_and_model(fleet: Path) -> None:
    done = run_cli("compare", str(fleet / "a"), str(fleet / "b"))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split()[:5] == ["harness", "model", "run", "outcome", "calls"]
    rows = [line for line in lines[2:] if not line.lstrip().startswith("=")]
    # groups sorted by (harness, model): the scenario's deepseek model first
    assert [line.split()[2] for line in rows] == ["scenario-passing", "run-a1", "run-a2", "run-b1"]
    totals = [line for line in lines if line.strip().startswith("=")]
    assert len(totals) == 3 and "PASS 1" in totals[0] and "= 2 run(s)" in totals[1] and "unaudited 2" in totals[1]
    assert "40.0" in rows[2]  # 2 errors of 5 calls


def test_compare_csv_and_json(fleet: Path) -> None:
    as_csv = run_cli("compare", str(fleet), "--csv")
    assert as_csv.returncode == 0
    table = list(csv.DictReader(io.StringIO(as_csv.stdout)))
    assert [row["run_id"] for row in table] == ["scenario-passing", "run-a1", "run-a2", "run-b1"]
    assert table[2]["error_rate"] == "0.4" and table[2]["calls"] == "5" and table[1]["model"] == "model-a"
    assert table[0]["outcome"] == "PASS" and table[1]["outcome"] == ""
    as_json = run_cli("compare", str(fleet), "--json")
    result = json.loads(as_json.stdout)
    assert list(COMPARE_SCHEMA.iter_errors(result)) == []
    groups = {(g["harness"], g["model"]): g for g in result["groups"]}
    assert (
        groups[("pi", "model-a")]["runs"] == 2 and groups[("pi", "model-a")]["error_rate"] == 0.25
    )  # 2 errors in 3 + 5 calls
    assert groups[("pi", "model-b")]["runs"] == 1
    assert result["runs"][1]["tools"] == {"bash": 2, "http": 1}
    assert run_cli("compare", str(fleet), "--csv", "--json").returncode == 64


def test_compare_reports_unreadable_runs_and_escapes_strings(fleet: Path, tmp_path: Path) -> None:
    broken = fleet / "b" / "broken"
    known_run(broken)
    manifest = json.loads((broken / "run.json").read_text())
    manifest["schemaVersion"] = 7
    (broken / "run.json").write_text(json.dumps(manifest))
    hostile = new_run(
        fleet / "c" / "hostile",
        run_id="=HYPERLINK(evil)",
        harness={"name": "pi\x1b[31m", "version": "1", "model": "m\n", "provider": "p"},
    )
    assert hostile
    done = run_cli("compare", str(fleet))
    assert (
        done.returncode == 1
        and "UNREADABLE" in done.stdout
        and "schemaVersion 7" in done.stdout
        and "Traceback" not in done.stderr
    )
    assert "\x1b" not in done.stdout and "pi\\x1b[31m" in done.stdout  # shown escaped (run.textsafe)
    as_csv = run_cli("compare", str(fleet), "--csv").stdout
    assert "'=HYPERLINK(evil)" in as_csv and ",=HYPERLINK" not in as_csv
    missing = run_cli("compare", str(tmp_path / "nowhere"))
    assert missing.returncode == 1 and "neither a run directory nor a folder of runs" in missing.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "holds no run directory" in run_cli("compare", str(empty)).stderr
