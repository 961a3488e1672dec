"""Scripts the agent writes and later runs: the later call does what the script says.

``Write {"file_path": "workspace/peek.py", "content": "print(open('../oracle.json').read())"}``
then ``cd workspace && python3 peek.py`` reads the oracle, but neither call spells the read
where the audit looked: the write's content is a mention (a note may name oracle.json), the run
names only the script. So the content an agent call writes into a file - a write tool's content,
or a shell command's whole text where it writes a file (``cat > x.sh <<EOF … EOF``, ``echo … >
x.sh``: fail closed, any of it may be in the file) - is kept by the file's key, and a later call
whose text runs that file is read with the
script's text as one of its own texts, in that call's working directory, where it runs the file
(an interpreter or a shell handed it, ``source``, or the file as the program: ``./peek.sh``). Bounded: at most
``MAX_SCRIPTS`` files and ``MAX_CHARS`` of each; a script written again replaces what was kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pytest_coldstart.audit.evidence import scrambles
from pytest_coldstart.audit.evidence.identity import Workspace
from pytest_coldstart.audit.evidence.shell_words import last_component, program_name

#: Programs that run the file they are handed (an interpreter, a shell, ``source``).
RUNNERS = frozenset(["python", "python3", "python2", "node", "bash", "sh", "zsh", "dash", "ksh", "fish", "perl"])
RUNNERS |= {"ruby", "php", "rscript", "deno", "bun", "ts-node", "tsx", "source", ".", "exec", "pwsh", "lua", "tclsh"}
_WRAPPERS = frozenset(["sudo", "env", "nohup", "time", "timeout", "nice", "command", "uv", "run", "poetry", "npx"])
MAX_SCRIPTS = 256
MAX_CHARS = 64 * 1024


class Scripts:
    """The files agent calls wrote, with what they wrote into them."""

    def __init__(self) -> None:
        self.by_key: dict[str, str] = {}
        self.names: set[str] = set()  # their base names, for the cheap scan of later calls
        self._wanted: re.Pattern[str] | None = None

    def keep(self, keys: Iterable[str], text: str) -> None:
        for key in keys:
            if key in self.by_key or len(self.by_key) < MAX_SCRIPTS:
                self.by_key[key] = text[:MAX_CHARS]
                self.names.add(last_component(key))
                self._wanted = None

    def run_by(self, texts: Iterable[str], workspace: Workspace) -> list[str]:
        """The kept texts of the files ``texts`` run (in the cwds their segments run in), and the
        reversed or rotated readings of the files they only read where they reverse or rotate:
        ``echo nosj.elcaro > n`` then ``open(open('n').read()[::-1])`` names the oracle. A kept
        file read as written adds nothing: a note that mentions oracle.json stays a note."""
        texts = list(texts)
        used = self._used(texts, workspace)
        out = [self.by_key[key] for key, run in used.items() if run]
        if used and any(scrambles.hinted(text) for text in texts):
            out += scrambles.readings("\n".join([*texts, *(self.by_key[key] for key in used)]))
        return out

    def run_keys(self, texts: Iterable[str], workspace: Workspace) -> list[str]:
        """The kept files ``texts`` run."""
        return [key for key, run in self._used(texts, workspace).items() if run]

    def _used(self, texts: Iterable[str], workspace: Workspace) -> dict[str, bool]:
        """The kept files ``texts`` name: True where they run them."""
        if not self.by_key:
            return {}
        if self._wanted is None:
            self._wanted = re.compile("|".join(map(re.escape, sorted(self.names, key=len, reverse=True))))
        found: dict[str, bool] = {}
        for text in texts:
            if self._wanted.search(text.lower()) is None:
                continue
            for segment, tokens in workspace.segments(text, self._wanted):
                words = [w.strip("\"'") for w in segment.split()]
                start = next(
                    (i for i, w in enumerate(words) if w not in _WRAPPERS and "=" not in w and w[:1] != "-"), len(words)
                )
                if start == len(words):
                    continue
                runner = program_name(words[start]) in RUNNERS
                for token, cwd in tokens:  # run by an interpreter, or as the program itself
                    key = workspace.key(token, cwd)
                    if key is not None and key in self.by_key:
                        found[key] = found.get(key, False) or runner or words[start].endswith(token)
        return found
