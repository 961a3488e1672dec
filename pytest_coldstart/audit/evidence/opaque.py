"""Programs whose code the run does not hold: handed a file, they may have written it.

``python3 fix.py test/testmod.jsonl``, ``./fix test/testmod.jsonl``, ``node fix.js …``,
``go run w.go …``: the audit sees the command line, not what the program does with its
arguments. Handed a file of the lab's evidence (the test mod's log, the oracle, the fixture or
restore report, the reviews, the preflight), such a program may have rewritten it, so that
evidence is no longer shown independent of the agent (fail closed: INFRA_ERROR, as any agent
write of it). Inline code (``python3 -c``, ``node -e``) is read by ``code_writes`` and a script
the run itself wrote by ``scripts``; known commands (``cat``, ``jq``, ``cp`` ...) have rules of
their own and are not opaque.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from pytest_coldstart.audit.evidence.shell_words import command_words, program_name, quoted_segments, without_comments

#: how such a write is described (never proof that the agent wrote, e.g. its logger)
OPAQUE = "(may write: a program whose code is not in the run)"
#: programs that run code from a file or a project they are given
RUNNERS = frozenset(
    ["python", "python2", "python3", "py", "pypy", "pypy3", "node", "nodejs", "deno", "bun", "ruby", "perl"]
    + ["php", "lua", "julia", "rscript", "tclsh", "bash", "sh", "zsh", "dash", "ksh", "fish", "pwsh", "java"]
    + ["kotlin", "groovy", "scala", "swift", "dotnet", "go", "cargo", "npx", "uv", "uvx", "poetry", "pipenv"]
    + ["tsx", "ts-node", "npm", "pnpm", "yarn", "gradle", "gradlew", "mvn", "ant", "sbt", "make", "just", "rake"]
)
#: options that hand a runner its code inline (read by ``code_writes``, not opaque)
INLINE = frozenset(["--eval", "--command", "-command", "-r", "-p", "--print"])
#: modules a runner may run that only print (``python -m json.tool IN`` writes only an OUT it is given)
READING_MODULES = frozenset(["json.tool", "http.server", "pydoc", "this", "tokenize", "zipfile", "tarfile"])
#: a cheap necessary condition (beside a slash for a program path): a runner's name
HINT = re.compile(r"(?:^|[\s;&|(`])(?:" + "|".join(sorted(RUNNERS, key=len, reverse=True)) + r")", re.I)
MAX_SEGMENTS = 256  # per text: a hostile command line costs linear time
_MOVES = frozenset(["cd", "pushd", "popd", "chdir", "set-location"])
_MAX_MOVES = 8


def opaque_runs(text: str) -> Iterator[tuple[str, str]]:
    """(program, command line) for each segment of ``text`` that runs code the run does not
    hold; the command line is the segment behind the ``cd``s before it (where it runs)."""
    if "/" not in text and not HINT.search(text):  # neither a program path nor a runner: linear look
        return
    moves: list[str] = []
    for number, segment in enumerate(quoted_segments(without_comments(text))):
        if number >= MAX_SEGMENTS:
            return
        words = [word.strip("\"'") for word in segment.split()]
        if words[:1] and words[0] in _MOVES:
            moves.append(segment.strip())
            continue
        command = command_words(words)
        if not command:
            continue
        first, rest = command[0], command[1:]
        head = program_name(first).removesuffix(".exe")
        if head in RUNNERS or re.fullmatch(r"python\d[\d.]*", head):
            if _inline(rest[:3]):
                continue
            if "-m" in rest[:2] and rest.index("-m") + 1 < len(rest) and rest[rest.index("-m") + 1] in READING_MODULES:
                continue
            if rest:
                yield head, " ; ".join([*moves[-_MAX_MOVES:], segment.strip()])
        elif rest and (first.startswith(("./", "../", "/")) or ("/" in first and not first.startswith("-"))):
            yield head, " ; ".join([*moves[-_MAX_MOVES:], segment.strip()])


def _inline(words: list[str]) -> bool:
    """Code given on the command line: ``-c``, ``-e``, a cluster holding one (``perl -pe``)."""
    for word in words:
        if word in INLINE:
            return True
        if word.startswith("-") and not word.startswith("--") and 1 < len(word) <= 5 and word[1:].isalpha():
            if set(word[1:]) & {"c", "e", "E"}:
                return True
    return False
