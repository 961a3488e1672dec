"""What a shell command writes: the files a command line's segments create, overwrite or
append to, resolved against the agent's working directory as the segments ``cd`` through it.

Known writers: redirects (``>``, ``>>``, ``&>``, ...), ``tee``, ``cp``/``mv``/``install``/``rsync``/
``ln``/``Copy-Item``/``Move-Item`` destinations (``-t`` included), ``dd of=``, ``sed -i``/``perl -i``,
``touch``/``truncate``, ``curl -o``/``wget -O``, ``Set-Content``/``Out-File``/``Add-Content``/``New-Item``,
any program's output option (``sort -o``, ``--output=``), ``sponge``, ``patch``, ``git checkout|restore``
and decompressors. The parse is lexical: quotes are stripped, not interpreted, which errs towards
naming a write. A command run by another one is parsed too: a wrapper's (``sudo``, ``env``), an
exec-er's (``xargs``, ``find -exec``, ``timeout``) and a shell's command string (``bash -c``, ``eval``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pytest_coldstart.audit.evidence.copies import COPIERS, REMOTE, copies, remote_copy
from pytest_coldstart.audit.evidence.identity import MAX_CWD_PARTS, Workspace, is_absolute
from pytest_coldstart.audit.evidence.memo import short_texts
from pytest_coldstart.audit.evidence.program_writes import (
    OUTPUT_OPTIONS,
    OUTPUT_VARIABLE,
    PROGRAMS,
    option_outputs,
    program_writes,
    variable_outputs,
)
from pytest_coldstart.audit.evidence.removals import REMOVERS, REMOVING, find_deletes, removals
from pytest_coldstart.audit.evidence.shell_words import (
    PS_ALIASES,
    SEGMENT,
    dequoted,
    hinted_in,
    last_component,
    quoted_segments,
    without_comments,
    wrapper_folders,
)
from pytest_coldstart.audit.evidence.shell_words import program_name as _head
from pytest_coldstart.audit.evidence.tree_writes import ARCHIVERS, tree_writes

#: (key of the file written, how, key of the file a copy/move came from)
ShellWrite = tuple[str, str, str | None]
#: Extra writers of one segment: (its words, the cwd key it runs in) -> writes.
SegmentRule = Callable[[list[str], str | None], list[ShellWrite]]
#: The keys a write target the workspace cannot place may stand for.
Unplaced = Callable[[str], list[str]]

#: The programs ``_segment`` knows as writers, by their first word (lowercased).
WRITER_HEADS: tuple[str, ...] = ("tee", *COPIERS, "dd", "sed", "perl", "touch", "truncate", "curl", "wget")
WRITER_HEADS += ("set-content", "out-file", "add-content", "new-item", "tee-object", "rename-item", "awk", "gawk")
#: PowerShell's aliases of the cmdlets that write.
WRITER_HEADS += tuple(PS_ALIASES)
#: Writers of their operand (sponge, patch), of a restored path (git checkout/restore) or of
#: the file a compressed operand unpacks to (gunzip x.gz writes x).
WRITER_HEADS += ("sponge", "patch", "git", *(_DECOMPRESSORS := ("gunzip", "unxz", "bunzip2", "unzstd", "unlzma")))
WRITER_HEADS += (_COMPRESSORS := ("gzip", "xz", "bzip2", "zstd", "lzma"))
WRITER_HEADS += (*ARCHIVERS, "scp")  # archive extraction writes a tree (tree_writes)
#: Editors write the files they open; remote and container copiers copy like cp and rsync.
EDITORS = ("vi", "vim", "nvim", "nano", "pico", "emacs", "emacsclient", "ed", "ex", "micro", "joe", "code", "subl")
WRITER_HEADS += (*EDITORS, *REMOTE, *REMOVERS, *REMOVING, *PROGRAMS)
_PACKED = (".gz", ".xz", ".bz2", ".zst", ".lzma", ".z")
#: Cheap necessary condition: a command holding neither a ``>`` nor a writer head as a whole
#: word writes nothing we parse (a head inside a word - "dd" in a hex digest - is none).
HINT = r">|(?<![a-z0-9_])(?:" + "|".join(sorted(map(re.escape, WRITER_HEADS))) + r")(?![a-z0-9_])"
HINT += r"|(?<![\w-])(?:" + "|".join(sorted(map(re.escape, OUTPUT_OPTIONS), key=len, reverse=True)) + r")(?![\w-])"
HINT += r"|(?<![\w-])-delete(?![\w-])|" + OUTPUT_VARIABLE  # find -delete; LOG=f prog
_HINT_TEXT = re.compile(HINT)
_WORD = re.compile(r"(?:\"[^\"]*\"|'[^']*'|[^\s\"'])+")  # a shell word: "ora""cle.json" is one
_PIECE = re.compile(r"\"([^\"]*)\"|'([^']*)'")
#: A redirection inside a word: >f, 2>>f, 3>f, &>f, >|f, 3<>f (read-write), echo x>f (no space).
_ATTACHED = re.compile(r"(?:<>|>>?\|?)(.+)$")
_REDIRECT = re.compile(r"^(?:(?:\d+|&)?>>?\|?|\d*<>)$")  # a redirection whose target is the next word
_INPUTS = ("<", "<<", "<<<", "0<")
_MOVES = re.compile(r"\s*(?:[a-z_][a-z0-9_]*=\S*\s+)*[\"']?(?:cd|pushd|set-location|chdir)[\"']?(?:\s|$)")
_OPENS = re.compile(r"[<>$]\(|`|(?:^|(?<=[;&|\n]))\s*[({]")  # where a command line opens inside another
_CLOSES = re.compile(r"[)}](?=[\s;&|<>\"']|$)")  # ... and closes (not $(pwd)/x)
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
#: Shell keywords a command may follow in its segment (for f in *; do cp a "$f"; done).
_KEYWORDS = frozenset(["do", "then", "else", "elif", "if", "while", "until", "!", "{", "(", "coproc"])
#: Programs that run the next word as the command (their own options are skipped too).
WRAPPERS = frozenset(["sudo", "env", "command", "nohup", "time", "nice", "exec", "busybox", "doas", "stdbuf"])
#: Programs that run a command given later among their words, after options whose values
#: look like anything (``xargs -I {} cp {} d``, ``find . -exec cp {} d ;``, ``timeout 5 cp``):
#: the first known program after them is taken as that command (fail closed).
EXECERS = frozenset(["xargs", "find", "timeout", "watch", "flock", "setsid", "taskset", "ionice", "chrt"])
EXECERS |= {"strace", "ltrace", "parallel", "unbuffer", "chroot", "nsenter", "unshare", "catchsegv"}
#: Shells whose ``-c STRING`` (``eval``: all its words) is itself a command line, parsed as one.
SHELLS = frozenset(["bash", "sh", "zsh", "dash", "ksh", "ash", "mksh", "fish", "su", "runuser", "pwsh"])
SHELLS |= {"powershell", "cmd", "eval"}
_PROGRAMS = frozenset(WRITER_HEADS) | EXECERS | SHELLS
_TERMINATORS = (";", "\\;", "\\", "+", "{}+")  # the end of find's -exec command
#: A file name known only at run time: a bare variable ("$f", ${1}, $@) or an exec-er's placeholder.
RUNTIME_NAME = re.compile(
    r"\$(?:\{[^{}]*\}|[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?])|\{\}|%|\{[./#]*\}"
    r"|\{[A-Za-z_][\w.]*\}|\{\d+\}|%[sr]|%\(\w+\)[sr]"  # f'{p}', '{0}'.format, '%s' % p
)
_MAX_DEPTH = 4  # nested shells parsed (bash -c "sh -c '...'")


def may_write(text: str) -> bool:
    return _hinted(text.lower())  # heads are matched lowercased (Set-Content, CP)


@short_texts()
def _hinted(lowered: str) -> bool:
    """A write hint in the text as written or as the shell joins its words (c''p, \\cp)."""
    if _HINT_TEXT.search(lowered) is not None:
        return True
    plain = dequoted(lowered)
    return plain is not lowered and _HINT_TEXT.search(plain) is not None


def shell_writes(
    text: str,
    ws: Workspace,
    also: SegmentRule | None = None,
    unplaced: Unplaced | None = None,
    also_hint: re.Pattern[str] | None = None,
    *,
    cwd: str | None = None,
    uncertain: bool = False,
    depth: int = 0,
) -> list[ShellWrite]:
    """The files ``text`` writes, each segment resolved in the cwd its ``cd``s leave.
    ``unplaced(target)``: the keys a target the workspace cannot place ($VAR/x, ~/x) may be;
    ``also_hint``: a necessary condition (on the text, then on each segment) for ``also``. A shell's ``-c STRING`` or ``eval``'s words are parsed as a command line of their own.
    Segments are cut both at every separator and at separators outside quotes only: escapes
    are not interpreted, so a write either reading finds is a write (fail closed)."""
    if depth == 0 and cwd is None and len(ws.starts) > 1:  # where earlier calls left the shell, too
        union: dict[ShellWrite, None] = {}
        for start in ws.starts:
            union.update(dict.fromkeys(shell_writes(text, ws, also, unplaced, also_hint, cwd=start, depth=1)))
        return list(union)
    also = also if also is None or also_hint is None or hinted_in(also_hint, text) else None
    plain = SEGMENT.split(text)
    found = _writes_in(plain, ws, also, unplaced, also_hint, cwd, uncertain, depth)
    # Separators inside quotes: a shell runs a quoted command line (bash -c "a; b"), and a quoted
    # word holding one is one word (ex -sc '%s/a/b/|x' f; vim -c 'x|wq' f).
    quoted = quoted_segments(text) if '"' in text or "'" in text else plain
    # A subshell, a process or command substitution runs a command line of its own:
    # (cd test; cat > x), >(tee x), $(cp a b), `cp a b`.
    opened = _CLOSES.sub("\n", _OPENS.sub("\n", text)) if _OPENS.search(text) else None
    unwrapped = [_unwrap(s) for s in SEGMENT.split(opened)] if opened is not None else plain
    # A comment's words are no operands (git clean -fdx # tidy: the whole tree); fail closed, both readings.
    uncommented = without_comments(text)
    bare = SEGMENT.split(uncommented) if uncommented != text else plain
    for other in (quoted, unwrapped, bare):
        if other != plain:
            seen = set(found)
            for write in _writes_in(other, ws, also, unplaced, also_hint, cwd, uncertain, depth):
                if write not in seen:
                    seen.add(write)
                    found.append(write)
    return found


def _unwrap(segment: str) -> str:
    """A segment without the brackets of a subshell or a group around it (and the quotes of a
    substitution's string: "$(cp a b)")."""
    return segment.strip().lstrip("({\"' \t").rstrip(")}\"' \t")


def _writes_in(
    segments: list[str],
    ws: Workspace,
    also: SegmentRule | None,
    unplaced: Unplaced | None,
    also_hint: re.Pattern[str] | None,
    cwd: str | None,
    uncertain: bool,
    depth: int,
) -> list[ShellWrite]:
    out: list[ShellWrite] = []
    for segment in segments:
        # Only a cd or a hinted segment can matter: a long script parses in time of its hints.
        lowered = segment.lower()
        hinted = _hinted(lowered)
        extra = also is not None and (also_hint is None or hinted_in(also_hint, segment))
        if not (hinted or extra or _MOVES.match(lowered)):
            continue
        words = [_PIECE.sub(_unquoted, w) for w in _WORD.findall(segment)]
        if not words:
            continue
        moves = [w for w in words if not _ASSIGNMENT.match(w)]  # CDPATH=. cd x moves too
        if moves and moves[0].lower() in ("cd", "pushd", "set-location", "chdir"):
            placed = len(moves) > 1 and moves[1] != "-" and not (ws.cdpath and moves[1][:1] not in "./~")
            moved = ws.key(moves[1], cwd) if placed else None  # CDPATH set: a relative cd lands who knows where
            # cd "$(dirname …)", cd $X, cd -, cd: where later relative names land is unknown; so
            # past MAX_CWD_PARTS (cd d; cd d; …), which keeps placing a name linear in the text
            deep = moved is not None and moved.count("/") > MAX_CWD_PARTS
            cwd, uncertain = (cwd, True) if moved is None or deep else (moved, uncertain)
            continue
        if extra and also is not None:
            out += also(words, cwd)
        out += variable_outputs(words, _Resolver(ws, cwd, unplaced, uncertain)) if "=" in segment else []
        if _head(words[0]) == "find" and hinted:
            resolver = _Resolver(ws, cwd, unplaced, uncertain)
            out += find_deletes(words, resolver, resolver.key)
        program = _program(words)
        inner = _shell_string(program)
        # env -C DIR, sudo -D DIR: the program runs in DIR (the shell's own redirects do not)
        chdirs = [ws.key(folder, cwd) for folder in wrapper_folders(words)]
        for here, unsure in [(cwd, uncertain), *((cwd, True) if m is None else (m, uncertain) for m in chdirs)]:
            if inner is not None:
                if depth < _MAX_DEPTH:
                    out += shell_writes(
                        inner, ws, also, unplaced, also_hint, cwd=here, uncertain=unsure, depth=depth + 1
                    )
            elif program and hinted:
                out += _segment(program, _head(program[0]), _Resolver(ws, here, unplaced, unsure))
            elif hinted:  # an exec-er's program nobody knows (xargs cat >> f, timeout 5 echo > f): the shell's redirect
                out += _redirects(words, _Resolver(ws, here, unplaced, unsure))
    return out


def _program(words: list[str]) -> list[str]:
    """The words of the command a segment finally runs: wrappers set aside (``_command``), and
    an exec-er's command found among its words."""
    for _ in range(_MAX_DEPTH):
        words = _command([w for w in words if w.strip("\\")])  # a stray backslash of nested quoting
        if not words or _head(words[0]) not in EXECERS:
            return words
        found = next((i for i in range(1, len(words)) if _head(words[i]) in _PROGRAMS), None)
        if found is None:
            return []
        words = [w for w in words[found:] if w not in _TERMINATORS]
    return words


def _shell_string(words: list[str]) -> str | None:
    """The command line a shell runs: ``bash -c STRING`` (-lc, -ec ... clusters too),
    ``pwsh -Command STRING``, ``cmd /c STRING``, ``eval WORDS``; None for any other command."""
    if not words:
        return None
    head = _head(words[0])
    if head not in SHELLS:
        return None
    if head == "eval":
        return _unescape(" ".join(words[1:]))
    if head in ("su", "runuser") and "--" in words and not any(w in ("-c", "--command") for w in words):
        return " ".join(words[words.index("--") + 1 :])  # runuser -u lab -- cp a b
    for index, word in enumerate(words[1:-1], start=1):
        lowered = word.lower()
        single = lowered.startswith("-") and not lowered.startswith("--") and "c" in lowered[1:4]
        if single or lowered in ("-command", "/c", "/k", "--command"):
            return _unescape(" ".join(words[index + 1 :]))
    return None


def _unquoted(piece: re.Match[str]) -> str:
    """A quoted piece of a word as the shell reads it: its content (quotes inside it stay)."""
    return piece.group(1) if piece.group(1) is not None else piece.group(2)


def _unescape(text: str) -> str:
    """One level of quoting undone: ``\\"`` of a string inside a string is a quote again."""
    return text.replace('\\"', '"').replace("\\'", "'")


def _command(words: list[str]) -> list[str]:
    """The words from the program a segment runs: leading ``VAR=value`` assignments and
    wrappers (``sudo``, ``env``, ``command``, ``nohup`` ...) with their options set aside."""
    index, wrapped = 0, False
    while index < len(words):
        word = words[index]
        if _ASSIGNMENT.match(word) or (wrapped and word.startswith("-")) or word in _KEYWORDS:
            index += 1
        elif word == "case" or (index == 0 and word.endswith(")") and "(" not in word):
            # case x in PATTERN) cmd ;; PATTERN) cmd: the command follows the pattern's )
            index = next((i + 1 for i in range(index, len(words)) if words[i].endswith(")")), len(words))
        elif word == "function" or word.endswith("()"):  # a function's body runs its commands
            index += 2 if word == "function" else 1
        elif _head(word) in WRAPPERS:
            index, wrapped = index + 1, True
        else:
            break
    if wrapped:  # a wrapper option's value (sudo -u x, nice -n 5) is not the program
        for ahead in range(index, min(index + 6, len(words))):
            if _head(words[ahead]) in WRITER_HEADS:
                return words[ahead:]
    return words[index:]


class _Resolver:
    """A segment's targets: placed in its cwd; where that cwd is uncertain (after ``cd $X``),
    a relative name also by ``unplaced`` (fail closed)."""

    def __init__(self, ws: Workspace, cwd: str | None, unplaced: Unplaced | None, uncertain: bool = False):
        self.ws, self.cwd, self.unplaced, self.uncertain = ws, cwd, unplaced, uncertain

    def key(self, token: str) -> str | None:
        return self.ws.key(token, self.cwd)

    def is_folder(self, token: str) -> bool:
        """A folder for sure: ``.``, ``..``, a trailing slash, or a folder the run holds."""
        if token in (".", "..") or token.endswith("/"):
            return True
        key = self.key(token)
        return key is not None and self.ws.is_folder(key)

    def __call__(self, target: str) -> list[str]:
        """The keys a write target names: its own, or (unplaceable) the ones it may be."""
        keys = self._keys(target)
        if self.uncertain and self.unplaced is not None and not is_absolute(target.replace("\\", "/")):
            keys += [key for key in self.unplaced(target) if key not in keys]
        if "\\" in target:  # o\\racle.json is oracle.json to the shell, ..\\x a Windows path: both
            keys += [key for key in self._keys(target.replace("\\", "")) if key not in keys]
        return keys

    def _keys(self, target: str) -> list[str]:
        guess = self.unplaced if self.unplaced is not None and target.strip() else None
        if guess is not None and RUNTIME_NAME.fullmatch(last_component(target)):
            return guess(target)  # "$f", {}, %: a name known only at run time
        if guess is not None and ("$(" in target or "`" in target):
            # "$(printf 'oracle.json')": a name a command prints, any word of it, or any name the
            # text lists (tee $(find . -name 'testmod*'), > $(ls test/* | head -1)): fail closed
            words = [w.strip("'\"`()$") for w in target.split()]
            return sorted({key for word in [*words, "{}"] if word for key in guess(word)})
        return self.ws.placed(target, guess or (lambda _: []), self.cwd)


def _redirects(words: list[str], targets: _Resolver) -> list[ShellWrite]:
    out: list[ShellWrite] = []
    for index, word in enumerate(words):
        target = None
        if _REDIRECT.match(word) and index + 1 < len(words):
            target = words[index + 1]
        elif ">" in word:
            match = _ATTACHED.search(word)
            target = match.group(1) if match else None
        if target and not target.startswith("&"):
            out += [(k, "shell redirect", None) for k in targets(target)]
    return out


def _segment(words: list[str], head: str, targets: _Resolver) -> list[ShellWrite]:
    out = _redirects(words, targets)
    if head in REMOTE:  # docker cp, aws s3 sync ...: parsed as the local copy they are
        words = remote_copy(words, head) or words
        head = _head(words[0])
    args = _operands(words)
    if head == "tee":
        out += [(k, "tee", None) for a in args for k in targets(a)]
    elif head in COPIERS and len(args) >= 1:
        out += copies(words, head, args, targets)
    elif head == "dd":
        out += [(k, "dd", None) for w in words if w.startswith("of=") for k in targets(w[3:])]
    elif head in ("sed", "perl") and any(_in_place(w) for w in words[1:]):
        out += [(k, f"{head} -i", None) for a in args[1:] for k in targets(a)]
    elif head in ("touch", "truncate", *EDITORS):
        out += [(k, head, None) for a in args for k in targets(a)]
    elif head in PROGRAMS:
        out += program_writes(words, head, args, targets)
    elif head == "rename-item" and args:  # Rename-Item PATH -NewName NAME: NAME beside PATH, PATH gone
        name = next((words[i + 1] for i, w in enumerate(words[:-1]) if w.lower() == "-newname"), None)
        name = name or (args[1] if len(args) > 1 else None)
        folder = args[0].replace("\\", "/").rpartition("/")[0]
        if name:
            out += [(k, head, None) for k in targets(f"{folder}/{last_component(name)}" if folder else name)]
        out += [(k, f"{head} (moved away)", None) for k in targets(args[0])]
    elif head in ("set-content", "out-file", "add-content", "new-item", "tee-object"):
        path = next((words[i + 1] for i, w in enumerate(words[:-1]) if w.lower() in ("-path", "-filepath")), None)
        target = path or (args[0] if args else None)
        if target:
            out += [(k, head, None) for k in targets(target)]
    elif head in ("sponge", "patch") and args:
        out += [(k, head, None) for k in targets(args[0])]
    elif head == "git" and args[:1] in (["checkout"], ["restore"]):
        out += [(k, f"git {args[0]}", None) for a in args[1:] for k in targets(a)]
    elif head in _DECOMPRESSORS or (head in _COMPRESSORS and any(w in ("-d", "--decompress") for w in words)):
        unpacked = [a[: -len(ext)] for a in args for ext in _PACKED if a.lower().endswith(ext) and len(a) > len(ext)]
        out += [(k, head, None) for a in unpacked for k in targets(a)]
    out += removals(words, head, targets, targets.key)
    return out + option_outputs(words, head, targets) + tree_writes(words, head, targets, targets.key)


def _operands(words: list[str]) -> list[str]:
    """A command's operands: its words but options, redirections and their targets."""
    out: list[str] = []
    skip = False
    for word in words[1:]:
        if skip:
            skip = False
        elif _REDIRECT.match(word) or word in _INPUTS:
            skip = True
        elif not word.startswith("-") and ">" not in word and not word.startswith("<"):
            out.append(word)
    return out


def _in_place(word: str) -> bool:
    """``-i``, ``-i.bak``, a cluster holding i (``-pi``, ``-Ei``) or ``--in-place``."""
    if word.startswith("--"):
        return word.startswith("--in-place")
    cluster = word[1:].split(".", 1)[0]  # -i.bak keeps a backup; -Mstrict is no cluster of flags
    return word.startswith("-") and "i" in cluster and len(cluster) <= 4 and cluster.isalpha()
