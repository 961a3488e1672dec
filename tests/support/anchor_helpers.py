"""Sealed runs, Ed25519 key files and the tamper of issue 16.7, for the anchor tests."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from pytest_coldstart.demo.scenarios import RunBuilder
from pytest_coldstart.record.seal import seal_with_anchor


def sealed_passing(target: Path, run_id: str = "scenario-passing") -> tuple[Path, dict[str, Any]]:
    """The passing scenario (under ``run_id``), sealed: (run directory, its anchor)."""
    RunBuilder(target, run_id=run_id).passing().build()
    _, anchor = seal_with_anchor(target)
    return target, anchor


def reopen_and_cut(run: Path, cut: int = 3) -> None:
    """What the run's own writer can do: run.json back to open, the last lines cut."""
    manifest = json.loads((run / "run.json").read_text())
    manifest.update(status="open", seal=None, ended_at=None, duration_ms=None)
    (run / "run.json").write_text(json.dumps(manifest, indent=2) + "\n")
    lines = (run / "trajectory.jsonl").read_bytes().splitlines(keepends=True)
    (run / "trajectory.jsonl").write_bytes(b"".join(lines[:-cut]))


def openssl_keys(folder: Path, name: str = "lab") -> tuple[Path, Path]:
    """An Ed25519 key pair as `openssl genpkey` writes it (PEM PKCS#8 / SubjectPublicKeyInfo)."""
    private, public = folder / f"{name}.pem", folder / f"{name}.pub.pem"
    subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", str(private)], check=True)
    subprocess.run(["openssl", "pkey", "-in", str(private), "-pubout", "-out", str(public)], check=True)
    return private, public


def ssh_keys(folder: Path, name: str = "lab_ssh") -> tuple[Path, Path]:
    """An Ed25519 key pair as `ssh-keygen -t ed25519` writes it (OpenSSH formats)."""
    private = folder / name
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(private)], check=True)
    return private, folder / f"{name}.pub"
