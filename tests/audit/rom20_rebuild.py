"""Rebuild the real rom20 cold start (shared/corpus/real/rom20-coldstart) as a self-contained
version-1 run directory, from the bytes the public package holds.

What the package lacks, and how the rebuild handles it:
- the raw agent logger bytes: the normalized view ``result/agent-logger.norm.jsonl`` is
  declared as the logger, with ``raw_sha256`` naming the raw output's hash (054a3970...) and
  ``raw`` its name. Rule (documented in the audit's evidence module): every record of a view
  declared this way must carry ``source_sha256`` equal to ``raw_sha256``; the raw bytes being
  absent is reported as information, never silently accepted;
- the fixture snapshot and the preflight report: not declared (the run stays PENDING);
- the imported pi session and the 11 artifacts: their run.json entries are dropped, because a
  listed file that is absent is (rightly) an INFRA_ERROR;
- the agent's working directory and the logger's path during the run: run.json ``agent``
  (the repository root of run.json ``repo.root``, and the run root the package's notes name)
  and the logger declaration's ``original_path`` (the path the agent's reads name);
- visibility.json: the snapshot of the four visible files (TASK.md, ENV.md, SKILL.md,
  toolkit-operations.md) is not published, hashes included: the rebuilt run records an
  empty version-1 snapshot and run.json's ``visibility.file_count`` says 0 accordingly.
Everything else is copied byte for byte; declared hashes are the package's own.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

RAW_LOGGER_SHA = "054a3970381e3a0a47755b0fbec65a850e0367f028181172b86f4f99d32e0dc0"


def source(shared: Path) -> Path:
    return shared / "corpus" / "real" / "rom20-coldstart"


def rebuild(shared: Path, target: Path, *, reviews: bool) -> Path:
    base = source(shared)
    target.mkdir(parents=True)
    manifest = json.loads((base / "trajectory" / "run.json").read_text(encoding="utf-8"))
    manifest["imports"], manifest["artifacts"] = [], []
    manifest["visibility"]["file_count"] = 0
    # how the agent saw the run: the session ran in the repository root (run.json repo.root),
    # the run directory is the one the package's notes name ("run root: ...")
    manifest["agent"] = {
        "cwd": manifest["repo"]["root"],
        "run_dir": manifest["repo"]["root"] + "\\labs\\rom20-20260926T063100Z",
    }
    manifest["notes"] = list(manifest.get("notes", [])) + [
        "rebuilt by pytest-coldstart tests: imports/artifacts bytes are not published"
    ]
    (target / "run.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    task = (shared / "corpus" / "real" / "examples-coldstart" / "task-minecart-rom.md").read_bytes()
    (target / "task.md").write_bytes(task.replace(b"\n", b"\r\n"))  # the host had CRLF (README §1)
    visibility = {
        "schema": "mc-agent-coldstart-visibility/1",
        "created_at": manifest["created_at"],
        "cwd": ".",
        "roots": [],
        "exclude": [],
        "file_count": 0,
        "files": [],
        "missing": [],
        "note": "the four visible files (TASK.md, ENV.md, SKILL.md, toolkit-operations.md) are not published",
    }
    (target / "visibility.json").write_text(json.dumps(visibility, indent=2), encoding="utf-8")
    shutil.copyfile(base / "trajectory" / "trajectory.canonical.jsonl", target / "trajectory.jsonl")
    for name in ("testmod.experiment.jsonl", "agent-logger.norm.jsonl", "answer.json", "oracle.json"):
        (target / "result").mkdir(exist_ok=True)
        shutil.copyfile(base / "result" / name, target / "result" / name)
    (target / "verification").mkdir()
    shutil.copyfile(base / "verification" / "restore-evidence.json", target / "verification" / "restore-evidence.json")
    original = json.loads((base / "trajectory" / "evidence.json").read_text(encoding="utf-8"))
    evidence = {
        "schema": "mc-agent-coldstart-evidence/1",
        "test_mod": {"path": "result/testmod.experiment.jsonl", "sha256": original["test_mod"]["sha256"]},
        "agent_logger": {
            "path": "result/agent-logger.norm.jsonl",
            "sha256": original["agent_logger"]["normalized_sha256"],
            "raw": "agent-logger-raw/romlog.jsonl",
            "raw_sha256": original["agent_logger"]["sha256"],
            # where the logger wrote while the agent worked (the package's evidence map and the
            # agent's own reads name it): identity is this path, never the file name romlog.jsonl
            "original_path": "F:/mc-agent-worktrees/rom13/coldstart/labs/rom20-exp/audit/romlogger/romlog.jsonl",
        },
        "answer": {"path": "result/answer.json", "sha256": original["answer"]["sha256"]},
        "oracle": {"path": "result/oracle.json", "sha256": original["oracle"]["sha256"]},
        "restore": {"path": "verification/restore-evidence.json", "sha256": original["restore"]["sha256"]},
        "fixture": None,
        "preflight": None,
    }
    (target / "evidence.json").write_text(json.dumps(evidence, indent=2), encoding="utf-8")
    if reviews:
        shutil.copyfile(base / "verification" / "reviews.jsonl", target / "reviews.jsonl")
    return target


def original_evidence(shared: Path, target: Path) -> None:
    """Replace the rebuilt evidence.json by the package's own (absolute Windows paths)."""
    shutil.copyfile(source(shared) / "trajectory" / "evidence.json", target / "evidence.json")
