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

What git prints is the repository's, not the cwd's: a pathspec is the only limit. So a word
before ``--`` is a revision (the whole repository) unless it looks like a path (a ``/`` or a
``.``, and no version tag: ``git show t``, ``git log -p b``, ``git show $(git rev-parse HEAD)``);
pathspec magic (``:/``, ``:(top)``, ``:!workspace``, ``:(glob)**``) and a repository named
elsewhere (``--git-dir``, ``--work-tree``, ``GIT_DIR=``, ``-c core.worktree=``) read ``REPOSITORY``:
a folder no one can place (the whole run, fail closed). The plumbing that prints patches
(``diff-tree -p``, ``diff-index -p``, ``reflog -p``), ``cat-file`` of objects piped in, and
``git clone`` of a local folder (a copy, as ``cp -r``) read too.
"""

from __future__ import annotations

import re

from pytest_coldstart.audit.evidence.shell_words import unvalued

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
_VALUED |= {"-S", "-G", "--since", "--until", "--after", "--before", "--committer", "--diff-filter", "--date"}
_VALUED |= {"--depth", "-b", "--branch", "--origin", "--reference", "--separate-git-dir"}
#: the repository's top wherever git runs: a folder no one can place (fail closed: the whole run)
REPOSITORY = "$GIT_REPOSITORY"
#: the last component of a folder whose repository git prints whole: the folder where no
#: repository may hold the run, else the whole run (``naming`` decides, knowing the session)
HERE = "<repository>"
#: the pattern of a read that stands for a ``git init`` of its folder: no read, a repository made
INIT = "<git init>"
_PLUMBING = frozenset(["diff-tree", "diff-index", "diff-files", "reflog"])  # print patches with -p
_VERSION = re.compile(r"^v?\d+(?:[.-]\w+)*$")  # v1.0, 2.3.1: tags, not paths
MAGIC = (":/", ":(", ":!", ":^")  # pathspec magic: the top, exclusions, globs over the whole tree
#: words that name another repository or work tree for git (global options, the environment)
_ELSEWHERE = re.compile(r"^(?:--git-dir|--work-tree|GIT_DIR=|GIT_WORK_TREE=|GIT_COMMON_DIR=|core\.worktree=)")


def elsewhere(words: list[str]) -> bool:
    """A git command line told its repository or work tree is elsewhere (``--git-dir=../.git``,
    ``GIT_DIR=..``, ``-c core.worktree=..``): what it prints may be the whole run."""
    return any(_ELSEWHERE.match(w) for w in words)


def substituted(raw: list[str], words: list[str]) -> list[str]:
    """``words`` (``raw``: as written) with each command substitution one word ``$(…)`` (``git
    show $(git rev-parse HEAD)``: a revision made at run time, its own words no paths of git's)."""
    kept: list[str] = []
    depth = 0
    for word, plain in zip(raw, words, strict=True):
        opened = word.count("$(") + word.count("`")
        if depth == 0 and opened:
            kept.append("$(…)")
        elif depth == 0:
            kept.append(plain)
        depth = max(0, depth + opened - word.count(")") - (word.count("`") if opened == 0 else 0))
    return kept


def is_revision(word: str) -> bool:
    """A word before ``--`` git takes as a revision: any that does not look like a path (fail
    closed: a tag or branch of any name, a hash made at run time)."""
    if _REVISION.search(word) or "$" in word or "`" in word or _VERSION.match(word):
        return True
    return not ("/" in word or "." in word) or word.startswith(MAGIC)


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
        if "--cached" not in options and not any(is_revision(w) and not _is_path(w) for w in operands):
            return None  # the working tree's files, by path: folder_reads' own rule
    elif command in ("show", "log", "whatchanged"):
        patch = command == "show" or bool(_PATCH.intersection(options))
        if not patch or (_NO_CONTENT.intersection(options) and not _PATCH.intersection(options)):
            return None
        if operands and not pathspecs and all(":" in w and not w.startswith(MAGIC) for w in operands):
            return None  # git show HEAD:agent/x.py: the blobs it names, each a path of its own
    elif command in _PLUMBING:
        if not _PATCH.intersection(options) and not (command == "reflog" and "--patch" in options):
            return None
    elif command == "diff":
        revisions = any(is_revision(w) for w in operands)
        if not (revisions or intent) or _NO_CONTENT.intersection(options):
            return None
    elif command == "stash":
        if operands[:1] != ["show"] or not _PATCH.intersection(options):
            return None
        operands = operands[1:]
    elif command == "cat-file":
        batch = any(w.startswith(("--batch", "--batch-all-objects")) for w in options)
        hashed = any(re.fullmatch(r"[0-9a-fA-F]{7,64}|\S*[~^$`]\S*", w) for w in operands)
        objects = [w for w in operands if w not in ("blob", "tree", "commit", "tag")]
        if not (batch or hashed or not objects):  # none named: xargs or a pipe hands them in
            return None  # cat-file -p HEAD:path names its path
    elif command == "clone":
        local = [w for w in operands[:1] if ":" not in w]  # host:path and URLs fetch no file of the run
        return local or None
    elif command not in _EVERYTHING:
        return None
    if any(w.startswith(MAGIC) for w in [*pathspecs, *operands]):
        return [REPOSITORY]
    paths = pathspecs or [w for w in operands if _is_path(w)]
    return paths or [HERE]


def _is_path(word: str) -> bool:
    return not is_revision(word) and ":" not in word


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


#: other version-control systems' commands that print the files a repository holds, as git show
_OTHER_VCS = {
    "hg": frozenset(["diff", "export", "cat", "archive", "bundle", "grep", "annotate", "blame"]),
    "bzr": frozenset(["diff", "cat", "export", "bundle", "send", "annotate"]),
    "darcs": frozenset(["whatsnew", "diff", "send", "annotate"]),
    "fossil": frozenset(["diff", "gdiff", "cat", "tarball", "zip", "sqlar", "artifact", "annotate"]),
    "svn": frozenset(["diff", "cat", "export", "blame", "annotate"]),
}
_OTHER_VCS["brz"] = _OTHER_VCS["bzr"]
_VCS_LOGS = frozenset(["log", "changes", "history", "timeline", "glog"])  # with a patch option
_VCS_PATCH = frozenset(["-p", "--patch", "-v", "--verbose", "--diff", "-u"])
_VCS_VALUED = frozenset(["-r", "--rev", "-c", "--change", "-I", "-X", "--include", "--exclude", "-l", "--limit"])
_VCS_VALUED |= {"-T", "--template", "-m", "--message", "-o", "--output", "--from", "--to", "--type", "-t"}
_VCS_ELSEWHERE = ("-R", "--repository", "--cwd", "--repodir", "--repo", "-R=", "--repository=", "--repodir=")


def vcs_content_reads(head: str, words: list[str]) -> list[str] | None:
    """The folders Mercurial, Bazaar, darcs, Fossil or Subversion (``head``, run with ``words``)
    prints the files of (``hg diff``, ``hg export tip``, ``hg log -p``, ``hg cat "glob:**"``,
    ``darcs whatsnew``, ``fossil diff -N``), or None when it prints none: the cwd's (the
    repository's, as git's), or ``REPOSITORY`` for a pattern or a repository named elsewhere."""
    commands = _OTHER_VCS.get(head)
    if commands is None or len(words) < 2:
        return None
    command, rest = words[1], words[2:]
    options = [w for w in rest if w.startswith("-")]
    if command in _VCS_LOGS:
        if not _VCS_PATCH.intersection(options):
            return None
    elif command not in commands or (_NO_CONTENT.intersection(options) and not _VCS_PATCH.intersection(options)):
        return None
    if any(w.startswith(_VCS_ELSEWHERE) for w in words):
        return [REPOSITORY]
    operands = unvalued(rest, _VCS_VALUED, 0)
    if command == "cat" and operands and not any(":" in w or is_glob_like(w) for w in operands):
        return None  # hg cat -r . oracle.json: the files it names, each a path of its own
    if any(":" in w for w in operands):
        return [REPOSITORY]  # hg's glob:**, set:, re: patterns: the whole repository
    named = command in ("diff", "gdiff", "cat", "whatsnew", "annotate", "blame")  # the rest take revisions
    return (operands if named else []) or ["."]


def is_glob_like(word: str) -> bool:
    return any(c in word for c in "*?[")
