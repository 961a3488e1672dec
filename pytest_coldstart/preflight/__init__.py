"""Harness preflight (seed 000 §2): can this harness reach everything the agent will need,
before a model is spent on discovering it?

The core never imports pytest. ``config`` loads a harness config, ``registry`` gathers the
checks (built-ins and third-party ones, all through the pluggy hook), ``runner`` runs them
with crash isolation, ``probes`` records every command under ``<out>/probes/``, ``report``
writes ``preflight.json`` and ``preflight.md``.
"""

from pytest_coldstart.preflight.checks.base import FAIL, PASS, SKIP, STATUSES, Check, CheckResult

__all__ = ["FAIL", "PASS", "SKIP", "STATUSES", "Check", "CheckResult"]
