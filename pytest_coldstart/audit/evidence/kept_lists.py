"""Kept files a later call reads as lists of names: it hands the names a kept file holds to a command.

``echo oracle.json > /tmp/l`` in one call and ``cat $(cat /tmp/l)`` (``while read f; do cat
"$f"; done < /tmp/l``, ``xargs cat < /tmp/l``, ``cat /tmp/l | xargs cat``, ``xargs -a /tmp/l
cat``) in a later one read the oracle, though no call both spells its name and reads it. Within
one call the audit already reads a runtime name as any the text prints (``runtime_reads``), so a
call with such a read that takes names from a kept file is judged as if it read, where it
ends, every word the file may hold (``joined``: any word of the text that wrote it). A kept file is a list where a call takes names from
it: named inside a command or process substitution, redirected into a command of a text that
reads names (``read``, ``xargs``, ``mapfile`` ...), piped into one, or given to an option that
names a list (``xargs -a``, ``tar -T``, ``--files-from``), or a response file (``gcc @r.rsp``,
``javac @args.txt``, ``java @argfile``: their words are the command's arguments). A list only printed (``cat /tmp/l``,
``wc -l < /tmp/l``) lists nothing; a joined text with no runtime read reads nothing either.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection

from pytest_coldstart.audit.evidence.runtime_reads import hands_off, sources
from pytest_coldstart.audit.evidence.shell_words import SEGMENT, is_glob, last_component, quoted_segments

#: a text that may take names from a file: a substitution, or a command that reads names
_NAME_READERS = re.compile(
    r"\$\(|`|<\(|\b(?:xargs|parallel|read|mapfile|readarray|cpio|b?tar|zip|rsync|pax)\b|\s[\"']?@[\w./~]|files0?-from"
)
#: an option naming a list of names, with the programs it belongs to ("": any)
_LIST_OPTIONS = {"-a": ("xargs", "parallel"), "--arg-file": ("xargs", "parallel"), "::::": ("parallel",)}
_LIST_OPTIONS |= {"-T": ("tar",), "--files-from": ("",), "--files0-from": ("",)}  # wc, du, sort: NUL-separated
#: a command that reads every name of a list it is given (no runtime name in the text needed)
#: ``@FILE``: a response file, whose words gcc, clang, javac, java, ld, ar, kotlinc, csc take as arguments
_LIST_CONSUMER = re.compile(
    r"\b(?:xargs|parallel)\b[^;&|\n]*\s(?:-a|--arg-file|::::)|\s(?:-T|--files0?-from)[\s=]|\s[\"']?@[\w./~]"
)
_REDIRECTED = re.compile(r"(?:\d|&)?>>?\|?\s*[^\s;&|<>]+")  # where a listing goes is not what it lists
#: a word the list may hold, without shell syntax; a glob stays one (``orac*``: the shell expands
#: an unquoted name it reads from the list)
_WORD = re.compile(r"[^\s\"'`;&|<>()$\\{}]+")
MAX_WORDS = 1024
_OPENERS = re.compile(r"\$\(|<\(|`|\(|\)")
#: programs that print or list a file's name, not what it holds
_NAMING = frozenset(["echo", "printf", "print", "ls", "find", "fd", "realpath", "readlink", "basename", "dirname"])
_NAMING |= {"stat", "file", "touch", "test", "[", "which", "type", "du"}
_PARTS = re.compile(f"({SEGMENT.pattern})")


def may_list(text: str) -> bool:
    """``text`` may take names from a file and reads a name known only at run time."""
    return _NAME_READERS.search(text) is not None and (hands_off(text) or _LIST_CONSUMER.search(text) is not None)


def piped(text: str) -> set[str]:
    """The segments of ``text`` (as ``SEGMENT`` cuts them) whose output is piped on."""
    if "|" not in text:
        return set()
    parts = _PARTS.split(text)
    return {parts[i] for i in range(0, len(parts) - 1, 2) if parts[i + 1] in ("|", "|&")}


def _still_open(before: str) -> int:
    """Where the substitution still open at the end of ``before`` opens, or -1: the file after
    ``javac -d $(mktemp -d)`` is no name the substitution takes from it. A bare ``(`` (a
    subshell, ``$((``) is counted so that its ``)`` closes it, not the substitution."""
    opened: list[int] = []
    for match in _OPENERS.finditer(before):
        token = match.group(0)
        if token == "`" and opened and before[opened[-1]] == "`":
            opened.pop()
        elif token == ")":
            if opened and before[opened[-1]] != "`":
                opened.pop()
        else:
            opened.append(match.start())
    return next((at for at in reversed(opened) if before[at] != "("), -1)


def lists(segment: str, token: str, piped_on: bool) -> bool:
    """``segment`` (of a text ``may_list`` lets through) takes names from the file ``token``:
    a command that reads it (not one that prints or lists its name: ``echo /tmp/l | xargs wc``)
    piped on or in a substitution, or the file redirected in or given as a list option."""
    at = segment.find(token)
    if at < 0:
        return False
    before = segment[:at].rstrip(" \t\"'")
    opened = _still_open(before)
    if opened >= 0 or piped_on:
        command = before[opened + 2 if opened >= 0 and before[opened] != "`" else opened + 1 :].split()
        return not command or command[0].lstrip("\\") not in _NAMING
    if before.endswith("<") and not before.endswith("<<"):
        return True  # done < /tmp/l, xargs cat < /tmp/l
    if before.endswith("@") or token.lstrip("\"'").startswith("@"):
        return True  # gcc @r.rsp, javac @args.txt: a response file's words are arguments
    word = before.rpartition(" ")[2].partition("=")[0]
    return word in _LIST_OPTIONS and any(program in segment for program in _LIST_OPTIONS[word])


_RESPONSE = re.compile(r"(?<=[\s\"'])@([\w./~-]+)[\"']?")  # the words go after a closing quote
MAX_RESPONSE_FILES = 16


def spliced(text: str, kept: dict[str, str], names: Collection[str]) -> str:
    """``text`` with each ``@FILE`` naming a kept file (by its last component: fail closed on
    the folder) followed by that file's words, as gcc, clang, javac, java and ld read a
    response file: ``javac @args.txt`` compiles the sources it lists. The first
    ``MAX_RESPONSE_FILES`` are spliced, each with at most ``MAX_WORDS`` words."""
    out: list[str] = []
    at = 0
    for match in itertools.islice(_RESPONSE.finditer(text), MAX_RESPONSE_FILES):
        name = last_component(match.group(1))
        if name not in names:
            continue
        words = (w for key, body in kept.items() if last_component(key) == name for w in _WORD.findall(body))
        out += [text[at : match.end()], " ", " ".join(itertools.islice(words, MAX_WORDS))]
        at = match.end()
    return "".join([*out, text[at:]]) if out else text


def joined(text: str, kept: str, name: str) -> list[str]:
    """The call's text, then a read of every word the list ``name`` may hold, where the text
    ends; and a read of every name the commands that wrote it may have listed (``ls > /tmp/l``,
    ``find . -type f > /tmp/l``, ``printf '%s\\n' * > /tmp/l``: what they printed is unknown, so
    each source of names they have is read, as ``runtime_reads`` reads one in a call; a writer
    with none, ``sh -c 'ls' > /tmp/l``, may have listed any name of the folder)."""
    words = dict.fromkeys(w for w in _WORD.findall(kept) if (len(w) > 1 or is_glob(w)) and w[:1] != "-")
    out = [f"{text}\ncat {' '.join(itertools.islice(words, MAX_WORDS))}"]
    writers = _writers(kept, name)
    listed = dict.fromkeys(sources(_REDIRECTED.sub(" ", " ; ".join(writers or [kept]))))
    listed = listed or (dict.fromkeys([(".", "*", False)]) if writers else {})
    globs = [f"{folder}/{pattern}" for folder, pattern, recursive in listed if not recursive]
    out += [f"cat {' '.join(globs)}"] if globs else []
    return out + [f"find {folder} -name '{pattern}' | xargs cat" for folder, pattern, recursive in listed if recursive]


def _writers(kept: str, name: str) -> list[str]:
    """The segments of the shell text ``kept`` that print into the file ``name`` (a redirect to
    it, with the segments piped or chained into it since the last that wrote another file)."""
    if ">" not in kept:
        return []
    out: list[str] = []
    since: list[str] = []
    for segment in quoted_segments(kept):
        targets = [
            last_component(m.group(0).lstrip("0123456789&>|").strip().strip("\"'"))
            for m in _REDIRECTED.finditer(segment)
        ]
        if name in targets:
            out += [*since, segment]
            since = []
        elif targets:
            since = []
        else:
            since.append(segment)
    return out
