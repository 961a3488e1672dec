"""Imported sessions whose sub-agents' calls are not in the run.

A Task call runs a sub-agent whose calls really ran. The importer reads their transcripts
with the session; what it could not read, run.json lists (``imports[].unimported_subagents``,
``imports[].subagent_calls_missing``). Those calls cannot be judged, so the run is not judged
(as a call kept only as a preview is not): the audit stays PENDING.
"""

from __future__ import annotations

from typing import Any

from pytest_coldstart.audit.model import Findings

SHOWN = 3


def check_subagents(manifest: dict[str, Any], findings: Findings) -> None:
    imports = manifest.get("imports")
    for number, entry in enumerate(imports if isinstance(imports, list) else []):
        if not isinstance(entry, dict):
            continue
        for key, what in (
            ("unimported_subagents", "sub-agent transcript(s) beside the session were not imported"),
            ("subagent_calls_missing", "Task call(s) left no sub-agent transcript"),
        ):
            value = entry.get(key)  # a hostile run.json: not a list, yet something is missing (fail closed)
            names = [str(name) for name in value] if isinstance(value, list) else [repr(value)[:80]] if value else []
            if names:
                shown = ", ".join(names[:SHOWN]) + (" …" if len(names) > SHOWN else "")
                findings.pending(
                    f"imports[{number}].{key}: {len(names)} {what} ({shown}): sub-agent calls not in the run "
                    "cannot be judged, so the run is not judged; import the session with its sub-agents' "
                    "transcripts beside it"
                )
