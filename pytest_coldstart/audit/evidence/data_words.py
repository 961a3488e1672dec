"""Text a command only copies, read as the ``echo`` of it: the lines of a here-document ``cat``
or ``tee`` copies into a file (``cat > NOTES.md <<'EOF'`` ... a note that mentions oracle.json
reads nothing), and a git commit's, tag's or stash's message (``git -C workspace commit -m
"docs: oracle.json is off limits"``). Used where the audit asks which programs a name stands beside
(``read_plausibility.naming_heads``); what the copied file later runs as, ``scripts`` follows."""

from __future__ import annotations

import itertools
import re

from pytest_coldstart.audit.evidence.shell_words import heredoc_end, program_name

_HEREDOC_OPERATOR = re.compile(r"<<(?!<)(-?)[ \t]*(?:'([^'\n]*)'|\"([^\"\n]*)\"|\\?([^\s;&|<>()'\"]+))")
_PIECES = re.compile(r"&&|\|\||;")


def heredocs_printed(text: str) -> str:
    """``text`` with each line of a here-document only ``cat`` or ``tee`` copies (``cat >
    notes.md <<'EOF'``, one operator on its line, no pipe, fd or continued line) spelled as its ``echo``: data, as
    an echoed note is. With an unquoted delimiter a line holding ``$(`` or a backquote stays
    as it is (the shell runs it)."""
    if "<<" not in text or ">(" in text:  # tee >(sh) <<EOF runs its body
        return text
    out: list[str] = []
    position = 0
    while (operator := _HEREDOC_OPERATOR.search(text, position)) is not None:
        newline = text.find("\n", operator.end())
        if newline < 0:
            break
        end = heredoc_end(
            text, newline + 1, [(next(g for g in operator.groups()[1:] if g is not None), operator[1] == "-")]
        )
        line = text[text.rfind("\n", 0, operator.start()) + 1 : newline]
        piece = next(p for p in _PIECES.split(line) if "<<" in p)
        words = piece.split()
        out.append(text[position : newline + 1])
        body = text[newline + 1 : end]
        copied = line.count("<<") == 1 and "|" not in piece and "&" not in piece and not line.endswith("\\")
        if copied and words and program_name(words[0]) in ("cat", "tee"):
            body = _printed(body, operator[4] is None or "\\" in operator[0])
        out.append(body)
        position = end
    return "".join(out) + text[position:]


def _printed(body: str, quoted: bool) -> str:
    """A here-document's lines as ``echo``s, the last (its delimiter) and blank ones as they are."""
    lines = body.splitlines(True)
    for i, line in enumerate(lines[:-1]):
        text = line.rstrip("\n")
        if text.strip() and (quoted or ("$(" not in text and "`" not in text)):
            lines[i] = "echo '" + text.replace("'", "'\\''") + "'" + line[len(text) :]
    return "".join(lines)


#: a quoted message of git's -m/--message (a double-quoted one with no expansion: "$(cat x)" runs)
_MESSAGE = re.compile(r"""(?<=\s)(-[a-zA-Z]*m|--message)(?:=|[ \t]+)('[^'\n]*'|"[^"\n$`\\]*")""")
#: git's commands whose -m is a message (stash's and notes' under these verbs: ``git stash show
#: -m`` and ``git show -m`` take -m as a flag, the next word is what they print)
_MESSAGED = {"commit": "", "tag": "", "merge": "", "stash": "push save", "notes": "add append"}
_GIT_VALUED = frozenset(("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"))
MAX_MESSAGES = 64


def messages_printed(text: str) -> str:
    """``text`` with each quoted message of a ``git commit``/``tag``/``stash``/``merge``/``notes``
    in the same statement taken out of it and ``echo``ed just before it: git stores the words,
    it opens no file they name (``git commit -m x oracle.json`` still names its pathspec)."""
    if "git" not in text:
        return text
    out: list[str] = []
    position = 0
    for match in itertools.islice(_MESSAGE.finditer(text), MAX_MESSAGES):
        start = max(text.rfind(c, max(0, match.start() - _STATEMENT), match.start()) for c in "\n;&|(`")
        start = max(start + 1, match.start() - _STATEMENT, position)
        if not _messaged(text[start : match.start()].split()):
            continue
        out += [text[position:start], f"echo {match[2]} ; ", text[start : match.start()], f"{match[1]} ''"]
        position = match.end()
    return "".join(out) + text[position:]


_STATEMENT = 512  # how far back a message's git command is looked for


def _messaged(words: list[str]) -> bool:
    """``words`` are git's and its command, the first word after git's own options, takes a message."""
    if not words or program_name(words[0]) != "git":
        return False
    rest = iter(words[1:])
    for word in rest:
        if word in _GIT_VALUED:
            next(rest, None)
        elif not word.startswith("-"):
            verbs = _MESSAGED.get(word)
            return verbs == "" or (verbs is not None and next(rest, "") in verbs.split())
    return False


def data_printed(text: str) -> str:
    """``text`` with the words its commands only copy read as ``echo``s."""
    return messages_printed(heredocs_printed(text))
