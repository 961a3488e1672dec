"""The counting pass of ``summary.json``: per-tool calls, results, states, actions,
decisions, errors, timings and response sizes, accumulated record by record (memory grows
with the number of calls, not with payload sizes)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from pytest_coldstart.run.clock import parse_at
from pytest_coldstart.run.hashing import sha256_bytes
from pytest_coldstart.run.numbers import finite
from pytest_coldstart.run.payloads import encode

#: Bytes per token of the token-cost proxy (a common rule of thumb for English text and JSON).
BYTES_PER_TOKEN = 4
TOP_STATES = 5


def stats(values: list[float]) -> dict[str, Any]:
    if not values:
        return {
            "count": 0,
            "total": None,
            "mean": None,
            "median": None,
            "max": None,
            "missing_reason": "no measurements",
        }
    ordered = sorted(values)
    middle = len(ordered) // 2
    median = ordered[middle] if len(ordered) % 2 else ordered[middle - 1] / 2 + ordered[middle] / 2  # no overflow
    total = finite(sum(ordered))  # finite values can still add up past float's range
    mean = total / len(ordered) if total is not None else sum(v / len(ordered) for v in ordered)
    return {
        "count": len(ordered),
        "total": round(total, 3) if total is not None else None,
        "mean": round(mean, 3),
        "median": round(median, 3),
        "max": round(ordered[-1], 3),
    }


def rate(part: int, whole: int, what: str) -> dict[str, Any]:
    if whole == 0:
        return {"value": None, "numerator": 0, "denominator": 0, "missing_reason": f"no {what}"}
    return {"value": round(part / whole, 6), "numerator": part, "denominator": whole}


def ms_between(start: Any, end: Any) -> float | None:
    a, b = parse_at(start), parse_at(end)
    if a is None or b is None:
        return None
    return (b - a).total_seconds() * 1000.0


class ToolTally:
    def __init__(self) -> None:
        self.calls = 0
        self.status: Counter[str] = Counter()
        self.durations: list[float] = []
        self.sizes: list[int] = []
        self.repeated = 0
        self.seen: set[str] = set()

    def to_json(self) -> dict[str, Any]:
        calls = self.calls
        return {
            "calls": calls,
            "ok": self.status["ok"],
            "error": self.status["error"],
            "open": self.status["open"],
            "missing_result": calls - self.status["ok"] - self.status["error"] - self.status["open"],
            "error_rate": rate(self.status["error"], calls, "calls")["value"],
            "duration_ms": stats(self.durations),
            "response_bytes": sum(self.sizes),
            "repeated_results": self.repeated,
        }


class Tally:
    """Counts over a run's records, fed one record at a time (``add``); ``*_json`` give the
    summary's sections."""

    def __init__(self) -> None:
        self.by_type: Counter[str] = Counter()
        self.problems = 0
        self.calls: dict[str, tuple[str, Any]] = {}
        self.answered: dict[str, str] = {}
        self.tools: dict[str, ToolTally] = {}
        self.status: Counter[str] = Counter()
        self.abandoned = 0
        self.durations: list[float] = []
        self.waits: list[float] = []
        self.last_result_at: Any = None
        self.sizes: list[int] = []
        self.stored = 0
        self.preview_only = 0
        self.states: Counter[str] = Counter()
        self.state_events: Counter[str] = Counter()
        self.state_records = 0
        self.repeated_states = 0
        self.last_state: str | None = None
        self.actions: dict[str, dict[str, Any]] = {}
        self.action_events: Counter[str] = Counter()
        self.decisions: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.sessions: Counter[str] = Counter()
        self.last_record: dict[str, Any] | None = None

    def add(self, record: dict[str, Any]) -> None:
        kind = record.get("record")
        self.by_type[str(kind)] += 1
        self.last_record = record
        handler = getattr(self, f"_{kind}", None)
        if handler is not None:
            handler(record)

    def _call(self, r: dict[str, Any]) -> None:
        call_id, tool = r.get("call_id"), r.get("tool")
        if not isinstance(call_id, str) or not isinstance(tool, str):
            return
        if call_id in self.calls:
            return  # a duplicate call id (validate reports it); counted once
        self.calls[call_id] = (tool, r.get("at"))
        self.tools.setdefault(tool, ToolTally()).calls += 1
        if r.get("branch") == "abandoned":
            self.abandoned += 1
        if self.last_result_at is not None:
            gap = ms_between(self.last_result_at, r.get("at"))
            if gap is not None and gap >= 0:
                self.waits.append(gap)
            self.last_result_at = None

    def _result(self, r: dict[str, Any]) -> None:
        call_id = r.get("call_id")
        if call_id not in self.calls or call_id in self.answered:
            return
        tool, called_at = self.calls[call_id]
        entry = self.tools[tool]
        given = r.get("status")
        status = given if isinstance(given, str) and given in ("ok", "error", "open") else "missing"
        self.answered[call_id] = status
        entry.status[status] += 1
        self.status[status] += 1
        took = finite(r.get("duration_ms"))
        if took is None:
            took = ms_between(called_at, r.get("at"))
        if took is not None and took >= 0:
            entry.durations.append(took)
            self.durations.append(took)
        ref = r.get("result_payload")
        if isinstance(ref, dict) and isinstance(ref.get("size"), int) and finite(ref["size"]) is not None:
            size, digest = ref["size"], ref.get("sha256")
            self.stored += 1 if ref.get("stored") else 0
            self.preview_only += 0 if ref.get("stored") else 1
        elif "result" in r:
            data = encode(r["result"])[0]
            size, digest = len(data), sha256_bytes(data)
        else:
            size, digest = 0, None
        entry.sizes.append(size)
        self.sizes.append(size)
        if digest is not None:
            entry.repeated += digest in entry.seen
            entry.seen.add(digest)
        if status != "open":
            self.last_result_at = r.get("at")

    def _state(self, r: dict[str, Any]) -> None:
        self.state_records += 1
        self.state_events[str(r.get("event"))] += 1
        digest = r.get("state_hash")
        if isinstance(digest, str):
            self.states[digest] += 1
            if digest == self.last_state:
                self.repeated_states += 1
            self.last_state = digest

    def _action(self, r: dict[str, Any]) -> None:
        self.action_events[str(r.get("event"))] += 1
        action_id = r.get("action_id")
        if not isinstance(action_id, str):
            return
        entry = self.actions.setdefault(
            action_id, {"tool": None, "requested_at": None, "outcome": None, "elapsed": None, "changed": None}
        )
        entry["tool"] = r.get("tool") or entry["tool"]
        if r.get("event") == "requested":
            entry["requested_at"] = r.get("at")
        if r.get("outcome") is not None:
            entry["outcome"] = r["outcome"]
            elapsed = finite(r.get("elapsed_ms"))
            if elapsed is None:
                elapsed = ms_between(entry["requested_at"], r.get("at"))
            entry["elapsed"] = elapsed
            entry["changed"] = r.get("changed_state")

    def _decision(self, r: dict[str, Any]) -> None:
        self.decisions.append(
            {k: r.get(k) for k in ("event", "tags", "related_call_id", "related_state_hash", "related_action_id")}
        )

    def _error(self, r: dict[str, Any]) -> None:
        self.errors.append({k: r.get(k) for k in ("kind", "fault", "recovery_action")})

    def _session(self, r: dict[str, Any]) -> None:
        self.sessions[str(r.get("event"))] += 1

    # -- the document ------------------------------------------------------------------------

    def calls_json(self) -> dict[str, Any]:
        by_status = {k: self.status[k] for k in ("ok", "error", "open")}
        by_status["missing"] = len(self.calls) - sum(by_status.values())  # no result, or no valid status
        return {
            "total": len(self.calls),
            "by_status": by_status,
            "by_tool": {tool: self.tools[tool].to_json() for tool in sorted(self.tools)},
            "abandoned_branch": self.abandoned,
        }

    def actions_json(self) -> dict[str, Any]:
        outcomes = Counter(str(a["outcome"]) for a in self.actions.values())
        closed = sum(1 for a in self.actions.values() if a["outcome"] is not None)
        invalid = sum(1 for a in self.actions.values() if a["outcome"] in ("invalid", "rejected"))
        by_tool: dict[str, Counter[str]] = {}
        for a in self.actions.values():
            by_tool.setdefault(str(a["tool"]), Counter())[str(a["outcome"])] += 1
        return {
            "total": len(self.actions),
            "by_event": dict(sorted(self.action_events.items())),
            "by_outcome": dict(sorted(outcomes.items())),
            "by_tool": {tool: dict(sorted(c.items())) for tool, c in sorted(by_tool.items())},
            "invalid_rate": rate(invalid, closed, "closed actions"),
            "changed_state": sum(1 for a in self.actions.values() if a["changed"] is True),
            "no_change": sum(1 for a in self.actions.values() if a["changed"] is False),
        }

    def decisions_json(self) -> dict[str, Any]:
        tags: Counter[str] = Counter(t for d in self.decisions for t in (d["tags"] or []) if isinstance(t, str))
        linked: Counter[str] = Counter()
        for d in self.decisions:
            action = self.actions.get(d["related_action_id"]) if isinstance(d["related_action_id"], str) else None
            if action is not None:
                linked[f"action:{action['outcome']}"] += 1
            elif d["related_call_id"] in self.calls:
                linked[f"call:{self.answered.get(d['related_call_id'], 'missing')}"] += 1
            else:
                linked["unlinked"] += 1
        return {
            "total": len(self.decisions),
            "by_event": dict(sorted(Counter(str(d["event"]) for d in self.decisions).items())),
            "by_tag": dict(sorted(tags.items())),
            "with_call": sum(1 for d in self.decisions if d["related_call_id"]),
            "with_state": sum(1 for d in self.decisions if d["related_state_hash"]),
            "outcomes": dict(sorted(linked.items())),
        }

    def errors_json(self) -> dict[str, Any]:
        return {
            "total": len(self.errors),
            "by_kind": dict(sorted(Counter(str(e["kind"]) for e in self.errors).items())),
            "by_fault": dict(sorted(Counter(str(e["fault"]) for e in self.errors).items())),
            "recovery_actions": dict(
                sorted(Counter(str(e["recovery_action"]) for e in self.errors if e["recovery_action"]).items())
            ),
        }

    def states_json(self) -> dict[str, Any]:
        common = [
            {"state_hash": h, "count": n} for h, n in sorted(self.states.items(), key=lambda p: (-p[1], p[0])) if n > 1
        ]
        return {
            "records": self.state_records,
            "by_event": dict(sorted(self.state_events.items())),
            "distinct": len(self.states),
            "repeated_consecutive": self.repeated_states,
            "most_repeated": common[:TOP_STATES],
        }

    def timing_json(self) -> dict[str, Any]:
        elapsed = [a["elapsed"] for a in self.actions.values() if isinstance(a["elapsed"], float) and a["elapsed"] >= 0]
        return {
            "call_duration_ms": stats(self.durations),
            "between_calls_ms": stats(self.waits),
            "action_elapsed_ms": stats(elapsed),
        }

    def responses_json(self) -> dict[str, Any]:
        total = sum(self.sizes)
        return {
            "results": len(self.sizes),
            "bytes_total": total,
            "bytes_max": max(self.sizes) if self.sizes else 0,
            "approx_tokens": -(-total // BYTES_PER_TOKEN),
            "bytes_per_token": BYTES_PER_TOKEN,
            "stored_payloads": self.stored,
            "preview_only_payloads": self.preview_only,
        }
