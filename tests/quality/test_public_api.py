"""The declared public API: ``pytest_coldstart.__all__`` is pinned here (changing it is a
release note), every name in it resolves, and the documentation imports only from it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest_coldstart

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

PUBLIC = [
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
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)
IMPORT = re.compile(r"^\s*(?:from\s+(pytest_coldstart[\w.]*)\s+import\b|import\s+(pytest_coldstart[\w.]*))", re.M)


def test_all_is_pinned() -> None:
    assert pytest_coldstart.__all__ == PUBLIC
    assert sorted(pytest_coldstart.__dir__()) == sorted(PUBLIC)


def test_every_public_name_resolves() -> None:
    for name in PUBLIC:
        assert getattr(pytest_coldstart, name) is not None, name


def test_importing_the_package_loads_none_of_it() -> None:
    code = "import sys, pytest_coldstart; print(sorted(m for m in sys.modules if m.startswith('pytest_coldstart')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['pytest_coldstart', 'pytest_coldstart._version']"


def test_loading_the_pytest_plugin_imports_no_audit_engine() -> None:
    """The plugin loads in every pytest session of an environment that installs it: a session
    over ordinary tests must not pay for the engine (it loads when a run is audited)."""
    code = "import json, sys, pytest_coldstart.pytest_plugin.plugin; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = {m for m in json.loads(out) if m.startswith("pytest_coldstart.")}
    assert "pytest_coldstart.pytest_plugin.plugin" in loaded
    assert not loaded & {"pytest_coldstart.audit.engine", "pytest_coldstart.audit.evidence.scan"}, sorted(loaded)


def test_the_docs_import_only_from_the_top_level_package() -> None:
    imports: list[tuple[str, str]] = []
    for doc in DOCS:
        for block in FENCE.findall(doc.read_text(encoding="utf-8")):
            imports += [(doc.name, a or b) for a, b in IMPORT.findall(block)]
    assert imports, "the docs show imports (the check would otherwise be empty)"
    assert [(doc, module) for doc, module in imports if module != "pytest_coldstart"] == []


def test_doc_imports_name_only_public_names() -> None:
    names = re.compile(r"^\s*from\s+pytest_coldstart\s+import\s+\(?([^)\n]+)", re.M)
    used = set()
    for doc in DOCS:
        for block in FENCE.findall(doc.read_text(encoding="utf-8")):
            for group in names.findall(block):
                used |= {part.split(" as ")[0].strip() for part in group.split(",") if part.strip()}
    assert used and used <= set(PUBLIC), used - set(PUBLIC)
