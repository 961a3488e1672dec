"""Which declared files a call's arguments name: by the path each token resolves to.

A token names a declared file when it resolves (``Workspace.key``) to one of the file's keys.
A token the workspace cannot place (``$RUN_DIR/oracle.json``, ``~/x/oracle.json``) names the
test-side files of that base name, and a glob (``ora*``, ``*.json``, ``o?acle.json``) names the
test-side files it matches in the folder it is relative to (any folder, when that folder cannot
be placed; a pattern needs two letters of a name - a bare ``*`` is code or prose): fail closed, since the agent reaching test-side evidence is what must not pass
unseen. A name split by quotes or escapes (``"ora""cle.json"``, ``o\\racle.json``) is read as the
shell joins it. Texts holding neither a declared base name nor a glob character (quotes and
escapes removed) are not tokenised.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection, Iterator, Mapping
from typing import Any

from pytest_coldstart.audit.evidence import globs, program_files, win_paths
from pytest_coldstart.audit.evidence.encoded import with_decoded
from pytest_coldstart.audit.evidence.expansions import valued_text
from pytest_coldstart.audit.evidence.folder_reads import LISTING, Read, folder_reads, listed_folder
from pytest_coldstart.audit.evidence.fresh_names import fresh_spelled
from pytest_coldstart.audit.evidence.git_reads import HERE, INIT, REPOSITORY
from pytest_coldstart.audit.evidence.identity import Workspace
from pytest_coldstart.audit.evidence.runtime_reads import runtime_reads, sources
from pytest_coldstart.audit.evidence.shell_words import (
    any_reading,
    dequoted,
    last_component,
    strings,
    uri_decoded,
    without_comments,
)
from pytest_coldstart.audit.evidence.tool_reads import tool_reads, without_filters

_GLOB = re.compile(r"[*?]")
_ANYTHING = re.compile(r"(?s).")
MAX_LINK_NAMES = 64  # links calls made whose names the cheap scans look for
MAX_PATTERNS = 4096  # remembered patterns (a bounded memo)
MAX_SUBSHELLS = 16  # nested subshells followed; deeper ones keep their cds (fail closed: both are read)
#: a word holding a glob: tried only where a word starts (after a delimiter), and past its glob-free
#: head once (possessive), so a long word with no * or ? costs its length, not its square
_GLOBBED = re.compile(r"(?<![^\s\"'`;|&<>()=])[^\s\"'`;|&<>()=*?]*+[*?][^\s\"'`;|&<>()=]*+")
_FIND = re.compile(r"\bfind\s+((?:[^\s;|&()!-][^\s;|&()]*\s+)*)([^;|&\n]*)")
_FIND_NAME = re.compile(r"-i?(?:name|path|wholename)\s+[\"']?([^\s\"']+)")


class Naming:
    """The declarations of a run as the names a call may use for them."""

    def __init__(
        self,
        workspace: Workspace,
        keys: dict[str, set[str]],
        fail_closed: Collection[str],
        known: Mapping[str, str] | None = None,
    ):
        self.workspace = workspace
        self.known = known  # shell variables earlier calls assigned (read as their values)
        self.keys = keys
        self.fail_closed = tuple(fail_closed)  # declarations an unplaceable path or a glob may name
        self.by_key = {key: name for name, named in keys.items() for key in named}
        self.bases = {_base(key) for key in self.by_key} | workspace.symlinks
        self._links = 0
        self._patterns: dict[str, bool] = {}  # pattern -> matches a fail-closed base name
        self._compile()

    def _compile(self) -> None:
        alternatives = sorted(self.bases, key=len, reverse=True)
        windows = [win_paths.HINT] if self.workspace.windows else []  # ORACLE~1.JSO names no base
        self.wanted = re.compile("|".join([*map(re.escape, alternatives), _GLOB.pattern, *windows]))

    def _know_links(self) -> None:
        """The names worth resolving: declared base names, the run's symlinks and the links
        calls made so far (``ln -s ../test/x workspace/t``: ``t`` may name test-side evidence).
        Past ``MAX_LINK_NAMES`` links every text is worth resolving: no recompiling per link."""
        names = self.workspace.link_names
        if self._links == len(names):
            return
        self.bases.update(names[self._links :])
        self._links = len(names)
        self._compile() if self._links <= MAX_LINK_NAMES else setattr(self, "wanted", _ANYTHING)

    def names(self, arguments: Any, tool: str = "") -> set[str]:
        """The declarations whose file ``arguments`` name, or whose folder they (or ``tool``, a
        search or a reader by pattern: ``tool_reads``) read whole."""
        self._know_links()
        texts = list(with_decoded(strings(without_filters(tool, arguments)), self.known))  # each reading, decoded once
        texts += [decoded for text in texts if (decoded := uri_decoded(text)) is not None]  # file:%6fracle.json
        texts += [spelled for text in texts if (spelled := program_files.jq_reading(text)) is not None]
        found: set[str] = self._folders_read(texts)
        for read in tool_reads(tool, arguments):
            found |= {name for cwd in self.workspace.starts for name in self._read_whole(*read, cwd)}
        bases: dict[str, str] = {}  # a token recurs once per cwd the session may be in
        for token, cwd in self._tokens(texts):
            base = bases.get(token)
            if base is None:
                base = bases[token] = last_component(token)
            if base not in self.bases and not self._windows_alias(base):
                # A pattern with some letters of a name (*.json, ora*); a bare * or */ is code or prose.
                if _GLOB.search(base) and len(_GLOB.sub("", base)) >= 2:
                    found.update(self._globbed(token, base, cwd))
                continue
            key = self.workspace.key(token, cwd)
            if key in self.by_key:
                found.add(self.by_key[key])
            elif key is None or self.workspace.unknown_host(key):
                # $RUN/oracle.json, ~/x/oracle.json, or a host path while the run's is unknown:
                # test-side evidence by that name
                found.update(
                    name
                    for name in self.fail_closed
                    for k in self.keys.get(name, ())
                    if self._same_base(_base(k), base)
                )
        return found

    def _windows_alias(self, base: str) -> bool:
        """On a Windows host: a name Win32 opens as a declared one (``oracle.json.``, a short name)."""
        return self.workspace.windows and (
            win_paths.win32_path(base) in self.bases or bool(win_paths.SHORT.match(base))
        )

    def _same_base(self, declared: str, base: str) -> bool:
        if declared == base or not self.workspace.windows:
            return declared == base
        return win_paths.win32_path(base) == declared or win_paths.could_alias(base, declared)

    def reached(self, target: str, text: str, keys_of: Collection[str], *, code: bool = False) -> list[str]:
        """The keys of declarations ``keys_of`` a write to ``target`` - a name known only at run
        time ("$f", ``test/$f``, ``{}``) - may reach in ``text``: every file in the target's
        folder where it has one; else what a loop or an exec-er may hand it - the files the text
        names, globs over (``for f in test/*``) or finds (``find test -name '*.jsonl'``)."""
        in_folder = self.in_folder(target, keys_of)
        return in_folder if in_folder is not None else self.reached_by_text(text, keys_of, code=code)

    def in_folder(self, target: str, keys_of: Collection[str]) -> list[str] | None:
        """The keys of declarations ``keys_of`` in the folder of ``target`` (``test/$f``), or None
        when it names no folder the workspace can place."""
        folder = target.replace("\\", "/").rpartition("/")[0]
        where = self.workspace.key(folder) if folder else None
        if where is None:
            return None
        return sorted(
            key for name in keys_of for key in self.keys.get(name, ()) if key.startswith(where.rstrip("/") + "/")
        )

    def reached_by_text(self, text: str, keys_of: Collection[str], *, code: bool = False) -> list[str]:
        """``reached`` of a name with no folder: what ``text`` names, globs over, lists or finds -
        the same for every such name a text writes (a caller asks once per text)."""
        declared = {key: name for name in keys_of for key in self.keys.get(name, ())}
        named = self.names(text)
        found = {key for key, name in declared.items() if name in named}
        # what the text globs over, lists (os.listdir('test'), Path('test').glob('*.jsonl')), finds, and
        # the shell's sources of names (ls | while read f, printf 'o%sacle.json'): parsed once, not per cwd
        wanted = [
            (w.rpartition("/")[0] or ".", last_component(w))
            for w in _GLOBBED.findall(text)
            if not code or w.strip("*?")  # a bare * in code multiplies
        ]
        wanted += [(listed_folder(match), match.group("pattern") or "*") for match in LISTING.finditer(text)]
        for match in _FIND.finditer(text):
            patterns = _FIND_NAME.findall(match.group(2)) or ["*"]
            wanted += [(root, last_component(p)) for root in match.group(1).split() or ["."] for p in patterns]
        wanted += [(folder, pattern) for folder, pattern, _ in sources(text)] if not code else []
        for cwd in self.workspace.cwds(text):
            for folder, pattern in dict.fromkeys(wanted):
                found.update(self._below(folder, pattern, declared, cwd))
        return sorted(found)

    def _below(self, folder: str, pattern: str, declared: Collection[str], cwd: str | None) -> set[str]:
        where = self.workspace.key(folder, cwd) if not _GLOB.search(folder) else None
        prefix = where.rstrip("/") + "/" if where is not None else ""
        return {key for key in declared if key.startswith(prefix) and globs.matches(_base(key), pattern.lower())}

    def _folders_read(self, texts: list[str]) -> set[str]:
        """The fail-closed declarations a read of a whole folder reaches (``folder_reads``), the
        folder taken in the cwd the read runs in, from each start of the session (``cd .. &&
        cat *``; after ``cd $X``: anywhere). A subshell or popd may return to the start: then
        the starts are read too (fail closed). A text is read with its comments too and without
        them (``grep -r x # note``: the comment's words are no operands; fail closed both ways)."""
        readings = dict.fromkeys([*texts, *(without_comments(text) for text in texts)])
        return {name for text in readings for name in self._folders_read_in(text)}

    def _folders_read_in(self, text: str) -> set[str]:
        found = self._read_where_it_runs(text, folder_reads)
        if valued_text(text, self.known) == text:  # else its valued reading, also a text, is judged
            found |= self._read_where_it_runs(text, runtime_reads)
        return found

    def _read_where_it_runs(self, text: str, reads: Callable[[str, Callable[[str], None]], Iterator[Read]]) -> set[str]:
        found: set[str] = set()
        text = fresh_spelled(text, self.workspace.tmpdir)  # D=$(mktemp -d); cd $D: as cd $(mktemp -d)
        starts = list(self.workspace.starts)
        where = _Where(self.workspace, starts)
        passed: list[str] = []  # segments entered since the last read: moved through only when one comes
        judged: set[tuple[Read, str | None]] = set()

        for read in reads(text, passed.append):
            if read[1] != INIT and not self._matches_any(read[1]):
                continue  # echo done, ls *.py: a pattern no fail-closed file's name has
            for segment in passed:
                where.enter(segment)
            passed.clear()
            if read[1] == INIT:  # git init at the run's root or above: git show in a subfolder prints it
                self.workspace.repository |= any(self._may_hold_run(read[0], cwd) for cwd in where.current)
                continue
            if last_component(read[0]) == HERE:  # git show: the cwd's repository, maybe the run's
                read = (
                    REPOSITORY if self.workspace.repository else posixpath.dirname(read[0]) or ".",
                    read[1],
                    read[2],
                )
            for cwd in dict.fromkeys(where.current):
                if (read, cwd) not in judged:
                    judged.add((read, cwd))
                    found |= self._read_whole(*read, cwd)
        return found

    def _may_hold_run(self, folder: str, cwd: str | None) -> bool:
        """Whether ``folder`` (relative to ``cwd``) may be the run or one of its ancestors."""
        folder = folder[:-5] or "." if folder.endswith(".git") and last_component(folder) == ".git" else folder
        key = self.workspace.key(self.workspace.homed(folder), cwd)
        if key is None or self.workspace.inside(key) == "." or self.workspace.may_hold_run(key, True):
            return True
        base = self.workspace.fold(self.workspace.run_base)
        return base.startswith(self.workspace.fold(key).rstrip("/") + "/")

    def _matches_any(self, pattern: str) -> bool:
        known = self._patterns.get(pattern)
        if known is None:
            if len(self._patterns) > MAX_PATTERNS:
                self._patterns.clear()
            bases = {_base(key) for name in self.fail_closed for key in self.keys.get(name, ())}
            known = self._patterns[pattern] = any(globs.matches(base, pattern.lower()) for base in bases)
        return known

    def _read_whole(self, folder: str, pattern: str, recursive: bool, cwd: str | None) -> set[str]:
        """The fail-closed declarations in ``folder`` (below it if ``recursive``) that ``pattern``
        matches; every one of them where the folder cannot be placed."""
        where = self.workspace.key(self.workspace.homed(folder), cwd)
        if where is not None and self.workspace.may_hold_run(where, recursive):
            where = None  # grep -r x .. or / while the run's host path is unknown: the run may be below
        prefix = where.rstrip("/") + "/" if where is not None else None
        return {
            name
            for name in self.fail_closed
            for key in self.keys.get(name, ())
            if (prefix is None or (key.startswith(prefix) and (recursive or "/" not in key[len(prefix) :])))
            and globs.matches(_base(key), pattern.lower())
        }

    def _tokens(self, texts: list[str]) -> Iterator[tuple[str, str | None]]:
        for text in texts:
            if any_reading(self.wanted, text, dequoted(text)):
                yield from self.workspace.tokens(text, self.wanted)

    def _globbed(self, token: str, pattern: str, cwd: str | None) -> set[str]:
        """The fail-closed declarations a glob matches: in the folder the glob is relative to,
        or by base name alone where that folder cannot be placed (or is itself a glob)."""
        folder = token.replace("\\", "/").rstrip("/").rpartition("/")[0]
        if _GLOB.search(folder):
            where = None
        else:
            where = self.workspace.key(folder if folder else ".", cwd) if folder or token[:1] != "/" else "/"
        return {
            name
            for name in self.fail_closed
            for key in self.keys.get(name, ())
            if globs.matches(_base(key), pattern) and (where is None or key.rpartition("/")[0] == where)
        }


class _Where:
    """The cwds a text's segments run in, entered one by one: a ``cd`` moves them, and inside a
    subshell or a substitution only until it closes (``(cd x; cat *)`` leaves the shell where it
    was; ``$(cd test; cat *)`` too)."""

    def __init__(self, workspace: Workspace, starts: list[str | None]):
        self.workspace = workspace
        self.current = list(starts)
        self.saved: list[list[str | None]] = []
        self.pushed: list[list[str | None]] = []  # the folders pushd left, popd's to return to
        self.starts = starts
        self.closing = 0  # subshells the last segment closed: left once its reads are judged

    def enter(self, segment: str) -> None:
        for _ in range(self.closing):
            self.current = self.saved.pop() if self.saved else self.current
        stripped = segment.strip()
        moving = stripped.startswith(("cd ", "pushd ")) and stripped.endswith((")", ')"', "`", '`"'))
        opens = stripped[:1] == "(" or "$(" in segment or "<(" in segment or segment.count("`") % 2 == 1
        if opens and not moving and len(self.saved) < MAX_SUBSHELLS:
            self.saved.append(list(self.current))
        # x=$(cd test: the substitution's own command moves; cd $(mktemp -d): the cd itself
        inner = segment if moving else segment.rpartition("$(")[2]
        verb = inner.split(maxsplit=1)[0].lstrip("({") if inner.strip() else ""
        if verb == "pushd":
            self.pushed.append(list(self.current)) if len(self.pushed) < MAX_SUBSHELLS else self.pushed.clear()
        if verb == "popd":  # back where pushd left; a pushd of an earlier call (or too many): the starts too
            self.current = self.pushed.pop() if self.pushed else list(dict.fromkeys([*self.current, *self.starts]))
        else:
            self.current = self.workspace.after(inner, self.current)
        self.closing = len(stripped) - len(stripped.rstrip(")`")) if self.saved else 0


def _base(key: str) -> str:
    return key.rpartition("/")[2].lower()
