"""Evidence refs (``trajectory:<call_id>``, ``testmod:seqN``, ``logger:seqN``,
``fixture:|restore:|preflight:<field or scalar>``, ``oracle[:<ref>]``, ``answer``):
parsing, resolution against the run, and which of them are independent of the agent."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pytest_coldstart.run.numbers import digits

STREAM_PREFIXES = {
    "testmod": "testmod",
    "test_mod": "testmod",
    "auditmod": "testmod",
    "test": "testmod",
    "logger": "logger",
    "agent_logger": "logger",
}
DOCUMENT_PREFIXES = ("fixture", "restore", "preflight")
AGENT_SIDE = ("trajectory", "logger", "answer")
_SEQ = re.compile(r"^(seq|line)([0-9]{1,18})$")  # ASCII digits int() takes


@dataclass(frozen=True)
class Resolution:
    ref: str
    source: str | None  # testmod | logger | trajectory | fixture | restore | preflight | oracle | answer
    problem: str | None

    @property
    def ok(self) -> bool:
        return self.problem is None

    @property
    def independent(self) -> bool:
        return self.ok and self.source in ("testmod", "fixture", "restore", "preflight")


class RefIndex:
    """What refs can point at: call ids, stream seqs/lines, declared documents."""

    def __init__(
        self,
        *,
        call_lines: dict[str, tuple[int, int]],
        stream_seqs: dict[str, dict[int, tuple[int, int]]],
        stream_lines: dict[str, dict[int, int]],
        documents: dict[str, Any],
        declared: set[str],
    ):
        self.call_lines = call_lines
        self.stream_seqs = stream_seqs
        self.stream_lines = stream_lines
        self.documents = documents
        self.declared = declared

    def resolve(self, ref: object) -> Resolution:
        if not isinstance(ref, str) or not ref.strip():
            return Resolution(str(ref), None, "a ref must be a non-blank string")
        text = ref.strip()
        prefix, _, suffix = text.partition(":")
        prefix = prefix.lower()
        if prefix == "trajectory":
            if suffix in self.call_lines:
                return Resolution(text, "trajectory", None)
            return Resolution(text, "trajectory", f"{text}: no call with id {suffix!r} in the trajectory")
        if prefix in STREAM_PREFIXES:
            return self._stream(text, STREAM_PREFIXES[prefix], suffix)
        if prefix in DOCUMENT_PREFIXES:
            return self._document(text, prefix, suffix)
        if prefix in ("oracle", "answer"):
            if prefix not in self.documents:
                return Resolution(text, prefix, f"{text}: no usable {prefix} is declared")
            if not suffix:
                return Resolution(text, prefix, None)
            if prefix == "oracle":
                inner = self.resolve(suffix)
                return Resolution(text, "oracle", inner.problem)
            return self._document(text, "answer", suffix)
        return Resolution(text, None, f"{text}: {prefix!r} is not a resolvable evidence source")

    def _stream(self, text: str, stream: str, suffix: str) -> Resolution:
        name = "test_mod" if stream == "testmod" else "agent_logger"
        if stream not in self.stream_seqs:
            return Resolution(text, stream, f"{text}: no usable {name} evidence is declared")
        match = _SEQ.match(suffix)
        if not match:
            return Resolution(text, stream, f"{text}: {stream} refs must be seqN (or lineN)")
        number = int(match.group(2))
        table = self.stream_seqs[stream] if match.group(1) == "seq" else self.stream_lines.get(stream, {})
        if number not in table:
            return Resolution(text, stream, f"{text}: no {name} record with {match.group(1)} {number}")
        return Resolution(text, stream, None)

    def _document(self, text: str, name: str, suffix: str) -> Resolution:
        if name not in self.documents:
            return Resolution(text, name, f"{text}: no usable {name} evidence is declared")
        if not suffix.strip():
            return Resolution(text, name, f"{text}: a {name} ref must name a field or a value of the payload")
        if present(self.documents[name], suffix.strip()):
            return Resolution(text, name, None)
        return Resolution(text, name, f"{text}: {suffix!r} is neither a field nor a scalar value of the {name} payload")

    def locate(self, ref: str) -> tuple[str, int, int] | None:
        """(stream, line, offset) of a record ref (trajectory/testmod/logger), else None."""
        prefix, _, suffix = ref.partition(":")
        prefix = prefix.lower()
        if prefix == "trajectory" and suffix in self.call_lines:
            line, offset = self.call_lines[suffix]
            return "trajectory", line, offset
        stream = STREAM_PREFIXES.get(prefix)
        match = _SEQ.match(suffix) if stream else None
        if stream and match:
            number = int(match.group(2))
            if match.group(1) == "seq" and number in self.stream_seqs.get(stream, {}):
                line, offset = self.stream_seqs[stream][number]
                return stream, line, offset
            if match.group(1) == "line" and number in self.stream_lines.get(stream, {}):
                return stream, number, self.stream_lines[stream][number]
        return None


def present(document: Any, needle: str) -> bool:
    """A key at any depth, a dotted path, or a scalar value equal to ``needle``."""
    if _dotted(document, needle):
        return True
    stack = [document]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if needle in value:
                return True
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif _scalar_text(value) == needle:
            return True
    return False


def _dotted(document: Any, path: str) -> bool:
    if "." not in path:
        return False
    current = document
    for part in path.split("."):
        if isinstance(current, dict) and part in current:
            current = current[part]
        elif isinstance(current, list) and (index := digits(part)) is not None and index < len(current):
            current = current[index]
        else:
            return False
    return True


def _scalar_text(value: Any) -> str | None:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return str(value)
    return None
