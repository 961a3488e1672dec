"""Files that carry test-side content, across calls: the logger must not be fed from them.

A call that copies a test-side file (or a file already carrying one) somewhere, or that names a
test-side file while it writes other files (``cat test/testmod.jsonl > /tmp/x``), makes what it
writes carry that evidence. A later call that writes the agent logger and names such a file
(``cat /tmp/x >> agent/romlog.jsonl``) or copies from it pours test-side observation into the
logger - laundered in two steps instead of one. Keys only: nothing is read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

#: The test-side declarations whose content the logger must not carry (the oracle is the answer's).
CARRIED = ("test_mod", "fixture", "restore")


@dataclass
class Taint:
    #: key -> the test-side declaration its content comes from
    carriers: dict[str, str] = field(default_factory=dict)

    def carry(
        self, writes: Iterable[tuple[str, str, str | None]], declared: dict[str, str], named: Callable[[], set[str]]
    ) -> None:
        """Mark what a call writes: from a copy's source, or from the test-side files it names
        (``named``: computed only when the call writes a file no declaration holds)."""
        seen: list[str] | None = None
        for key, _, source in writes:
            if key in declared:
                continue
            origin = self.carriers.get(source) if source is not None else None
            if origin is None and source is not None and declared.get(source) in CARRIED:
                origin = declared[source]
            if origin is None:
                seen = sorted(named() & set(CARRIED)) if seen is None else seen
                origin = seen[0] if seen else None
            if origin is not None:
                self.carriers[key] = origin

    def poured(
        self,
        writes: Iterable[tuple[str, str, str | None]],
        keys_named: Callable[[], Iterable[str]],
        show: Callable[[str], str],
    ) -> str | None:
        """What a call writing the logger pours into it: the evidence a carrier it copies from or
        names holds, as "test_mod (through PATH)"; None when it touches no carrier.
        ``keys_named``: every path the call names, resolved only when there are carriers."""
        if not self.carriers:
            return None
        for key in [source for _, _, source in writes if source is not None] + list(keys_named()):
            if key in self.carriers:
                return f"{self.carriers[key]} (through {show(key)})"
        return None


def keys_named(workspace: Any, arguments: Any) -> list[str]:
    """The keys every path-like token of ``arguments`` resolves to."""
    return [key for token, cwd in workspace.named_paths(arguments) for key in (workspace.key(token, cwd),) if key]
