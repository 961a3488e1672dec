"""What a call's arguments and result show, judged once per record while streaming.

* ``names``: does the text name a file (whole basename, as a path component)?
* ``arms``: do the arguments show the agent's logger being written, built or started?
  (a logger identity AND a write/build/start action; a tool name alone never counts)
* ``captured_content``: does a result return captured content - a captured uuid followed by
  its items, or (without a uuid) a cart's full item list with counts?
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pytest_coldstart.audit.evidence.inventory import Item, ItemError, items_in_order, normalize_items
from pytest_coldstart.audit.model import Event

_TOKENS = re.compile(r"[a-z0-9]+")
ACTION_TOKENS = frozenset(
    [
        "javac",
        "gradle",
        "gradlew",
        "mvn",
        "maven",
        "build",
        "jar",
        "make",
        "cmake",
        "cargo",
        "compile",
        "deploy",
        "install",
        "provision",
        "start",
        "restart",
        "launch",
        "run",
        "write",
        "cp",
        "copy",
        "mv",
        "tee",
    ]
)
WRITER_TOOLS = frozenset(["write", "edit", "create", "patch", "apply", "str", "replace", "multiedit"])
UUID_WINDOW = 4000


def text_of(value: Any) -> str:
    """Lowercased searchable text of an argument/result value."""
    if isinstance(value, str):
        return value.lower()
    try:
        return json.dumps(value, ensure_ascii=False).lower()
    except (TypeError, ValueError):
        return ""


def names(text: str, basenames: Iterable[str]) -> bool:
    for base in basenames:
        if base and base in text and re.search(rf"(?<![a-z0-9_.-]){re.escape(base)}(?![a-z0-9_])", text):
            return True
    return False


def arms(tool: str, text: str, logger_names: Iterable[str]) -> bool:
    tokens = set(_TOKENS.findall(text))
    identity = any("logger" in token for token in tokens) or names(text, logger_names)
    if not identity:
        return False
    tool_tokens = set(_TOKENS.findall(tool.lower()))
    return bool(tokens & ACTION_TOKENS) or bool(tool_tokens & WRITER_TOOLS)


@dataclass
class Capture:
    uuid: str | None
    items: list[Item] | None

    def may_appear_in(self, text: str) -> bool:
        """Cheap necessary condition (substring tests) before the exact regex match."""
        return bool(self.items) and all(item.name.rpartition(":")[2] in text for item in self.items or ())


class ContentMatcher:
    """Matches result text against the logger's captures (uuid + items)."""

    def __init__(self, captures: list[Event]):
        self.captures: list[Capture] = []
        for event in captures:
            uuid = event.get("uuid")
            try:
                items = normalize_items(event.get("items")) if event.get("items") is not None else None
            except ItemError:
                items = None
            self.captures.append(Capture(uuid.lower() if isinstance(uuid, str) else None, items))
        self.uuids = sorted({c.uuid for c in self.captures if c.uuid})
        self._uuid_re = re.compile("|".join(re.escape(u) for u in self.uuids)) if self.uuids else None

    def judge(self, text: str) -> tuple[str | None, str | None]:
        """("items", uuid) for captured content, ("uuid", uuid) for a uuid alone, else (None, None)."""
        found_uuid = None
        if self._uuid_re is not None:
            spots = [(m.start(), m.group(0)) for m in self._uuid_re.finditer(text)]
            for index, (start, uuid) in enumerate(spots):
                stop = spots[index + 1][0] if index + 1 < len(spots) else min(len(text), start + UUID_WINDOW)
                for capture in self.captures:
                    if (
                        capture.uuid == uuid
                        and capture.may_appear_in(text)
                        and items_in_order(capture.items or [], text, start, stop)
                    ):
                        return "items", uuid
                found_uuid = found_uuid or uuid
        for capture in self.captures:
            if (
                len(capture.items or ()) >= 2
                and capture.may_appear_in(text)
                and items_in_order(capture.items or [], text)
            ):
                return "items", capture.uuid
        return ("uuid", found_uuid) if found_uuid else (None, None)
