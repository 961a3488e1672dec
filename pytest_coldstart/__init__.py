"""pytest-coldstart: auditable AI-agent runs, judged without trusting the agent's final message.

The package is layered; a module imports only from its own layer or the layers below it
(``tests/quality/test_layering.py`` checks this on the import graph):

1. ``run``       the on-disk run format: paths, JSON I/O, layout, versions, schemas, payloads
2. ``record``    writing a run: recorder, hash-chained trajectory, redaction, seal, migrate
3. ``validate``  structural findings over a run (one ``Findings`` model, shared by the audit)
4. ``audit``     the judgement: ``evidence/`` (loading external streams), ``flags/`` (one
                 module per audit flag), reviews, classification, the report;
                 ``ext``     the pluggy hookspecs and plugin manager (extension points)
5. ``importers``, ``preflight``   harness sessions in, environment checks
6. ``analysis``  summaries and cross-run comparison
7. ``demo``      deterministic example runs and the scenario catalogue
8. ``cli``, ``pytest_plugin``     thin outer layers that only translate

Everything below ``cli`` and ``pytest_plugin`` never imports pytest. The names in ``__all__``
are the public API (the documentation imports only these); they load on first use, so
``import pytest_coldstart`` stays cheap for the recorder CLI.
"""

from __future__ import annotations

import importlib

from pytest_coldstart._version import __version__

# Not typing.TYPE_CHECKING: importing typing (and re) would cost every hook process that
# only needs the version; type checkers treat this name the same way.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from pytest_coldstart.analysis.compare import compare
    from pytest_coldstart.analysis.summary import build as build_summary
    from pytest_coldstart.analysis.summary import write as write_summary
    from pytest_coldstart.audit.audit_report import AuditReport, ReportFormatError
    from pytest_coldstart.audit.engine import audit_report, audit_run
    from pytest_coldstart.demo.research import SECRETS as DEMO_SECRETS
    from pytest_coldstart.demo.scenarios import SCENARIOS, RunBuilder
    from pytest_coldstart.ext.hookspecs import hookimpl
    from pytest_coldstart.ext.manager import manager as plugin_manager
    from pytest_coldstart.ext.manager import reset as reset_plugins
    from pytest_coldstart.importers.base import (
        ImportedCall,
        ImportedEvent,
        ImportedResult,
        ImportedSession,
        Importer,
        SessionFormatError,
        Where,
        read_lines,
    )
    from pytest_coldstart.importers.pipeline import import_session
    from pytest_coldstart.preflight.checks.base import Check, CheckResult
    from pytest_coldstart.pytest_plugin.fixtures import flag_status, mismatches
    from pytest_coldstart.record.recorder import Recorder, init_run
    from pytest_coldstart.record.seal import seal
    from pytest_coldstart.record.trajectory import iter_records
    from pytest_coldstart.run.errors import ColdstartError
    from pytest_coldstart.run.layout import RunDir
    from pytest_coldstart.run.payloads import PayloadStore
    from pytest_coldstart.run.vocabulary import FailureClass, FlagName, ReviewId, ReviewState, Status
    from pytest_coldstart.validate.run import validate_run

#: public name -> module that defines it
_EXPORTS: dict[str, str] = {
    "audit_run": "pytest_coldstart.audit.engine",
    "audit_report": "pytest_coldstart.audit.engine",
    "AuditReport": "pytest_coldstart.audit.audit_report",
    "ReportFormatError": "pytest_coldstart.audit.audit_report",
    "Status": "pytest_coldstart.run.vocabulary",
    "FailureClass": "pytest_coldstart.run.vocabulary",
    "FlagName": "pytest_coldstart.run.vocabulary",
    "ReviewId": "pytest_coldstart.run.vocabulary",
    "ReviewState": "pytest_coldstart.run.vocabulary",
    "validate_run": "pytest_coldstart.validate.run",
    "init_run": "pytest_coldstart.record.recorder",
    "Recorder": "pytest_coldstart.record.recorder",
    "seal": "pytest_coldstart.record.seal",
    "iter_records": "pytest_coldstart.record.trajectory",
    "RunDir": "pytest_coldstart.run.layout",
    "PayloadStore": "pytest_coldstart.run.payloads",
    "ColdstartError": "pytest_coldstart.run.errors",
    "import_session": "pytest_coldstart.importers.pipeline",
    "Importer": "pytest_coldstart.importers.base",
    "ImportedCall": "pytest_coldstart.importers.base",
    "ImportedEvent": "pytest_coldstart.importers.base",
    "ImportedResult": "pytest_coldstart.importers.base",
    "ImportedSession": "pytest_coldstart.importers.base",
    "SessionFormatError": "pytest_coldstart.importers.base",
    "Where": "pytest_coldstart.importers.base",
    "read_lines": "pytest_coldstart.importers.base",
    "Check": "pytest_coldstart.preflight.checks.base",
    "CheckResult": "pytest_coldstart.preflight.checks.base",
    "hookimpl": "pytest_coldstart.ext.hookspecs",
    "plugin_manager": "pytest_coldstart.ext.manager",
    "reset_plugins": "pytest_coldstart.ext.manager",
    "build_summary": "pytest_coldstart.analysis.summary",
    "write_summary": "pytest_coldstart.analysis.summary",
    "compare": "pytest_coldstart.analysis.compare",
    "SCENARIOS": "pytest_coldstart.demo.scenarios",
    "RunBuilder": "pytest_coldstart.demo.scenarios",
    "DEMO_SECRETS": "pytest_coldstart.demo.research",
    "flag_status": "pytest_coldstart.pytest_plugin.fixtures",
    "mismatches": "pytest_coldstart.pytest_plugin.fixtures",
}
#: public names bound to another name in their module
_RENAMED = {
    "build_summary": "build",
    "write_summary": "write",
    "plugin_manager": "manager",
    "reset_plugins": "reset",
    "DEMO_SECRETS": "SECRETS",
}

__all__ = [
    "DEMO_SECRETS",
    "SCENARIOS",
    "AuditReport",
    "Check",
    "CheckResult",
    "ColdstartError",
    "FailureClass",
    "FlagName",
    "ImportedCall",
    "ImportedEvent",
    "ImportedResult",
    "ImportedSession",
    "Importer",
    "PayloadStore",
    "Recorder",
    "ReportFormatError",
    "ReviewId",
    "ReviewState",
    "RunBuilder",
    "RunDir",
    "SessionFormatError",
    "Status",
    "Where",
    "__version__",
    "audit_report",
    "audit_run",
    "build_summary",
    "compare",
    "flag_status",
    "hookimpl",
    "import_session",
    "init_run",
    "iter_records",
    "mismatches",
    "plugin_manager",
    "read_lines",
    "reset_plugins",
    "seal",
    "validate_run",
    "write_summary",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'pytest_coldstart' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), _RENAMED.get(name, name))
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
