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
HINT = r"\$[({a-z_0-9@*]|`|\bxargs\b|\bparallel\b|\{\}|\bcpio\b|\bpax\b|\bafio\b|\s-@|files-from"
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
_LISTERS = frozenset(["ls", "find", "dir", "vdir", "compgen", "du", "tree", "fd", "fdfind", "git"])
_LISTERS |= {"locate", "plocate", "mlocate", "slocate"}
#: Programs that take the names they read from standard input: ``find . | cpio -o``.
_STDIN_NAMES = {"cpio": ("-o", "-p", "--create", "--pass-through"), "afio": ("-o",), "zip": ("-@", "--names-stdin")}
_STDIN_NAMES |= {"tar": ("-T", "--files-from", "--files-from=-"), "bsdtar": ("-T", "--files-from", "--files-from=-")}
_STDIN_NAMES |= {"rsync": ("--files-from", "--files-from=-"), "pax": ("-w",)}
_ANYWHERE = "$LOCATE"  # a folder no one can place: locate's names come from the whole disk
#: $PWD/x, "${PWD}"/x, "$(pwd)"/x: a name in the working directory
_CWD_PREFIX = re.compile(r"""(?<![\w$])(?:"\$PWD"|"\$\{PWD\}"|\$PWD|\$\{PWD\}|"\$\(pwd\)"|\$\(pwd\)|`pwd`)(?=/)""")
_ARRAY = re.compile(r"^[A-Za-z_]\w*(?:\[[^]]*\])?\+?=\((?P<first>.*)$")  # a=(*), a+=(x y)
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
    if "pwd" in segment or "PWD" in segment:
        segment = _CWD_PREFIX.sub(".", segment)
    for raw in _WORD.findall(segment):
        array = _ARRAY.match(raw)
        if array is not None:  # a=(* x): the words the array holds, as set -- * x's
            commands[-1] += ["set", "--"]
            raw = array.group("first")
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
    if head in _STDIN_NAMES and _reads_stdin_names(head, words):
        return ["{}"]  # find . | cpio -o: the names it reads are read
    return [w for w in words[1:] if _RUNTIME.fullmatch(last_component(w)) or "$(" in w or "`" in w]


def _reads_stdin_names(head: str, words: list[str]) -> bool:
    """``cpio -o``, ``zip -@``, ``tar -T -``, ``pax -w`` with no operand: names from stdin."""
    if head == "pax":
        return any(w[:1] == "-" and "w" in w for w in words[1:]) and all(w[:1] == "-" for w in words[1:])
    letters = "".join(option[1] for option in _STDIN_NAMES[head] if len(option) == 2)
    for index, word in enumerate(words[1:], start=1):
        clustered = word[:1] == "-" and word[1:2] != "-" and any(c in word[1:] for c in letters)
        if word in _STDIN_NAMES[head] or clustered:
            # tar -T FILE, rsync --files-from=FILE: names from a file unless it is - (stdin)
            if head in ("cpio", "afio", "zip") or word.endswith("=-") or words[index + 1 : index + 2] == ["-"]:
                return True
    return False


def _sources(words: list[str]) -> Iterator[Read]:
    head = _head(words)
    if not head:
        return
    operands = [w for w in words[1:] if not w.startswith("-")]
    flags = [w for w in words[1:] if w.startswith("-")]
    for word in operands:
        if is_glob(word) and "$" not in word and not isinstance(word, _Quoted):
            yield _glob(word)
    if head in ("ls", "dir", "vdir"):
        recursive = any("R" in f for f in flags if not f.startswith("--")) or "--recursive" in flags
        yield from ((w, "*", recursive) for w in operands or ["."] if not is_glob(w) and "$" not in w)
    elif head in ("du", "tree", "fd", "fdfind") or (head == "git" and "ls-files" in words):
        folders = operands[1:] if head in ("fd", "fdfind", "git") else operands  # fd PATTERN PATH; git ls-files
        yield from ((w, "*", True) for w in folders or ["."] if not is_glob(w) and "$" not in w)
    elif head == "compgen":  # compgen -f PREFIX, -G GLOB: the names that start so, or match
        given = [w for w in operands if w not in ("file", "directory")]
        yield from (_glob(w if "-G" in flags else f"{w}*") for w in given or ["*"] if "$" not in w)
    elif head in ("locate", "plocate", "mlocate", "slocate"):
        yield (_ANYWHERE, "*", True)
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
