"""Sealed runs, Ed25519 key files and the tamper of issue 16.7, for the anchor tests."""

from __future__ import annotations

import json
import shutil
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
    """An Ed25519 key pair as `openssl genpkey` writes it (PEM PKCS#8 / SubjectPublicKeyInfo);
    written by cryptography in the same formats where the openssl tool is absent."""
    private, public = folder / f"{name}.pem", folder / f"{name}.pub.pem"
    if shutil.which("openssl"):
        subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", str(private)], check=True)
        subprocess.run(["openssl", "pkey", "-in", str(private), "-pubout", "-out", str(public)], check=True)
    else:
        _write_pair(private, public, "PEM")
    return private, public


def ssh_keys(folder: Path, name: str = "lab_ssh") -> tuple[Path, Path]:
    """An Ed25519 key pair as `ssh-keygen -t ed25519` writes it (OpenSSH formats)."""
    private, public = folder / name, folder / f"{name}.pub"
    if shutil.which("ssh-keygen"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(private)], check=True)
    else:
        _write_pair(private, public, "OpenSSH")
    return private, public


def _write_pair(private: Path, public: Path, form: str) -> None:
    from cryptography.hazmat.primitives import serialization as s
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    if form == "PEM":
        private.write_bytes(key.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, s.NoEncryption()))
        public.write_bytes(key.public_key().public_bytes(s.Encoding.PEM, s.PublicFormat.SubjectPublicKeyInfo))
    else:
        private.write_bytes(key.private_bytes(s.Encoding.PEM, s.PrivateFormat.OpenSSH, s.NoEncryption()))
        public.write_bytes(key.public_key().public_bytes(s.Encoding.OpenSSH, s.PublicFormat.OpenSSH) + b"\n")
