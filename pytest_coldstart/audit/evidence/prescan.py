"""The cheap look at a call's arguments before they are judged in full.

Most calls of a long run name and write nothing declared; judging each in full (readings,
tokens, writes) would cost the audit most of its time. A call is worth the full look when its
arguments, lowercased and written again as compact JSON (so a ``\\u`` escape in the file is
the letter it stands for), hold a hint of some rule (``_HINTS``: a redirect or a writer, a
decoder, a folded operation, a glob, a cd, a listing, a runtime name, a name given in parts), one of the
names worth resolving (declared files, links and scripts calls made), or a variable whose value
names one, or a variable, function or alias an earlier call left (``session_state``). Also once the quotes, backslashes and list separators a shell or a tool joins are
removed (``"ora""cle.json"``, ``["ora", "cle.json"]``). A tool whose name says it writes or
searches is always worth it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pytest_coldstart.audit.evidence import (
    compiled,
    kept_runs,
    lab_record,
    preloads,
    program_files,
    session_state,
    win_paths,
)
from pytest_coldstart.audit.evidence.code_writes import CALL_HINT
from pytest_coldstart.audit.evidence.encoded import RAW_HINT as ENCODED_HINT
from pytest_coldstart.audit.evidence.expansions import CMD as CMD_VARIABLE
from pytest_coldstart.audit.evidence.expansions import HINT as EXPANSION_HINT
from pytest_coldstart.audit.evidence.folder_reads import HINT as FOLDER_READ_HINT
from pytest_coldstart.audit.evidence.hint_scan import AnyOf
from pytest_coldstart.audit.evidence.naming import MAX_LINK_NAMES
from pytest_coldstart.audit.evidence.runtime_reads import HINT as RUNTIME_READ_HINT
from pytest_coldstart.audit.evidence.shell_words import URI_HINT
from pytest_coldstart.audit.evidence.shell_writes import HINT as WRITE_HINT
from pytest_coldstart.audit.evidence.tool_reads import is_search
from pytest_coldstart.audit.evidence.tool_writes import READER_VERBS, WRITER_VERBS, words_of

if TYPE_CHECKING:
    from pytest_coldstart.audit.evidence.provenance import Provenance

CD_HINT = r"(?<![\w-])(?:cd|pushd|chdir|set-location)(?![\w-])"  # a call that may move its session
_RULES = [WRITE_HINT, lab_record.CLI_HINT, CALL_HINT, ENCODED_HINT, EXPANSION_HINT, r"[*?]", CD_HINT]
_RULES += [RUNTIME_READ_HINT, FOLDER_READ_HINT.pattern, r'"(?:ext|extension|suffix)"\s*:', URI_HINT]
_RULES += [program_files.JQ_HINT.decode()]  # jq -n 'import "oracle" as $o': no declared name spelled
_HINTS = re.compile("|".join(_RULES).encode("ascii"))  # the rule hints' one alternation (tests use it)
_ANY_HINT = AnyOf([rule.encode("ascii") for rule in _RULES])  # the same answer, a fifth of the time


class Prescan:
    """The per-run half of the look (names and kept shell state), compiled again only when a
    call made a link, a new name of shell state or a script."""

    def __init__(self) -> None:
        self._scan: re.Pattern[bytes] | None = None
        self._state: tuple[int, int, int] = (0, 0, 0)
        self._writer_tools: dict[str, bool] = {}

    def forget(self) -> None:
        self._scan = None

    def may_matter(self, text: bytes, tool: str, model: Provenance) -> bool:
        writer = self._writer_tools.get(tool)
        if writer is None:  # a writer, or a search that reads a folder without naming it
            writer = self._writer_tools[tool] = bool(words_of(tool) & WRITER_VERBS) or is_search(words_of(tool))
        if writer:
            return True
        if len(model.workspace.link_names) > MAX_LINK_NAMES or model.names_made > session_state.MAX_STATE:
            return True  # a run that makes many links or shell names: every call is worth the full look
        scan = self._names(model)
        if _ANY_HINT.search(text) or scan.search(text) is not None:
            return True
        if model.scripts.names and preloads.kept_loads(model.variables, model.scripts.names):
            return True  # export PAGER=./peek.sh: a kept file any later program may load
        if model.scripts.compiled and compiled.HINT_RE.search(text) and not words_of(tool) & READER_VERBS:
            return True  # java Peek, ./peek: a kept source compiled earlier may run (a Read tool runs nothing)
        # "ora""cle.json", o'racle'.json, o\\racle.json, ["ora", "cle.json"]: a name the shell or a
        # tool joins (a quote or a backslash inside a JSON string is escaped; an apostrophe is not)
        if not (b"\\" in text or b"'" in text or b'", "' in text or b'","' in text):
            return False
        joined = text.replace(b'", "', b"").replace(b'","', b"").translate(None, b"\"'\\")
        return _ANY_HINT.search(joined) or scan.search(joined) is not None

    def _names(self, model: Provenance) -> re.Pattern[bytes]:
        state = (
            len(model.workspace.link_names),
            model.names_made,
            len(model.scripts.names),
        )
        if self._scan is None or self._state != state:
            self._state = state  # a link, a variable or a script a call made is a name to watch
            model.naming.names("")  # brings the naming's names up to date with the links
            names = sorted(
                {
                    base.encode("utf-8", "replace")
                    for base in model.naming.bases | model.scripts.names | model.scripts.stems
                }
            )
            kept = dict.fromkeys(_kept(name) for name in model.watched_variables() if name != session_state.DEFINED)
            hints = list(kept)
            hints += kept_runs.hints(model.scripts.names)  # make, bash -i: a kept makefile or rc file runs
            hints += [win_paths.HINT.encode()] if model.workspace.windows else []  # oracle~1.jso
            self._scan = re.compile(b"|".join([*hints, *map(re.escape, names)]) or b"(?!)")
        return self._scan


def _kept(name: str) -> bytes:
    """A later use of what an earlier call left: ``$x``/``${x…}``/``${!x}`` of a variable (an
    array's ``a[0]`` by ``a``), a kept function or alias run by its name."""
    if name.startswith(CMD_VARIABLE):  # cmd.exe's %x%, !x!
        return rf"[%!]{re.escape(name[1:].lower())}[%!:]".encode()
    if name.startswith(session_state.DEFINED):
        return rf"(?<![\w.:-]){re.escape(name[len(session_state.DEFINED) :].lower())}(?![\w.:-])".encode()
    return rf"\$\{{?!?{re.escape(name.partition('[')[0].lower())}\b".encode()
