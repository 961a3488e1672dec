"""What a copy or a move writes: its destination file, or the source's name inside a destination
folder (``-t DIR``, ``--target-directory=DIR``, a trailing slash, several sources, ``.``, or a
folder the run holds); a recursive copy or a move writes the whole tree it lands (``folder``);
a move's sources are gone, so it writes them too. Container and cloud copiers (``docker cp``,
``aws s3 sync``, ``rclone copy`` ...) are parsed as the local copy they make.
"""

from __future__ import annotations

import posixpath
from typing import Protocol

from pytest_coldstart.audit.evidence.identity import Workspace
from pytest_coldstart.audit.evidence.shell_words import last_component
from pytest_coldstart.audit.evidence.tree_writes import folder

COPIERS = (
    "cp", "mv", "install", "rsync", "ln", "link", "copy", "move", "copy-item", "move-item", "xcopy", "robocopy", "scp",
)  # fmt: skip
#: how a word names the working directory itself: a link's text from there is not relative to
#: the link's folder (``ln -s $PWD/test/x t``); ``~+`` is bash's $PWD
CWD_FORMS = ("$PWD/", "${PWD}/", "$(pwd)/", "`pwd`/", "~+/")
#: Names an exec-er supplies at run time: find -exec's {}, xargs -I %, parallel's {} forms.
PLACEHOLDERS = frozenset(["{}", "%", "{.}", "{/}", "{//}", "{/.}", "{#}"])
_INSTALL_VALUED = frozenset(["-m", "--mode", "-o", "--owner", "-g", "--group", "-S", "--suffix"])
#: Remote and container copiers, with the subcommands that copy.
REMOTE = {"docker": {"cp"}, "podman": {"cp"}, "kubectl": {"cp"}, "oc": {"cp", "rsync"}, "az": set[str]()}
REMOTE |= {"aws": {"cp", "mv", "sync"}, "gsutil": {"cp", "mv", "rsync"}, "gcloud": {"cp", "mv", "rsync"}}
REMOTE["rclone"] = {"copy", "copyto", "sync", "move", "moveto"}


#: (key of the file written, how, key of the file a copy/move came from)
Write = tuple[str, str, "str | None"]


class Targets(Protocol):
    """How a command's words resolve: the keys a write target may be, a token's key."""

    ws: Workspace

    def __call__(self, target: str) -> list[str]: ...

    def key(self, token: str) -> str | None: ...

    def is_folder(self, token: str) -> bool: ...


def remote_copy(words: list[str], head: str) -> list[str] | None:
    """The copy a remote or container copier makes, as local copier words: ``docker cp a b`` is
    ``cp a b``; a sync (``aws s3 sync``, ``rclone copy``) copies a folder's contents into its
    destination; ``az ... download -f FILE`` writes FILE."""
    if head == "az":
        value = next((words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-f", "--file")), None)
        return ["touch", value] if value and "download" in words else None
    index = next((i for i, w in enumerate(words[1:4], start=1) if w in REMOTE[head]), None)
    if index is None:
        return None
    sub, rest = words[index], words[index + 1 :]
    if sub in ("sync", "rsync", "copy", "move"):  # contents into the destination folder
        last = max((i for i, w in enumerate(rest) if not w.startswith("-")), default=-1)
        rest = [w if w.startswith("-") or i == last else w.rstrip("/") + "/" for i, w in enumerate(rest)]
        return ["rsync", *rest]
    return ["mv" if sub in ("mv", "moveto") else "cp", *rest]


def _remote_path(destination: str) -> str:
    """scp's and rsync's ``host:path``: the path (the host may be this machine: fail closed)."""
    host, colon, path = destination.partition(":")
    return path if colon and path and "/" not in host and not (len(host) == 1 and path[:1] in "/\\") else destination


def copies(words: list[str], head: str, args: list[str], targets: Targets) -> list[Write]:
    """A copy's or move's destinations: the file, or into a folder (``-t DIR``,
    ``--target-directory=DIR``, a trailing slash, several sources, ``.``, or a folder the run
    holds) the source's name; a recursive copy or a move writes the whole tree it lands."""
    option = next((words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-t", "--target-directory")), None)
    option = option or next((w.partition("=")[2] for w in words if w.startswith("--target-directory=")), None)
    option = option or next((w[2:] for w in words if w.startswith("-t") and len(w) > 2 and head != "rsync"), None)
    args = args[: args.index(":::")] if ":::" in args else args  # parallel's inputs follow :::
    if head == "install":  # install -m 755 s t: the mode is no source
        valued = {words[i + 1] for i, w in enumerate(words[:-1]) if w in _INSTALL_VALUED}
        args = [a for a in args if a not in valued]
    if option:
        sources, destination, directory = [a for a in args if a != option], option, True
    elif len(args) >= 2:
        sources, destination = args[:-1], _remote_path(args[-1]) if head in ("scp", "rsync") else args[-1]
        directory = len(sources) > 1 or targets.is_folder(destination)
    else:
        return []
    recursive = head in ("mv", "move", "move-item", "rsync", "robocopy", "xcopy") or any(
        w in ("--recursive", "--archive", "-recurse") or (w[:1] == "-" and w[1:2] != "-" and set(w[1:]) & set("rRa"))
        for w in words[1:]
    )
    out: list[Write] = []
    if directory and (not sources or any(source in PLACEHOLDERS for source in sources)):
        out += folder(destination, head, targets, targets.key)  # names an exec-er supplies: unknown
    symbolic = head in ("ln", "cp") and any(
        w in ("--symbolic", "--symbolic-link") or (w[:1] == "-" and w[1:2] != "-" and "s" in w) for w in words
    )
    hard = (
        head == "link"
        or (head == "ln" and not symbolic)
        or (head == "cp" and any(w == "--link" or (w[:1] == "-" and w[1:2] != "-" and "l" in w) for w in words))
    )
    # ln -s stores its target as text, resolved from the link's own folder; ln -r makes that text
    # from a name relative to the working directory, as $PWD/x or ~+/x name it from there
    relative = head == "ln" and any(w == "--relative" or (w[:1] == "-" and w[1:2] != "-" and "r" in w) for w in words)
    for source in sources:
        name = f"{destination.rstrip('/')}/{last_component(source)}" if directory else destination
        from_cwd = source.startswith(("/", *CWD_FORMS)) or relative
        origin = posixpath.join(posixpath.dirname(name), source) if symbolic and not from_cwd else source
        out += [(k, head, targets.key(origin)) for k in targets(name)]
        # a link - symbolic, or hard (ln, cp -l): later writes through it reach its origin
        link, linked = (targets.key(name), targets.key(origin)) if symbolic or hard else (None, None)
        if link and linked:
            targets.ws.alias(link, linked)
        if head in ("mv", "move", "move-item"):  # the source is gone from where it was, a folder's tree too
            out += [(k, f"{head} (moved away)", None) for k in targets(source)]
            out += folder(source, f"{head} (moved away)", targets, targets.key) if targets.is_folder(source) else []
        if recursive and head != "ln":
            landed = destination if source.endswith(("/", "/.", "/*")) else name
            out += folder(landed, head, targets, targets.key)
    return out
