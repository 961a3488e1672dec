"""The research-grade sample bundles of ``coldstart demo``: complete cold-start runs that also
exercise every record family of the taxonomy, the payload store, redaction and decisions.

The story is the scenarios' valid run (``scenarios.story``: test-mod log, agent logger, answer,
oracle, fixture and restore declared and hashed; the agent writes, builds and starts its logger,
actuates the machine and reads its log back; the three required reviews resolved), told by a
harness that records more: a session, the states the agent saw, the actions it requested and
their outcomes, its decisions, its errors and recoveries. Inserted at their points of the story
(``RunBuilder.insert``): research first (task, bridge status), one failed logger build before
the retry, one invalid action, a repeated status poll, the actuation as an action whose state
poll times out once, a second actuation that never answers, decisions linked to states and
calls. The server log the agent reads and its logger read-back are larger than the inline limit:
they go to the payload store.

Fake secrets are seeded into tool arguments, results, error messages and an environment value;
none of them may reach any file of the bundle (``tests/bundle`` greps every byte).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

from pytest_coldstart.demo.facts import fixed
from pytest_coldstart.demo.research_session import PLAYER, SECRETS, TASK, Session
from pytest_coldstart.demo.scenarios import RunBuilder, story
from pytest_coldstart.run.clock import Clock, FixedClock

SECRET_ENV = "COLDSTART_DEMO_BRIDGE_CREDENTIAL"
SALT_ENV = "COLDSTART_DEMO_SALT"
#: A fixed, published salt: it makes the demo deterministic; real runs keep theirs private.
DEMO_SALT = "demo-salt-not-secret-0001"
#: Small enough that the logger read-back (about 1 kB) goes to the payload store.
INLINE_MAX_BYTES = 512
PREVIEW_CHARS = 160

_FULL_NOTE = (
    "audited PASS by design: a complete cold-start run (every evidence file declared and hashed, the three required "
    "reviews resolved), recorded with full payloads (gzip) so the logger read-back is kept and the audit reads it"
)
_PREVIEW_NOTE = (
    "audited PENDING by design: the same cold-start story and reviews, recorded preview-only, so the bundle keeps only a "
    f"{PREVIEW_CHARS}-character preview of the logger read-back; the audit cannot see from the bundle that the agent read "
    "its captured carts, and asks a reviewer (agent_read_log.linkage) instead of guessing: the price of preview-only retention"
)

BUNDLES: dict[str, dict[str, Any]] = {
    "research-full": {
        "harness": {
            "name": "demo-harness-a",
            "version": "1.4.0",
            "model": "demo-model-a",
            "provider": "demo-provider-a",
        },
        "payload_mode": "full",
        "compression": "gzip",
        "salted": False,
        "failed_builds": 1,
        "note": _FULL_NOTE,
    },
    "research-preview": {
        "harness": {
            "name": "demo-harness-b",
            "version": "2.1.0",
            "model": "demo-model-b",
            "provider": "demo-provider-b",
        },
        "payload_mode": "preview",
        "compression": "none",
        "salted": True,
        "failed_builds": 2,
        "note": _PREVIEW_NOTE,
    },
}


@contextmanager
def demo_environment(salted: bool) -> Iterator[None]:
    """Set the demo's fake secret (and salt) in this process's environment, then restore it."""
    saved = {name: os.environ.get(name) for name in (SECRET_ENV, SALT_ENV)}
    os.environ[SECRET_ENV] = SECRETS["env"]
    if salted:
        os.environ[SALT_ENV] = DEMO_SALT
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def clock_after_story() -> FixedClock:
    """Declarations, reviews and the seal follow the story's last record (its audit phase at 25 s)."""
    return FixedClock(story.T0 + timedelta(seconds=30))


def build(
    run_dir: str | Path,
    *,
    clock: Clock | None = None,
    harness: dict[str, str],
    payload_mode: str,
    compression: str,
    salted: bool,
    failed_builds: int,
    note: str,
) -> Path:
    """Record one complete research bundle into ``run_dir``, reviewed and sealed."""

    rules: dict[str, Any] = {"env": [SECRET_ENV], "hash_keys": ["player_id", "profile_id"]}
    if salted:
        rules.update(digest="hmac-sha256", salt={"env": SALT_ENV})
    builder = (
        RunBuilder(run_dir, run_id=Path(run_dir).name, clock=clock or clock_after_story())
        .passing()
        .manifest(
            task_bytes=TASK,
            task_source="demo-task.md",
            harness=dict(harness),
            experiment_id="demo-experiment",
            notes=[
                "deterministic research-grade sample bundle (coldstart demo): a complete cold-start run plus every record family, "
                "payload store and redaction",
                note,
            ],
            logging={
                "payload_mode": payload_mode,
                "compression": compression,
                "inline_max_bytes": INLINE_MAX_BYTES,
                "preview_chars": PREVIEW_CHARS,
                "redaction": rules,
            },
            **fixed(),
        )
    )
    # Reviewed when recorded (on the run's clock, before the seal), not at the story's fixed times.
    builder.mutate_reviews(lambda entries: [dict(entry, at=None) for entry in entries])
    Session(failed_builds).attach(builder)
    with demo_environment(salted):
        return builder.sealed().build()


__all__ = ["BUNDLES", "DEMO_SALT", "PLAYER", "SALT_ENV", "SECRETS", "SECRET_ENV", "build", "demo_environment"]
