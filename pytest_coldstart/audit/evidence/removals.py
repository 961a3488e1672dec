"""What a command removes: a file deleted is a file changed (the independent record is gone
or replaced), so a removal counts as a write of what it removes.

``rm``/``unlink``/``shred``/``del``/``Remove-Item`` remove their operands (a recursive removal
the whole tree below each: ``folder``); ``git rm`` its paths (``git mv`` its sources and its
destination, or each source's name inside it, a folder's tree too; ``git rm -r`` a
folder's tree); ``git clean`` the untracked files
of the working tree (or of the paths it names); ``find ROOT … -delete`` what it finds: the
files its ``-name``/``-iname``/``-path`` patterns match anywhere below (fail closed: the audit
cannot walk the tree as it was), or every file below ROOT without a pattern.
"""

from __future__ import annotations

import posixpath

from pytest_coldstart.audit.evidence.tree_writes import Place, Resolve, Write, folder

REMOVERS = ("rm", "unlink", "shred", "srm", "del", "erase", "remove-item", "ri", "trash", "trash-put")
#: Programs whose removal is a subcommand (gio trash FILE, kioclient5 remove FILE).
REMOVING = ("gio", "kioclient", "kioclient5")
_RECURSIVE = frozenset(["-r", "-R", "--recursive", "-recurse", "/s"])
_FIND_PATTERNS = frozenset(["-name", "-iname", "-path", "-ipath", "-wholename", "-regex"])


def removals(words: list[str], head: str, resolve: Resolve, place: Place) -> list[Write]:
    """The files a removal (``words[0]`` is the program) deletes, as writes."""
    if head == "git":
        return _git(words, resolve, place)
    if head in REMOVING and len(words) > 1 and words[1] in ("trash", "remove", "rm"):
        words, head = words[1:], "rm"  # gio trash FILE, gio remove FILE: a removal by another name
    if head not in REMOVERS:
        return []
    operands = [w for w in words[1:] if not w.startswith("-") and not (head in ("del", "erase") and w.startswith("/"))]
    recursive = any(
        w.lower() in _RECURSIVE or (w[:1] == "-" and w[1:2] != "-" and set(w[1:]) & set("rR")) for w in words[1:]
    )
    out: list[Write] = []
    for operand in operands:
        out += [(key, head, None) for key in resolve(operand)]
        if recursive:
            out += folder(operand, head, resolve, place)
    return out


def find_deletes(words: list[str], resolve: Resolve, place: Place) -> list[Write]:
    """What ``find ROOT… [-name PATTERN] -delete`` removes (``words[0]`` is find)."""
    if "-delete" not in words:
        return []
    roots = []
    for word in words[1:]:
        if word.startswith(("-", "(", "!", "\\(")):
            break
        roots.append(word)
    patterns = [words[i + 1] for i, w in enumerate(words[:-1]) if w in _FIND_PATTERNS]
    out: list[Write] = []
    for root in roots or ["."]:
        if not patterns:
            out += folder(root, "find -delete", resolve, place)
        for pattern in patterns:
            name = posixpath.basename(pattern.rstrip("/")) or pattern
            # anywhere below the root: a glob the audit cannot place, matched by name
            out += [(key, "find -delete", None) for key in resolve(f"{root.rstrip('/')}/*/{name}")]
            out += [(key, "find -delete", None) for key in resolve(f"{root.rstrip('/')}/{name}")]
    return out


def _git(words: list[str], resolve: Resolve, place: Place) -> list[Write]:
    """``git rm PATH…``, ``git mv SRC… DST`` and ``git clean -f [PATH…]`` (``-C DIR`` moves the tree)."""
    base, index = ".", 1
    while index < len(words) and words[index].startswith("-"):
        if words[index] == "-C" and index + 1 < len(words):
            base, index = posixpath.join(base, words[index + 1]), index + 1
        index += 1
    if index >= len(words) or words[index] not in ("rm", "clean", "mv"):
        return []
    sub, rest = words[index], words[index + 1 :]
    paths = [w for w in rest if not w.startswith("-")]
    how = f"git {sub}"
    out: list[Write] = [(key, how, None) for p in paths for key in resolve(posixpath.join(base, p))]
    if sub == "rm":  # git rm -r DIR: the tree below it too
        if any(w in _RECURSIVE or (w[:1] == "-" and w[1:2] != "-" and "r" in w) for w in rest):
            out += [w for p in paths for w in folder(posixpath.join(base, p), how, resolve, place)]
        return out
    if sub == "mv":  # its sources are gone and its destination written, a folder's or a file's (fail closed)
        if len(paths) > 1:
            into = posixpath.join(base, paths[-1])
            for source in paths[:-1]:
                landed = posixpath.join(into, posixpath.basename(source.rstrip("/")))
                out += [(key, how, None) for key in resolve(landed)] + folder(landed, how, resolve, place)
        return out
    if any(w in ("-n", "--dry-run") or (w[:1] == "-" and w[1:2] != "-" and "n" in w) for w in rest):
        return []
    return [w for p in paths or ["."] for w in folder(posixpath.join(base, p), "git clean", resolve, place)]
