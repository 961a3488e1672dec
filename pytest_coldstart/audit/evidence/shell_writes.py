"""What a shell command writes: the files a command line's segments create, overwrite or
append to, resolved against the agent's working directory as the segments ``cd`` through it.

Known writers: redirects (``>``, ``>>``, ``&>``, ...), ``tee``, ``cp``/``mv``/``install``/
``rsync``/``ln``/``Copy-Item``/``Move-Item`` destinations (``-t`` included), ``dd of=``,
``sed -i``/``perl -i``, ``touch``/``truncate``, ``curl -o``/``wget -O`` and
``Set-Content``/``Out-File``/``Add-Content``. The parse is lexical: quotes are stripped, not
interpreted, which errs towards naming a write.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pytest_coldstart.audit.evidence.identity import SEGMENT, Workspace, last_component

#: (key of the file written, how, key of the file a copy/move came from)
ShellWrite = tuple[str, str, str | None]
#: Extra writers of one segment: (its words, the cwd key it runs in) -> writes.
SegmentRule = Callable[[list[str], str | None], list[ShellWrite]]
#: The keys a write target the workspace cannot place may stand for.
Unplaced = Callable[[str], list[str]]

COPIERS = ("cp", "mv", "install", "rsync", "ln", "copy", "move", "copy-item", "move-item", "xcopy", "robocopy")
REDIRECTS = (">", ">>", "1>", "2>", "&>", ">|", "1>>", "2>>", "&>>")
#: The programs ``_segment`` knows as writers, by their first word (lowercased).
WRITER_HEADS: tuple[str, ...] = ("tee", *COPIERS, "dd", "sed", "perl", "touch", "truncate", "curl", "wget")
WRITER_HEADS += ("set-content", "out-file", "add-content")
#: Cheap necessary condition: a command holding neither a ``>`` nor a writer head as a whole
#: word writes nothing we parse (a head inside a word - "dd" in a hex digest - is none).
HINT = r">|(?<![a-z0-9_])(?:" + "|".join(sorted(map(re.escape, WRITER_HEADS))) + r")(?![a-z0-9_])"
_HINT_TEXT = re.compile(HINT)
_WORD = re.compile(r"\"[^\"]*\"|'[^']*'|\S+")
_ATTACHED = re.compile(r"^(?:[12&]?>>?\|?)(.+)$")
_INPUTS = ("<", "<<", "<<<", "0<")
_MOVES = re.compile(r"\s*[\"']?(?:cd|pushd|set-location|chdir)[\"']?\s")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
#: Programs that run the next word as the command (their own options are skipped too).
WRAPPERS = frozenset(["sudo", "env", "command", "nohup", "time", "nice", "exec", "busybox", "doas", "stdbuf"])


def may_write(text: str) -> bool:
    return _HINT_TEXT.search(text.lower()) is not None  # heads are matched lowercased (Set-Content, CP)


def shell_writes(
    text: str,
    ws: Workspace,
    also: SegmentRule | None = None,
    unplaced: Unplaced | None = None,
    also_hint: re.Pattern[str] | None = None,
) -> list[ShellWrite]:
    """The files ``text`` writes, each segment resolved in the cwd its ``cd``s leave.
    ``unplaced(target)``: the keys a target the workspace cannot place ($VAR/x, ~/x) may be;
    ``also_hint``: a necessary condition on a segment for ``also`` to find a write in it."""
    out: list[ShellWrite] = []
    cwd: str | None = None
    for segment in SEGMENT.split(text):
        # Only a cd or a hinted segment can matter: a long script parses in time of its hints.
        lowered = segment.lower()
        hinted = _HINT_TEXT.search(lowered) is not None
        extra = also is not None and (also_hint is None or also_hint.search(segment) is not None)
        if not (hinted or extra or _MOVES.match(lowered)):
            continue
        words = [w.strip("\"'") for w in _WORD.findall(segment)]
        if not words:
            continue
        head = words[0].lower()
        if head in ("cd", "pushd", "set-location", "chdir") and len(words) > 1:
            cwd = ws.key(words[1], cwd) or cwd
            continue
        if extra and also is not None:
            out += also(words, cwd)
        words = _command(words)
        if words and hinted:
            out += _segment(words, _head(words[0]), _Resolver(ws, cwd, unplaced))
    return out


def _command(words: list[str]) -> list[str]:
    """The words from the program a segment runs: leading ``VAR=value`` assignments and
    wrappers (``sudo``, ``env``, ``command``, ``nohup`` ...) with their options set aside."""
    index, wrapped = 0, False
    while index < len(words):
        word = words[index]
        if _ASSIGNMENT.match(word) or (wrapped and word.startswith("-")):
            index += 1
        elif _head(word) in WRAPPERS:
            index, wrapped = index + 1, True
        else:
            break
    if wrapped:  # a wrapper option's value (sudo -u x, nice -n 5) is not the program
        for ahead in range(index, min(index + 3, len(words))):
            if _head(words[ahead]) in WRITER_HEADS:
                return words[ahead:]
    return words[index:]


def _head(word: str) -> str:
    """The program a word names: ``/bin/cp`` and ``\\cp`` are ``cp``."""
    return last_component(word).lstrip("\\")


class _Resolver:
    def __init__(self, ws: Workspace, cwd: str | None, unplaced: Unplaced | None):
        self.ws, self.cwd, self.unplaced = ws, cwd, unplaced

    def key(self, token: str) -> str | None:
        return self.ws.key(token, self.cwd)

    def __call__(self, target: str) -> list[str]:
        """The keys a write target names: its own, or (unplaceable) the ones it may be."""
        key = self.ws.key(target, self.cwd)
        if key is not None:
            return [key]
        return self.unplaced(target) if self.unplaced is not None and target.strip() else []


def _segment(words: list[str], head: str, targets: _Resolver) -> list[ShellWrite]:
    out: list[ShellWrite] = []
    for index, word in enumerate(words):
        target = None
        if word in REDIRECTS and index + 1 < len(words):
            target = words[index + 1]
        elif word[:1] in (">", "1", "2", "&") and ">" in word[:3]:
            match = _ATTACHED.match(word)
            target = match.group(1) if match else None
        if target and not target.startswith("&"):
            out += [(k, "shell redirect", None) for k in targets(target)]
    args = _operands(words)
    if head == "tee":
        out += [(k, "tee", None) for a in args for k in targets(a)]
    elif head in COPIERS and len(args) >= 2:
        option = next((words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-t", "--target-directory")), None)
        if option is not None:
            sources, destination, directory = [a for a in args if a != option], option, True
        else:
            sources, destination = args[:-1], args[-1]
            directory = destination.endswith("/") or len(sources) > 1
        for source in sources:
            name = f"{destination.rstrip('/')}/{last_component(source)}" if directory else destination
            out += [(k, head, targets.key(source)) for k in targets(name)]
    elif head == "dd":
        out += [(k, "dd", None) for w in words if w.startswith("of=") for k in targets(w[3:])]
    elif head in ("sed", "perl") and any(_in_place(w) for w in words[1:]):
        out += [(k, f"{head} -i", None) for a in args[1:] for k in targets(a)]
    elif head in ("touch", "truncate"):
        out += [(k, head, None) for a in args for k in targets(a)]
    elif head in ("curl", "wget"):
        flags = ("-o", "--output") if head == "curl" else ("-O", "--output-document")
        out += [(k, head, None) for i, w in enumerate(words[:-1]) if w in flags for k in targets(words[i + 1])]
    elif head in ("set-content", "out-file", "add-content"):
        path = next((words[i + 1] for i, w in enumerate(words[:-1]) if w.lower() in ("-path", "-filepath")), None)
        target = path or (args[0] if args else None)
        if target:
            out += [(k, head, None) for k in targets(target)]
    return out


def _operands(words: list[str]) -> list[str]:
    """A command's operands: its words but options, redirections and their targets."""
    out: list[str] = []
    skip = False
    for word in words[1:]:
        if skip:
            skip = False
        elif word in REDIRECTS or word in _INPUTS:
            skip = True
        elif not word.startswith("-") and not _ATTACHED.match(word) and not word.startswith("<"):
            out.append(word)
    return out


def _in_place(word: str) -> bool:
    """``-i``, ``-i.bak``, a cluster holding i (``-pi``, ``-Ei``) or ``--in-place``."""
    if word.startswith("--"):
        return word.startswith("--in-place")
    cluster = word[1:].split(".", 1)[0]  # -i.bak keeps a backup; -Mstrict is no cluster of flags
    return word.startswith("-") and "i" in cluster and len(cluster) <= 4 and cluster.isalpha()
