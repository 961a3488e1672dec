"""What the audit makes of live capture's marks (``coldstart hook``).

- ``live.crosscheck`` (written by ``trace import`` when hooks recorded the same session): any
  difference in ids, tools or arguments between the session file and the live records means
  the two accounts of the run disagree — a session file edited after the run, or a call the
  hook missed — an INFRA_ERROR naming the first differences.
- ``human.prompt``: the first prompt of a session is the task; every later one is a human
  turn reaching the agent during the run. A cold start runs unattended and this revision of
  the protocol has no review that clears it, so the run stays PENDING (never PASS) and the
  reason names each such turn.
"""

from __future__ import annotations

from typing import Any

from pytest_coldstart.audit.model import Findings
from pytest_coldstart.run.vocabulary import HUMAN_PROMPT_MARK, LIVE_CROSSCHECK_MARK

SHOWN = 3


def check_live(marks: list[tuple[int, dict[str, Any]]], findings: Findings) -> None:
    prompts: dict[Any, list[int]] = {}
    for line, record in marks:
        stated = record.get("data")
        data: dict[str, Any] = stated if isinstance(stated, dict) else {}
        if record.get("name") == LIVE_CROSSCHECK_MARK:
            _crosscheck(line, data, findings)
        elif record.get("name") == HUMAN_PROMPT_MARK:
            prompts.setdefault(data.get("session_id"), []).append(line)
    for session, lines in prompts.items():
        later = lines[1:]
        if later:
            where = ", ".join(f"trajectory line {n}" for n in later[:SHOWN]) + (" …" if len(later) > SHOWN else "")
            findings.pending(
                f"{len(later)} human prompt(s) reached the agent after the task prompt in session {session!r} "
                f"({where}): a cold start runs unattended; no review clears this, start a new run"
            )


def _crosscheck(line: int, data: dict[str, Any], findings: Findings) -> None:
    count = data.get("differences")
    if type(count) is not int or count < 0:
        findings.infra(f"trajectory line {line}: a live.crosscheck mark without a difference count")
        return
    if count == 0:
        return
    listed = [d for d in data.get("listed") or [] if isinstance(d, dict) and d.get("finding") is not False]
    examples = "; ".join(f"{d.get('kind')} {d.get('call_id')!r}" for d in listed[:SHOWN])
    findings.infra(
        f"trajectory line {line}: the imported session {data.get('session_copy')!r} and the live capture disagree "
        f"({count} difference(s): {examples}{' …' if count > SHOWN else ''})"
    )
