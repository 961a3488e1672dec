"""Deterministic example runs: the ``RunBuilder``, the catalogue of named scenarios and the
adversarial catalogue (runs that try to satisfy a PASS requirement falsely)."""

from pytest_coldstart.demo.scenarios.adversarial import ADVERSARIAL, SHOWCASE
from pytest_coldstart.demo.scenarios.builder import RunBuilder
from pytest_coldstart.demo.scenarios.catalogue import SCENARIOS, Scenario, build_run

# ``coldstart demo`` writes every entry of SCENARIOS to runs/: of the adversarial catalogue it
# ships only the few that help a reader; the tests audit all of them.
SCENARIOS.update({name: ADVERSARIAL[name] for name in SHOWCASE})

__all__ = ["ADVERSARIAL", "SCENARIOS", "SHOWCASE", "RunBuilder", "Scenario", "build_run"]
