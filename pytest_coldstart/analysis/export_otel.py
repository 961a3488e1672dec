"""``coldstart export --format otel``: the run as OpenTelemetry GenAI spans in OTLP JSON.

The spans are made by the ``opentelemetry-sdk`` (a TracerProvider with an in-memory exporter),
encoded to an OTLP ``ExportTraceServiceRequest`` by ``opentelemetry-exporter-otlp-proto-common``
and written with protobuf's ``json_format``; the only change afterwards is the one the OTLP/JSON
spec requires of protobuf's JSON: trace and span ids as hex, not base64. Extra ``[export]``.

- one ``invoke_agent {harness}`` span for the run (INTERNAL), from the first record to the last:
  ``gen_ai.agent.*``, ``gen_ai.request.model``, ``gen_ai.provider.name``, ``gen_ai.conversation.id``
  (the run id) and ``coldstart.audit.*`` (verdict, failure class, flags as JSON),
  ``coldstart.trajectory.head`` / ``.records``; one ``gen_ai.evaluation.result`` event per flag
  (``gen_ai.evaluation.name`` = flag, ``score.label`` = status, ``explanation`` = summary,
  ``coldstart.evidence`` = its refs); every non-call record as a ``coldstart.<record>`` event;
- one ``execute_tool {tool}`` child span per call, from the call's time to its result's:
  ``gen_ai.operation.name``, ``gen_ai.tool.name``, ``gen_ai.tool.call.id``, ``gen_ai.tool.type``,
  ``gen_ai.tool.call.arguments`` / ``.result`` (JSON text), ``coldstart.*`` envelope fields; an
  error result sets ``error.type`` and the span status ERROR.
Ids are deterministic: the trace id from the run id, span ids from the run id and call ids.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

from pytest_coldstart.analysis.export_source import Call, ExportSource, body
from pytest_coldstart.run.errors import UsageError

SCOPE = "pytest-coldstart"
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _ns(at: object) -> int | None:
    if not isinstance(at, str):
        return None
    try:
        moment = datetime.fromisoformat(at.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None
    return (moment - EPOCH) // timedelta(microseconds=1) * 1000


def _id(*parts: str, bits: int) -> int:
    value = int.from_bytes(
        hashlib.sha256("\0".join(parts).encode("utf-8", "surrogateescape")).digest()[: bits // 8], "big"
    )
    return value or 1


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _scalars(record: dict[str, Any], prefix: str) -> dict[str, Any]:
    """Attributes for a record's fields: scalars as they are, anything else as JSON text."""
    out: dict[str, Any] = {}
    for key, value in record.items():
        if value is None:
            continue
        out[f"{prefix}{key}"] = value if isinstance(value, (str, bool, int, float)) else _json(value)
    return out


def _sdk() -> Any:
    try:
        from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import SpanLimits, TracerProvider
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
        from opentelemetry.sdk.trace.id_generator import IdGenerator
        from opentelemetry.trace import SpanKind, Status, StatusCode, set_span_in_context
    except ImportError:
        raise UsageError(
            "the OpenTelemetry export needs opentelemetry-sdk and opentelemetry-exporter-otlp-proto-common: "
            "pip install 'pytest-coldstart[export]'"
        ) from None
    return SimpleNamespace(
        encode_spans=encode_spans,
        Resource=Resource,
        SpanLimits=SpanLimits,
        TracerProvider=TracerProvider,
        SimpleSpanProcessor=SimpleSpanProcessor,
        InMemorySpanExporter=InMemorySpanExporter,
        IdGenerator=IdGenerator,
        SpanKind=SpanKind,
        Status=Status,
        StatusCode=StatusCode,
        set_span_in_context=set_span_in_context,
    )


def to_otlp(source: ExportSource) -> dict[str, Any]:
    """The run as an OTLP/JSON ``ExportTraceServiceRequest`` (a dict ready for json.dumps)."""
    sdk = _sdk()
    from google.protobuf import json_format  # type: ignore[import-untyped]

    run_id = source.run_id
    span_ids: Iterator[int]

    class RunIds(sdk.IdGenerator):  # type: ignore[name-defined,misc]
        def generate_trace_id(self) -> int:
            return _id("trace", run_id, bits=128)

        def generate_span_id(self) -> int:
            return next(span_ids)

    keys = ["run"] + [f"call:{call.call_id}" for call in source.calls]
    span_ids = iter(_id("span", run_id, key, bits=64) for key in keys)
    exporter = sdk.InMemorySpanExporter()
    provider = sdk.TracerProvider(
        resource=sdk.Resource(
            {"service.name": "pytest-coldstart", "coldstart.run_id": run_id}
        ),  # no detectors: deterministic
        id_generator=RunIds(),
        span_limits=sdk.SpanLimits(max_events=1_000_000, max_span_attributes=512, max_event_attributes=512),
    )
    provider.add_span_processor(sdk.SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer(SCOPE)
    harness = source.section("harness")
    times = [t for t in (_ns(r.get("at")) for r in source.records) if t is not None]
    start, end = (min(times), max(times)) if times else (0, 0)
    audit = source.audit_attributes()
    root_attributes = {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": str(harness.get("name") or "unknown"),
        "gen_ai.agent.version": str(harness.get("version") or "unknown"),
        "gen_ai.request.model": str(harness.get("model") or "unknown"),
        "gen_ai.provider.name": str(harness.get("provider") or "unknown"),
        "gen_ai.conversation.id": run_id,
        "coldstart.run_id": run_id,
        "coldstart.audit.overall": str(audit["overall"]),
        "coldstart.audit.failure_class": str(audit["failure_class"] or ""),
        "coldstart.audit.flags": _json(audit["flags"]),
        "coldstart.audit.required_reviews": _json(audit["required_reviews"]),
        "coldstart.trajectory.head": str(audit["trajectory_head"] or ""),
        "coldstart.trajectory.records": len(source.records),
    }
    root = tracer.start_span(
        f"invoke_agent {harness.get('name') or 'agent'}",
        kind=sdk.SpanKind.INTERNAL,
        attributes=root_attributes,
        start_time=start,
    )
    context = sdk.set_span_in_context(root)
    for record in source.records:
        if record.get("record") in ("call", "result") and record.get("call_id") in source.by_call:
            continue
        root.add_event(
            f"coldstart.{record.get('record')}",
            attributes=_scalars(record, "coldstart."),
            timestamp=_ns(record.get("at")) or start,
        )
    for call in source.calls:
        _tool_span(sdk, tracer, context, call)
    for flag in audit["flags"]:
        root.add_event(
            "gen_ai.evaluation.result",
            attributes={
                "gen_ai.evaluation.name": str(flag["flag"]),
                "gen_ai.evaluation.score.label": str(flag["status"]),
                "gen_ai.evaluation.explanation": str(flag["summary"]),
                "coldstart.evidence": [str(ref) for ref in flag.get("evidence") or []],
            },
            timestamp=end,
        )
    if audit["overall"] != "PASS":
        root.set_status(
            sdk.Status(sdk.StatusCode.ERROR, f"audit {audit['overall']} {audit['failure_class'] or ''}".strip())
        )
    root.end(end_time=end)
    provider.shutdown()
    request = sdk.encode_spans(exporter.get_finished_spans())
    document: dict[str, Any] = json_format.MessageToDict(request, use_integers_for_enums=True)
    return hex_ids(document)


def _tool_span(sdk: Any, tracer: Any, context: Any, call: Call) -> None:
    record, result = call.record, call.result
    start = _ns(record.get("at")) or 0
    finish = _ns(result.get("at")) if result is not None else None
    attributes: dict[str, Any] = {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": str(record.get("tool")),
        "gen_ai.tool.call.id": call.call_id,
        "gen_ai.tool.type": "function",
        "gen_ai.tool.call.arguments": _json(record.get("arguments")),
        **_scalars({k: record.get(k) for k in ("seq", "at", "monotonic_ms", "parent_id")}, "coldstart.call."),
        **_scalars({k: v for k, v in body(record).items() if k not in ("tool", "arguments")}, "coldstart.call."),
    }
    if result is not None:
        attributes["gen_ai.tool.call.result"] = _json(result.get("result"))
        attributes.update(_scalars({k: result.get(k) for k in ("seq", "at", "monotonic_ms")}, "coldstart.result."))
        attributes.update(_scalars({k: v for k, v in body(result).items() if k != "result"}, "coldstart.result."))
        if result.get("status") == "error":
            attributes["error.type"] = "tool_error"
    span = tracer.start_span(
        f"execute_tool {record.get('tool')}",
        context=context,
        kind=sdk.SpanKind.INTERNAL,
        attributes=attributes,
        start_time=start,
    )
    if result is not None and result.get("status") == "error":
        span.set_status(sdk.Status(sdk.StatusCode.ERROR, "the tool call returned an error"))
    span.end(end_time=max(start, finish) if finish is not None else start)


def hex_ids(document: dict[str, Any]) -> dict[str, Any]:
    """OTLP/JSON writes traceId/spanId/parentSpanId as hex; protobuf's JSON writes bytes as base64."""
    for resource in document.get("resourceSpans", []):
        for scope in resource.get("scopeSpans", []):
            for span in scope.get("spans", []):
                for key in ("traceId", "spanId", "parentSpanId"):
                    if key in span:
                        span[key] = base64.b64decode(span[key]).hex()
                for link in span.get("links", []):
                    for key in ("traceId", "spanId"):
                        if key in link:
                            link[key] = base64.b64decode(link[key]).hex()
    return document


def otel_json(source: ExportSource) -> str:
    return json.dumps(to_otlp(source), ensure_ascii=False, indent=2) + "\n"
