"""The ``logging`` block of run.json: payload mode, limits, compression and redaction rules.

``complete(overrides)`` merges a caller's partial settings with the defaults, checks them (an
unknown mode, compression or digest is refused before anything is recorded) and records the
redaction rules as the recorder will apply them (names of environment variables, never their
values; a fingerprint of the salt, never the salt).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pytest_coldstart.record.redaction import Redactor
from pytest_coldstart.run.errors import UsageError
from pytest_coldstart.run.payloads import DEFAULT_SETTINGS, check_settings

#: Documented retention default: nothing is deleted automatically (see docs/logging.md).
RETENTION = "keep: runs are never pruned by pytest-coldstart; delete a run directory as a whole"


def complete(overrides: Mapping[str, Any] | None = None, *, environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    overrides = dict(overrides or {})
    unknown = set(overrides) - set(DEFAULT_SETTINGS) - {"redaction", "retention"}
    if unknown:
        raise UsageError(f"unknown logging setting(s): {', '.join(sorted(unknown))}")
    payload = check_settings(overrides)
    rules = overrides.get("redaction")
    if rules is not None and not isinstance(rules, dict):
        raise UsageError("logging.redaction must be an object")
    redactor = Redactor.from_settings({"redaction": rules or {}}, environ=environ)
    return {**payload, "redaction": redactor.settings(), "retention": overrides.get("retention", RETENTION)}


def with_rules(
    base: dict[str, Any] | None = None,
    *,
    payload_mode: str | None = None,
    compression: str | None = None,
    extra_keys: list[str] | None = None,
    env: list[str] | None = None,
    patterns: list[str] | None = None,
    hash_keys: list[str] | None = None,
    salt_env: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """``complete`` plus the command-line style additions (extra keys, env names, patterns ...)."""
    settings = dict(base or {})
    if payload_mode is not None:
        settings["payload_mode"] = payload_mode
    if compression is not None:
        settings["compression"] = compression
    rules = dict(settings.get("redaction") or {})
    current = complete(settings, environ=environ)["redaction"]
    rules["keys"] = current["keys"] + [k for k in extra_keys or [] if k not in current["keys"]]
    rules["env"] = current["env"] + [n for n in env or [] if n not in current["env"]]
    rules["patterns"] = current["patterns"] + [p for p in patterns or [] if p not in current["patterns"]]
    rules["hash_keys"] = current["hash_keys"] + [k for k in hash_keys or [] if k not in current["hash_keys"]]
    if salt_env:
        rules["digest"] = "hmac-sha256"
        rules["salt"] = {"env": salt_env}
    settings["redaction"] = rules
    return complete(settings, environ=environ)
