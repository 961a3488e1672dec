"""Issue 16.1: the audit goes on when run.json fails its schema (validate names the problem, the
run is an INFRA_ERROR), so it reads the manifest through ``RunDir.load_manifest_fields``: a
field of the wrong type (``"imports": true``) is left out, never iterated (TypeError)."""

from __future__ import annotations

import contextlib
import json
import shutil
from pathlib import Path

import pytest

from pytest_coldstart.audit import audit_run
from pytest_coldstart.audit.explain import explain_provenance
from pytest_coldstart.run import schemas
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.layout import RunDir

RUNS = Path(__file__).resolve().parents[2] / "runs"
FIELDS = sorted(json.loads((RUNS / "passing" / "run.json").read_text("utf-8")))
WRONG = (True, [], "x", {"a": {"b": []}})


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = tmp_path_factory.mktemp("template") / "run"
    shutil.copytree(RUNS / "passing", run)
    return run


@pytest.mark.parametrize("field", FIELDS)
def test_a_mistyped_manifest_field_is_an_infra_error_not_a_crash(field: str, template: Path, tmp_path: Path) -> None:
    for number, wrong in enumerate(WRONG):
        run = tmp_path / f"run-{number}"
        shutil.copytree(template, run)
        manifest = json.loads((run / "run.json").read_text("utf-8"))
        manifest[field] = wrong
        (run / "run.json").write_text(json.dumps(manifest), "utf-8")
        if schemas.is_valid("run", manifest):
            continue  # this value is allowed there
        report = audit_run(run, write=False)
        assert not [e for e in report["infra_errors"] if "internal" in e], (field, wrong, report["infra_errors"])
        assert report["failure_class"] == "INFRA_ERROR", (field, wrong)
        with contextlib.suppress(ColdstartError):  # an unusable run.json (a version): one line in the CLI
            explain_provenance(run)  # the explanation reads the same view


def test_valid_fields_drops_only_the_rejected_fields() -> None:
    manifest = json.loads((RUNS / "passing" / "run.json").read_text("utf-8"))
    assert schemas.valid_fields("run", manifest) is manifest
    broken = {**manifest, "imports": True, "harness": {**manifest["harness"], "name": 7}}
    kept = schemas.valid_fields("run", broken)
    assert set(broken) - set(kept) == {"imports", "harness"}
    assert all(kept[key] == manifest[key] for key in kept)


def test_load_manifest_fields_on_a_valid_run_is_load_manifest() -> None:
    rundir = RunDir(RUNS / "passing")
    assert rundir.load_manifest_fields() == rundir.load_manifest()
