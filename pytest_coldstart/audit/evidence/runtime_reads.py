"""Reads of a name known only at run time: the file is read by a name the text never spells.

``for f in *; do cat "$f"; done``, ``ls | while read f; do cat "$f"; done``, ``ls | xargs
cat``, ``cat $(ls | grep ora)``, ``cat $(printf 'o%sacle.json' r)``, ``echo oracle.json |
xargs cat`` and ``printf -v f '%s' oracle.json; cat $f`` read a file whose name the shell
makes while it runs. A command that is handed such a name (a variable the audit cannot value,
a command substitution, an exec-er's ``{}``, or ``xargs``' implicit operands) may read any
name the text lists or spells, so each source of names in the same text is read (fail
closed, as the writes of a runtime name are in ``naming.reached``):
- a glob (``for f in test/*``): the files it matches;
- a listing: ``ls [DIR…]`` (``-R``: below it), ``find ROOT… [-name P]``;
- the words a command prints (``echo oracle.json``, ``printf 'o%sacle.json'``: a printf
  conversion is any text);
- the folder of the runtime name itself (``cat test/$f``: any file in ``test``; ``cat
  "$d/$f"``: a folder no one can place, so anywhere).
Each is a ``folder_reads.Read`` (folder, base-name pattern, recursive) that ``naming`` takes
where the segment runs. A text whose runtime name has no source here (``cat $(cat list)``)
reads nothing the audit can see. Linear in the text.
"""

from __future__ import annotations

import itertools
import posixpath
import re
from collections.abc import Callable, Iterator

from pytest_coldstart.audit.evidence.folder_reads import Read
from pytest_coldstart.audit.evidence.shell_words import is_glob, last_component, quoted_segments

#: Cheap necessary condition (also on a lowercased raw JSON line): an expansion, a command
#: substitution, a backtick or an exec-er that appends operands.
HINT = r"\$[({a-z_0-9@*]|`|\bxargs\b|\bparallel\b|\{\}"
_HINT = re.compile(HINT, re.IGNORECASE)
_RUNTIME = re.compile(r"\$(?:\{[^{}]*\}|[A-Za-z_][A-Za-z0-9_]*|[0-9@*])|\{\}")
_WORD = re.compile(r"(?:\"[^\"]*\"|'[^']*'|[^\s\"'])+")
#: Words before the program: shell keywords, wrappers and their options.
_LEADING = frozenset(["do", "then", "else", "elif", "if", "while", "until", "!", "{", "(", "time", "sudo", "env"])
_LEADING |= {"command", "nohup", "nice", "exec", "timeout", "stdbuf"}
#: Programs whose runtime operand is no read: printing it, moving into it, naming a variable.
_NOT_READING = frozenset(["echo", "printf", "print", "cd", "pushd", "popd", "export", "local", "declare", "read"])
_NOT_READING |= {"readonly", "typeset", "unset", "set", "for", "case", "return", "exit", "shift", "mapfile", "let"}
_PRINTERS = frozenset(["echo", "printf", "print"])
_OPENERS = ("$(", "<(", "`", "(")
_HANDING = frozenset(["xargs", "parallel"])  # exec-ers that append the words they read to a command
#: Programs that print a text made from their input: names no word of the text spells
_MAKERS = frozenset(["rev", "tr", "sed", "awk", "gawk", "perl", "python", "python3", "ruby", "node", "base64"])
_MAKERS |= {"basenc", "base32", "xxd", "iconv", "openssl"}
_LISTERS = frozenset(["ls", "find"])
_SUBSTITUTION = re.compile(r"\$\(([^()]*)\)|`([^`]*)`")  # a command substitution without nesting
_AFFIX_BEFORE = re.compile(r"[\w.\-/]+$")
_AFFIX_AFTER = re.compile(r"[\w.\-]+")
_CONVERSION = re.compile(r"%[-+ #0-9.*]*[a-zA-Z]")
_MAX_SOURCES = 256  # per text: a hostile text of many listings costs linear time, not more


def hands_off(text: str) -> bool:
    """Some command of ``text`` reads a name known only at run time."""
    return _HINT.search(text) is not None and bool(_operands(quoted_segments(text)))


def _operands(segments: list[str]) -> list[str]:
    return [
        operand
        for segment in segments
        if _HINT.search(segment) is not None  # most segments of a long script: no runtime name
        for words in _commands(segment)
        for operand in _runtime_operands(words)
    ]


def runtime_reads(text: str, entering: Callable[[str], None] | None = None) -> Iterator[Read]:
    """The sources of names ``text`` may hand a runtime read (none without such a read).
    ``entering(segment)`` is called before each segment's reads (a caller follows its cds)."""
    if _HINT.search(text) is None:
        return
    segments = quoted_segments(text)
    operands = _operands(segments)
    if not operands:
        return
    # Where every runtime name has a folder of its own (test/$f), that folder is what it reads;
    # where each is a substitution (cat $(ls | grep x)), what the substitutions' commands list.
    folderless = [op for op in operands if _folder(op) is None]
    bodies = [(m.start(), m.group(1) or m.group(2) or "", _partial(text, m)) for m in _SUBSTITUTION.finditer(text)]
    inner = bool(folderless) and all(op.startswith(("$(", "`")) for op in folderless) and len(bodies) >= len(folderless)
    count, position, body = 0, 0, 0  # bodies and segments are both in text order: one pointer
    made: list[Read] | None = None
    for segment in segments:
        start = text.find(segment, position)
        start = start if start >= 0 else position
        position = start + len(segment)
        if entering is not None:
            entering(segment)
        mine = []
        while body < len(bodies) and bodies[body][0] < position:
            mine.append(bodies[body])
            body += 1
        found: Iterator[Read] = (_glob(partial) for _, _, partial in mine if partial is not None)
        if inner:
            found = itertools.chain(found, (read for _, text_of_body, _ in mine for read in sources(text_of_body)))
            found = itertools.chain(found, (read for _, text_of_body, _ in mine for read in _made(text_of_body)))
        elif folderless:
            commands = _commands(segment)
            found = itertools.chain(found, (read for words in commands for read in _sources(words)))
            if any(_head(words) in _HANDING for words in commands):  # what a maker of the pipe prints
                made = list(_made(text)) if made is None else made  # the text looked at once
                found = itertools.chain(found, made)
        else:
            found = itertools.chain(found, (read for words in _commands(segment) for read in _own_folders(words)))
        for read in found:
            count += 1
            if count > _MAX_SOURCES:
                return
            yield read


def sources(text: str) -> Iterator[Read]:
    """Every source of names in ``text`` (globs, listings, finds, printed words), whether or not
    a runtime name reads them: what a write to a runtime name may be handed."""
    count = 0
    for segment in quoted_segments(text):
        for words in _commands(segment):
            for read in _sources(words):
                count += 1
                if count > _MAX_SOURCES:
                    return
                yield read


def _made(text: str) -> Iterator[Read]:
    """A name a maker prints from words it is given (``$(rev <<< nosj.elcaro)``, ``echo ... |
    tr a-z b-za | xargs cat``) may be any file of the folder the command runs in. A maker fed
    a listing only (``find . | sed 's|^./||' | xargs cat``) reshapes the listed names."""
    heads = {_head(words) for segment in quoted_segments(text) for words in _commands(segment)}
    if heads & _MAKERS and (heads & _PRINTERS or "<<<" in text or not heads & _LISTERS):
        yield (".", "*", False)


def _commands(segment: str) -> list[list[str]]:
    """The commands of a segment as words, each from its program on: a command substitution
    or a process substitution (``$(ls``, ``<(ls -a``, a backtick) starts one of its own."""
    commands: list[list[str]] = [[]]
    for raw in _WORD.findall(segment):
        word = raw.strip("\"'")
        opener = next((o for o in _OPENERS if word.startswith(o)), None)
        if opener is not None:
            commands[-1].append(word)  # the outer command's operand, known only at run time
            commands.append([])
            word = word[len(opener) :]
        elif word.startswith((">", "<", "2>", "&>")):
            continue
        word = word.rstrip(")`")
        if word:
            commands[-1].append(_Quoted(word) if raw[:1] in "\"'" else word)
    return [_program_on(words) for words in commands if words]


class _Quoted(str):
    """A word the shell does not glob (``find -name '*.py'``: the pattern is find's)."""

    __slots__ = ()


def _program_on(words: list[str]) -> list[str]:
    start = 0  # keywords, wrappers, assignments and options set aside (an index: no slicing per word)
    while start < len(words) and (words[start] in _LEADING or "=" in words[start] or words[start][:1] == "-"):
        start += 1
    return words[start:]


def _head(words: list[str]) -> str:
    return last_component(words[0]).lower() if words else ""


def _runtime_operands(words: list[str]) -> list[str]:
    """The operands of a reading command that are names known only at run time."""
    head = _head(words)
    if not head or head in _NOT_READING:
        return []
    if head in _HANDING and any(not w.startswith("-") for w in words[1:]):
        return ["{}"]  # xargs cat: the words it reads are cat's operands
    return [w for w in words[1:] if _RUNTIME.fullmatch(last_component(w)) or "$(" in w or "`" in w]


def _sources(words: list[str]) -> Iterator[Read]:
    head = _head(words)
    if not head:
        return
    operands = [w for w in words[1:] if not w.startswith("-")]
    flags = [w for w in words[1:] if w.startswith("-")]
    for word in operands:
        if is_glob(word) and "$" not in word and not isinstance(word, _Quoted):
            yield _glob(word)
    if head == "ls":
        recursive = any("R" in f for f in flags if not f.startswith("--")) or "--recursive" in flags
        yield from ((w, "*", recursive) for w in operands or ["."] if not is_glob(w) and "$" not in w)
    elif head == "find":
        patterns = [words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-name", "-iname")] or ["*"]
        roots = []
        for word in words[1:]:
            if word.startswith(("-", "(", "!", "\\(")):
                break
            roots.append(word)
        yield from ((root, last_component(p), True) for root in roots or ["."] for p in patterns)
    elif head in _PRINTERS:
        for word in operands:
            pattern = _CONVERSION.sub("*", word) if head == "printf" else word
            if word and not is_glob(word) and len(pattern.replace("*", "")) >= 2 and "$" not in word:
                yield _glob(pattern)
    yield from _own_folders(words)


def _own_folders(words: list[str]) -> Iterator[Read]:
    for word in _runtime_operands(words):
        folder = _folder(word)
        if folder is not None:
            yield (folder, "*", False)  # cat test/$f: any file of test


def _folder(operand: str) -> str | None:
    """The folder a runtime name is read in (``test/$f``), None when the name brings its own."""
    if "$(" in operand or "`" in operand:
        return None
    return posixpath.dirname(operand) or None


def _partial(text: str, match: re.Match[str]) -> str | None:
    """A name a substitution makes only part of (``$(…).json``, ``ora`…` ``): a glob of its
    literal parts, or None when it has fewer than two letters of them."""
    before = _AFFIX_BEFORE.search(text, max(0, match.start() - 256), match.start())
    after = _AFFIX_AFTER.match(text, match.end(), match.end() + 256)
    prefix, suffix = before.group(0) if before else "", after.group(0) if after else ""
    pattern = f"{prefix}*{suffix}"
    return pattern if len(last_component(pattern).replace("*", "")) >= 2 else None


def _glob(word: str) -> Read:
    folder = posixpath.dirname(word.rstrip("/"))
    return (folder if folder and not is_glob(folder) else ".", last_component(word.rstrip("/")), is_glob(folder))
