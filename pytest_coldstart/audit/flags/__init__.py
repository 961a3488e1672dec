"""The audit flags: one module per flag, named after it (``machine_operated.py`` decides
machine_operated), each defining one ``Flag``; ``REGISTRY`` holds them in protocol order and
is what the engine iterates. The shared Protocol and Context are in ``base.py``."""

from __future__ import annotations

from pytest_coldstart.audit.flags import (
    agent_read_log,
    answer_correct,
    logger_armed_before_activation,
    machine_operated,
    transient_outputs_captured,
)
from pytest_coldstart.audit.flags.base import Context, Flag
from pytest_coldstart.audit.model import FlagResult
from pytest_coldstart.run.vocabulary import FlagName

#: Every flag, in protocol order (the order of audit.json ``flags``).
REGISTRY: tuple[Flag, ...] = (
    machine_operated.FLAG,
    logger_armed_before_activation.FLAG,
    transient_outputs_captured.FLAG,
    agent_read_log.FLAG,
    answer_correct.FLAG,
)
assert tuple(flag.name for flag in REGISTRY) == tuple(FlagName), "the registry lists every flag in protocol order"


def compute_flags(ctx: Context) -> list[FlagResult]:
    """Each flag's mechanical outcome (reviews are applied afterwards)."""
    flags = [flag.evaluate(ctx) for flag in REGISTRY]
    for flag in flags:
        flag.mechanical_status = flag.status
        flag.mechanical_summary = flag.summary
    return flags


__all__ = ["REGISTRY", "Context", "Flag", "compute_flags"]
