"""The git commands that print what a repository holds: the files of a commit, of the index or
of every object, read whole.

``git add -A && git commit -qm x && git show`` prints every file it committed, the oracle too;
so do ``git log -p``, ``git format-patch``, ``git diff REV``, ``git grep PATTERN REV`` (or
``--cached``), ``git archive``, ``git stash show -p``, ``git bundle``/``fast-export`` and
``git cat-file`` of an object by its hash or of every object. Whether the agent staged or
committed the run's files (in this call or an earlier one) is not followed: any of these reads
the folder it runs in whole (fail closed), a pathspec limiting it to what it names
(``git show HEAD -- agent/x.py``). ``REV:path`` is a path of its own (``shell_words``). A
command told to print no content (``--stat``, ``--name-only``, ``-s``) reads nothing, and
``git log`` prints content only with a patch option. ``git diff`` with no revision shows the
working tree's changes to tracked files: only ``git add -N`` (in the same text) makes it print
new files whole.
"""

from __future__ import annotations

import re

#: a word that names a revision rather than a path (HEAD~2, main^, abc1234, @{1}, a..b)
_REVISION = re.compile(
    r"^(?:HEAD|FETCH_HEAD|ORIG_HEAD|MERGE_HEAD|CHERRY_PICK_HEAD|@|main|master|trunk|develop|[0-9a-fA-F]{7,64}"
    r"|refs/\S+|origin/\S+|stash(?:@\{\d+\})?)(?:[~^]\d*|@\{[^}]*\})*$|[~^]|\.\.|@\{"
)
#: options after which git prints names or counts only, no file content
_NO_CONTENT = frozenset(["--stat", "--shortstat", "--numstat", "--name-only", "--name-status", "-s", "--no-patch"])
_NO_CONTENT |= {"--summary", "--quiet", "--dirstat", "--raw", "--compact-summary", "--oneline"}
_PATCH = frozenset(["-p", "-u", "--patch", "--cc", "-c", "--full-diff", "--patch-with-stat", "--patch-with-raw"])
_EVERYTHING = frozenset(["format-patch", "archive", "bundle", "fast-export"])
_VALUED = frozenset(["-n", "--max-count", "-o", "--output-directory", "--format", "--prefix", "-O", "--output"])
_VALUED |= {"-e", "-f", "-A", "-B", "-C", "-m", "--max-depth", "--threads", "--remote", "-L", "--author", "--grep"}


def marks_intent(words: list[str]) -> bool:
    """``git add -N`` / ``--intent-to-add`` (the words of one command): a plain ``git diff``
    after it prints the new files whole."""
    return "add" in words and any(w == "--intent-to-add" or (w[:1] == "-" != w[1:2] and "N" in w) for w in words)


def git_content_reads(command: str, rest: list[str], intent: bool = False) -> list[str] | None:
    """The paths (folders read whole) git ``command`` run with words ``rest`` prints the
    content of, or None when it prints no file's content (``intent``: the command line also
    marks files with ``git add -N``)."""
    options = [w for w in rest if w.startswith("-")]
    operands, pathspecs = _operands(rest)
    if command == "grep":
        operands = operands if any(w in ("-e", "-f") for w in options) else operands[1:]
        if "--cached" not in options and not any(_REVISION.search(w) for w in operands):
            return None  # the working tree's files, by path: folder_reads' own rule
    elif command in ("show", "log", "whatchanged"):
        patch = command == "show" or bool(_PATCH.intersection(options))
        if not patch or (_NO_CONTENT.intersection(options) and not _PATCH.intersection(options)):
            return None
        if operands and not pathspecs and all(":" in w for w in operands):
            return None  # git show HEAD:agent/x.py: the blobs it names, each a path of its own
    elif command == "diff":
        revisions = any(_REVISION.search(w) for w in operands)
        if not (revisions or intent) or _NO_CONTENT.intersection(options):
            return None
    elif command == "stash":
        if operands[:1] != ["show"] or not _PATCH.intersection(options):
            return None
        operands = operands[1:]
    elif command == "cat-file":
        batch = any(w.startswith(("--batch", "--batch-all-objects")) for w in options)
        hashed = any(re.fullmatch(r"[0-9a-fA-F]{7,64}|\S*[~^]\S*", w) for w in operands)
        if not (batch or hashed):
            return None  # cat-file -p HEAD:path names its path
    elif command not in _EVERYTHING:
        return None
    paths = pathspecs or [w for w in operands if not _REVISION.search(w) and ":" not in w]
    return paths or ["."]


def _operands(words: list[str]) -> tuple[list[str], list[str]]:
    """The operands of ``words`` before ``--`` (option values set aside), and the pathspecs after it."""
    operands: list[str] = []
    skip = False
    for index, word in enumerate(words):
        if skip:
            skip = False
        elif word == "--":
            return operands, [w for w in words[index + 1 :] if w]
        elif word.startswith("-") and word != "-":
            skip = word in _VALUED
        else:
            operands.append(word)
    return operands, []
