"""``coldstart export --format atif``: the run's trajectory as ATIF v1.8 (Harbor's Agent Trajectory
Interchange Format), built with the ``atif`` package's Pydantic models (extra ``[export]``), so
what is written is what those models validate.

Mapping (docs/export.md has the full table):
- root: ``session_id`` and ``trajectory_id`` = run id; ``agent`` = harness name/version, model;
  ``extra.coldstart`` = the audit verdict, the flags with their evidence refs, the required
  reviews, the trajectory's hash-chain head and record count;
- step 1 (``user``): the task text exactly as the agent saw it (task.md), at the run's creation;
- one ``agent`` step per tool call, in trajectory order: a ``tool_calls`` entry (call id, tool,
  arguments) and, when the call has a result, an ``observation`` whose ``source_call_id`` is the
  call id and whose content is the result as JSON text; the envelope (seq, at, monotonic_ms,
  phase, actor, parent, branch) and the result's status/duration are in ``extra.coldstart``;
- every other record (phase, mark, decision, error, header ...) a ``system`` step carrying the
  record's body in ``extra.coldstart``.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from pytest_coldstart.analysis.export_source import ENVELOPE, ExportSource, body
from pytest_coldstart.run.clock import parse_at
from pytest_coldstart.run.errors import ColdstartError, UsageError

ATIF_VERSION = "ATIF-v1.8"
EXTRA = "coldstart"


def _models() -> Any:
    try:
        import atif
    except ImportError:
        raise UsageError("the ATIF export needs the 'atif' package: pip install 'pytest-coldstart[export]'") from None
    return atif


def _envelope(record: dict[str, Any]) -> dict[str, Any]:
    return {k: record.get(k) for k in ENVELOPE if k not in ("schemaVersion", "run_id", "prev", "record")}


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)


def _timestamp(value: Any) -> str | None:
    """A step's timestamp in the ISO 8601 form ATIF accepts: the run's own text when ATIF reads
    it, else our clock's reading of it rendered in UTC, else none (the raw value stays in
    ``extra``). A run's times are data: one ATIF refuses must not abort the export."""
    moment = parse_at(value)
    if moment is None:
        return None
    if isinstance(value, str):
        try:
            datetime.fromisoformat(value.replace("Z", "+00:00"))
            return value
        except ValueError:
            pass
    return moment.isoformat().replace("+00:00", "Z")


def _describe(record: dict[str, Any]) -> str:
    kind = str(record.get("record"))
    detail = record.get("name") or record.get("phase") or record.get("summary") or record.get("message") or ""
    return f"{kind} {detail}".strip() if isinstance(detail, str) else kind


def to_atif(source: ExportSource) -> Any:
    """The run as an ``atif.Trajectory`` (validated by its models on construction)."""
    atif = _models()
    harness = source.section("harness")
    steps: list[Any] = []

    def step(**fields: Any) -> None:
        steps.append(atif.Step(step_id=len(steps) + 1, **fields))

    task = source.section("task")
    step(
        source="user",
        message=source.task_text if source.task_text is not None else "",
        timestamp=_timestamp(source.manifest.get("created_at")),
        extra={EXTRA: {"task": {k: task.get(k) for k in ("path", "sha256", "size", "source")}}},
    )
    for record in source.records:
        kind = record.get("record")
        if kind == "result" and record.get("call_id") in source.by_call:
            continue  # carried by its call's step
        if kind == "call" and isinstance(record.get("call_id"), str):
            call = source.by_call[record["call_id"]]
            if call.record is not record:
                step(
                    source="system",
                    message=_describe(record),
                    timestamp=_timestamp(record.get("at")),
                    extra={EXTRA: record},
                )
                continue
            arguments = record.get("arguments")
            tool_call = atif.ToolCall(
                tool_call_id=call.call_id,
                function_name=str(record.get("tool")),
                arguments=arguments if isinstance(arguments, dict) else {"value": arguments},
                extra={EXTRA: {"arguments_form": "object" if isinstance(arguments, dict) else "value"}},
            )
            observation = None
            if call.result is not None:
                result = call.result
                observation = atif.Observation(
                    results=[
                        atif.ObservationResult(
                            source_call_id=call.call_id,
                            content=_text(result.get("result")),
                            extra={EXTRA: {**_envelope(result), **body(result)}},
                        )
                    ]
                )
            step(
                source="agent",
                message="",
                timestamp=_timestamp(record.get("at")),
                model_name=harness.get("model") if isinstance(harness.get("model"), str) else None,
                tool_calls=[tool_call],
                observation=observation,
                extra={EXTRA: {**_envelope(record), **{k: v for k, v in body(record).items() if k != "arguments"}}},
            )
            continue
        step(source="system", message=_describe(record), timestamp=_timestamp(record.get("at")), extra={EXTRA: record})
    return atif.Trajectory(
        schema_version=ATIF_VERSION,
        session_id=source.run_id,
        trajectory_id=source.run_id,
        agent=atif.Agent(
            name=str(harness.get("name") or "unknown"),
            version=str(harness.get("version") or "unknown"),
            model_name=harness.get("model") if isinstance(harness.get("model"), str) else None,
            extra={EXTRA: {"provider": harness.get("provider")}},
        ),
        steps=steps,
        final_metrics=atif.FinalMetrics(total_steps=len(steps)),
        notes="exported by pytest-coldstart: extra.coldstart holds the audit verdict and the trajectory's hash-chain head",
        extra={EXTRA: {"run_id": source.run_id, "audit": source.audit_attributes()}},
    )


def atif_json(source: ExportSource) -> str:
    try:
        trajectory = to_atif(source)
    except (ValueError, TypeError) as exc:  # pydantic's ValidationError is a ValueError
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ColdstartError(f"the run cannot be written as ATIF ({first})") from None
    return json.dumps(trajectory.to_json_dict(), ensure_ascii=False, indent=2) + "\n"
