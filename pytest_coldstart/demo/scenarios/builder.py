"""``RunBuilder``: write a complete, valid version-2 run through the real recorder, after
letting a test break any part of it in one line.

    run = RunBuilder(tmp_path / "run").passing().mutate_testmod(lambda ev: ev.pop(4)).build()

Every ``mutate_*`` takes a function that edits the data in place or returns a replacement
of the same type (a returned piece of the data, like ``list.pop``'s, is not a replacement).
``after_build`` edits bytes on disk after the declarations were hashed (tampering).
``manifest`` changes what ``init_run`` records (harness, task, logging settings ...), ``insert``
appends extra records at a point of the story through the live recorder (redaction, payload
store and state hashes apply), ``sealed`` seals the run after its reviews.
Deterministic: the same steps give byte-identical files (fixed clock, machine and repo).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pytest_coldstart.demo.scenarios import story
from pytest_coldstart.demo.scenarios.storyclock import StoryClock
from pytest_coldstart.record.recorder import Recorder, init_run
from pytest_coldstart.record.seal import seal
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.clock import Clock, FixedClock, parse_at

MACHINE = {
    "platform": "scenario",
    "os": "scenario",
    "os_release": "0",
    "machine": "scenario",
    "python": "3.11",
    "implementation": "CPython",
    "executable_name": "python",
}
REPO = {"root": ".", "commit": "0" * 40, "branch": "main", "dirty_entries": 0}
TOOL = {"name": "pytest-coldstart", "version": "scenario", "commit": None}
HARNESS = {"name": "pi", "version": "0.87.1", "model": "deepseek/deepseek-flash", "provider": "deepseek"}
TASK = b"Operate the machine through the note block and report the ordered items of every popped cart.\n"
EVIDENCE_FILES = {
    "test_mod": story.TESTMOD_PATH,
    "agent_logger": story.LOGGER_PATH,
    "answer": "answer.json",
    "oracle": "oracle.json",
    "fixture": "fixture/ready.json",
    "restore": "restore/verify.json",
}
BATCH = 5000
#: What ``manifest`` may change: every ``init_run`` keyword but the directory, run id and clock.
MANIFEST_DEFAULTS: dict[str, Any] = {
    "task_bytes": TASK,
    "task_source": "inline",
    "harness": HARNESS,
    "visible_roots": [],
    "created_at": story.at(0),
    "machine": MACHINE,
    "repo": REPO,
    "tool": TOOL,
}
MANIFEST_KEYS = (
    "task_bytes",
    "task_source",
    "harness",
    "visible_roots",
    "excludes",
    "notes",
    "created_at",
    "experiment_id",
    "logging",
    "machine",
    "repo",
    "tool",
    "agent",
)


def _apply(value: Any, change: Callable[[Any], Any]) -> Any:
    """Run ``change``; a returned value of the same type replaces the data, unless it was a
    piece of it (``lambda ev: ev.pop(3)`` edits in place, ``lambda ev: [...]`` replaces)."""
    pieces = {id(piece) for piece in _walk(value)}
    returned = change(value)
    if returned is None or type(returned) is not type(value) or id(returned) in pieces:
        return value
    return returned


def _walk(value: Any) -> Iterator[Any]:
    yield value
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for child in children:
        yield from _walk(child)


class RunBuilder:
    def __init__(self, run_dir: str | Path, *, run_id: str = "scenario-run", clock: Clock | None = None):
        self.root = Path(run_dir)
        self.run_id = run_id
        self.clock = clock
        self.testmod: list[dict[str, Any]] = []
        self.logger: list[dict[str, Any]] = []
        self.records: list[dict[str, Any]] = []
        self.documents: dict[str, Any] = {}
        self.reviews: list[dict[str, Any]] = []
        self.declared: dict[str, str | None] = {}
        self.filler_calls = 0
        self.filler_bytes = 0
        self.options: dict[str, Any] = copy.deepcopy(MANIFEST_DEFAULTS)
        self.inserts: list[tuple[str, str, str | None, Callable[[Recorder], Any]]] = []
        self.to_seal = False
        self._after: list[Callable[[Path], None]] = []

    # -- stories ---------------------------------------------------------------------------

    def passing(self) -> RunBuilder:
        """The complete valid run with its three required reviews resolved (audits PASS)."""
        self.unreviewed()
        self.reviews = story.reviews()
        return self

    def unreviewed(self) -> RunBuilder:
        """The complete valid run without reviews (mechanically fine: audits PENDING)."""
        self.testmod = story.testmod_events(self.run_id)
        self.logger = story.logger_events(self.run_id)
        self.records = story.trajectory_records()
        self.documents = {
            "answer": story.answer(self.run_id),
            "oracle": story.oracle(self.run_id),
            "fixture": story.fixture(),
            "restore": story.restore(),
        }
        self.declared = dict(EVIDENCE_FILES)
        self.reviews = []
        return self

    # -- one-line breakage -----------------------------------------------------------------

    def mutate_testmod(self, change: Callable[[list[dict[str, Any]]], Any]) -> RunBuilder:
        self.testmod = _apply(self.testmod, change)
        return self

    def mutate_logger(self, change: Callable[[list[dict[str, Any]]], Any]) -> RunBuilder:
        self.logger = _apply(self.logger, change)
        return self

    def mutate_trajectory(self, change: Callable[[list[dict[str, Any]]], Any]) -> RunBuilder:
        self.records = _apply(self.records, change)
        return self

    def mutate_reviews(self, change: Callable[[list[dict[str, Any]]], Any]) -> RunBuilder:
        self.reviews = _apply(self.reviews, change)
        return self

    def mutate(self, name: str, change: Callable[[Any], Any]) -> RunBuilder:
        """Edit a JSON document: answer, oracle, fixture, restore (or preflight once set)."""
        self.documents[name] = _apply(self.documents[name], change)
        return self

    def mutate_answer(self, change: Callable[[dict[str, Any]], Any]) -> RunBuilder:
        return self.mutate("answer", change)

    def mutate_oracle(self, change: Callable[[dict[str, Any]], Any]) -> RunBuilder:
        return self.mutate("oracle", change)

    def mutate_fixture(self, change: Callable[[dict[str, Any]], Any]) -> RunBuilder:
        return self.mutate("fixture", change)

    def mutate_restore(self, change: Callable[[dict[str, Any]], Any]) -> RunBuilder:
        return self.mutate("restore", change)

    def event(self, stream: str, name: str, index: int = 0) -> dict[str, Any]:
        """The index-th event of that name in "testmod" or "logger" (to edit it in place)."""
        events = self.testmod if stream == "testmod" else self.logger
        return [e for e in events if e.get("event") == name][index]

    def call(self, call_id: str, record: str = "call") -> dict[str, Any]:
        return next(r for r in self.records if r.get("call_id") == call_id and r["record"] == record)

    def drop_call(self, call_id: str) -> RunBuilder:
        self.records = [r for r in self.records if r.get("call_id") != call_id]
        return self

    def undeclare(self, name: str) -> RunBuilder:
        self.declared[name] = None
        return self

    def review(
        self,
        review_id: str,
        status: str = "resolved",
        *,
        evidence: list[str],
        by: str = "reviewer B",
        note: str = "",
        at: str | None = None,
    ) -> RunBuilder:
        self.reviews.append(
            {"id": review_id, "status": status, "by": by, "at": at or story.at(45), "note": note, "evidence": evidence}
        )
        return self

    def raw_review(self, entry: dict[str, Any]) -> RunBuilder:
        """Append a reviews.jsonl line as given, bypassing the recorder's checks (malformed entries)."""
        line = jsonio.dumps_line({"schemaVersion": 2, **entry}) + b"\n"

        def append(root: Path) -> None:
            with (root / "reviews.jsonl").open("ab") as handle:
                handle.write(line)

        return self.after_build(append)

    def filler(self, calls: int, result_bytes: int = 1024) -> RunBuilder:
        """Add ``calls`` ordinary agent calls (for size benchmarks) before the actuation."""
        self.filler_calls, self.filler_bytes = calls, result_bytes
        return self

    # -- richer runs -----------------------------------------------------------------------

    def manifest(self, **options: Any) -> RunBuilder:
        """Override what ``init_run`` records: harness, task_bytes, task_source, notes,
        experiment_id, logging (payload mode, limits, redaction), machine, repo, tool ..."""
        unknown = sorted(set(options) - set(MANIFEST_KEYS))
        if unknown:
            raise TypeError(
                f"manifest() got unknown option(s) {', '.join(unknown)} (one of {', '.join(MANIFEST_KEYS)})"
            )
        self.options.update(copy.deepcopy(options))
        return self

    def insert(self, where: str, add: Callable[[Recorder], Any], *, at: str | None = None) -> RunBuilder:
        """Call ``add(recorder)`` at a point of the story: ``"before:<anchor>"`` or
        ``"after:<anchor>"``, the anchor a story call id (after = after its result) or
        ``"phase:<name>"``. Records it appends without a time of their own are stamped 1 ms
        apart, from the time of the story record before the point (or from ``at``, a later
        time before the next story record); running into the next story record's time is
        refused (the story's order is what the audit judges). Inserts at one point run in the
        order they were added."""
        side, _, anchor = where.partition(":")
        if side not in ("before", "after") or not anchor:
            raise ValueError(f"insert point {where!r}: expected 'before:<anchor>' or 'after:<anchor>'")
        if at is not None and parse_at(at) is None:
            raise ValueError(f"insert at {at!r}: not a timestamp")
        self.inserts.append((side, anchor, at, add))
        return self

    def sealed(self) -> RunBuilder:
        """Seal the run (``coldstart trace seal``) after its declarations and reviews."""
        self.to_seal = True
        return self

    def after_build(self, change: Callable[[Path], None]) -> RunBuilder:
        self._after.append(change)
        return self

    def tamper(self, relative: str, change: Callable[[bytes], bytes]) -> RunBuilder:
        """Rewrite a file's bytes after it was declared and hashed."""

        def rewrite(root: Path) -> None:
            (root / relative).write_bytes(change((root / relative).read_bytes()))

        return self.after_build(rewrite)

    def edit_json(self, relative: str, change: Callable[[Any], Any]) -> RunBuilder:
        """Rewrite a JSON document of the run (run.json, evidence.json ...) after the build."""

        def edit(root: Path) -> None:
            path = root / relative
            value = jsonio.read_json(path)
            path.write_bytes(jsonio.dumps_document(_apply(value, change)))

        return self.after_build(edit)

    # -- writing ---------------------------------------------------------------------------

    def build(self) -> Path:
        clock = StoryClock(self.clock or FixedClock(story.T0))
        recorder = init_run(self.root, run_id=self.run_id, clock=clock, **copy.deepcopy(self.options))
        self._write(recorder, clock, self._records())
        files = {"test_mod": _jsonl(self.testmod), "agent_logger": _jsonl(self.logger)}
        for name, value in self.documents.items():
            files[name] = jsonio.dumps_document(value)
        for name, relative in self.declared.items():
            if relative is None or name not in files:
                continue
            target = self.root / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(files[name])
            recorder.declare_evidence(name, relative)
        for entry in self.reviews:
            recorder.review(
                entry["id"],
                entry["status"],
                entry["by"],
                evidence=list(entry["evidence"]),
                note=entry.get("note", ""),
                at=entry.get("at"),
            )
        if self.to_seal:
            seal(self.root, recorder=recorder)
        for change in self._after:
            change(self.root)
        return self.root

    def _write(self, recorder: Recorder, clock: StoryClock, records: list[dict[str, Any]]) -> None:
        """Append the story, running the inserted steps at their points."""
        points: dict[int, list[tuple[str | None, Callable[[Recorder], Any]]]] = {}
        for side, anchor, at, add in self.inserts:
            points.setdefault(_point(records, side, anchor), []).append((at, add))
        start = 0
        for index in sorted(points):
            self._append(recorder, records[start:index])
            start = index
            where = f"insert point before story record {index + 1}"
            moment = parse_at(records[index - 1].get("at") if index else self.options["created_at"])
            until = parse_at(records[index].get("at")) if index < len(records) else None
            for at, add in points[index]:
                if at is not None:
                    chosen = parse_at(at)
                    if moment is not None and chosen is not None and chosen < moment:
                        raise ValueError(f"{where}: at {at} is earlier than the records before it")
                    moment = chosen
                with clock.pinned(moment, until=until, where=where):
                    add(recorder)
                moment = clock.reached
        self._append(recorder, records[start:])

    def _records(self) -> list[dict[str, Any]]:
        read_text = "".join(json.dumps(e) + "\n" for e in self.logger if e.get("event") == "cart_observed")
        out = []
        for record in self.records:
            record = copy.deepcopy(record)
            if isinstance(record.get("result"), dict) and record["result"].get("text") == story.READ_LOGGER:
                record["result"]["text"] = read_text
            out.append(record)
            if record.get("call_id") == "c-start-logger" and record["record"] == "result":
                out += self._filler(record["at"])
        return out

    def _filler(self, at: str) -> list[dict[str, Any]]:
        body = ("x" * 63 + "\n") * max(1, self.filler_bytes // 64)
        out = []
        for number in range(self.filler_calls):
            call_id = f"c-filler-{number}"
            out.append(
                {
                    "record": "call",
                    "call_id": call_id,
                    "tool": "bash",
                    "arguments": {"command": f"inspect world state {number}"},
                    "phase": "agent",
                    "actor": "agent",
                    "at": at,
                }
            )
            out.append(
                {
                    "record": "result",
                    "call_id": call_id,
                    "status": "ok",
                    "result": {"text": body},
                    "actor": "agent",
                    "phase": "agent",
                    "at": at,
                }
            )
        return out

    @staticmethod
    def _append(recorder: Recorder, records: list[dict[str, Any]]) -> None:
        for start in range(0, len(records), BATCH):
            batch = [recorder.prepare(fields) for fields in records[start : start + BATCH]]
            recorder.appender.append_many(batch)


def _point(records: list[dict[str, Any]], side: str, anchor: str) -> int:
    """The index in ``records`` where an insert at ``side:anchor`` goes."""
    if anchor.startswith("phase:"):
        hits = [
            i for i, r in enumerate(records) if r.get("record") == "phase" and r.get("phase") == anchor[len("phase:") :]
        ]
    else:
        hits = [i for i, r in enumerate(records) if r.get("call_id") == anchor]
    if not hits:
        raise ValueError(f"insert point {side}:{anchor}: the story has no such call or phase")
    return hits[0] if side == "before" else hits[-1] + 1


def _jsonl(events: list[dict[str, Any]]) -> bytes:
    return b"".join(jsonio.dumps_line(event) + b"\n" for event in events)
