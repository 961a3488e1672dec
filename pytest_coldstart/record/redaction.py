"""Redaction: what never reaches a run's files, and the digest it leaves behind.

Three rules, applied recursively to every value a record carries (keys and strings included):

- a **key denylist** (whole words: ``apiKey``, ``X-Api-Key`` and ``api_key`` all match ``api_key``;
  ``keyboard`` never matches ``key``): the whole value under such a key is replaced;
- **secret values inside strings**: the current values of environment variables named in the
  settings, and regular expressions (a named group ``secret`` limits the replacement to it);
- **identifier hashing** (optional): values under ``hash_keys`` (player/profile ids) become a
  stable pseudonym, so runs can still be joined on them.

A removed value leaves ``<redacted sha256:HEX>`` (``<hashed …>`` for identifiers): the digest of
the value's canonical JSON, so whoever holds the value can prove it later. A plain digest of a
low-entropy secret can be brute-forced; ``digest: hmac-sha256`` keys it with a salt read from an
environment variable that is never written to the run (only a fingerprint of it is).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import threading
from collections.abc import Iterable, Mapping
from functools import partial
from typing import Any, NamedTuple

from pytest_coldstart.record.secret_extent import QuoteState, trim
from pytest_coldstart.record.secret_rules import DEFAULT_DENYLIST, DEFAULT_PATTERNS, TRIGGERS, linear
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.errors import ColdstartError, UsageError
from pytest_coldstart.run.jsonfields import object_or_empty

#: the default rules live in ``secret_rules`` (with what each covers); re-exported here
__all__ = ["DEFAULT_DENYLIST", "DEFAULT_PATTERNS", "TRIGGERS", "Redactor", "marker"]

DIGESTS = ("sha256", "hmac-sha256")
#: Environment values shorter than this are not treated as secrets (they would match everywhere).
MIN_SECRET_CHARS = 4
DIGEST_INPUT = "canonical JSON (sorted keys, compact, UTF-8) of the removed value"
SCOPE = "every trajectory record field outside the envelope, run notes, harness/model strings, experiment id, artifact labels, review notes, imported raw sessions; task.md, visible files and artifacts are stored verbatim"

_SCALARS = (bool, int, float)
#: short strings found clean are remembered (bounded): records repeat tool names, phases, paths
_CLEAN_CHARS = 64
_CLEAN_ITEMS = 4096


class _Rule(NamedTuple):
    regex: re.Pattern[str]
    triggers: tuple[str, ...] | None  # None: no known literal, always search
    literal: bool  # triggers are case-sensitive literals (environment values)


_WORDS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
MARKER = re.compile(r"<(?:redacted|hashed) (?:sha256|hmac-sha256):[0-9a-f]{64}>")


def key_words(key: str) -> list[str]:
    """'apiKey' -> ['api', 'key']; 'X-Auth-Token' -> ['x', 'auth', 'token']."""
    return [w.lower() for w in _WORDS.findall(key)]


def _terms(keys: Any, what: str) -> list[tuple[str, ...]]:
    if not isinstance(keys, (list, tuple)) or not all(isinstance(k, str) for k in keys):
        raise UsageError(f"redaction {what} must be a list of strings")
    return [tuple(key_words(k)) for k in keys if key_words(k)]


def _matches(words: list[str], terms: list[tuple[str, ...]]) -> bool:
    for term in terms:
        n = len(term)
        for i in range(len(words) - n + 1):
            if tuple(words[i : i + n]) == term:
                return True
    return False


def salt_fingerprint(salt: bytes) -> str:
    return hmac.new(salt, b"pytest-coldstart redaction salt fingerprint", hashlib.sha256).hexdigest()[:16]


class Redactor:
    """Applies one run's redaction rules. ``paths`` collects JSON pointers of what it removed."""

    def __init__(
        self,
        denylist: tuple[str, ...] | list[str] = DEFAULT_DENYLIST,
        *,
        env: tuple[str, ...] | list[str] = (),
        patterns: tuple[str, ...] | list[str] = DEFAULT_PATTERNS,
        hash_keys: tuple[str, ...] | list[str] = (),
        digest: str = "sha256",
        salt_env: str | None = None,
        environ: Mapping[str, str] | None = None,
    ):
        environ = os.environ if environ is None else environ
        self.keys = list(denylist)
        self.terms = _terms(self.keys, "keys")
        self.hash_keys = list(hash_keys)
        self.hash_terms = _terms(self.hash_keys, "hash_keys")
        self.env = list(env)
        _terms(self.env, "env")
        self.patterns = list(patterns)
        if digest not in DIGESTS:
            raise ColdstartError(
                f"redaction digest {digest!r} is unknown (one of {', '.join(DIGESTS)}); refusing to record without it"
            )
        self.digest_name = digest
        self.salt_env = salt_env
        self.salt: bytes | None = None
        if digest == "hmac-sha256":
            value = environ.get(salt_env or "") if salt_env else None
            if not value:
                raise ColdstartError(
                    f"redaction digest hmac-sha256 needs its salt in the environment variable {salt_env!r}, which is unset or empty"
                )
            self.salt = value.encode("utf-8")
        self.rules = self._string_rules(environ)
        self.literals = tuple(t for rule in self.rules if rule.literal for t in rule.triggers or ())
        literals: list[tuple[str, ...] | None] = [rule.triggers for rule in self.rules if not rule.literal]
        self.fast = None if any(t is None for t in literals) else gates(t for ts in literals for t in ts or ())
        self._keys: dict[str, str | None] = {}
        self._clean: set[str] = set()  # short strings no rule changes (tool names, phases, paths repeat)
        self.count = 0
        self._local = threading.local()  # one Recorder may be shared by threads: paths are per thread

    def _string_rules(self, environ: Mapping[str, str]) -> list[_Rule]:
        values = sorted({environ.get(name, "") for name in self.env} - {""}, key=len, reverse=True)
        values = [v for v in values if len(v) >= MIN_SECRET_CHARS]
        rules = [_Rule(re.compile("|".join(re.escape(v) for v in values)), tuple(values), True)] if values else []
        for pattern in self.patterns:
            bounded = linear(pattern)  # the stored text stays as written; what runs is linear
            try:
                rules.append(_Rule(re.compile(bounded), TRIGGERS.get(pattern) or TRIGGERS.get(bounded), False))
            except re.error as exc:
                raise UsageError(f"redaction pattern {pattern!r} is not a regular expression ({exc})") from None
        return rules

    @classmethod
    def from_settings(cls, settings: dict[str, Any] | None, *, environ: Mapping[str, str] | None = None) -> Redactor:
        """The redactor a run's ``logging`` settings describe (defaults for absent rules)."""
        rules = (settings or {}).get("redaction") or {}
        if not isinstance(rules, dict):
            raise ColdstartError("logging.redaction must be an object", "run.json")
        digest = rules.get("digest", "sha256")
        if isinstance(digest, str) and digest.startswith("sha256 of"):
            digest = "sha256"  # the first recorder's wording
        salt = object_or_empty(rules.get("salt"))
        redactor = cls(
            tuple(rules["keys"]) if "keys" in rules else DEFAULT_DENYLIST,
            env=tuple(rules.get("env") or ()),
            patterns=tuple(rules["patterns"]) if "patterns" in rules else DEFAULT_PATTERNS,
            hash_keys=tuple(rules.get("hash_keys") or ()),
            digest=digest,
            salt_env=salt.get("env"),
            environ=environ,
        )
        expected = salt.get("fingerprint")
        if redactor.salt is not None and expected and salt_fingerprint(redactor.salt) != expected:
            raise ColdstartError(
                f"the salt in ${salt.get('env')} is not the one this run was opened with (fingerprint differs)",
                "run.json",
            )
        return redactor

    # -- digests -----------------------------------------------------------------------------

    def digest(self, value: Any) -> str:
        data = jsonio.canonical_bytes(value)
        if self.salt is not None:
            return hmac.new(self.salt, data, hashlib.sha256).hexdigest()
        return hashlib.sha256(data).hexdigest()

    def marker(self, value: Any, kind: str = "redacted") -> str:
        return f"<{kind} {self.digest_name}:{self.digest(value)}>"

    # -- applying ----------------------------------------------------------------------------

    @property
    def paths(self) -> list[str]:
        """JSON pointers of what the last ``apply``/``apply_record`` of this thread removed."""
        if not hasattr(self._local, "paths"):
            self._local.paths = []
        paths: list[str] = self._local.paths
        return paths

    @paths.setter
    def paths(self, value: list[str]) -> None:
        self._local.paths = value

    def key_kind(self, key: str) -> str | None:
        """'redacted', 'hashed' or None for a key (cached: keys repeat across records)."""
        kind = self._keys.get(key, "")
        if kind == "":
            words = key_words(key)
            kind = (
                "redacted"
                if _matches(words, self.terms)
                else "hashed"
                if self.hash_terms and _matches(words, self.hash_terms)
                else None
            )
            if len(self._keys) < 65536:
                self._keys[key] = kind
        return kind

    def is_sensitive(self, key: str) -> bool:
        return self.key_kind(key) == "redacted"

    def is_identifier(self, key: str) -> bool:
        return self.key_kind(key) == "hashed"

    def apply(self, value: Any, path: str = "") -> Any:
        """A redacted copy of ``value``; the input is never modified."""
        return self._walk(value, [path] if path else [])

    def _walk(self, value: Any, stack: list[str]) -> Any:
        # ``stack`` holds the JSON-pointer parts; a pointer string is built only when needed.
        if value.__class__ is str:
            return self._scrub(value, stack)
        if value.__class__ in _SCALARS or value is None:
            return value
        if isinstance(value, dict):
            out: dict[Any, Any] = {}
            for key, item in value.items():
                if not isinstance(key, str):
                    out[key] = self._walk(item, stack)
                    continue
                name = self._scrub(key, stack)
                kind = self.key_kind(key) if item is not None else None
                stack.append(_pointer(name))
                if kind is None or (kind == "hashed" and _is_marker(item)):
                    out[name] = self._walk(item, stack)
                else:
                    out[name] = self._removed(item, stack, kind)
                stack.pop()
            return out
        if isinstance(value, list):
            out_list = []
            for i, item in enumerate(value):
                stack.append(str(i))
                out_list.append(self._walk(item, stack))
                stack.pop()
            return out_list
        if isinstance(value, str):  # a str subclass
            return self._scrub(str(value), stack)
        return value

    def _removed(self, item: Any, stack: list[str], kind: str) -> str:
        if _is_marker(item):
            return str(item)  # already redacted upstream: keep its digest
        self.count += 1
        self.paths.append(_join(stack))
        return self.marker(item, kind)

    def scrub(self, text: str, path: str = "") -> str:
        """Replace secret values and pattern matches inside one string (markers are kept)."""
        return self._scrub(text, [path] if path else [])

    def _scrub(self, text: str, stack: list[str]) -> str:
        short = len(text) <= _CLEAN_CHARS
        if short and text in self._clean:  # a short string seen before and found clean
            return text
        low: str | None = None
        if self.fast is not None:  # every rule has literals: one quick look decides the common case
            low = text.casefold()
            if not any(t in low for t in self.fast) and not any(v in text for v in self.literals):
                if short and len(self._clean) < _CLEAN_ITEMS:
                    self._clean.add(text)
                return text
        changed = False
        for rule, triggers, literal in self.rules:
            if triggers is not None:  # a literal that must occur: skip the regex when none does
                if literal:
                    hit = any(t in text for t in triggers)
                else:
                    low = text.casefold() if low is None else low
                    hit = any(t in low for t in triggers)
                if not hit:
                    continue
            if not rule.search(text):
                continue
            pieces = MARKER.split(text)
            markers = MARKER.findall(text)
            out = []
            quotes, at = QuoteState(text), 0
            for i, piece in enumerate(pieces):
                out.append(rule.sub(partial(self._replace, quotes=quotes, at=at), piece))
                at += len(piece)
                if i < len(markers):
                    out.append(markers[i])
                    at += len(markers[i])
            new = "".join(out)
            if new != text:
                changed, text, low = True, new, None
        if changed:
            self.count += 1
            self.paths.append(_join(stack))
        elif short and len(self._clean) < _CLEAN_ITEMS:
            self._clean.add(text)
        return text

    def _replace(self, match: re.Match[str], *, quotes: QuoteState, at: int) -> str:
        # a group named secret, secret2, secret3 ... limits the replacement to it (the first that
        # matched); it spans whitespace only inside a string its quote opens (``secret_extent``)
        for name in match.re.groupindex:
            if name.startswith("secret") and match.group(name) is not None:
                if name == "secret3" and "/." in match.group(name):
                    return match.group(0)  # a bare value that climbs a path is no secret (secret_rules)
                start, end = match.span(name)
                end = trim(quotes.text, at + start, at + end, quotes) - at
                if end - start < MIN_SECRET_CHARS and end != match.end(name):
                    return match.group(0)
                whole_start = match.start()
                text = match.group(0)
                return text[: start - whole_start] + self.marker(match.string[start:end]) + text[end - whole_start :]
        return self.marker(match.group(0))

    def apply_record(self, fields: dict[str, Any], skip: tuple[str, ...] = ()) -> tuple[dict[str, Any], list[str]]:
        """Redact every field of a record except ``skip`` (the envelope); return it and the paths."""
        paths: list[str] = []
        self.paths = paths
        out: dict[str, Any] = {}
        for key, value in fields.items():
            if value is None or key in skip:
                out[key] = value
                continue
            kind = self.key_kind(key)
            if kind is not None and not (kind == "hashed" and _is_marker(value)):
                out[key] = self._removed(value, [_pointer(key)], kind)
            elif value.__class__ in _SCALARS:
                out[key] = value
            else:
                out[key] = self._walk(value, [_pointer(key)])
        return out, paths

    def settings(self) -> dict[str, Any]:
        """The rules as recorded in run.json ``logging.redaction`` (names, never values)."""
        return {
            "keys": list(self.keys),
            "hash_keys": list(self.hash_keys),
            "env": list(self.env),
            "patterns": list(self.patterns),
            "min_secret_chars": MIN_SECRET_CHARS,
            "digest": self.digest_name,
            "digest_input": DIGEST_INPUT,
            "salt": None if self.salt is None else {"env": self.salt_env, "fingerprint": salt_fingerprint(self.salt)},
            "scope": SCOPE,
        }


#: substrings shared by a family of literals: one ``in`` check stands for the family
GATE_WORDS = ("gh", "xox", "_live_", "_test_")


def gates(literals: Iterable[str]) -> tuple[str, ...]:
    """A small set of substrings such that every literal contains one: a text holding none of
    them holds no literal (the quick look before any rule runs; fewer ``in`` checks)."""
    wanted = {next((g for g in GATE_WORDS if g in literal), literal) for literal in literals}
    return tuple(sorted(w for w in wanted if not any(o != w and o in w for o in wanted)))


def _join(stack: list[str]) -> str:
    return "/" + "/".join(part.lstrip("/") if i == 0 else part for i, part in enumerate(stack)) if stack else "/"


def _pointer(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _is_marker(value: Any) -> bool:
    return isinstance(value, str) and MARKER.fullmatch(value) is not None


def marker(value: Any) -> str:
    """The default (unsalted sha256) marker of a value."""
    return "<redacted sha256:" + hashlib.sha256(jsonio.canonical_bytes(value)).hexdigest() + ">"
