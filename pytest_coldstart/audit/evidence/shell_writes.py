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

from pytest_coldstart.audit.evidence.identity import Workspace, last_component

#: (key of the file written, how, key of the file a copy/move came from)
ShellWrite = tuple[str, str, str | None]
#: Extra writers of one segment: (its words, the cwd key it runs in) -> writes.
SegmentRule = Callable[[list[str], str | None], list[ShellWrite]]

COPIERS = ("cp", "mv", "install", "rsync", "ln", "copy", "move", "copy-item", "move-item", "xcopy", "robocopy")
REDIRECTS = (">", ">>", "1>", "2>", "&>", ">|", "1>>", "2>>", "&>>")
#: Cheap necessary condition: a command holding none of these writes nothing we parse.
HINTS: tuple[bytes, ...] = (b">", b"tee", b"cp ", b"mv ", b"install", b"rsync", b"ln ", b"dd ", b"sed ", b"touch")
HINTS += (b"curl", b"wget", b"copy", b"move", b"set-content", b"out-file", b"add-content")
_HINT_TEXT = tuple(hint.decode() for hint in HINTS)
_WORD = re.compile(r"\"[^\"]*\"|'[^']*'|\S+")
_SPLIT = re.compile(r"&&|\|\||[;\n|]")
_ATTACHED = re.compile(r"^(?:[12&]?>>?\|?)(.+)$")


def may_write(text: str) -> bool:
    return any(hint in text for hint in _HINT_TEXT)


def shell_writes(text: str, ws: Workspace, also: SegmentRule | None = None) -> list[ShellWrite]:
    """The files ``text`` writes, each segment resolved in the cwd its ``cd``s leave."""
    out: list[ShellWrite] = []
    cwd: str | None = None
    for segment in _SPLIT.split(text):
        words = [w.strip("\"'") for w in _WORD.findall(segment)]
        if not words:
            continue
        head = words[0].lower()
        if head in ("cd", "pushd", "set-location", "chdir") and len(words) > 1:
            cwd = ws.key(words[1], cwd) or cwd
            continue
        if also is not None:
            out += also(words, cwd)
        out += _segment(words, head, _resolver(ws, cwd))
    return out


def _resolver(ws: Workspace, cwd: str | None) -> Callable[[str], str | None]:
    return lambda token: ws.key(token, cwd)


def _segment(words: list[str], head: str, key: Callable[[str], str | None]) -> list[ShellWrite]:
    out: list[ShellWrite] = []
    for index, word in enumerate(words):
        target = None
        if word in REDIRECTS and index + 1 < len(words):
            target = words[index + 1]
        elif word[:1] in (">", "1", "2", "&") and ">" in word[:3]:
            match = _ATTACHED.match(word)
            target = match.group(1) if match else None
        if target and not target.startswith("&"):
            found = key(target)
            if found:
                out.append((found, "shell redirect", None))
    args = [w for w in words[1:] if not w.startswith("-") and w not in REDIRECTS]
    if head == "tee":
        out += [(k, "tee", None) for k in map(key, args) if k]
    elif head in COPIERS and len(args) >= 2:
        option = next((words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-t", "--target-directory")), None)
        if option is not None:
            sources, destination, directory = [a for a in args if a != option], option, True
        else:
            sources, destination = args[:-1], args[-1]
            directory = destination.endswith("/") or len(sources) > 1
        for source in sources:
            name = f"{destination.rstrip('/')}/{last_component(source)}" if directory else destination
            found = key(name)
            if found:
                out.append((found, head, key(source)))
    elif head == "dd":
        out += [(k, "dd", None) for w in words if w.startswith("of=") and (k := key(w[3:]))]
    elif head in ("sed", "perl") and any(w.startswith("-i") for w in words):
        out += [(k, f"{head} -i", None) for k in map(key, args[1:]) if k]
    elif head in ("touch", "truncate"):
        out += [(k, head, None) for k in map(key, args) if k]
    elif head in ("curl", "wget"):
        flags = ("-o", "--output") if head == "curl" else ("-O", "--output-document")
        out += [(k, head, None) for i, w in enumerate(words[:-1]) if w in flags and (k := key(words[i + 1]))]
    elif head in ("set-content", "out-file", "add-content"):
        path = next((words[i + 1] for i, w in enumerate(words[:-1]) if w.lower() in ("-path", "-filepath")), None)
        target = path or (args[0] if args else None)
        if target and (k := key(target)):
            out.append((k, head, None))
    return out
