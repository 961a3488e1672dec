"""The preflight contract: a declared preflight must describe this run's environment, have
exercised a live lab, agree with itself, and have finished before the agent's first call.

Seed §5: harness name/model/provider and the repo commit match the run manifest, the ports
check and a live lab_management check that started a server pass (a SKIP never counts); seed
§1: the configuration is fixed before the agent starts. Every departure is INFRA_ERROR. The
report is the lab's, so it is read the way the audit reads any evidence: a fact it states two
ways that disagree (a check listed twice, the commit under two keys, a count of failures beside
an overall PASS, a check marked skipped beside its PASS) is no fact, and a time it does not
state cannot show it ran first.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pytest_coldstart.audit.model import Findings
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.clock import format_at, parse_at
from pytest_coldstart.run.jsonfields import object_or_empty
from pytest_coldstart.run.numbers import digits

#: count keys (any case) that number failed checks: non-zero beside an overall PASS is a contradiction
FAILURE_COUNTS = ("fail", "failed", "failures", "error", "errors")
#: flags a check may carry beside its status that say it did not really run
SKIP_FLAGS = ("skip", "skipped")


def check_preflight(
    manifest: dict[str, Any],
    preflight: dict[str, Any] | None,
    findings: Findings,
    agent_start: datetime | None = None,
) -> None:
    """Each broken term of the contract is one INFRA_ERROR finding (seed §1, §5)."""
    if preflight is None:
        return
    overall = str(preflight.get("overall", "")).upper()
    if overall != "PASS":
        findings.infra(f"preflight: overall is {preflight.get('overall')!r}, not PASS")
        return
    _check_identity(manifest, preflight, findings)
    _check_counts(preflight, findings)
    checks = _checks(preflight, findings)
    ports = checks.get("ports")
    if ports is None or not _live_pass(ports):
        findings.infra(f"preflight: the ports check is {_shown(ports)}, not PASS")
    lab = checks.get("lab_management")
    versions = object_or_empty((lab or {}).get("versions"))
    if lab is None or not _live_pass(lab):
        findings.infra(f"preflight: lab_management is {_shown(lab)}, not a live PASS (SKIP never counts)")
    elif (
        not (_port(versions.get("serverPort")) and _port(versions.get("rconPort")))
        or versions.get("started", True) is not True
    ):
        findings.infra(
            "preflight: lab_management passed without recording the live server's ports (no server was started)"
        )
    _check_times(preflight, findings, agent_start)


def _check_times(preflight: dict[str, Any], findings: Findings, agent_start: datetime | None) -> None:
    """The preflight started and ended before the agent's first call; without a readable start
    it cannot show that (both preflight formats write started_at and ended_at)."""
    if agent_start is None:
        return  # no timed agent call: nothing to compare
    started = parse_at(preflight.get("started_at"))
    if started is None:
        findings.infra(
            f"preflight: started_at {preflight.get('started_at')!r} is no time, so the report cannot show it ran "
            "before the agent's first call"
        )
        return
    ended = parse_at(preflight.get("ended_at"))
    if ended is None and preflight.get("ended_at") is not None:
        findings.infra(f"preflight: ended_at {str(preflight.get('ended_at'))[:40]!r} is no time")
    for word, moment in (("started", started), ("ended", ended)):
        if moment is not None and moment > agent_start:
            findings.infra(
                f"preflight: it {word} at {format_at(moment)}, after the agent's first call ({format_at(agent_start)}): "
                "it does not show the environment the run started in"
            )
            return


def _status(check: dict[str, Any]) -> str:
    return str(check.get("status", "")).upper()


def _live_pass(check: dict[str, Any]) -> bool:
    return _status(check) == "PASS" and not any(check.get(key) not in (None, False) for key in SKIP_FLAGS)


def _shown(check: dict[str, Any] | None) -> str:
    if check is None:
        return "absent"
    flagged = [f"{key}={check.get(key)!r}" for key in SKIP_FLAGS if check.get(key) not in (None, False)]
    return repr(check.get("status")) + (f" ({', '.join(flagged)})" if flagged else "")


def _port(value: Any) -> bool:
    """A TCP port a server listened on: 1-65535, as a number or its digits."""
    if isinstance(value, bool):
        return False
    if isinstance(value, str):
        value = digits(value.strip())
    return isinstance(value, int) and 0 < value < 65536


def _checks(preflight: dict[str, Any], findings: Findings) -> dict[str, dict[str, Any]]:
    """Checks by id. A check listed twice keeps its worst status (and is named): the last entry
    never overrides an earlier FAIL. A FAIL under an overall PASS makes the report inconsistent."""
    out: dict[str, dict[str, Any]] = {}
    listed = preflight.get("checks")
    for check in listed if isinstance(listed, list) else []:
        if not isinstance(check, dict):
            continue
        key = str(check.get("id"))
        if _status(check) not in ("PASS", "SKIP"):
            findings.infra(f"preflight: check {key[:60]!r} is {check.get('status')!r} under an overall PASS")
        if key in out:
            findings.infra(f"preflight: check {key[:60]!r} is listed twice (the report is ambiguous)")
            if _live_pass(out[key]):
                out[key] = check  # the other entry's status stands: never the better of two
            continue
        out[key] = check
    return out


def _check_counts(preflight: dict[str, Any], findings: Findings) -> None:
    """A count of failed checks, or a failure named at the top (``failed: [...]``,
    ``errors: 1``, ``error: "..."``), beside the overall PASS."""
    counts = object_or_empty(preflight.get("counts"))
    stated = [(f"counts.{key}", value) for key, value in counts.items()] + list(preflight.items())
    for where, value in stated:
        if str(where).lower().rpartition(".")[2] in FAILURE_COUNTS and _states_a_failure(value):
            findings.infra(f"preflight: {str(where)[:40]} is {repr(value)[:60]} under an overall PASS")


def _states_a_failure(value: Any) -> bool:
    if value is None or value is False:
        return False
    if isinstance(value, int) and not isinstance(value, bool):
        return value != 0
    return not (isinstance(value, (str, list, dict)) and not value)  # "", [], {}: none stated


def _check_identity(manifest: dict[str, Any], preflight: dict[str, Any], findings: Findings) -> None:
    harness = object_or_empty(manifest.get("harness"))
    declared = object_or_empty(preflight.get("harness"))
    for key in ("name", "model", "provider"):
        if harness.get(key) and declared.get(key) != harness.get(key):
            findings.infra(
                f"preflight: harness {key} {declared.get(key)!r} does not match the run's {harness.get(key)!r}"
            )
    expected = object_or_empty(manifest.get("repo")).get("commit")
    commits = _commits(preflight)
    if len({jsonio.dumps_line(value) for value in commits.values()}) > 1:  # any JSON value, hashable or not
        findings.infra(
            "preflight: the repo commit is stated twice and disagrees ("
            + ", ".join(f"{where} {str(value)[:12]!r}" for where, value in commits.items())
            + ")"
        )
    elif expected and next(iter(commits.values()), None) != expected:
        commit = next(iter(commits.values()), None)
        findings.infra(f"preflight: repo commit {str(commit)[:12]!r} does not match the run's {str(expected)[:12]!r}")


def _commits(preflight: dict[str, Any]) -> dict[str, Any]:
    """Every place the report states the commit it checked (environment.repo, as text or
    {commit}, and a top-level repo.commit), by where."""
    found: dict[str, Any] = {}
    repo = object_or_empty(preflight.get("environment")).get("repo")
    if isinstance(repo, dict):
        if repo.get("commit") is not None:
            found["environment.repo.commit"] = repo.get("commit")
    elif repo is not None:
        found["environment.repo"] = repo
    top = preflight.get("repo")
    if isinstance(top, dict) and top.get("commit") is not None:
        found["repo.commit"] = top.get("commit")
    return found
