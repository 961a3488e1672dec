"""Rulings R6/R7 (revised) on the run's prerequisites.

The test mod's log must be declared (else INFRA_ERROR). The fixture (initialisation) and the
restore are judged by the state their report states (docs/protocol.md "Fixture and restore
states"):

=========  ===========================================================  ==============================
report     state                                                        outcome
=========  ===========================================================  ==============================
fixture    ``ready: true`` or status ready/ok/valid/pass/passed/verified  verified
fixture    status invalid/failed/fail/error/mismatch/corrupt(ed)/broken,   FIXTURE_INVALID
           ``valid: false`` or ``verified: false`` with a failed status
fixture    new, unverified, pending, ``ready: false``, no status, other    PENDING (the oracle stays pending)
restore    status ok/verified/pass/passed/success                          verified
restore    status failed/fail/error/invalid/mismatch/corrupt(ed)/broken    FIXTURE_INVALID
restore    running, pending, unverified, no status, other                  PENDING (the oracle stays pending)
(either)   not declared                                                     PENDING (run-level reason)
=========  ===========================================================  ==============================

``status`` may be spelled ``result`` (the reference's alias); when both are there, either one
failing fails the report. A failure anywhere in a report wins over what its top level says
(:func:`failures`): a nested status or verdict that failed, a check that is false (``ok``,
``valid``, ``passed``, ``*Match`` ...; ``verified: false`` and ``ready: false`` say "not yet",
which is pending, also beside ``status: ok``), a count of failures or mismatches above zero or
not a count at all (``failed: 1``, ``entities_failed: "1"`` or ``-1``, ``nbtMismatchCount``), or a
failure named by its key (``failed: true``, ``error: "…"``, ``errors: ["…"]``, ``error: {…}``)
makes the report invalid even beside ``status: ok``. The state of each is kept in ``evidence.states`` for
answer_correct, which never claims correctness while either is pending.
"""

from __future__ import annotations

from typing import Any

from pytest_coldstart.audit.evidence.load import Evidence
from pytest_coldstart.audit.model import TESTMOD, Event, Findings
from pytest_coldstart.audit.ordering import AFTER, BEFORE, compare, earliest, first_of, latest
from pytest_coldstart.record.redaction import key_words
from pytest_coldstart.run.numbers import digits

FIXTURE_OK = ("ready", "ok", "valid", "pass", "passed", "verified")
RESTORE_OK = ("ok", "verified", "pass", "passed", "success")
FAILED = ("invalid", "failed", "fail", "error", "mismatch", "corrupt", "corrupted", "broken", "unfaithful")
FAILED_SET = frozenset(FAILED)
VERIFIED, INVALID, PENDING = "verified", "invalid", "pending"
#: keys whose string value is a verdict; booleans that state a check passed; counts of failures
VERDICT_KEYS = frozenset({"status", "result", "verdict", "outcome", "state"})
CHECK_KEYS = frozenset({"ok", "valid", "passed", "pass", "success", "succeeded", "faithful", "matches"})
COUNT_WORDS = ("fail", "error", "mismatch")
#: a count named with one of these is a setting (``max_failures: 3``), not a failure that happened
LIMIT_WORDS = frozenset(
    {
        "max",
        "min",
        "maximum",
        "minimum",
        "limit",
        "allowed",
        "threshold",
        "tolerance",
        "tolerated",
        "retry",
        "retries",
        "ok",
    }
)
#: under these, every string value is a verdict (``checks: {snapshot: failed}``); a map of
#: settings (``verify: {log_level: error}``) is not one of them
VERDICT_GROUPS = ("check", "result", "test", "step")
#: a report is read this deep and this wide; what lies beyond is not searched (reports are small)
MAX_DEPTH, MAX_NODES = 16, 10_000


#: a key ending in one of these names a failure itself: ``failed: true``, ``error: "…"``,
#: ``errors: [...]`` state one (``failClosed``, ``errorCode`` do not end so)
FAILURE_NOUNS = frozenset({"fail", "failed", "failure", "failures", "error", "errors", "mismatch", "mismatches"})
#: a failure key with one of these words is a setting (``on_error: fail``, ``ignore_errors``)
SETTING_WORDS = LIMIT_WORDS | {"on", "if", "when", "ignore", "ignored", "policy", "mode", "level", "action", "expected"}
#: what a failure key holds when nothing failed
NOTHING = frozenset({"", "0", "none", "null", "no", "false", "n/a", "ok"})


def _failure(key: str, value: Any, grouped: bool) -> bool:
    words = key_words(key)
    if not words:
        return False
    named = words[-1] in FAILURE_NOUNS and not SETTING_WORDS & set(words)
    if isinstance(value, str):
        if named:
            text = value.strip().lower()
            return text not in NOTHING and digits(text) != 0
        return (grouped or key.lower() in VERDICT_KEYS) and value.strip().lower() in FAILED
    if value is False:
        return key.lower() in CHECK_KEYS or words[-1] == "match"
    if value is True:
        return named
    if type(value) in (int, float):
        if named and value < 0:
            return True  # not a count: refuse to read it as "none failed"
        return value > 0 and any(w.startswith(COUNT_WORDS) for w in words) and not LIMIT_WORDS & set(words)
    if named and isinstance(value, (list, dict)):
        return any(not _nothing(item) for item in (value if isinstance(value, list) else value.values()))
    return False


def _nothing(value: Any) -> bool:
    """An entry of a failure list or map that states no failure (``errors: [null]``, ``error: {code: 0}``)."""
    if isinstance(value, str):
        return value.strip().lower() in NOTHING
    if isinstance(value, (list, dict)):
        return not value
    return value is None or value is False or (type(value) in (int, float) and value == 0)


def failures(payload: dict[str, Any], *, top: frozenset[str] = frozenset()) -> list[str]:
    """JSON paths inside a report that state a failure (``top``: top-level keys judged elsewhere)."""
    found: list[str] = []
    stack = [(key, key, value, 1, False) for key, value in payload.items() if key not in top]
    seen = 0
    while stack and seen < MAX_NODES and len(found) < 8:
        path, key, value, depth, grouped = stack.pop()
        seen += 1
        if _failure(key, value, grouped):
            found.append(f"{path}={value!r}"[:120])
            continue
        if depth >= MAX_DEPTH:
            continue
        inner = grouped or key.lower().startswith(VERDICT_GROUPS)
        if isinstance(value, dict):
            stack.extend((f"{path}.{k}", k, v, depth + 1, inner) for k, v in value.items() if isinstance(k, str))
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", key, v, depth + 1, inner) for i, v in enumerate(value))
    return sorted(found)


#: top-level keys the state table reads itself (``ready: false`` is pending, not a failure)
_JUDGED = frozenset({"status", "result", "ready"})


def _statuses(payload: dict[str, Any]) -> list[str]:
    """``status`` and its alias ``result`` (both judged when both are there)."""
    return [v.strip().lower() for v in (payload.get("status"), payload.get("result")) if isinstance(v, str)]


def _not_yet(payload: dict[str, Any]) -> bool:
    return payload.get("verified") is False


def fixture_state(payload: dict[str, Any]) -> str:
    statuses, ready = _statuses(payload), payload.get("ready")
    if FAILED_SET.intersection(statuses) or failures(payload, top=_JUDGED):
        return INVALID
    if _not_yet(payload) or not all(status in FIXTURE_OK for status in statuses):
        return PENDING
    if ready is True or (ready is None and statuses):
        return VERIFIED
    return PENDING


def restore_state(payload: dict[str, Any]) -> str:
    statuses = _statuses(payload)
    if FAILED_SET.intersection(statuses) or failures(payload, top=_JUDGED):
        return INVALID
    if _not_yet(payload) or not statuses:
        return PENDING
    return VERIFIED if all(status in RESTORE_OK for status in statuses) else PENDING


def check_fixture(evidence: Evidence, findings: Findings) -> None:
    if not evidence.declared("test_mod"):
        # R6: without the independent test mod's log nothing game-side can be judged.
        findings.infra("no test-mod evidence is declared: the independent (game-side) record of the run is missing")
    for name, judge, what in (
        ("fixture", fixture_state, "fixture"),
        ("restore", restore_state, "restore verification"),
    ):
        if not evidence.declared(name):
            evidence.states[name] = PENDING
            findings.pending(
                "no fixture evidence is declared: the run cannot be judged until initialisation is shown faithful"
                if name == "fixture"
                else "no restore-verification evidence is declared"
            )
            continue
        payload = evidence.documents.get(name)
        if not isinstance(payload, dict):
            continue  # unusable: already an infra error
        state = judge(payload)
        evidence.states[name] = state
        shown = f"ready={payload.get('ready')!r}, status={payload.get('status', payload.get('result'))!r}"
        if "status" in payload and "result" in payload:
            shown += f", result={payload.get('result')!r}"
        if _not_yet(payload):
            shown += ", verified=False"
        if state == INVALID and not FAILED_SET.intersection(_statuses(payload)):
            shown += "; it states a failure at " + ", ".join(failures(payload, top=_JUDGED))
        if state == INVALID:
            verb = "is not valid" if name == "fixture" else "did not pass"
            findings.fixture(f"{what} ({evidence.usable[name]}) {verb}: {shown}")
        elif state == PENDING:
            findings.pending(
                f"{what} ({evidence.usable[name]}) is not verified yet ({shown}): the oracle stays pending"
            )


def check_lifecycle(evidence: Evidence, findings: Findings) -> None:
    """The test mod's own bookkeeping: the machine input it processed first must come after the
    instance was ready and after every restore that had started had finished. Input processed
    in a world that was not yet initialised or still being restored is an experiment that did
    not run on the faithful fixture (FIXTURE_INVALID). Records the audit cannot order decide
    nothing."""
    events = evidence.stream(TESTMOD)
    first = earliest(e for e in events if e.name == "input_processed")
    if first is None:
        return
    ready = [e for e in events if e.name == "instance_ready"]
    if ready and all(compare(e, first) == AFTER for e in ready):
        findings.fixture(
            f"the test mod processed the machine input ({first.ref}) before the instance was ready "
            f"({first_of(ready).ref}): the experiment did not run on the ready fixture"
        )
    finished = [e for e in events if e.name == "restore_finished"]
    for started in (e for e in events if e.name == "restore_started" and compare(e, first) == BEFORE):
        if not any(compare(done, started) == AFTER and compare(done, first) == BEFORE for done in finished):
            findings.fixture(_unfinished(started, first, finished))
            return
    # a restore while the carts the oracle describes still moved rewound the world mid-experiment
    # (one after the last cart event is the lab tidying up)
    last = latest(e for e in events if e.name in ("cart_ejected", "cart_removed"))
    for restore in (e for e in events if e.name in ("restore_started", "restore_finished")):
        if last is not None and compare(restore, first) == AFTER and compare(restore, last) == BEFORE:
            findings.fixture(
                f"the test mod records {restore.name} ({restore.ref}) after it processed the machine input "
                f"({first.ref}) and before the last cart event ({last.ref}): the world was restored "
                "mid-experiment, so the carts did not all come from one run on the restored copy"
            )
            return


def _unfinished(started: Event, first: Event, finished: list[Event]) -> str:
    after = [done for done in finished if compare(done, started) == AFTER]
    when = f"it finished only at {after[0].ref}" if after else "no restore_finished follows it"
    return (
        f"the restore that started at {started.ref} had not finished when the test mod processed the "
        f"machine input ({first.ref}; {when}): the experiment did not run on the restored copy"
    )
