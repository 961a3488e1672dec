"""Every finding code validate emits while a test runs must be documented (a shared autouse fixture)."""

from __future__ import annotations

import pytest

from pytest_coldstart.validate import findings as validate_findings


@pytest.fixture(autouse=True)
def findings_are_documented(monkeypatch):
    original = validate_findings.Findings.add
    undocumented: list[str] = []

    def add(self, file, line, problem, code):
        if not validate_findings.documented(code):
            undocumented.append(code)
        return original(self, file, line, problem, code)

    monkeypatch.setattr(validate_findings.Findings, "add", add)
    yield
    assert undocumented == [], f"finding codes missing from validate_findings.CODES: {sorted(set(undocumented))}"
