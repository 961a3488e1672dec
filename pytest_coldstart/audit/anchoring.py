"""Holding a run to the anchors kept outside it (``audit run --anchor|--ledger``, pytest options).

``Expectation`` gathers the anchors an operator supplied (``--anchor`` lines or files, ledger
files) by run id, and the public key they must be signed with, if any. ``problems(run_dir)``
is every reason the run does not match: no anchor for it where one is required, more than one
distinct anchor for it (it was sealed again), a signature that does not verify, a trajectory
with records cut or added, a different last line, a run.json that changed after the seal.
``apply`` makes each an INFRA_ERROR of the report (never a PASS). The audit itself is not
changed: its cached results stay valid; the anchor check is one more read on top.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_coldstart.record import anchor as anchors
from pytest_coldstart.record import ledger
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.layout import RUN_JSON, RunDir

SHOWN = 3


@dataclass
class Expectation:
    by_run: dict[str, list[tuple[str, dict[str, Any]]]] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)
    public_key: Any = None
    public_key_source: str | None = None

    def add(self, source: str, anchor: dict[str, Any]) -> None:
        self.by_run.setdefault(anchor["run_id"], []).append((source, anchor))

    def problems(self, run_dir: str | Path) -> tuple[list[str], list[str]]:
        """(problems, information) for one run."""
        run_id = _run_id(run_dir)
        if run_id is None:
            return [f"anchor: {RUN_JSON} has no readable run_id, so no anchor can be matched to it"], []
        entries = self.by_run.get(run_id, [])
        if not entries:
            held = ", ".join(repr(r) for r in list(self.by_run)[:SHOWN]) or "none"
            return [
                f"anchor: no anchor for run {run_id!r} in {', '.join(self.sources)} (anchors held for: {held}); "
                "an anchor is required: the run was not anchored when sealed, or it is not the run that was"
            ], []
        out: list[str] = []
        if self.public_key is not None:
            from pytest_coldstart.record import signing

            for source, entry in entries:
                reason = signing.problem(entry, self.public_key, source)
                if reason is not None:
                    out.append(reason)
        distinct = {anchors.signing_input(entry) for _, entry in entries}
        if len(distinct) > 1:
            where = ", ".join(source for source, _ in entries[: SHOWN + 1])
            out.append(
                f"anchor: {len(distinct)} different anchors for run {run_id!r} ({where}): the run was sealed more than once"
            )
        source, first = entries[0]
        out.extend(anchors.compare(first, run_dir, source))
        if out:
            return out, []
        signed = f", signed by {self.public_key_source}" if self.public_key is not None else ""
        return [], [
            f"anchor: run.json and the trajectory ({first['trajectory']['records']} records) match the anchor from {source}{signed}"
        ]


def _run_id(run_dir: str | Path) -> str | None:
    try:
        manifest = jsonio.read_json_object(RunDir(run_dir).run_json, what=RUN_JSON)
    except ColdstartError:
        return None
    run_id = manifest.get("run_id")
    return run_id if isinstance(run_id, str) and run_id else None


def expectation(
    anchor_args: list[str] | tuple[str, ...] = (),
    ledger_files: list[str] | tuple[str, ...] = (),
    public_key: str | None = None,
) -> Expectation | None:
    """The expectation the options describe; None when no anchor is required. A malformed
    anchor, ledger or key is a UsageError naming it (an operator input, not the run's)."""
    if not anchor_args and not ledger_files:
        if public_key:
            from pytest_coldstart.run.errors import UsageError

            raise UsageError("a public key verifies anchors: give --anchor or --ledger with it")
        return None
    wanted = Expectation()
    for text in anchor_args:
        value, label = anchors.parse(text)
        wanted.sources.append(label)
        wanted.add(label, value)
    for path in ledger_files:
        wanted.sources.append(str(path))
        for run_id, lines in ledger.read(path).items():
            for number, value in lines:
                wanted.by_run.setdefault(run_id, []).append((f"{path}:{number}", value))
    if public_key:
        from pytest_coldstart.record import signing

        wanted.public_key = signing.load_public_key(public_key)
        wanted.public_key_source = f"{public_key} ({signing.key_id(wanted.public_key)[:23]}...)"
    return wanted


def apply(report: dict[str, Any], problems: list[str], information: list[str]) -> dict[str, Any]:
    """A copy of ``report`` with the anchor problems as infra errors (overall FAIL, INFRA_ERROR)."""
    out = dict(report)
    out["information"] = [*(report.get("information") or []), *information]
    if problems:
        out["infra_errors"] = [*(report.get("infra_errors") or []), *problems]
        out["overall"] = "FAIL"
        out["failure_class"] = "INFRA_ERROR"
    return out


def check(report: dict[str, Any], run_dir: str | Path, wanted: Expectation | None) -> dict[str, Any]:
    """``report`` held to ``wanted`` (unchanged when no anchor is required)."""
    if wanted is None:
        return report
    problems, information = wanted.problems(run_dir)
    return apply(report, problems, information)
