"""Recursive redaction of sensitive keys. A redacted value leaves its digest behind, so a
withheld value can still be proven later by whoever holds it."""

from __future__ import annotations

import re
from typing import Any

from pytest_coldstart import jsonio
from pytest_coldstart.hashing import sha256_bytes

DEFAULT_DENYLIST = (
    "api_key",
    "apikey",
    "access_key",
    "secret",
    "client_secret",
    "password",
    "passwd",
    "passphrase",
    "token",
    "access_token",
    "refresh_token",
    "auth_token",
    "authorization",
    "cookie",
    "private_key",
    "credential",
    "credentials",
)

_WORDS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def key_words(key: str) -> list[str]:
    """'apiKey' -> ['api', 'key']; 'X-Auth-Token' -> ['x', 'auth', 'token']."""
    return [w.lower() for w in _WORDS.findall(key)]


def marker(value: Any) -> str:
    return "<redacted sha256:" + sha256_bytes(jsonio.canonical_bytes(value)) + ">"


class Redactor:
    """Replaces the value of every key whose words contain a denylisted term (as whole words:
    'key' never matches 'keyboard')."""

    def __init__(self, denylist: tuple[str, ...] | list[str] = DEFAULT_DENYLIST):
        self.terms = [tuple(key_words(term)) for term in denylist if key_words(term)]
        self.count = 0

    @classmethod
    def from_settings(cls, settings: dict[str, Any] | None) -> Redactor:
        rules = (settings or {}).get("redaction") or {}
        keys = rules.get("keys")
        return cls(tuple(keys) if isinstance(keys, list) else DEFAULT_DENYLIST)

    def is_sensitive(self, key: str) -> bool:
        words = key_words(key)
        for term in self.terms:
            n = len(term)
            for i in range(len(words) - n + 1):
                if tuple(words[i : i + n]) == term:
                    return True
        return False

    def apply(self, value: Any) -> Any:
        if isinstance(value, dict):
            out = {}
            for key, item in value.items():
                if isinstance(key, str) and self.is_sensitive(key) and item is not None:
                    self.count += 1
                    out[key] = marker(item)
                else:
                    out[key] = self.apply(item)
            return out
        if isinstance(value, list):
            return [self.apply(item) for item in value]
        return value

    def settings(self) -> dict[str, Any]:
        return {"keys": [" ".join(t).replace(" ", "_") for t in self.terms], "digest": "sha256 of canonical JSON"}
