"""``coldstart export --format atif|otel`` through the real CLI on every run of runs/ and on scenario runs.

Each document is validated by the format's own models (the ``atif`` package's Pydantic models; the
OTLP protobuf ``ExportTraceServiceRequest``) and read back: every call, result, timing and id of
the trajectory (read here straight from trajectory.jsonl) must come out as it went in, with the
audit verdict, the flags and the hash-chain head beside them.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sys
from datetime import datetime
from pathlib import Path

import atif
import pytest
from bundle_helpers import run_cli
from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from pytest_coldstart.audit import audit_run
from pytest_coldstart.demo.scenarios import RunBuilder
from pytest_coldstart.run.errors import UsageError

RUNS = Path(__file__).resolve().parents[2] / "runs"
EXPORTABLE = sorted(p.parent.name for p in RUNS.glob("*/run.json") if p.parent.name != "unknown_version")


def trajectory(run: Path) -> tuple[list[dict], dict[str, dict], dict[str, dict], str]:
    lines = (run / "trajectory.jsonl").read_bytes().splitlines()
    records = [json.loads(line) for line in lines]
    calls = {r["call_id"]: r for r in records if r["record"] == "call"}
    results = {r["call_id"]: r for r in records if r["record"] == "result"}
    return records, calls, results, hashlib.sha256(lines[-1]).hexdigest()


def export(run: Path, form: str, out: Path) -> dict:
    done = run_cli("export", "--format", form, str(run), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"wrote {out} ({form}, ")
    return json.loads(out.read_text(encoding="utf-8"))


def ns(at: str) -> int:
    moment = datetime.fromisoformat(at.replace("Z", "+00:00"))
    return round(moment.timestamp() * 1000) * 1_000_000


@pytest.mark.parametrize("name", EXPORTABLE)
def test_atif_export_validates_and_round_trips(name, tmp_path):
    run = RUNS / name
    document = export(run, "atif", tmp_path / "t.json")
    model = atif.Trajectory.model_validate(document)  # the format's own models (sequential ids, call refs ...)
    records, calls, results, head = trajectory(run)
    report = audit_run(run, write=False)
    assert model.schema_version == "ATIF-v1.8" and model.session_id == model.trajectory_id == report["run_id"]
    audit = model.extra["coldstart"]["audit"]
    assert audit["overall"] == report["overall"] and audit["failure_class"] == report["failure_class"]
    assert [(f["flag"], f["status"], f["evidence"]) for f in audit["flags"]] == [
        (f["flag"], f["status"], f["evidence"]) for f in report["flags"]
    ]
    assert audit["trajectory_head"] == head and audit["trajectory_records"] == len(records)
    assert model.steps[0].source == "user" and model.steps[0].message == (run / "task.md").read_text()
    agent_steps = [s for s in model.steps if s.source == "agent"]
    assert [s.tool_calls[0].tool_call_id for s in agent_steps] == list(calls)  # every call, in order
    for step in agent_steps:
        call = calls[step.tool_calls[0].tool_call_id]
        tool_call = step.tool_calls[0]
        assert tool_call.function_name == call["tool"] and tool_call.arguments == call["arguments"]
        assert step.timestamp == call["at"]
        extra = step.extra["coldstart"]
        assert (extra["seq"], extra["at"], extra["monotonic_ms"], extra["call_id"]) == (
            call["seq"], call["at"], call["monotonic_ms"], call["call_id"]
        )  # fmt: skip
        result = results.get(call["call_id"])
        if result is None:
            assert step.observation is None
            continue
        observed = step.observation.results[0]
        assert observed.source_call_id == call["call_id"]
        assert json.loads(observed.content) == result["result"] or observed.content == result["result"]
        for key in ("seq", "at", "monotonic_ms", "status", "duration_ms"):
            assert observed.extra["coldstart"].get(key) == result.get(key), key
    others = [s for s in model.steps[1:] if s.source == "system"]
    assert len(others) + len(agent_steps) + len(results) == len(records)


def to_protobuf(document: dict) -> ExportTraceServiceRequest:
    """OTLP/JSON (hex ids) parsed by the OTLP protobuf model, which rejects anything off-schema."""
    copy = json.loads(json.dumps(document))
    for resource in copy["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                for key in ("traceId", "spanId", "parentSpanId"):
                    if key in span:
                        span[key] = base64.b64encode(bytes.fromhex(span[key])).decode()
    return json_format.ParseDict(copy, ExportTraceServiceRequest())


def attributes(items) -> dict:
    out = {}
    for kv in items:
        value = kv.value
        kind = value.WhichOneof("value")
        out[kv.key] = (
            list(v.string_value for v in value.array_value.values) if kind == "array_value" else getattr(value, kind)
        )
    return out


@pytest.mark.parametrize("name", EXPORTABLE)
def test_otel_export_is_otlp_with_genai_spans_and_round_trips(name, tmp_path):
    run = RUNS / name
    document = export(run, "otel", tmp_path / "o.json")
    request = to_protobuf(document)
    assert export(run, "otel", tmp_path / "again.json") == document  # deterministic ids and bytes
    spans = [span for rs in request.resource_spans for ss in rs.scope_spans for span in ss.spans]
    records, calls, results, head = trajectory(run)
    report = audit_run(run, write=False)
    roots = [s for s in spans if not s.parent_span_id]
    assert len(roots) == 1 and len(spans) == 1 + len(calls)
    root, root_attributes = roots[0], attributes(roots[0].attributes)
    assert root_attributes["gen_ai.operation.name"] == "invoke_agent"
    assert root_attributes["gen_ai.conversation.id"] == report["run_id"]
    assert root_attributes["coldstart.audit.overall"] == report["overall"]
    assert root_attributes["coldstart.trajectory.head"] == head
    assert json.loads(root_attributes["coldstart.audit.flags"])[0]["evidence"] == report["flags"][0]["evidence"]
    evaluations = [attributes(e.attributes) for e in root.events if e.name == "gen_ai.evaluation.result"]
    assert [(e["gen_ai.evaluation.name"], e["gen_ai.evaluation.score.label"]) for e in evaluations] == [
        (f["flag"], f["status"]) for f in report["flags"]
    ]
    assert [e["coldstart.evidence"] for e in evaluations] == [f["evidence"] for f in report["flags"]]
    assert len([e for e in root.events if e.name.startswith("coldstart.")]) == len(records) - len(calls) - len(results)
    tools = {attributes(s.attributes)["gen_ai.tool.call.id"]: s for s in spans if s is not root}
    assert list(tools) == list(calls)
    for call_id, span in tools.items():
        call, result, attrs = calls[call_id], results.get(call_id), attributes(span.attributes)
        assert span.trace_id == root.trace_id and span.parent_span_id == root.span_id
        assert span.name == f"execute_tool {call['tool']}" and attrs["gen_ai.tool.name"] == call["tool"]
        assert json.loads(attrs["gen_ai.tool.call.arguments"]) == call["arguments"]
        assert span.start_time_unix_nano == ns(call["at"]) and attrs["coldstart.call.seq"] == call["seq"]
        assert attrs["coldstart.call.monotonic_ms"] == call["monotonic_ms"]
        if result is not None:
            assert span.end_time_unix_nano == max(ns(result["at"]), ns(call["at"]))
            assert json.loads(attrs["gen_ai.tool.call.result"]) == result["result"]
            assert attrs["coldstart.result.status"] == result["status"]
            assert attrs.get("coldstart.result.duration_ms") == result.get("duration_ms")
            assert ("error.type" in attrs) == (result["status"] == "error")


def test_strange_strings_stay_data_and_bad_runs_are_one_line_errors(tmp_path):
    text = "\x1b[31m<script>alert(1)</script>\u202e\U0001f600"
    run = RunBuilder(tmp_path / "r", run_id="rid-" + text.replace("/", "")).passing()
    run.call("c-actuate")["arguments"]["note"] = text
    built = run.build()
    document = export(built, "atif", tmp_path / "t.json")
    step = next(
        s
        for s in atif.Trajectory.model_validate(document).steps
        if s.tool_calls and s.tool_calls[0].tool_call_id == "c-actuate"
    )
    assert step.tool_calls[0].arguments["note"] == text
    otel = export(built, "otel", tmp_path / "o.json")
    assert to_protobuf(otel).resource_spans[0].resource.attributes[1].value.string_value == "rid-" + text.replace(
        "/", ""
    )

    unknown = run_cli("export", "--format", "atif", str(RUNS / "unknown_version"), "--out", str(tmp_path / "x.json"))
    assert unknown.returncode == 1 and unknown.stderr.count("\n") == 1 and "run.json" in unknown.stderr
    missing = run_cli("export", "--format", "otel", str(tmp_path / "nothing"), "--out", str(tmp_path / "x.json"))
    assert missing.returncode == 1 and "no run.json" in missing.stderr
    assert not (tmp_path / "x.json").exists()
    usage = run_cli("export", "--format", "csv", str(built), "--out", str(tmp_path / "x.json"))
    assert usage.returncode == 64


def test_a_missing_extra_is_a_usage_error(monkeypatch):
    from pytest_coldstart.analysis import export_atif, export_otel
    from pytest_coldstart.analysis.export_source import load_source

    source = load_source(RUNS / "passing")
    monkeypatch.setitem(sys.modules, "atif", None)
    monkeypatch.setitem(sys.modules, "opentelemetry.sdk.trace", None)
    with pytest.raises(UsageError, match=r"pytest-coldstart\[export\]"):
        export_atif.to_atif(source)
    with pytest.raises(UsageError, match=r"pytest-coldstart\[export\]"):
        export_otel.to_otlp(source)


@pytest.mark.parametrize(
    "at, expected",
    [
        ("2026-01-01T12:00:00/000Z", None),  # a flipped byte: no time ATIF or we can read
        ("2026-01-01T12:00:07.5+02:00", "2026-01-01T12:00:07.5+02:00"),  # ATIF reads it: kept as written
        ("not a time", None),
    ],
)
def test_a_time_atif_refuses_never_aborts_the_export(tmp_path, at, expected):
    """A run's times are data (found by the long fuzz: a flipped byte in run.json's created_at
    made the atif models raise, exit 70). The task step gets an ISO 8601 time or none."""
    built = RunBuilder(tmp_path / "r").passing().build()
    manifest = json.loads((built / "run.json").read_text("utf-8"))
    (built / "run.json").write_text(json.dumps({**manifest, "created_at": at}), "utf-8")
    done = run_cli("export", "--format", "atif", str(built), "--out", str(tmp_path / "t.json"))
    assert done.returncode == 0, done.stderr
    steps = atif.Trajectory.model_validate(json.loads((tmp_path / "t.json").read_text("utf-8"))).steps
    assert steps[0].timestamp == expected


def test_atif_timestamps_follow_our_clock_where_atif_cannot_read_them():
    from pytest_coldstart.analysis.export_atif import _timestamp

    assert _timestamp(1767268807.5) == "2026-01-01T12:00:07.500000Z"  # epoch seconds: rendered in UTC
    assert _timestamp("2026-01-01T12:00:00.000Z") == "2026-01-01T12:00:00.000Z"
    assert _timestamp(None) is None and _timestamp("") is None
