"""One streaming pass over trajectory.jsonl.

Keeps only compact ``Call`` summaries (the full records stay on disk and are re-read by
offset for the report), judges each agent call's arguments and result while streaming, loads
stored payloads when their content is needed (a missing or altered payload is an infra
error). Structural problems of the file itself are validate's to report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pytest_coldstart.audit import content
from pytest_coldstart.audit.model import Call, Event, Findings
from pytest_coldstart.audit.ordering import BEFORE, compare
from pytest_coldstart.audit.reader import HashedLines
from pytest_coldstart.clock import parse_at
from pytest_coldstart.errors import ColdstartError
from pytest_coldstart.layout import PAYLOADS, TRAJECTORY, RunDir
from pytest_coldstart.payloads import PayloadStore
from pytest_coldstart.versioning import READABLE

NON_AGENT_PHASES = ("prepare", "restore", "audit")


@dataclass
class Trajectory:
    calls: list[Call] = field(default_factory=list)  # agent calls, file order
    call_lines: dict[str, tuple[int, int]] = field(default_factory=dict)  # every call id -> (line, offset)
    records: int = 0
    size: int = 0
    agent_phase_seen: bool = False
    excluded: dict[str, int] = field(default_factory=dict)  # why claimed agent calls did not count


class Scanner:
    def __init__(self, rundir: RunDir, run_id: str, version: int, findings: Findings, *, logger_names: set[str],
                 testmod_names: set[str], matcher: content.ContentMatcher, payload_settings: dict[str, Any] | None,
                 run_id_check, last_capture: Event | None = None):
        self.rundir = rundir
        self.run_id = run_id
        self.version = version
        self.findings = findings
        self.logger_names = logger_names
        self.testmod_names = testmod_names
        self.matcher = matcher
        self.store = PayloadStore(rundir, payload_settings or {})
        self.run_id_check = run_id_check
        self.last_capture = last_capture

    def scan(self) -> Trajectory:
        out = Trajectory()
        path = self.rundir.trajectory
        if not path.is_file() or path.is_symlink():
            self.findings.infra(f"{TRAJECTORY}: missing (or not a regular file)")
            return out
        lines = HashedLines(path, hashed=False)  # validate checks its hash chain and seal
        pending: dict[str, Call] = {}
        outside: list[Call] = []
        lifecycle: str | None = None
        try:
            for line in lines:
                out.records += 1
                if line.problem:
                    continue  # validate reports it (file:line: problem)
                record = line.value
                version = record.get("schemaVersion")
                if version is not None and (isinstance(version, bool) or version not in READABLE):
                    self.findings.infra(f"{TRAJECTORY}:{line.number}: schemaVersion {version!r} is not a version this build reads")
                    continue
                if "run_id" in record:
                    self.run_id_check(f"{TRAJECTORY}:{line.number}", record.get("run_id"))
                kind = record.get("record")
                if kind == "phase" and isinstance(record.get("phase"), str):
                    lifecycle = record["phase"]
                    out.agent_phase_seen = out.agent_phase_seen or lifecycle == "agent"
                elif kind == "call":
                    call = self._call(record, line.number, line.offset, lifecycle, out, line.raw)
                    if call is not None:
                        pending[call.call_id] = call
                        if lifecycle in NON_AGENT_PHASES:
                            outside.append(call)
                elif kind == "result":
                    self._result(record, pending)
        except OSError as exc:
            self.findings.infra(f"{TRAJECTORY}: unreadable ({exc.strerror or exc})")
        out.size = lines.size
        if out.agent_phase_seen and outside:
            # The run records its lifecycle: a call "by the agent" inside a prepare/restore
            # window is not agent work, whatever its actor field claims.
            dropped = {id(c) for c in outside}
            out.calls = [c for c in out.calls if id(c) not in dropped]
            out.excluded["inside a prepare/restore/audit window"] = len(outside)
        for reason, count in sorted(out.excluded.items()):
            self.findings.info(f"trajectory: {count} call(s) claiming actor 'agent' were not counted as agent work ({reason})")
        return out

    def _call(self, record: dict[str, Any], number: int, offset: int, lifecycle: str | None, out: Trajectory, raw: bytes) -> Call | None:
        call_id = record.get("call_id")
        if not isinstance(call_id, str) or not call_id:
            return None
        out.call_lines.setdefault(call_id, (number, offset))
        if record.get("actor") != "agent":
            return None
        if record.get("phase") != "agent":
            out.excluded["phase is not 'agent'"] = out.excluded.get("phase is not 'agent'", 0) + 1
            return None
        if record.get("branch") == "abandoned":
            out.excluded["abandoned branch"] = out.excluded.get("abandoned branch", 0) + 1
            return None
        tick = record.get("tick")
        tool = record.get("tool") if isinstance(record.get("tool"), str) else ""
        call = Call(
            call_id=call_id, tool=tool, line=number, offset=offset,
            seq=record.get("seq") if isinstance(record.get("seq"), int) and not isinstance(record.get("seq"), bool) else None,
            at=parse_at(record.get("at")), tick=tick if isinstance(tick, int) and not isinstance(tick, bool) else None,
            phase=record.get("phase"), actor=record.get("actor"),
            instance=_text(record.get("instance")), dimension=_text(record.get("dimension")), agent=True,
            at_text=record.get("at") if isinstance(record.get("at"), str) else None,
        )
        if self._may_name(raw.lower()) or isinstance(record.get("arguments_payload"), dict):
            text = content.text_of(self._value(record, "arguments", number))
            call.names_logger = content.names(text, self.logger_names)
            call.names_testmod = content.names(text, self.testmod_names - self.logger_names)
            call.arm = content.arms(tool, text, self.logger_names)
        out.calls.append(call)
        return call

    def _may_name(self, raw: bytes) -> bool:
        """Cheap necessary condition on the raw line: without "logger" or a declared file name
        in it, the arguments can neither name the logger nor show it being armed."""
        return b"logger" in raw or any(name in raw for name in self._name_bytes)

    @property
    def _name_bytes(self) -> list[bytes]:
        if not hasattr(self, "_names_cache"):
            self._names_cache = [n.encode("utf-8", "replace") for n in self.logger_names | self.testmod_names]
        return self._names_cache

    def _result(self, record: dict[str, Any], pending: dict[str, Call]) -> None:
        call = pending.pop(record.get("call_id"), None) if isinstance(record.get("call_id"), str) else None
        if call is None:
            return
        call.status = record.get("status") if isinstance(record.get("status"), str) else None
        if call.status != "ok":
            return
        if self.last_capture is None or compare(call, self.last_capture) == BEFORE:
            return  # only a read after the last capture can read the captures back
        value = self._value(record, "result", None)
        call.content, call.content_uuid = self.matcher.judge(content.text_of(value))

    def _value(self, record: dict[str, Any], key: str, number: int | None) -> Any:
        ref = record.get(f"{key}_payload")
        if isinstance(ref, dict) and record.get(key) is None:
            return self._payload(ref, number, parse=True)
        return record.get(key)

    def _payload(self, ref: dict[str, Any], number: int | None, *, parse: bool) -> Any:
        """The value behind a payload ref, when its content is needed (validate verifies every
        stored payload's bytes; a missing or altered one is an infra error either way)."""
        if not parse:
            return None
        if ref.get("stored") is False:
            return ref.get("preview")
        try:
            return self.store.load(ref)
        except ColdstartError as exc:
            self.findings.infra(f"payload {exc.one_line()}")
        except OSError:
            self.findings.infra(f"payload {PAYLOADS}/{ref.get('sha256')}: unreadable")
        return None


def _text(value: Any) -> str | None:
    if isinstance(value, bool) or value is None:
        return None
    return str(value) if isinstance(value, (str, int)) else None
