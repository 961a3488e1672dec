"""Ed25519 signatures on seal anchors, through the ``cryptography`` package (extra ``[sign]``).

Key files (unencrypted; the private key is the lab's, kept where the run's writer cannot read):

- private: PEM PKCS#8 (``-----BEGIN PRIVATE KEY-----``, from ``openssl genpkey -algorithm
  ed25519``) or OpenSSH (``-----BEGIN OPENSSH PRIVATE KEY-----``, from ``ssh-keygen -t ed25519``);
- public: PEM SubjectPublicKeyInfo (``-----BEGIN PUBLIC KEY-----``, from ``openssl pkey
  -pubout``) or an OpenSSH public key line (``ssh-ed25519 AAAA…``, the ``.pub`` file).

The signature covers ``anchor.signing_input``: a fixed prefix and the signed fields as
canonical JSON. ``key_id`` is ``sha256:`` + the sha256 of the raw 32-byte public key.
"""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path
from typing import Any

from pytest_coldstart.record.anchor import signing_input
from pytest_coldstart.run.errors import UsageError

MISSING = (
    "signing and verifying anchors needs the 'cryptography' package: "
    "pip install 'pytest-coldstart[sign]' (or pip install cryptography)"
)
MAX_KEY_BYTES = 16 * 1024


def _crypto() -> Any:
    try:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ed25519
    except ImportError:
        raise UsageError(MISSING) from None
    return serialization, ed25519


def _read_key(path: str | Path, what: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_KEY_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"cannot read the {what} ({exc.strerror or exc})", path) from None
    if len(data) > MAX_KEY_BYTES:
        raise UsageError(f"larger than {MAX_KEY_BYTES} bytes: not an Ed25519 {what}", path)
    return data


def load_private_key(path: str | Path) -> Any:
    serialization, ed25519 = _crypto()
    data = _read_key(path, "private key")
    try:
        if b"OPENSSH PRIVATE KEY" in data:
            key = serialization.load_ssh_private_key(data, password=None)
        else:
            key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as exc:
        raise UsageError(f"not an unencrypted Ed25519 private key in PEM or OpenSSH form ({exc})", path) from None
    if not isinstance(key, ed25519.Ed25519PrivateKey):
        raise UsageError(f"not an Ed25519 private key (it is {type(key).__name__})", path)
    return key


def load_public_key(path: str | Path) -> Any:
    serialization, ed25519 = _crypto()
    data = _read_key(path, "public key")
    try:
        if data.lstrip().startswith(b"ssh-"):
            key = serialization.load_ssh_public_key(data.strip())
        else:
            key = serialization.load_pem_public_key(data)
    except (ValueError, TypeError) as exc:
        raise UsageError(f"not an Ed25519 public key in PEM or OpenSSH form ({exc})", path) from None
    if not isinstance(key, ed25519.Ed25519PublicKey):
        raise UsageError(f"not an Ed25519 public key (it is {type(key).__name__})", path)
    return key


def key_id(public_key: Any) -> str:
    serialization, _ = _crypto()
    raw = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return "sha256:" + hashlib.sha256(raw).hexdigest()


def sign(anchor: dict[str, Any], private_key_path: str | Path) -> dict[str, Any]:
    """The anchor with its ``signature`` (a new dict)."""
    key = load_private_key(private_key_path)
    value = base64.b64encode(key.sign(signing_input(anchor))).decode("ascii")
    return {**anchor, "signature": {"algorithm": "ed25519", "key_id": key_id(key.public_key()), "value": value}}


def problem(anchor: dict[str, Any], public_key: Any, source: str) -> str | None:
    """Why ``anchor`` is not signed by ``public_key`` (a sentence), or None when it is."""
    from cryptography.exceptions import InvalidSignature

    signature = anchor.get("signature")
    if not isinstance(signature, dict):
        return f"anchor ({source}) is not signed, and a public key requires a signature"
    expected = key_id(public_key)
    if signature.get("key_id") != expected:
        return f"anchor ({source}) is signed by key {signature.get('key_id')}, not by the given public key ({expected})"
    try:
        public_key.verify(base64.b64decode(signature["value"], validate=True), signing_input(anchor))
    except (InvalidSignature, ValueError):
        return f"anchor ({source}): the signature does not verify with the given public key (the anchor was altered)"
    return None
