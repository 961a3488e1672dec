"""Named scenarios: one valid run and the ways a run goes wrong, each with the audit outcome
the protocol demands. Tests, the pytest plugin's fixtures and ``coldstart demo`` share them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_coldstart.demo.scenarios import story
from pytest_coldstart.demo.scenarios.builder import RunBuilder
from pytest_coldstart.run.clock import Clock
from pytest_coldstart.run.vocabulary import FLAGS, FailureClass, ReviewStatus, Status

P, F, W = Status.PASS, Status.FAIL, Status.PENDING


@dataclass(frozen=True)
class Scenario:
    name: str
    description: str
    configure: Callable[[RunBuilder], RunBuilder]
    overall: Status
    failure_class: FailureClass | None
    flags: dict[str, str]  # flag -> expected status
    because: str = ""  # a phrase the report must contain (a flag summary or a finding): the reason
    follows: str = ""  # the protocol sentence (seed 000) the expected verdict follows from

    @property
    def run_id(self) -> str:
        return "scenario-" + self.name.replace("_", "-")


def _flags(mo: str = P, la: str = P, to: str = P, ar: str = P, ac: str = P) -> dict[str, str]:
    return dict(zip(FLAGS, (mo, la, to, ar, ac), strict=False))


def _late_logger(b: RunBuilder) -> RunBuilder:
    armed = b.passing().event("logger", "logger_armed")
    armed.update(at=story.at(10.8), tick=305)
    return b


def _capture_after_removal(b: RunBuilder) -> RunBuilder:
    capture = b.passing().event("logger", "cart_observed", 1)
    capture.update(at=story.at(14.2), tick=380)  # cart 2 was removed at 13.8 / tick 370
    return b


def _test_side_only(b: RunBuilder) -> RunBuilder:
    b.passing().drop_call("c-read-log")

    def peek(records: list[dict[str, Any]]) -> None:
        records.insert(
            -3,
            {
                "record": "call",
                "call_id": "c-peek-testmod",
                "tool": "read",
                "arguments": {"path": story.TESTMOD_PATH},
                "phase": "agent",
                "actor": "agent",
                "at": story.at(20.0),
            },
        )
        records.insert(
            -3,
            {
                "record": "result",
                "call_id": "c-peek-testmod",
                "status": "ok",
                "actor": "agent",
                "phase": "agent",
                "at": story.at(20.2),
                "result": {"text": " ".join(f"{c['uuid']} {c['items']}" for c in story.CARTS)},
            },
        )

    return b.mutate_trajectory(peek)


def _tie(b: RunBuilder) -> RunBuilder:
    processed = b.passing().event("testmod", "input_processed")
    b.event("logger", "logger_armed").update(at=processed["at"], tick=processed["tick"])
    return b


SCENARIOS: dict[str, Scenario] = {
    s.name: s
    for s in (
        Scenario(
            "passing",
            "valid run, its three required reviews resolved",
            lambda b: b.passing(),
            P,
            None,
            _flags(),
            because="covers every oracle cart",
        ),
        Scenario(
            "pending_reviews",
            "mechanically fine, no review resolutions yet",
            lambda b: b.unreviewed(),
            W,
            None,
            _flags(mo=W, la=W, ac=W),
            because="awaiting explicit review",
        ),
        Scenario(
            "attempts_without_processing",
            "the test mod saw input attempts but never processed one",
            lambda b: b.passing().mutate_testmod(lambda ev: [e for e in ev if e["event"] != "input_processed"]),
            F,
            FailureClass.AGENT_FAIL,
            _flags(mo=F, la=F),
            because="an attempt is never accepted as operation",
        ),
        Scenario(
            "late_logger",
            "the logger was armed after the machine was actuated",
            _late_logger,
            F,
            FailureClass.AGENT_FAIL,
            _flags(la=F),
            because="the logger was late",
        ),
        Scenario(
            "capture_after_removal",
            "one cart was captured only after it was destroyed",
            _capture_after_removal,
            F,
            FailureClass.AGENT_FAIL,
            _flags(to=F),
            because="captured only after they were removed",
        ),
        Scenario(
            "test_side_only_observation",
            "the agent never read its logger (it only peeked at the test mod's file)",
            _test_side_only,
            F,
            FailureClass.AGENT_FAIL,
            _flags(ar=F),
            because="test-side observation does not count",
        ),
        Scenario(
            "pending_oracle",
            "the oracle is not verified yet",
            lambda b: b.passing().mutate_oracle(lambda o: o.update(status="pending")),
            W,
            None,
            _flags(ac=W),
            because="the oracle is not verified",
        ),
        Scenario(
            "invalid_fixture",
            "the fixture report marks initialisation invalid",
            lambda b: b.passing().mutate_fixture(lambda f: f.update(status="invalid", ready=False)),
            F,
            FailureClass.FIXTURE_INVALID,
            _flags(),
            because="fixture (fixture/ready.json) is not valid",
        ),
        Scenario(
            "failed_restore",
            "the copy restoration did not verify",
            lambda b: b.passing().mutate_restore(lambda r: r.update(status="failed")),
            F,
            FailureClass.FIXTURE_INVALID,
            _flags(),
            because="restore verification (restore/verify.json) did not pass",
        ),
        Scenario(
            "tampered_hashes",
            "the test-mod file changed after it was declared",
            lambda b: b.passing().tamper(story.TESTMOD_PATH, lambda data: data.replace(b'"tick":301', b'"tick":302')),
            F,
            FailureClass.INFRA_ERROR,
            _flags(mo=F, la=F, to=F, ac=W),
            because="evidence test_mod: sha256 mismatch",
        ),
        Scenario(
            "answer_mismatch",
            "the answer lists a cart's items in the wrong order",
            lambda b: b.passing().mutate_answer(lambda a: a["carts"][1]["items"].reverse()),
            F,
            FailureClass.AGENT_FAIL,
            _flags(ac=F),
            because="differ from the oracle",
        ),
        Scenario(
            "omitted_cart",
            "the answer leaves out one of the oracle's carts",
            lambda b: b.passing().mutate_answer(lambda a: a["carts"].pop()),
            F,
            FailureClass.AGENT_FAIL,
            _flags(ac=F),
            because="the answer omits 1 oracle cart",
        ),
        Scenario(
            "cross_stream_tie",
            "logger_armed shares time and tick with input_processed (different streams): an ordering review",
            _tie,
            W,
            None,
            _flags(la=W),
            because="logger_armed_before_activation.ordering",
        ),
        Scenario(
            "rejected_review",
            "the reviewer rejected the causality evidence",
            lambda b: b.passing().review(
                "machine_operated.causality",
                ReviewStatus.REJECTED,
                evidence=["trajectory:c-actuate"],
                note="coincidental call",
            ),
            F,
            FailureClass.AGENT_FAIL,
            _flags(mo=F),
            because="review(s) rejected: machine_operated.causality",
        ),
        Scenario(
            "unknown_version",
            "run.json carries a future schemaVersion",
            lambda b: b.passing().edit_json("run.json", lambda m: m.update(schemaVersion=3)),
            F,
            FailureClass.INFRA_ERROR,
            _flags(F, F, F, F, F),
            because="schemaVersion 3",
        ),
        Scenario(
            "path_escape",
            "the answer is declared outside the run directory",
            lambda b: b.passing().edit_json(
                "evidence.json", lambda e: e["answer"].update(path="../outside/answer.json")
            ),
            F,
            FailureClass.INFRA_ERROR,
            _flags(ac=F),
            because="leaves the run directory",
        ),
    )
}


def build_run(run_dir: str | Path, name: str = "passing", *, clock: Clock | None = None) -> Path:
    """Write scenario ``name`` as a complete run directory at ``run_dir`` and return it."""
    scenario = SCENARIOS[name]
    return scenario.configure(RunBuilder(run_dir, run_id=scenario.run_id, clock=clock)).build()
