"""Harness configuration: load it (version 2, or the reference's version 1), apply ``--set``
overrides, refuse credentials, fill defaults and validate against the shipped JSON Schema.

The resolved values are exactly what the checks read and what the report records. Every
problem is a one-line ``UsageError`` naming the file (or the ``--set`` argument) and the field.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pytest_coldstart.record.redaction import DEFAULT_DENYLIST, Redactor
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.errors import ColdstartError, UsageError
from pytest_coldstart.run.hashing import sha256_bytes
from pytest_coldstart.run.numbers import digits
from pytest_coldstart.run.versioning import CURRENT, version_of

KIND = "harness-config"

#: Field names that may hold a credential (whole words: "keyboard" is not "key").
CREDENTIAL_TERMS = (*DEFAULT_DENYLIST, "key")

#: A field named ``*_env`` may name an environment variable even when its name sounds secret
#: (``token_env: "MY_TOKEN"``): it names where the secret lives, never the secret itself.
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

DEFAULTS: dict[str, Any] = {
    "name": "",
    "command": "",
    "version_args": ["--version"],
    "model": "",
    "provider": "",
    "session_env": "",
    "shell": ["bash", "--version"],
    "fetch_urls": [],
    "build": {"java": "", "min_java": 0, "pip_packages": []},
    "bridge": {
        "enabled": True,
        "command": "",
        "siblings_root": "",
        "help_args": ["--help"],
        "mcp_args": ["mcp", "--help"],
        "smoke": True,
        "smoke_command": [],
        "smoke_ok": "[smoke] OK",
    },
    "ports": {"api": 27190, "mod": 27191, "range": [27190, 27199]},
    "lab": {
        "enabled": True,
        "name": "preflight",
        "java": "",
        "provision": True,
        "start": False,
        "ports": {},
        "wait": 300,
        "manager": [],
        "list_args": ["list", "--json"],
        "provision_args": ["provision", "--name", "{name}", "--game-port", "{game_port}", "--rcon-port", "{rcon_port}"],
        "start_args": ["start", "--name", "{name}", "--wait", "{wait}"],
        "status_args": ["status", "--name", "{name}", "--json"],
        "stop_args": ["stop", "--name", "{name}"],
        "host": "127.0.0.1",
        "rcon_command": "list",
        "rcon_expect": "players online",
    },
    "timeouts": {
        "command": 30,
        "fetch": 20,
        "pip": 180,
        "build": 120,
        "bridge": 60,
        "smoke": 60,
        "smoke_total": 300,
        "lab_list": 60,
        "provision": 600,
        "lab_start": 900,
        "lab_stop": 120,
    },
}

#: Version-1 (reference) configs provision the way the reference's lab manager expects.
V1_PROVISION_ARGS = ["provision", "--name", "{name}", "--void", "--fabric-api", "--carpet"]


@dataclass
class HarnessConfig:
    """A resolved harness config plus where it came from."""

    values: dict[str, Any]
    path: str | None = None
    sha256: str | None = None
    size: int | None = None
    source_version: int = CURRENT
    overrides: list[dict[str, Any]] = field(default_factory=list)

    def get(self, dotted: str, default: Any = None) -> Any:
        node: Any = self.values
        for part in dotted.split("."):
            if not isinstance(node, dict) or part not in node:
                return default
            node = node[part]
        return node

    def section(self, name: str) -> dict[str, Any]:
        value = self.values.get(name)
        return value if isinstance(value, dict) else {}

    def timeout(self, name: str) -> float:
        value = self.section("timeouts").get(name, DEFAULTS["timeouts"].get(name, 60))
        return float(value)

    def describe(self) -> dict[str, Any]:
        """The report's ``config`` block: provenance plus the exact values checked."""
        return {
            "path": self.path,
            "sha256": self.sha256,
            "size": self.size,
            "source_version": self.source_version,
            "overrides": copy.deepcopy(self.overrides),
            "values": Redactor().apply(self.values),
        }


def load_config(path: str | Path, overrides: list[str] | tuple[str, ...] = ()) -> HarnessConfig:
    """Read a config file and resolve it; every problem is a UsageError naming the file."""
    label = str(path)
    try:
        data = Path(path).read_bytes()  # read once: the recorded hash is of the bytes parsed
    except OSError as exc:
        raise UsageError(f"harness config cannot be read ({exc.strerror or exc})", label) from None
    try:
        document = jsonio.parse_json_bytes(data, label)
    except ColdstartError as exc:
        raise UsageError(exc.problem, label) from None
    config = from_document(document, overrides, label=label)
    config.path = label
    config.sha256 = sha256_bytes(data)
    config.size = len(data)
    return config


def from_document(
    document: Any, overrides: list[str] | tuple[str, ...] = (), *, label: str = "harness config"
) -> HarnessConfig:
    """Resolve an in-memory config document (tests and embedding callers use this directly)."""
    try:
        source_version = version_of(document, KIND, label)
    except ColdstartError as exc:
        raise UsageError(exc.problem, label) from None
    values = copy.deepcopy(document)
    values.pop("schema", None)
    values.pop("schemaVersion", None)
    applied = [apply_override(values, text) for text in overrides]
    refuse_credentials(values, label)
    resolved = merge_defaults(values, source_version)
    validate(resolved, label)
    return HarnessConfig(values=resolved, source_version=source_version, overrides=applied)


def merge_defaults(values: dict[str, Any], source_version: int) -> dict[str, Any]:
    defaults = copy.deepcopy(DEFAULTS)
    if source_version == 1:
        defaults["lab"]["provision_args"] = list(V1_PROVISION_ARGS)
    merged = _merge(defaults, values)
    return {"schemaVersion": CURRENT, **merged}


def _merge(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in top.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


# -- --set KEY=VALUE ---------------------------------------------------------------------------


def parse_value(text: str) -> Any:
    """JSON when it parses (numbers, booleans, null, arrays, quoted strings), else the raw text
    (so ``C:\\jdk\\bin\\java.exe`` stays a string)."""
    try:
        return jsonio.loads(text)
    except (ValueError, RecursionError):
        return text


def apply_override(values: dict[str, Any], text: str) -> dict[str, Any]:
    """Apply one ``dotted.key=value`` in place; return ``{key, value}`` for the report."""
    where = f"--set {text!r}"
    if not isinstance(text, str) or "=" not in text:
        raise UsageError("expected KEY=VALUE (for example build.java=/usr/bin/java)", where)
    key, raw = text.split("=", 1)
    key = key.strip()
    parts = key.split(".")
    if not key or any(not part.strip() for part in parts):
        raise UsageError(f"key {key!r} has an empty segment", where)
    if parts[0] in ("schema", "schemaVersion"):
        raise UsageError("the config version cannot be overridden", where)
    value = parse_value(raw)
    node: Any = values
    for depth, part in enumerate(parts[:-1]):
        walked = ".".join(parts[: depth + 1])
        if isinstance(node, list):
            node = _list_slot(node, part, walked, where)
            continue
        child = node.get(part)
        if child is None:
            child = node[part] = {}
        elif not isinstance(child, (dict, list)):
            raise UsageError(f"cannot set {key}: {walked} is a {jsonio.type_name(child)}, not an object", where)
        node = child
    last = parts[-1]
    if isinstance(node, list):
        index = _list_index(node, last, key, where, allow_append=True)
        if index == len(node):
            node.append(value)
        else:
            node[index] = value
    else:
        node[last] = value
    return {"key": key, "value": value}


def _list_index(items: list[Any], part: str, walked: str, where: str, *, allow_append: bool) -> int:
    index = digits(part)
    if index is None or index < 0:
        raise UsageError(f"cannot set {walked}: {part!r} is not an index into a list", where)
    limit = len(items) + (1 if allow_append else 0)
    if index >= limit:
        raise UsageError(f"cannot set {walked}: index {index} is past the end of a list of {len(items)}", where)
    return index


def _list_slot(items: list[Any], part: str, walked: str, where: str) -> Any:
    child = items[_list_index(items, part, walked, where, allow_append=False)]
    if not isinstance(child, (dict, list)):
        raise UsageError(f"cannot set below {walked}: it is a {jsonio.type_name(child)}, not an object", where)
    return child


# -- credentials ---------------------------------------------------------------------------------


def credential_fields(value: Any, prefix: str = "") -> list[str]:
    """Dotted names of fields that look like credentials and hold a non-empty value."""
    detector = _detector()
    found: list[str] = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            for key, item in node.items():
                name = f"{where}.{key}" if where else str(key)
                if isinstance(key, str) and detector.is_sensitive(key) and not _empty(item):
                    if not (key.endswith("_env") and isinstance(item, str) and _ENV_NAME.match(item)):
                        found.append(name)
                        continue
                walk(item, name)
        elif isinstance(node, list):
            for index, item in enumerate(node):
                walk(item, f"{where}.{index}")

    walk(value, prefix)
    return found


@lru_cache(maxsize=1)
def _detector() -> Redactor:
    return Redactor(CREDENTIAL_TERMS)


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def refuse_credentials(values: dict[str, Any], label: str) -> None:
    found = credential_fields(values)
    if found:
        raise UsageError(
            f"field {', '.join(found)} looks like a credential; a harness config never carries secrets "
            "(pass them through the environment, e.g. a field like token_env naming the variable)",
            label,
        )


# -- schema ------------------------------------------------------------------------------------


def validate(values: dict[str, Any], label: str) -> None:
    from pytest_coldstart.run import schemas

    problems = schemas.errors(KIND, values)
    if problems:
        more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
        raise UsageError(f"{problems[0]}{more}", label)
