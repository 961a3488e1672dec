"""The programs that read a folder whole when handed one: searches, diffs, archivers, copiers.

A program handed a folder reads every file below it where it recurses: the greps with ``-r``,
``-R``, ``-d recurse`` or ``--directories=recurse`` (``rgrep``, and ``rg``, ``ag``, ``ack``,
``ugrep``, ``pt``, ``sift`` by default), ``git grep`` (``--no-index`` too: the working tree),
``git add`` of a folder (``-A``: the objects it writes are printed by ``git diff --cached``,
``git show``), ``diff`` of two folders (``-r``: below them; without it the files of each),
``git diff --no-index``, the archivers (``tar``/``bsdtar``/``gtar``/``jar`` creating,
appending or updating - short, long or old-style options -, ``zip -r``, ``pax -w``,
``7z``/``rar a``), the copiers (``cp -r``, ``rsync -a``, ``scp -r``) and the compressors'
``-r`` (``gzip -rc . | zcat``). Each read is a ``Read`` (folder, base-name pattern,
recursive). Programs that take the names from standard input (``find . | cpio -o``) are
``runtime_reads``'.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator

from pytest_coldstart.audit.evidence.git_reads import (
    HERE,
    INIT,
    MAGIC,
    REPOSITORY,
    elsewhere,
    git_content_reads,
    vcs_content_reads,
)
from pytest_coldstart.audit.evidence.shell_words import is_glob, last_component, unvalued

Read = tuple[str, str, bool]  # (folder, base-name pattern, recursive)

GREPS = ("grep", "egrep", "fgrep", "zgrep", "zegrep", "zfgrep", "bzgrep", "xzgrep", "zstdgrep")
RECURSING = ("rg", "ag", "ack", "ack-grep", "rgrep", "rga", "ugrep", "ug", "pt", "sift")  # recursive by default
_ARCHIVERS = ("tar", "bsdtar", "gtar", "jar")  # c(reate), r (append), u(pdate) add files
_SEVEN = ("7z", "7za", "7zr", "7zz", "rar")  # 7z a ARCHIVE [FILES]: the cwd when none
_COMPRESSORS = ("gzip", "pigz", "bzip2", "pbzip2", "xz", "zstd", "lz4", "brotli", "lzip", "compress")
_COPIERS = ("cp", "rsync", "scp", "gcp")
_GIT_VALUED = frozenset(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"])
#: git grep's options whose value is the next word
_GIT_GREP_VALUED = frozenset(["-e", "-f", "-A", "-B", "-C", "-m", "--max-count", "--max-depth", "--threads", "-O"])
_TAR_VALUED = frozenset(["-f", "--file", "-T", "--files-from", "-X", "--exclude-from", "-b", "-H", "--format", "-I"])
_TAR_VALUED |= {"--use-compress-program", "-V", "--label", "-L", "--tape-length", "-g", "--listed-incremental"}
_PAX_VALUED = frozenset(["-f", "-x", "-s", "-o", "-b", "-p", "-G", "-U", "-T"])
_DIFF_VALUED = frozenset(["-x", "-X", "-I", "-F", "-L", "-U", "--exclude", "--label", "--from-file", "--to-file"])


def program_reads(
    words: list[str], head: str, operands: list[str], flags: list[str], intent: bool = False
) -> Iterator[Read]:
    """The folders the program ``head`` reads whole, run with ``words`` (``operands`` and
    ``flags``: its words parted, a grep's option values set aside; ``intent``: the command
    line marks new files with ``git add -N``)."""
    if head in RECURSING or (head in GREPS and _grep_recurses(words, flags)):
        paths = operands[1:] if not any(f in ("-e", "-f", "--regexp", "--file") for f in flags) else operands
        yield from (whole(path) for path in paths or ["."])
    elif head in _ARCHIVERS and _adds(words):
        yield from _archived(words)
    elif head == "zip" and any(_has(f, "rR", "--recurse-paths") or f == "--recurse-patterns" for f in flags):
        yield from (whole(path) for path in operands[1:])
    elif head in _COPIERS and any(_has(f, "rRa", "--recursive") or f == "--archive" for f in flags):
        yield from (whole(path) for path in operands[:-1])
    elif head in _COMPRESSORS and any(_has(f, "r", "--recursive") for f in flags):
        yield from (whole(path) for path in operands)
    elif head in _SEVEN and operands[:1] and operands[0] in ("a", "u", "update"):
        yield from (whole(path) for path in operands[2:] or ["."])
    elif head == "pax" and any(_has(f, "w", "") for f in flags):
        paths = unvalued(words, _PAX_VALUED)
        copies = any(_has(f, "r", "") for f in flags)  # pax -rw SRC DEST
        yield from (whole(path) for path in (paths[:-1] if copies else paths))
    elif head in ("diff", "colordiff", "diffoscope"):
        recursive = any(_has(f, "r", "--recursive") for f in flags)
        folders = [p for p in unvalued(words, _DIFF_VALUED) if not _file_like(p)]  # diff -u a.py b.py: files
        yield from ((path, "*", recursive) for path in folders)
    elif head == "git":
        yield from _git(words, intent)
    elif (printed := vcs_content_reads(head, words)) is not None:
        yield from (whole(path) for path in printed)


def whole(path: str) -> Read:
    """A folder read whole: ``dir`` is everything below it, ``dir/*.md`` the files of that name."""
    if is_glob(last_component(path.rstrip("/"))):
        folder = posixpath.dirname(path.rstrip("/"))
        return (folder or ".", last_component(path.rstrip("/")), True)
    return (path, "*", True)


def _grep_recurses(words: list[str], flags: list[str]) -> bool:
    if any(_has(f, "rR", "--recursive") or f in ("--dereference-recursive", "--directories=recurse") for f in flags):
        return True
    return any(w in ("-d", "--directories") and words[i + 1] == "recurse" for i, w in enumerate(words[:-1]))


def _git(words: list[str], intent: bool) -> Iterator[Read]:
    """``git [-C DIR] grep|diff --cached|diff --no-index ...`` and the commands that print a
    commit's or the index's files (``git_reads``): the folders it reads, each relative to
    ``-C``'s folder."""
    index, folder = 1, ""
    while index < len(words) and words[index].startswith("-"):
        if words[index] == "-C" and index + 1 < len(words):
            folder = words[index + 1]
        index += 2 if words[index] in _GIT_VALUED else 1
    if index >= len(words):
        return
    command, rest = words[index], words[index + 1 :]
    options = [w for w in rest if w.startswith("-")]
    if command in ("init", "clone"):  # a repository made: where it is decides what git show prints
        made = unvalued(rest, frozenset(["--template", "--separate-git-dir", "-b", "--branch", "--depth"]), 0)
        target = (made or ["."])[0] if command == "init" else made[1] if made[1:] else "<clone>"
        yield (posixpath.join(folder, target) if folder and not target.startswith("/") else target, INIT, False)
    if command == "grep":
        paths = unvalued(rest, _GIT_GREP_VALUED, first=0)
        given = any(w in ("-e", "-f") for w in options)
        paths = [p for p in (paths if given else paths[1:]) if p != "--"]
        paths = [*(paths or ["."]), *(git_content_reads(command, rest, intent) or [])]  # git grep x HEAD
    elif (shown := git_content_reads(command, rest, intent)) is not None:
        paths = shown  # git show, log -p, diff REV, grep REV: what a commit or the index holds
    elif command == "diff" and any(w in ("--cached", "--staged") for w in options):
        # what was staged, printed: git add alone shows nothing (honest agents add -A and commit)
        paths = [p for p in unvalued(rest, frozenset(), first=0) if p != "--"] or [HERE]
        paths = [REPOSITORY] if any(p.startswith(MAGIC) for p in paths) else paths  # -- :/ is the top
    elif command == "diff" and "--no-index" in options:
        paths = [p for p in unvalued(rest, frozenset(), first=0) if p != "--"]
    else:
        return
    if elsewhere(words):  # --git-dir=../.git, -c core.worktree=..: the repository may be the run's
        paths = [REPOSITORY]
    for path in paths or ["."]:
        yield whole(posixpath.join(folder, path) if folder and not path.startswith("/") else path)


def _file_like(path: str) -> bool:
    """A name with an extension (``x.py``): a diff's file, not a folder (``.``, ``test/``)."""
    return not path.endswith("/") and "." in last_component(path).lstrip(".") and not is_glob(path)


def _has(flag: str, letters: str, long: str) -> bool:
    return flag == long or (not flag.startswith("--") and any(c in flag[1:] for c in letters))


def _archived(words: list[str]) -> Iterator[Read]:
    """What a tar (or jar) adds: each operand but the archive, relative to the folder the
    ``-C DIR`` before it names (``jar cf x.jar -C build .`` reads build)."""
    archive = _archive(words)
    folder, skip = "", False
    for index, word in enumerate(words[1:], start=1):
        if skip:
            skip = False
        elif index == 1 and not word.startswith("-"):
            continue  # tar czf out.tgz .: the old-style options
        elif word in ("-C", "--directory") and index + 1 < len(words):
            folder, skip = words[index + 1], True
        elif word.startswith("--directory="):
            folder = word.partition("=")[2]
        elif word.startswith("-"):
            skip = word in _TAR_VALUED or (not word.startswith("--") and word.endswith("f"))
        elif word != archive:
            yield whole(posixpath.join(folder, word) if folder and not word.startswith("/") else word)


def _adds(words: list[str]) -> bool:
    """A tar (or jar) that creates, appends to or updates an archive: reads what it adds."""
    first = words[1] if len(words) > 1 else ""
    cluster = first.lstrip("-") if not first.startswith("--") else ""
    if any(c in cluster for c in "cru"):
        return True
    longs = ("--create", "--append", "--update")
    return any(w in longs or (w[:1] == "-" and _has(w, "cru", "")) for w in words[1:] if w[:1] == "-")


def _archive(words: list[str]) -> str | None:
    """The archive a tar writes (``-f X``, ``-czf X``, ``--file=X``, old-style ``czf X``)."""
    for index, word in enumerate(words[1:-1], start=1):
        short = word.startswith("-") and not word.startswith("--") and word.endswith("f")
        if word == "--file" or short or (index == 1 and not word.startswith("-") and "f" in word):
            return words[index + 1]
        if word.startswith("--file="):
            return word.partition("=")[2]
    return None
