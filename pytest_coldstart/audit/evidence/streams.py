"""Reading the declared external streams (test mod, agent logger) for ``load``: the projection
of every line, the seq/line indexes refs resolve against, and the agent logger's normalized-view
and ``source_sha256`` rules (see ``load``'s docstring). A mixin of ``load._Loader``: it uses the
loader's ``findings``, ``evidence``, ``digests``, ``run_id_check``, ``resolve``, ``contained``
and ``hash_ok``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from pytest_coldstart.audit import integrity
from pytest_coldstart.audit.evidence import aliases, view_check
from pytest_coldstart.audit.evidence.reader import HashedLines
from pytest_coldstart.audit.model import LOGGER, Event
from pytest_coldstart.run.hashing import is_sha256, short


class StreamReading:
    """Stream-reading half of the evidence loader."""

    findings: Any
    evidence: Any
    digests: dict[Path, tuple[str, int]]
    run_id_check: Any

    def resolve(self, name: str, relative: object, what: str = "path") -> Path | None:  # pragma: no cover
        raise NotImplementedError

    def contained(
        self, label: str, relative: object, about: tuple[str, ...] = (), field: str | None = None
    ) -> Path | None:  # pragma: no cover
        raise NotImplementedError

    def hash_ok(
        self, name: str, decl: dict[str, Any], actual: str, size: int, key: str = "sha256"
    ) -> bool:  # pragma: no cover
        raise NotImplementedError

    def _forget(self, stream: str) -> None:
        self.evidence.seq_index.pop(stream, None)
        self.evidence.line_index.pop(stream, None)

    def _normalized_logger(self, decl: dict[str, Any]) -> None:
        raw = self.resolve("agent_logger", decl.get("path"))
        norm = self.resolve("agent_logger", decl.get("normalized"), "normalized view")
        if raw is None or norm is None:
            return
        raw_sha, raw_size = integrity.file_hash(raw, self.digests)
        if not self.hash_ok("agent_logger", decl, raw_sha, raw_size):
            return
        events, sources, sha, size = self._read_stream("agent_logger", norm, LOGGER, "logger", aliases.LOGGER_EVENTS)
        if events is None or not self.hash_ok(
            "agent_logger (normalized view)", decl, sha, size, key="normalized_sha256"
        ):
            self._forget(LOGGER)
            return
        if not self._check_sources(sources, raw_sha, "the raw logger"):
            self._forget(LOGGER)
            return
        check = view_check.contradictions(events, raw)
        if check is None:
            self.findings.info(
                "agent_logger: the raw output is not JSON lines of logger events the audit reads, so the normalized "
                "view could not be compared with it"
            )
        elif check.invented or check.left_out:
            self.findings.infra(
                "evidence agent_logger: "
                + _disagreement(check)
                + "; a view is the raw records spelled anew, never other facts"
            )
            self._forget(LOGGER)
            return
        self.evidence.usable["agent_logger"] = decl["normalized"]
        self.evidence.events[LOGGER] = events
        self.evidence.hashes["agent_logger"] = raw_sha
        self.evidence.logger_hashes = [raw_sha, sha]

    def _source_rule(self, decl: dict[str, Any], events: list[Event], sources: list[str | None], path: Path) -> bool:
        """A plain logger declaration whose records name source bytes must say which bytes.

        When only a normalized view exists (the raw output is not in the run), the
        declaration names the raw output's hash as ``raw_sha256`` (and optionally its
        run-relative ``raw`` path): every record must carry ``source_sha256`` equal to it.
        """
        raw_sha = decl.get("raw_sha256")
        named = [s for s in sources if s is not None]
        if raw_sha is None:
            if named:
                self.findings.infra(
                    "evidence agent_logger: records carry source_sha256 (a normalized view) but the declaration names "
                    "no raw logger; declare `normalized` with the raw file, or `raw_sha256` when only the view exists"
                )
                return False
            return True
        if not is_sha256(raw_sha):
            self.findings.infra(f"evidence agent_logger: raw_sha256 {str(raw_sha)[:70]!r} is not a lowercase sha256")
            return False
        raw_rel = decl.get("raw")
        if raw_rel is not None:
            label = "evidence agent_logger (raw)"
            raw_path = self.contained(label, raw_rel)
            if raw_path is None:
                return False
            if raw_path.is_file():
                if integrity.file_hash(raw_path, self.digests)[0] != raw_sha:
                    self.findings.infra(f"{label}: the raw logger bytes do not match raw_sha256 {short(raw_sha)}")
                    return False
            else:
                self.findings.info(
                    f"agent_logger: the raw output {raw_rel!r} (sha256 {short(raw_sha)}) is not in the run; the normalized view was audited"
                )
        else:
            self.findings.info(
                f"agent_logger: the raw output (sha256 {short(raw_sha)}) is not in the run; the normalized view was audited"
            )
        return self._check_sources(sources, raw_sha, "the declared raw_sha256")

    def _check_sources(self, sources: list[str | None], raw_sha: str, what: str) -> bool:
        absent = sum(1 for s in sources if s is None)
        if absent:
            self.findings.infra(f"evidence agent_logger: {absent} normalized record(s) carry no source_sha256")
            return False
        stale = sum(1 for s in sources if s != raw_sha)
        if stale:
            self.findings.infra(
                f"evidence agent_logger: {stale} normalized record(s) name source bytes other than {what} ({short(raw_sha)})"
            )
            return False
        return True

    def _read_stream(
        self, name: str, path: Path, stream: str, kind: str, known: tuple[str, ...]
    ) -> tuple[list[Event] | None, list[str | None], str, int]:
        label = f"evidence {name}"
        lines = HashedLines(path)
        events: list[Event] = []
        sources: list[str | None] = []
        unknown: Counter[str] = Counter()
        unnamed = 0
        seqs: dict[int, tuple[int, int]] = {}
        line_offsets: dict[int, int] = {}
        self.evidence.seq_index[stream] = seqs
        self.evidence.line_index[stream] = line_offsets
        ok = True
        try:
            for line in lines:
                if line.problem:
                    self.findings.infra(f"{label}: line {line.number}: {line.problem}")
                    ok = False
                    continue
                record = line.value
                line_offsets[line.number] = line.offset
                version_problem = aliases.check_version(record, kind)
                if version_problem:
                    self.findings.infra(f"{label}: line {line.number}: {version_problem}")
                    ok = False
                    continue
                try:
                    fields = aliases.project(record)
                except aliases.ProjectionError as exc:
                    self.findings.infra(f"{label}: line {line.number}: {exc}")
                    ok = False
                    continue
                if self.run_id_check is not None:
                    self.run_id_check(f"{label}: line {line.number}", fields.get("run_id"))
                event_name = fields.pop("event", None)
                if event_name is None:
                    if not ({"schema", "schemaVersion"} & set(record)):
                        unnamed += 1
                    continue
                sources.append(fields.pop("source_sha256", None))
                seq = fields.pop("seq", None)
                if seq is not None:
                    if seq in seqs:
                        self.findings.infra(
                            f"{label}: line {line.number}: seq {seq} repeats line {seqs[seq][0]} (refs would be ambiguous)"
                        )
                        ok = False
                    seqs[seq] = (line.number, line.offset)
                if event_name not in known:
                    unknown[event_name] += 1
                    continue
                ref = f"{stream}:seq{seq}" if seq is not None else f"{stream}:line{line.number}"
                events.append(
                    Event(
                        stream,
                        event_name,
                        line.number,
                        line.offset,
                        ref,
                        fields.pop("at", None),
                        fields.pop("tick", None),
                        seq,
                        fields,
                        fields.pop("at_span", 0.0),
                        fields.pop("at_zoneless", False),
                    )
                )
        except OSError as exc:
            self.findings.infra(f"{label}: unreadable ({exc.strerror or exc})")
            return None, [], "", 0
        if unknown:
            listed = ", ".join(f"{key} x{count}" for key, count in sorted(unknown.items()))
            self.findings.info(
                f"{name}: {sum(unknown.values())} record(s) with event names the protocol does not use were ignored ({listed})"
            )
        if unnamed:
            self.findings.info(f"{name}: {unnamed} record(s) without an event name were ignored")
        self.digests[path] = (lines.sha256 or "", lines.size)
        return (events if ok else None), sources, lines.sha256 or "", lines.size


def _disagreement(check: view_check.ViewCheck) -> str:
    shown = view_check.SHOWN
    parts = []
    if check.invented:
        parts.append(
            f"the normalized view states {len(check.invented)} record(s) the raw output does not hold as written "
            f"(another time, tick, cart, items, instance or run, or none): {', '.join(check.invented[:shown])}"
        )
    if check.left_out:
        parts.append(
            f"the normalized view leaves out or changes {len(check.left_out)} record(s) of the raw output "
            f"(the raw output is never replaced by the view): {', '.join(check.left_out[:shown])}"
        )
    return "; ".join(parts)
