"""The audit's view of trajectory.jsonl, one record at a time.

``validate_run`` reads the file once and hands every line to ``Scanner.feed`` right after its
own checks (see ``integrity``), so each line is read, hashed and parsed once. Keeps only
compact ``Call`` summaries, judges each agent call's arguments and result as it goes, and
loads stored payloads when their content is needed. Structural problems of the file are
validate's to report.

The report quotes the call records it cites. So that it need not read the file again, the
records of the calls it can cite are kept (by offset, bounded): calls that name or arm the
logger or return captured content, calls a review names, and the latest calls not ordered
after the first input_processed (where a machine_operated witness comes from). A cited call
outside them is re-read by offset (``reader.line_at``).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pytest_coldstart.audit import integrity
from pytest_coldstart.audit.evidence import arming, content, memo, read_plausibility, session_state
from pytest_coldstart.audit.evidence.aliases import SCOPE_SPELLINGS, call_scope, scope_values
from pytest_coldstart.audit.evidence.provenance import Provenance
from pytest_coldstart.audit.evidence.provenance_rules import TEST_SIDE
from pytest_coldstart.audit.evidence.shell_words import COMMENTING_SHELLS
from pytest_coldstart.audit.evidence.tool_writes import words_of
from pytest_coldstart.audit.model import Call, Event, Findings
from pytest_coldstart.audit.ordering import AFTER, BEFORE, compare
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.clock import parse_at, resolution, zoneless
from pytest_coldstart.run.errors import ColdstartError, UsageError
from pytest_coldstart.run.hashing import sha256_bytes
from pytest_coldstart.run.layout import PAYLOADS, RUN_JSON, TRAJECTORY, RunDir
from pytest_coldstart.run.payloads import PayloadStore, stored_name
from pytest_coldstart.run.versioning import READABLE
from pytest_coldstart.run.vocabulary import HUMAN_PROMPT_MARK, LIVE_CROSSCHECK_MARK

NON_AGENT_PHASES = ("prepare", "restore", "audit")
RECENT = 256  # records kept of the latest calls before the first input_processed
PINNED = 1024  # records kept of calls the report is likely to cite
JUDGED_PAYLOADS = 4096  # stored results whose judgement is remembered (by digest) at a time
SHOWN_CUT = 3  # agent calls named when their arguments were kept only in part


CLAIMED = (
    "its records are the agent's own account (an agent call appended them with coldstart trace "
    "call/result), not an observed read"
)  # a claimed build or start of the logger arms nothing either


@dataclass
class Trajectory:
    calls: list[Call] = field(default_factory=list)  # agent calls, file order
    call_lines: dict[str, tuple[int, int]] = field(default_factory=dict)  # every call id -> (line, offset)
    lines: int = 0
    agent_phase_seen: bool = False
    excluded: dict[str, int] = field(default_factory=dict)  # why claimed agent calls did not count
    records: dict[int, dict[str, Any]] = field(default_factory=dict)  # offset -> call record the report may cite
    live_marks: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (line, mark) of live capture
    scopes: list[tuple[str, str, str]] = field(default_factory=list)  # (field, value, where): phase records' scope
    #: (call id, why it is not counted) of agent calls outside the agent phase or on an
    #: abandoned branch that read the oracle all the same
    oracle_reads_elsewhere: list[tuple[str, str]] = field(default_factory=list)
    cut_calls: list[str] = field(default_factory=list)  # agent calls whose arguments were kept only in part


LIVE_MARKS = (HUMAN_PROMPT_MARK, LIVE_CROSSCHECK_MARK)


class Scanner:
    """``feed`` each line then ``finish`` (as validate's pass does), or ``scan`` the file alone."""

    def __init__(
        self,
        rundir: RunDir,
        findings: Findings,
        *,
        logger_names: set[str],
        testmod_names: set[str],
        matcher: content.ContentMatcher,
        payload_settings: dict[str, Any] | None,
        last_capture: Event | None = None,
        activation: Event | None = None,
        named: set[str] | frozenset[str] = frozenset(),
        provenance: Provenance | None = None,
    ):
        self.rundir = rundir
        self.findings = findings
        self.logger_names = logger_names
        self.testmod_names = testmod_names
        self.matcher = matcher
        try:
            self.store = PayloadStore(rundir, payload_settings or {})
        except UsageError as exc:  # run.json is input: its bad settings are an infra error, not a crash
            findings.infra(
                f"run.json logging settings are unusable: {exc.problem}", integrity.schema_tree(RUN_JSON, "$.logging")
            )
            self.store = PayloadStore(rundir, {})
        self.last_capture = last_capture
        self.activation = activation  # the first input_processed event
        self.named = named  # call ids the reviews cite
        self.provenance = provenance  # evidence identity by resolved path, and who writes what
        self._name_bytes = [n.encode("utf-8", "replace") for n in logger_names | testmod_names]
        # A stored result read back many times (the same file re-read) is loaded and judged once:
        # the judgement depends on the text alone. Bounded, so distinct payloads cost no memory.
        self._judged: dict[tuple[Any, Any, Any], tuple[Any, Any]] = {}
        self._start()

    def _start(self) -> None:
        self.trajectory = Trajectory()
        self.finished = False
        self._pending: dict[str, Call] = {}
        self._outside: list[Call] = []
        self._lifecycle: str | None = None
        self._recent: deque[tuple[int, dict[str, Any]]] = deque(maxlen=RECENT)  # (offset, record)
        self._pinned: dict[int, dict[str, Any]] = {}
        self._waiting: dict[str, dict[str, Any]] = {}  # records of open calls, until their result shows content

    def scan(self) -> Trajectory:
        """The scanner's own read, for when validate could not share its read of the file."""
        self._start()
        path = self.rundir.trajectory
        if not path.is_file() or path.is_symlink():
            self.findings.infra(f"{TRAJECTORY}: missing (or not a regular file)", integrity.TRAJECTORY_MISSING)
            return self.trajectory
        try:
            with jsonio.open_regular(path) as handle:
                for line in jsonio.read_lines(handle):
                    self.feed(line, None)
        except OSError as exc:
            self.findings.infra(f"{TRAJECTORY}: unreadable ({exc.strerror or exc})")
        self.finish()
        return self.trajectory

    def feed(self, line: jsonio.RawLine, at: datetime | None) -> None:
        """One line (``at``: its parsed time when the caller has it)."""
        out = self.trajectory
        out.lines += 1
        record = line.value
        if record is None:
            return  # validate reports the line (file:line: problem)
        version = record.get("schemaVersion")
        if version is not None and (type(version) is not int or version not in READABLE):  # no bool, no 2.0
            return  # validate reports the version; the record is not interpreted
        kind = record.get("record")
        if kind == "result":
            call_id = record.get("call_id")
            call = self._pending.pop(call_id, None) if isinstance(call_id, str) else None
            if call is not None:
                self._result(record, call)
                waiting = self._waiting.pop(call.call_id, None)
                if waiting is not None and call.content:
                    self._pin(call.offset, waiting)
        elif kind == "call":
            call = self._call(record, line.number, line.offset, out, at)
            if call is not None:
                self._pending[call.call_id] = call
                if self._lifecycle in NON_AGENT_PHASES:
                    self._outside.append(call)
        elif kind == "mark" and record.get("name") in LIVE_MARKS:
            out.live_marks.append((line.number, record))
        elif kind == "phase" and isinstance(record.get("phase"), str):
            self._lifecycle = record["phase"]
            for key in SCOPE_SPELLINGS:
                # every spelling: instance and instance_id naming two labs is no one scope
                for value in scope_values(record, key):
                    if len(out.scopes) < RECENT:
                        out.scopes.append((key, value, f"{TRAJECTORY} line {line.number} ({self._lifecycle} phase)"))
            out.agent_phase_seen = out.agent_phase_seen or self._lifecycle == "agent"

    def finish(self) -> None:
        out = self.trajectory
        if out.agent_phase_seen and self._outside:
            # The run records its lifecycle: a call "by the agent" inside a prepare/restore
            # window is not agent work, whatever its actor field claims.
            dropped = {id(c) for c in self._outside}
            out.calls = [c for c in out.calls if id(c) not in dropped]
            why = "inside a prepare/restore/audit window"
            out.excluded[why] = len(self._outside)
            # it ran all the same: what it read of the oracle, the agent saw
            out.oracle_reads_elsewhere += [(c.call_id, why) for c in self._outside if c.names_oracle]
        if self.provenance is not None and self.provenance.claimed:
            # Calls the agent recorded itself (trace call/result) are its account, not observations:
            # such a read is doubted, such a build or start arms nothing.
            claimed = self.provenance.claimed
            for call in out.calls:
                if call.call_id in claimed:
                    call.arm = False
                    if call.names_logger and not call.doubt:
                        call.doubt = CLAIMED
            if self.provenance.armed_by in claimed:
                self.provenance.armed_by = next((c.call_id for c in out.calls if c.arm), None)
        if out.cut_calls:
            shown = ", ".join(out.cut_calls[:SHOWN_CUT]) + (" …" if len(out.cut_calls) > SHOWN_CUT else "")
            self.findings.pending(
                f"trajectory: {len(out.cut_calls)} agent call(s) were recorded with only a preview of their "
                f"arguments ({shown}; logging payload_mode preview, or beyond max_payload_bytes): what they ran "
                "cannot be judged, so the run is not judged; record with payload_mode full"
            )
        for reason, count in sorted(out.excluded.items()):
            self.findings.info(
                f"trajectory: {count} call(s) claiming actor 'agent' were not counted as agent work ({reason})"
            )
        out.records = {**dict(self._recent), **self._pinned}
        self._recent, self._pinned, self._waiting = deque(maxlen=RECENT), {}, {}
        self.finished = True

    def _pin(self, offset: int, record: dict[str, Any]) -> None:
        if len(self._pinned) < PINNED:
            self._pinned[offset] = record

    def _keep(self, call: Call, record: dict[str, Any]) -> None:
        """Keep the record of a call the report may cite (see the module docstring)."""
        if call.arm or call.names_logger or call.names_testmod:
            self._pin(call.offset, record)
        elif len(self._waiting) < PINNED:
            self._waiting[call.call_id] = record  # its result may show captured content
        if self.activation is None or compare(call, self.activation) != AFTER:
            self._recent.append((call.offset, record))

    def _call(
        self, record: dict[str, Any], number: int, offset: int, out: Trajectory, at: datetime | None
    ) -> Call | None:
        get = record.get
        call_id = get("call_id")
        if not isinstance(call_id, str) or not call_id:
            return None
        out.call_lines.setdefault(call_id, (number, offset))
        if call_id in self.named:
            self._pin(offset, record)
        named_tool = get("tool")
        tool = named_tool if isinstance(named_tool, str) else ""
        provenance, named = self.provenance, None
        written: set[str] = set()
        if provenance is not None and "cwd" in record:  # the folder an importer says the call ran in
            provenance.workspace.state_cwd(get("cwd"))
        # the arguments as written again, not the raw line: "\\u006fracle.json" in the file is
        # oracle.json here, and the record's other fields (times, hashes) give no false hints
        lowered = jsonio.dumps_line(get("arguments")).lower()
        if provenance is not None and (
            provenance.may_matter(lowered, tool) or isinstance(get("arguments_payload"), dict)
        ):
            arguments = self._value(record, "arguments")
            written = provenance.feed(call_id, tool, arguments, get("actor") == "agent")
            named = provenance.names(arguments, tool)
        elif provenance is not None and session_state.leaves_state(lowered):  # F=x: for later calls
            provenance.carry_session(tool, self._value(record, "arguments"))
        if get("actor") != "agent":
            return None
        if _cut(get("arguments_payload")):
            out.cut_calls.append(call_id)
        why = (
            "phase is not 'agent'"
            if get("phase") != "agent"
            else "abandoned branch"
            if get("branch") == "abandoned"
            else None
        )
        if why is not None:
            out.excluded[why] = out.excluded.get(why, 0) + 1
            if named and "oracle" in named and provenance is not None and self._reads_oracle(tool, arguments):
                # a rewound branch or another phase ran all the same: what it read, the agent saw
                out.oracle_reads_elsewhere.append((call_id, why))
            return None
        tick, seq, at_text = get("tick"), get("seq"), get("at")
        call = Call(
            call_id=call_id,
            tool=tool,
            line=number,
            offset=offset,
            seq=seq if isinstance(seq, int) and not isinstance(seq, bool) else None,
            at=at if at is not None else parse_at(at_text),
            tick=tick if isinstance(tick, int) and not isinstance(tick, bool) else None,
            phase="agent",
            actor="agent",
            instance=call_scope(record, "instance"),
            dimension=call_scope(record, "dimension"),
            agent=True,
            at_text=at_text if isinstance(at_text, str) else None,
            span=_span(at_text) if type(at_text) is str else resolution(at_text),
            zoneless=_zoneless(at_text) if type(at_text) is str else False,
        )
        if provenance is not None:
            if named:  # identity is the path the call names, resolved in the run (never a file name)
                call.names_logger = "agent_logger" in named
                call.names_testmod = bool(named & set(TEST_SIDE))
                call.names_oracle = "oracle" in named and self._reads_oracle(tool, arguments)
            if call.names_logger:
                call.doubt = read_plausibility.doubt(
                    provenance.workspace,
                    provenance.keys.get("agent_logger", ()),
                    arguments,
                    writes_logger="agent_logger" in written,
                    echoes_content=self.matcher.judge(content.text_of(arguments))[0] == "items",
                    tool=tool,
                )
            if self._may_name(lowered) or isinstance(get("arguments_payload"), dict):
                shown = read_plausibility.without_echoes(self._value(record, "arguments"))
                call.arm = arming.arms(tool, shown, self.logger_names if call.names_logger else ())
                if call.arm and provenance.armed_by is None:
                    provenance.armed_by = call_id
        elif self._may_name(lowered) or isinstance(get("arguments_payload"), dict):
            arguments = self._value(record, "arguments")
            text = content.text_of(arguments)
            call.names_logger = content.names(text, self.logger_names)
            call.names_testmod = content.names(text, self.testmod_names - self.logger_names)
            call.arm = arming.arms(tool, read_plausibility.without_echoes(arguments), self.logger_names)
        out.calls.append(call)
        self._keep(call, record)
        return call

    def _reads_oracle(self, tool: str, arguments: Any) -> bool:
        """A call whose resolved names include the oracle reads it, unless the name stands only
        beside written content or in an echo (``provenance.names`` said "oracle")."""
        provenance = self.provenance
        assert provenance is not None
        if "oracle" not in provenance.names_beside_content(tool, arguments):
            return False
        if words_of(tool) & COMMENTING_SHELLS:  # ls agent # not oracle.json: a comment runs nothing
            if "oracle" not in provenance.names_beside_content(tool, read_plausibility.uncommented(arguments)):
                return False
        echoed = read_plausibility.only_echoed(provenance.workspace, provenance.keys.get("oracle", ()), arguments)
        return not echoed or "oracle" in provenance.run_names(tool, arguments)  # echoed into a script it runs

    def _may_name(self, text: bytes) -> bool:
        """Cheap necessary condition on the arguments' text: without "logger" or a declared file
        name in it, they can neither name the logger nor show it being armed."""
        if b"logger" in text:
            return True
        return any(name in text for name in self._name_bytes)

    def _result(self, record: dict[str, Any], call: Call) -> None:
        status = record.get("status")
        call.status = status if isinstance(status, str) else None
        if status != "ok":
            return
        if self.last_capture is None or compare(call, self.last_capture) == BEFORE:
            return  # only a read after the last capture can read the captures back
        ref = record.get("result_payload")
        key = None
        if isinstance(ref, dict) and record.get("result") is None and ref.get("stored") is True:
            key = (ref.get("sha256"), ref.get("compression", "none"), ref.get("size"))
            if not isinstance(key[0], str):
                key = None
            elif key in self._judged:
                call.content, call.content_uuid = self._judged[key]
                return
        value = self._value(record, "result")
        call.content, call.content_uuid = judged = self.matcher.judge_value(value)
        if key is not None and value is not None:
            if len(self._judged) >= JUDGED_PAYLOADS:
                self._judged.clear()
            self._judged[key] = judged

    def _value(self, record: dict[str, Any], key: str) -> Any:
        ref = record.get(f"{key}_payload")
        if isinstance(ref, dict) and record.get(key) is None:
            return self._payload(ref)
        return record.get(key)

    def _payload(self, ref: dict[str, Any]) -> Any:
        """The value behind a payload ref, when its content is needed. validate verifies every
        stored payload's bytes: a problem it reports with the same words is reported once."""
        if ref.get("stored") is False:
            return ref.get("preview")
        try:
            return self.store.load(ref)
        except ColdstartError as exc:
            digest, compression = ref.get("sha256"), ref.get("compression", "none")
            name = stored_name(digest, str(compression)) if isinstance(digest, str) else repr(digest)
            self.findings.infra(
                f"payload {exc.one_line()}", integrity.payload(f"payload {PAYLOADS}/{name}: {exc.problem}")
            )
        except OSError:
            self.findings.infra(f"payload {PAYLOADS}/{ref.get('sha256')}: unreadable")
        return None


_span = memo.short_texts(4096, 64)(resolution)  # neighbouring records share their time's text
_zoneless = memo.short_texts(4096, 64)(zoneless)


def _cut(ref: Any) -> bool:
    """A payload ref whose value was not kept and whose preview is not the whole of it."""
    if not isinstance(ref, dict) or ref.get("stored") is not False:
        return False
    preview = ref.get("preview")
    return not (isinstance(preview, str) and sha256_bytes(preview.encode("utf-8")) == ref.get("sha256"))
