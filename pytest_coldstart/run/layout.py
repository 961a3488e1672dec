"""The run directory: where each file lives, and reading its documents in the current shape.

Readers accept version 1 (the reference implementation's files) through ``v1`` translators and
version 2 (ours); anything else raises VersionError. Nothing outside the run directory is read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytest_coldstart.run import jsonio, schemas, v1
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.versioning import version_of

RUN_JSON = "run.json"
TASK_MD = "task.md"
VISIBILITY_JSON = "visibility.json"
VISIBILITY_FILES = "visibility/files"
TRAJECTORY = "trajectory.jsonl"
EVIDENCE_JSON = "evidence.json"
REVIEWS = "reviews.jsonl"
IMPORTS = "imports"
ARTIFACTS = "artifacts"
PAYLOADS = "payloads"
AUDIT_DIR = "audit"
SUMMARY_JSON = "summary.json"
ORIGINALS = "originals"
#: Private working state (lock, call index): derived, never sealed, never evidence.
STATE_DIR = ".coldstart"


class RunDir:
    """Paths of one run directory, plus version-aware readers of its documents."""

    def __init__(self, root: str | Path):
        self.root = Path(root)

    def path(self, relative: str) -> Path:
        return self.root / relative

    @property
    def run_json(self) -> Path:
        return self.root / RUN_JSON

    @property
    def trajectory(self) -> Path:
        return self.root / TRAJECTORY

    @property
    def evidence_json(self) -> Path:
        return self.root / EVIDENCE_JSON

    @property
    def reviews(self) -> Path:
        return self.root / REVIEWS

    @property
    def state_dir(self) -> Path:
        return self.root / STATE_DIR

    @property
    def lock_path(self) -> Path:
        return self.root / STATE_DIR / "lock"

    def exists(self) -> bool:
        return self.run_json.is_file()

    def require(self) -> None:
        if not self.root.is_dir():
            raise ColdstartError("run directory does not exist", self.root)
        if not self.run_json.is_file():
            raise ColdstartError("not a run directory (no run.json)", self.root)

    # -- documents, always returned in the current (version 2) in-memory shape --------------

    def manifest_version(self) -> int:
        return version_of(jsonio.read_json_object(self.run_json, what=RUN_JSON), "run", RUN_JSON)

    def load_manifest(self) -> dict[str, Any]:
        document = jsonio.read_json_object(self.run_json, what=RUN_JSON)
        if version_of(document, "run", RUN_JSON) == 1:
            return v1.manifest_to_current(document)
        return document

    def load_manifest_fields(self) -> dict[str, Any]:
        """``load_manifest`` without the fields run.schema.json rejects (``schemas.valid_fields``):
        for readers that go on when run.json is invalid (the audit, its explanation, the lab
        views), so no wrong type reaches them."""
        return schemas.valid_fields("run", self.load_manifest())

    def load_evidence(self) -> dict[str, Any]:
        """evidence.json as {name: declaration or None}; a missing file declares nothing."""
        if not self.evidence_json.exists():
            return {"schemaVersion": 2}
        document = jsonio.read_json_object(self.evidence_json, what=EVIDENCE_JSON)
        if version_of(document, "evidence", EVIDENCE_JSON) == 1:
            return v1.evidence_to_current(document)
        return document

    def load_visibility(self) -> dict[str, Any]:
        document = jsonio.read_json_object(self.root / VISIBILITY_JSON, what=VISIBILITY_JSON)
        if version_of(document, "visibility", VISIBILITY_JSON) == 1:
            return v1.visibility_to_current(document)
        return document
