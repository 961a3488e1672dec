"""Writes of a whole folder: the files an archive extraction, a recursive copy or a git command
that rewrites the working tree may leave anywhere below a folder.

Such a command names a folder, not the files it writes (``tar -xf t.tar -C test``, ``unzip
o.zip``, ``cp -r /tmp/test .``, ``git stash pop``): what it wrote is in the archive, the source
tree or the repository, which the audit never sees. Fail closed: every declared file at or
below that folder counts as written by the call (``expand``). The folder is the one the command
names (``-C DIR``, ``-d DIR``, ``-oDIR``, a clone's target) or the working directory it runs
in; a git command's working tree is taken to be that directory (or ``-C``/``--work-tree``).
A folder the audit cannot place (``$OUT``) stands for every independent declared file.
Listing (``tar -t``, ``unzip -l``), testing, creating archives and printing members (``tar -xO``,
``unzip -p``, ``7z e -so``, ``cpio -i --to-stdout``) write nothing below a folder.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable

#: A write of every file at or below its key is marked by this suffix of its ``how``.
TREE = " (tree)"
ARCHIVERS = (
    "tar",
    "bsdtar",
    "unzip",
    "7z",
    "7za",
    "7zr",
    "unrar",
    "cpio",
    "jar",
    "mount",
    "patch",
    "zipfile",
    "tarfile",
)
#: git subcommands that rewrite tracked files of the working tree.
_GIT_TREE = frozenset(["stash", "apply", "am", "checkout", "switch", "reset", "merge", "pull", "rebase"])
_GIT_TREE |= {"cherry-pick", "revert", "clone", "worktree", "restore", "checkout-index", "read-tree"}
_GIT_OPTIONS_WITH_VALUE = frozenset(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"])
_UNZIP_READ_ONLY = frozenset(["-l", "-t", "-v", "-z", "-Z", "-p", "-c", "-T"])

#: (target) -> keys it may be (placeable or fail-closed by name); (token) -> its key or None.
Resolve = Callable[[str], list[str]]
Place = Callable[[str], "str | None"]
Write = tuple[str, str, "str | None"]


def folder(target: str, how: str, resolve: Resolve, place: Place) -> list[Write]:
    """A write of everything at or below ``target``."""
    key = place(target)
    if key is not None:
        return [(key, how + TREE, None)]
    return [(k, how, None) for k in resolve(f"{target.rstrip('/')}/*")]  # unplaceable: fail closed


def tree_writes(words: list[str], head: str, resolve: Resolve, place: Place) -> list[Write]:
    """The folders an archiver or git command writes below (``words[0]`` is the program)."""
    if head in ("tar", "bsdtar"):
        where = _tar(words)
    elif head == "unzip":
        where = None if any(w in _UNZIP_READ_ONLY for w in words[1:]) else _value(words, ("-d",)) or "."
    elif head in ("7z", "7za", "7zr", "unrar"):
        operands = [w for w in words[1:] if not w.startswith("-")]
        attached = next((w[2:] for w in words[1:] if w.startswith("-o") and len(w) > 2), None)
        to_stdout = "-so" in words  # 7z e -so: each member printed, none written
        where = (attached or ".") if operands[:1] in (["x"], ["e"]) and not to_stdout else None
    elif head == "cpio":
        extracts = _has_flag(words, "i", "--extract") and "--to-stdout" not in words  # cpio -i --to-stdout prints
        where = (_value(words, ("-D", "--directory")) or ".") if extracts else None
    elif head == "jar":
        where = (_value(words, ("-C",)) or ".") if len(words) > 1 and "x" in words[1].lstrip("-") else None
    elif head == "git":
        return _git(words, resolve, place)
    elif head.startswith("python") and "-m" in words and any(w in ("zipfile", "tarfile") for w in words):
        extracting = any(w in ("-e", "--extract") for w in words)  # python -m zipfile -e X DIR
        operands = [w for w in words[1:] if not w.startswith("-") and w not in ("zipfile", "tarfile")]
        where = (operands[-1] if len(operands) >= 2 else ".") if extracting else None
    elif head == "patch":  # a patch the command line does not show (patch -p1 < x, -i x) may touch any file
        redirected = {i + 1 for i, w in enumerate(words) if w in ("<", ">", ">>", "2>", "-i", "--input", "-o", "-d")}
        operands = [w for i, w in enumerate(words[1:], 1) if i not in redirected and not w.startswith(("-", "<", ">"))]
        where = None if operands else _value(words, ("-d", "--directory")) or "."
    elif head == "mount":  # a mount (a bind, a tmpfs ...) replaces what the folder holds
        operands = [w for i, w in enumerate(words[1:], start=1) if not w.startswith("-") and words[i - 1] != "-o"]
        where = operands[-1] if len(operands) >= 2 else None
    else:
        return []
    how = {"mount": "mount", "patch": "patch"}.get(head, f"{head} extract")
    how = "python -m zipfile|tarfile extract" if head.startswith("python") else how
    return folder(where, how, resolve, place) if where is not None else []


def _tar(words: list[str]) -> str | None:
    """Where ``tar`` extracts to, or None when it does not extract (create, list, append)."""
    first = words[1] if len(words) > 1 else ""
    cluster = first.lstrip("-") if not first.startswith("--") else ""
    extracts = "x" in cluster or any(w in ("-x", "--extract", "--get") for w in words[1:])
    extracts |= any(w.startswith("-") and not w.startswith("--") and "x" in w[1:] for w in words[2:])
    # -xOf, --to-stdout: the members printed, none written (a read, judged as one)
    printed = "O" in cluster or any(w in ("-O", "--to-stdout") for w in words[1:])
    printed |= any(w.startswith("-") and not w.startswith("--") and "O" in w[1:] for w in words[2:])
    if not extracts or printed:
        return None
    return _value(words, ("-C", "--directory")) or "."


def _git(words: list[str], resolve: Resolve, place: Place) -> list[Write]:
    base = "."
    index = 1
    while index < len(words) and words[index].startswith("-"):
        name, equals, value = words[index].partition("=")
        if name in _GIT_OPTIONS_WITH_VALUE and not equals:
            value, index = (words[index + 1] if index + 1 < len(words) else ""), index + 1
        if name == "-C" and value:
            base = posixpath.join(base, value)
        elif name == "--work-tree" and value:
            base = value
        index += 1
    if index >= len(words) or words[index] not in _GIT_TREE:
        return []
    sub, rest = words[index], words[index + 1 :]
    operands = [w for w in rest if not w.startswith("-")]
    how = f"git {sub}"
    if sub in ("checkout", "restore") and ("--" in rest or sub == "restore"):
        paths = rest[rest.index("--") + 1 :] if "--" in rest else operands
        return [w for p in paths for w in folder(posixpath.join(base, p), how, resolve, place)]
    if not _rewrites(sub, rest, operands):
        return []
    if sub == "clone":
        target = operands[1] if len(operands) > 1 else posixpath.basename(operands[0].rstrip("/")).removesuffix(".git")
        return folder(posixpath.join(base, target), how, resolve, place) if target else []
    if sub == "worktree":
        return folder(posixpath.join(base, operands[1]), how, resolve, place) if len(operands) > 1 else []
    return folder(base, how, resolve, place)


def _rewrites(sub: str, rest: list[str], operands: list[str]) -> bool:
    """Whether the subcommand, as given, may change files of the working tree."""
    if sub == "stash":  # push (the default) puts changes away, pop/apply/branch bring them back
        return operands[:1] in ([], ["push"], ["save"], ["pop"], ["apply"], ["branch"])
    if sub in ("apply", "am"):
        return not any(w in ("--check", "--stat", "--numstat", "--summary") for w in rest) and "<<" not in " ".join(
            rest
        )
    if sub == "checkout":
        return bool(operands) and not (_has_any(rest, ("-b", "-B", "--orphan")) and len(operands) == 1)
    if sub == "switch":
        return bool(operands) and not (_has_any(rest, ("-c", "-C", "--create", "--orphan")) and len(operands) == 1)
    if sub == "reset":
        return _has_any(rest, ("--hard", "--merge", "--keep"))
    if sub == "read-tree":
        return "-u" in rest
    if sub == "clone":
        return bool(operands)
    if sub == "worktree":
        return operands[:1] == ["add"]
    return True  # merge, pull, rebase, cherry-pick, revert, checkout-index


def _value(words: list[str], names: Iterable[str]) -> str | None:
    """The value of the last option among ``names`` (``-C DIR``, ``--directory=DIR``, ``-CDIR``)."""
    found = None
    for index, word in enumerate(words[1:], start=1):
        for name in names:
            if word == name and index + 1 < len(words):
                found = words[index + 1]
            elif name.startswith("--") and word.startswith(name + "="):
                found = word[len(name) + 1 :]
            elif not name.startswith("--") and word.startswith(name) and len(word) > len(name):
                found = word[len(name) :]
    return found


def _has_flag(words: list[str], letter: str, long: str) -> bool:
    return any(w == long or (w.startswith("-") and not w.startswith("--") and letter in w[1:]) for w in words[1:])


def _has_any(words: list[str], names: Iterable[str]) -> bool:
    return any(w in names for w in words)


def expand(writes: list[Write], declared: Iterable[str]) -> list[Write]:
    """Tree writes replaced by a write of each declared key at or below their folder (each
    write once)."""
    keys = None
    out: dict[Write, None] = {}
    for key, how, source in writes:
        if not how.endswith(TREE):
            out[(key, how, source)] = None
            continue
        keys = sorted(declared) if keys is None else keys
        prefix = key.rstrip("/") + "/"
        out.update(((k, how[: -len(TREE)], source), None) for k in keys if k == key or k.startswith(prefix))
    return list(out)
