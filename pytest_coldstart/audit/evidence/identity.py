"""Evidence identity: which file inside the run a call actually names.

A call names a file by a path, never by a file name: every path-like token of its arguments
is resolved against the agent's working directory recorded in the run (``run.json``
``agent.cwd``, else the ``cwd`` an importer took from the harness session, else the run
directory itself), with a ``cd DIR`` earlier in the same command line honoured. ``./``,
``..``, doubled slashes and backslashes are normalised; a path inside the run is followed
through the run's own symlinks to the real file; on a case-insensitive host (run.json
``agent.case_insensitive``, a Windows/macOS ``environment.os``, or a drive-letter path) case
is folded. Two names denote the same evidence only when they resolve to the same key.

Declared evidence is known by the keys of its run-relative ``path``/``normalized``/``raw``
and by ``original_path``: where the file was while the agent worked (an absolute host path,
or one relative to the agent's working directory), for evidence the operator copied into the
run afterwards.

Nothing here reads a file (symlinks: ``os.path.realpath`` only); a path outside the run is a key outside it.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pytest_coldstart.audit.evidence import fresh_names
from pytest_coldstart.audit.evidence.run_tree import symlink_names
from pytest_coldstart.audit.evidence.shell_words import is_glob, last_component, segment_tokens, strings
from pytest_coldstart.audit.evidence.win_paths import long_path, win32_path

RUN = "<run>"  # the key prefix of the run directory when the host path it had is unknown
_DRIVE = re.compile(r"^[a-zA-Z]:/")
#: The cwd after a ``cd`` to a folder no one can place: relative names there are unplaceable.
UNKNOWN_CWD = "$CDPATH?"
MAX_CWDS = 16  # distinct folders one text is read in, the last standing for all the others
MAX_CWD_CHARS = 4096  # the longest folder a record may state (PATH_MAX)
MAX_CWD_PARTS = 64  # components of a cwd a call's cds may reach before it is taken as unknown
_ASSIGNED = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+")
_MAX_STARTS = 4
_MAX_STATED = 4  # folders the record states calls ran in, kept as starts beside the carried ones
_MEMO_SIZE = 16_384  # Workspace.key results kept (cleared when full): tokens of at most
_MEMO_CHARS = 512  # this many characters, so the memo holds at most a few MB
_MOVES = ("cd", "pushd", "Set-Location", "chdir")  # the commands that change the cwd
_CODE_CHDIR = re.compile(r"""\b(?:chdir|setwd)\s*\(?\s*(['"])([^'"\n]{1,1024})\1""")  # os.chdir('x'), setwd("x")
_MAX_CODE_CWDS = 4  # cwds one start may be in at once (code's chdirs add to the shell's)
_CWD_FORMS = ("$PWD", "${PWD}", "$(pwd)", "`pwd`", "~+")  # ~+ is bash's $PWD
_PROC_CWD = re.compile(r"^/proc/(?:self|thread-self|\d+)/cwd(?:/|$)")
_PROC_ROOT = re.compile(r"^/proc/(?:self|thread-self|\d+)/root(?=/)/")
#: Folders of the system's own, taken to hold no run (reading them whole is common and honest).
_SYSTEM = re.compile(r"^/(?:usr|etc|proc|sys|dev|bin|sbin|lib|lib32|lib64|libx32|boot|snap|nix/store)(?:/|$)")
_HOME = re.compile(r"^/(?:home|Users)/[^/]+/?$|^/root/?$")
_HOME_PREFIX = re.compile(r"^/(?:home|Users)/[^/]+|^/root(?=/|$)")
_HOME_VARIABLE = re.compile(r"^(?:\$HOME|\$\{HOME\}|~)(?=/|$)")
_CASE_INSENSITIVE_OS = ("windows", "darwin", "macos", "mac os")


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def normalize(path: str) -> str:
    """Slashes unified, doubled slashes (a leading pair too), ``.`` and ``..`` collapsed (a leading ``..`` stays)."""
    text = path.strip().replace("\\", "/")
    if _DRIVE.match(text):
        drive, rest = text[:2], text[2:]
        return drive.upper() + posixpath.normpath(rest)
    if text.startswith("~"):
        return text
    text = posixpath.normpath(text) if text else text
    return text[1:] if text.startswith("//") else text  # //x is /x on Linux (normpath keeps two slashes)


def is_absolute(path: str) -> bool:
    return path.startswith("/") or bool(_DRIVE.match(path))


class Workspace:
    """How the agent saw the run: its working directory and the run directory's host path."""

    def __init__(self, root: Path, manifest: dict[str, Any] | None):
        manifest = manifest if isinstance(manifest, dict) else {}
        agent: dict[str, Any] = manifest["agent"] if isinstance(manifest.get("agent"), dict) else {}
        self.root = Path(root)
        self.real_root = os.path.realpath(self.root)
        run_dir = _text(agent.get("run_dir"))
        cwd = _text(agent.get("cwd"))
        self.cwd_source = "run.json agent.cwd" if cwd else None
        imported = [
            (entry["cwd"], entry.get("path"))
            for entry in manifest.get("imports") or []
            if isinstance(entry, dict) and _text(entry.get("cwd"))
        ]
        if cwd is None and imported:
            cwd, self.cwd_source = imported[0][0], f"the imported session {imported[0][1]!r}"
        self.run_base = normalize(run_dir) if run_dir and is_absolute(normalize(run_dir)) else RUN
        self.cwd = normalize(cwd) if cwd and is_absolute(normalize(cwd)) else None
        if self.cwd is None:
            self.cwd = self.run_base if cwd is None else posixpath.normpath(f"{self.run_base}/{normalize(cwd)}")
        flagged = agent.get("case_insensitive")
        environment: dict[str, Any] = manifest["environment"] if isinstance(manifest.get("environment"), dict) else {}
        host = f"{environment.get('os', '')} {environment.get('platform', '')}".lower()
        self.case_insensitive = flagged if isinstance(flagged, bool) else any(w in host for w in _CASE_INSENSITIVE_OS)
        self.windows = "windows" in host  # Win32's aliases of a name (``win_paths``)
        self.declared: set[str] = set()  # keys of declared files: what an ambiguous short name is taken as
        self.symlinks = symlink_names(self.root)
        self._run_keys: dict[str, str | None] = {}
        self._keys: dict[tuple[str, str | None], str | None] = {}  # Workspace.key's memo
        self.aliases: dict[str, str] = {}  # link key -> target key, of the links calls made (ln -s)
        self.generation = 0  # bumped where a name may now resolve otherwise (a link, a declaration)
        self.link_names: list[str] = []  # their lowercased names, in the order calls made them
        #: where a call may start: the agent's cwd (None), and the folders earlier calls cd'd into
        #: and never left (a persistent shell session keeps them; fail closed: all of them)
        self.starts: list[str | None] = [None]
        self._stated: list[str] = []  # folders the record says calls ran in
        self._carried: list[str] = []  # folders earlier calls' shells were left in
        self.cdpath = self.tmpdir = False  # a call set CDPATH/TMPDIR: a relative cd/mktemp -d lands anywhere
        self.repository = (root / ".git").exists()  # a repository may hold the run: a call may make one too
        # each imported session's folder, and the run's for calls recorded beside it, is a start (fail closed)
        natively = [self.run_base] if imported and self.cwd_source != "run.json agent.cwd" else []
        for where in [*(folder for folder, _ in imported), *natively]:
            self.state_cwd(where)

    def describe(self) -> str:
        if self.cwd_source is None:
            where = "the run directory (none is recorded)"
        else:
            where = f"{self.cwd if self.cwd != RUN else 'the run directory'} (from {self.cwd_source})"
        run = self.run_base if self.run_base != RUN else "not recorded"
        return f"agent working directory: {where}; the run directory's path on the agent's host: {run}"

    # -- keys ------------------------------------------------------------------------------

    def fold(self, key: str) -> str:
        return key.lower() if self.case_insensitive or _DRIVE.match(key) else key

    def run_key(self, relative: str) -> str | None:
        """The key of a run-relative path (the file the run holds, symlinks followed);
        remembered for the audit's life (one realpath per path named)."""
        if relative not in self._run_keys:
            self._run_keys[relative] = self._run_key(relative)
        return self._run_keys[relative]

    def _run_key(self, relative: str) -> str | None:
        rel = normalize(relative)
        if "\x00" in rel:
            return None  # a path no file system holds names nothing
        try:
            real = os.path.realpath(os.path.join(self.root, rel))
        except (OSError, ValueError):
            return None
        if real == self.real_root or real.startswith(self.real_root + os.sep):
            rel = Path(os.path.relpath(real, self.real_root)).as_posix()
        return self.fold(f"{self.run_base}/{rel}" if rel != "." else self.run_base)

    def key(self, token: str, cwd: str | None = None) -> str | None:
        """The key of a path a call names (relative to ``cwd``, default the agent's); remembered
        until a call makes a link (short tokens: the same names recur in call after call)."""
        if len(token) > _MEMO_CHARS:
            return self._key(token, cwd)
        memo = self._keys
        if (token, cwd) not in memo:
            if len(memo) >= _MEMO_SIZE:
                memo.clear()
            memo[token, cwd] = self._key(token, cwd)
        return memo[token, cwd]

    def _key(self, token: str, cwd: str | None) -> str | None:
        raw = token.strip().replace("\\", "/")
        if self.windows or _DRIVE.match(raw):  # oracle.json., oracle.json::$DATA: the file itself
            raw = win32_path(raw)
        if raw.startswith("/proc/"):  # /proc/self/cwd/x is x; /proc/self/root/x is /x
            raw = _PROC_ROOT.sub("/", _PROC_CWD.sub("./", raw, count=1), count=1)
        head, _, rest = raw.partition("/")
        if head in _CWD_FORMS:  # $PWD/x, ${PWD}/x, $(pwd)/x, `pwd`/x: relative to the cwd itself
            raw = rest or "."
        # A variable, ~ or a glob is unresolvable; checked before ".." collapses it away.
        if not raw or "\x00" in raw or raw.startswith("~") or "$" in raw or "`" in raw or is_glob(raw):
            return None
        text = normalize(raw)
        if cwd == UNKNOWN_CWD and not is_absolute(text):
            return None
        full = text if is_absolute(text) else normalize(f"{cwd or self.cwd}/{text}")
        if self.aliases:  # links calls made: followed component by component (x/link/.. too)
            full = self._through_links(raw if is_absolute(text) else f"{cwd or self.cwd}/{raw}")
        inside = self.inside(full)
        if inside is not None and "~" in inside and self.windows:  # ORACLE~1.JSO: the long name it stands for
            inside = long_path(str(self.root), inside, lambda rel: self._declares(self.run_key(rel)))
        return self.run_key(inside) if inside is not None else self.fold(full)

    def declare(self, keys: set[str]) -> None:
        self.declared |= keys
        self.generation += 1
        self._keys.clear()  # a short name resolved before may now be taken as a declared file

    def _declares(self, key: str | None) -> bool:
        return key is not None and any(k == key or k.startswith(key + "/") for k in self.declared)

    def alias(self, link: str, target: str) -> None:
        """A call made ``link`` a symbolic link to ``target``: later paths through it are the
        target's (also after the link is removed again: fail closed)."""
        if link != target:
            if link not in self.aliases:
                self.link_names.append(last_component(link).lower())
            self.aliases[link] = target
            self.generation += 1
            self._keys.clear()  # paths through the link now resolve elsewhere

    def _through_links(self, path: str) -> str:
        """``path`` normalised as the file system walks it: each component appended, then
        replaced by its link's target when a call linked it (a bounded chain of links)."""
        head, *parts = path.replace("\\", "/").split("/")
        current = head
        for part in parts:
            if part in ("", "."):
                continue
            if part == "..":
                current = current.rpartition("/")[0] or head
                continue
            current = f"{current}/{part}"
            for _ in range(8):
                target = self.aliases.get(current)
                if target is None:
                    break
                current = target
        return current or "/"

    def placed(self, token: str, unplaced: Callable[[str], list[str]], cwd: str | None = None) -> list[str]:
        """The keys a path may be: its own; ``unplaced(token)`` where it has none ($X/y, ~/y);
        both where it is a host path outside the run while the run's own host path is unknown
        (``unknown_host``: it may be the run's file)."""
        key = self.key(token, cwd)
        if key is None:
            return unplaced(token)
        return [key, *unplaced(token)] if self.unknown_host(key) else [key]

    def unknown_host(self, key: str) -> bool:
        """A host path that may lie inside the run: the run's host path was never recorded.
        A path that climbs out of it (``../run/oracle.json``) may come back into it."""
        return self.run_base == RUN and (is_absolute(key) or not (key == RUN or key.startswith(RUN + "/")))

    def homed(self, folder: str) -> str:
        """``folder`` with a leading ``$HOME``/``${HOME}``/``~`` as the recorded run's home, else
        ``/home/~``: ``$HOME/.m2`` is in a home, only ``$HOME`` may hold the run (``may_hold_run``)."""
        match, home = _HOME_VARIABLE.match(folder), _HOME_PREFIX.match(self.run_base)
        return folder if match is None else (home.group(0) if home else "/home/~") + folder[match.end() :]

    def may_hold_run(self, key: str, recursive: bool) -> bool:
        """A folder read whole (``recursive``: below it too) that may be the run, or one of its
        ancestors, the run's host path being unknown. Of the folders a path that climbs out of
        the run reaches: the ones as deep as the run or above it (``..``, ``../..``,
        ``../run``; never ``../a/b``). Of host folders: the root, a top-level folder
        (``/tmp``, ``/home``) or a home (``/home/lab``, ``/root``), an ancestor of where the
        run is audited, a path through a folder of the run's name; never the system's own
        (``/usr``, ``/etc`` ...): any other host folder would fail most honest runs."""
        if not self.unknown_host(key):
            return False
        if is_absolute(key):
            parts = [part for part in key.split("/") if part]
            if not parts:
                return recursive  # the run is never / itself
            if _SYSTEM.match(key):
                return False
            above = len(parts) == 1 or _HOME.match(key) is not None or self.real_root.startswith(key.rstrip("/") + "/")
            return (recursive and above) or self.root.name in parts
        parts = key.split("/")
        ups = sum(1 for part in parts if part == "..")  # normalised: the ..s lead
        names = len(parts) - ups if key != "." else 0
        return names == ups + 1 or (recursive and names <= ups)

    def inside(self, key: str) -> str | None:
        """The run-relative path of a resolved host path, or None when it is outside the run."""
        base = self.fold(self.run_base)
        folded = self.fold(key)
        if folded == base:
            return "."
        if folded.startswith(base + "/"):
            return key[len(self.run_base) + 1 :]
        return None

    def is_folder(self, key: str) -> bool:
        """Whether ``key`` is a folder the run holds (its own symlinks already followed)."""
        relative = self.inside(key)
        return relative is not None and os.path.isdir(os.path.join(self.root, relative))

    def relative_of(self, key: str) -> str | None:
        """The run-relative path of a key (for reports), or None outside the run."""
        return self.inside(key)

    # -- tokens of a call ------------------------------------------------------------------

    def named_paths(self, value: Any) -> Iterator[tuple[str, str | None]]:
        """(token, the cwd it is relative to) for every path-like token in ``value``."""
        for text in strings(value):
            yield from self.tokens(text)

    def tokens(self, text: str, wanted: re.Pattern[str] | None = None) -> Iterator[tuple[str, str | None]]:
        for _, found in self.segments(text, wanted):
            yield from found

    def segments(
        self, text: str, wanted: re.Pattern[str] | None = None
    ) -> Iterator[tuple[str, list[tuple[str, str | None]]]]:
        """Per shell segment of ``text``: the segment and its path-like tokens, each with the
        cwd the segment runs in (``cd`` segments move it). ``wanted``: only the segments it
        finds in (lowercased) are tokenised - a cheap necessary condition of the caller.
        The text is cut and tokenised once; only the cwds differ from one start to the next."""
        parsed = [(segment, segment_tokens(segment, wanted)) for segment in fresh_names.moving(text, self.tmpdir)]
        for start in self.starts:
            current = [start]
            for segment, tokens in parsed:
                current = self.after(segment, current)
                if tokens is not None:
                    yield segment, [(token, cwd) for cwd in current for token in tokens]

    def after(self, segment: str, current: list[str | None]) -> list[str | None]:
        """The cwds after ``segment``: each moved by a ``cd``; where code changes its own
        directory (``os.chdir('test')``, ``process.chdir``, ``setwd``), that folder too - added,
        never instead: the shell's own cwd stays where it was (fail closed both ways)."""
        moved = [self.moved(segment, cwd) for cwd in current]
        if "chdir" not in segment and "setwd" not in segment:
            return moved
        for match in _CODE_CHDIR.finditer(segment):
            moved += [self.moved(f"cd {match.group(2)}", cwd) for cwd in current]
        moved = list(dict.fromkeys(moved))
        return moved if len(moved) <= _MAX_CODE_CWDS else [*moved[: _MAX_CODE_CWDS - 1], UNKNOWN_CWD]

    def moved(self, segment: str, cwd: str | None) -> str | None:
        """The cwd after ``segment``: moved by a ``cd DIR``, else ``cwd``."""
        if "cd" not in segment and "pushd" not in segment and "chdir" not in segment and "Set-Location" not in segment:
            return cwd  # the common case, without the substitution below
        segment = _ASSIGNED.sub("", segment.lstrip(" \t({"))  # (cd x; ...), CDPATH=. cd x move it too
        if not segment.startswith(_MOVES):
            return cwd
        if "mktemp" in segment and not self.tmpdir and fresh_names.fresh_folder(segment):
            return "/tmp/<mktemp -d>"  # cd $(mktemp -d): a folder of its own, outside the run
        words = segment.split()
        if words[0] not in _MOVES:
            return cwd
        target = words[1].strip("\"'") if len(words) > 1 else "$HOME"
        target = self.homed(target) if target[:1] in "~$" and "/" in target.rstrip("/") else target  # $HOME/x: ~/x
        if target == "-" or "$" in target or "`" in target or (self.cdpath and target[:1] not in "./~"):
            return UNKNOWN_CWD  # cd $X, cd "$(dirname …)", cd -: relative names land who knows where
        resolved = normalize(target) if is_absolute(normalize(target)) else None
        if resolved is None and cwd == UNKNOWN_CWD:
            return UNKNOWN_CWD
        moved = resolved or normalize(f"{cwd or self.cwd}/{target}")
        # cd a; cd a; ... a folder each cd deeper: past MAX_CWD_PARTS, anywhere (fail closed), so
        # resolving a name in it never costs the number of cds so far
        return moved if moved.count("/") <= MAX_CWD_PARTS else UNKNOWN_CWD

    def cwds(self, text: str) -> list[str | None]:
        """Every working directory a segment of ``text`` runs in (None: the agent's own). Past
        MAX_CWDS of them: the first ones and UNKNOWN_CWD (a relative name may then be anywhere,
        fail closed), so what callers do per cwd and per name stays linear in the text."""
        found: dict[str | None, None] = dict.fromkeys(self.starts)
        segments = fresh_names.moving(text, self.tmpdir)
        for start in self.starts:
            current = [start]
            for segment in segments:
                current = self.after(segment, current)
                found.update(dict.fromkeys(current))
                if len(found) > MAX_CWDS:
                    return [*[c for c in found if c != UNKNOWN_CWD][: MAX_CWDS - 1], UNKNOWN_CWD]
        return list(found)

    def state_cwd(self, folder: Any) -> None:
        """A folder the record says a call ran in (a session's cwd, a call's ``cwd`` field):
        from then on a start of every call (the latest ``_MAX_STATED`` of them)."""
        text = _text(folder)
        if text is None:
            return
        if len(text) > MAX_CWD_CHARS or text.count("/") + text.count("\\") > MAX_CWD_PARTS:
            text = UNKNOWN_CWD  # no real folder: anywhere (fail closed), and no key holds a copy of it
        if text in (self.run_base, UNKNOWN_CWD):
            where = text
        else:
            where = normalize(text) if is_absolute(normalize(text)) else normalize(f"{self.run_base}/{text}")
        if self.cwd is not None and self.fold(where) == self.fold(self.cwd):
            return  # the agent's own cwd: the start None
        if where not in self._stated:
            self._stated = [*self._stated[-(_MAX_STATED - 1) :], where]
            self.starts = [None, *dict.fromkeys([*self._stated, *self._carried])]

    def carry_cwd(self, text: str) -> None:
        """Keep the folder ``text`` leaves its shell in as a start of later calls (``cd test``
        in one call, ``cp x testmod.jsonl`` in the next); at most ``_MAX_STARTS`` of them."""
        if not any(move in text for move in _MOVES):
            return
        for start in list(self.starts):
            cwd = start
            for segment in fresh_names.moving(text, self.tmpdir):
                cwd = self.moved(segment, cwd)
            if cwd is not None and self.cwd is not None and self.fold(cwd) == self.fold(self.cwd):
                cwd = None  # back where the agent's shell starts
            if cwd is not None and cwd not in self.starts:
                self._carried = [*self._carried[-(_MAX_STARTS - 2) :], cwd]
                self.starts = [None, *dict.fromkeys([*self._stated, *self._carried])]
