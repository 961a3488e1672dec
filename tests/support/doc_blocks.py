"""The command blocks of the documentation, as the docs runner (tests/quality/test_docs.py) sees them.

Conventions a doc follows (docs/contributing-docs.md says the same for writers):

* every fenced ```bash block is a command block: it runs, as written, from a temporary copy of
  the repository; the blocks of one file run in order in the same folder and share exported
  variables and the working directory;
* ``<!-- exit: N -->`` on the line before the fence: the block must end with exit status N
  (default 0);
* ``<!-- output -->`` before a ```text block that follows a command block: every non-blank line
  of that text block must appear in the command's output (stdout then stderr), in order, each as
  part of one output line; ``…`` inside a line stands for any text;
* ``<!-- run-by: .ci/run -->`` before the fence: the block is not run by the suite (it installs
  the project or runs this very suite); every command line of it must appear verbatim in
  ``.ci/run``, which runs it in CI;
* an illustrative block that cannot run uses a ```text fence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

FENCE = re.compile(r"^```(\w*)\s*$")
EXIT = re.compile(r"^<!--\s*exit:\s*(\d+)\s*-->\s*$")
OUTPUT = re.compile(r"^<!--\s*output\s*-->\s*$")
RUN_BY = re.compile(r"^<!--\s*run-by:\s*(\S+)\s*-->\s*$")


@dataclass
class Block:
    path: Path
    number: int  # 1-based among the file's command blocks
    line: int  # 1-based line of the opening fence
    text: str
    exit: int = 0
    run_by: str | None = None
    output: list[str] = field(default_factory=list)
    output_line: int | None = None

    def where(self, root: Path) -> str:
        return f"{self.path.relative_to(root).as_posix()}:{self.line}: bash block {self.number}"


def _marker_before(lines: list[str], index: int, pattern: re.Pattern[str]) -> re.Match[str] | None:
    """The marker on one of the (up to two) non-blank lines just before line ``index``."""
    seen = 0
    for back in range(index - 1, -1, -1):
        if not lines[back].strip():
            continue
        match = pattern.match(lines[back].strip())
        if match:
            return match
        seen += 1
        if seen == 2 or not lines[back].strip().startswith("<!--"):
            return None
    return None


def blocks(path: Path) -> list[Block]:
    """The command blocks of one Markdown file, with their markers and documented output."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    index = 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if not match or not match.group(1):
            index += 1
            continue
        lang, start = match.group(1), index
        end = start + 1
        while end < len(lines) and lines[end].rstrip() != "```":
            end += 1
        body = "\n".join(lines[start + 1 : end]) + "\n"
        if lang == "bash":
            exit_marker = _marker_before(lines, start, EXIT)
            run_by = _marker_before(lines, start, RUN_BY)
            found.append(
                Block(
                    path,
                    len(found) + 1,
                    start + 1,
                    body,
                    int(exit_marker.group(1)) if exit_marker else 0,
                    run_by.group(1) if run_by else None,
                )
            )
        elif lang == "text" and found and _marker_before(lines, start, OUTPUT):
            found[-1].output = [line for line in body.splitlines() if line.strip()]
            found[-1].output_line = start + 1
        index = end + 1
    return found


def command_lines(text: str) -> list[str]:
    """The commands of a block (comments and blank lines left out, continuations joined)."""
    out: list[str] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.rstrip()
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1]
            continue
        out.append((pending + line).strip())
        pending = ""
    return out


def missing_output(expected: list[str], output: str) -> str | None:
    """The first documented line not found (in order) in ``output``, or None."""
    lines = output.splitlines()
    position = 0
    for want in expected:
        pieces = [re.escape(piece.strip()) for piece in want.split("…")]
        pattern = re.compile(".*".join(pieces))
        while position < len(lines) and not pattern.search(lines[position]):
            position += 1
        if position == len(lines):
            return want
        position += 1
    return None
