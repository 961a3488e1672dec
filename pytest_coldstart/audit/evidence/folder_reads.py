"""Reads of a whole folder: what a call reads without naming it.

``grep -r answer .``, ``rg cart``, ``cat *``, ``find . -type f -exec cat {} +``, ``find . |
xargs cat``, ``tar -czf /tmp/all.tgz .``, ``zip -r``, ``cp -r . /tmp/copy``, ``rsync -a ./
/tmp/copy/`` and code that lists a folder and opens what it lists (``os.listdir``,
``glob.glob``, ``Path.iterdir``, ``fs.readdirSync``) read every file in or below a folder, the
test-side ones included. Each read is
(folder, name pattern, recursive); the caller takes it to name every test-side file there that
the pattern matches (fail closed: the oracle was within the agent's reach). A glob with two or
more letters (``*.json``, ``ora*``) is a name already (``naming``); this module adds the bare
ones (``*``, ``*/*``) of a reading command, and the readers that recurse.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterator

from pytest_coldstart.audit.evidence.shell_words import is_glob, last_component, quoted_segments

#: Programs that print or copy the content of the files they are given.
READERS = frozenset(["cat", "head", "tail", "less", "more", "grep", "egrep", "fgrep", "rg", "ag", "ack", "awk"])
READERS |= {"sed", "xxd", "od", "hexdump", "strings", "base64", "md5sum", "sha1sum", "sha256sum", "wc", "sort"}
READERS |= {"uniq", "diff", "cmp", "jq", "nl", "tac", "paste", "cut", "zcat", "bat", "type", "get-content", "gc"}
#: Programs handed every name of a folder (``prog *``) that read no content: any other program
#: is taken to read what it is handed (fail closed). Writers, movers and removers have rules of
#: their own.
NOT_READING = frozenset(["ls", "echo", "printf", "print", "file", "stat", "du", "chmod", "chown", "chgrp", "touch"])
NOT_READING |= {"rm", "rmdir", "mkdir", "mv", "ln", "for", "in", "test", "[", "[[", "basename", "dirname", "realpath"}
NOT_READING |= {"readlink", "cd", "pushd", "export", "set", "unset", "local", "declare", "git", "tree", "find", "which"}
NOT_READING |= {"case", "select", "read", "shopt", "kill", "true", "false", ":", "trash-put", "gio", "shred", "unlink"}
NOT_READING |= {"expr", "let", "seq", "bc", "dc"}  # arithmetic: a * is a product
_PROGRAM = re.compile(r"[a-z0-9][\w.+-]*")
_GREPS = ("grep", "egrep", "fgrep", "zgrep")
_RECURSING = ("rg", "ag", "ack")  # recursive by default
_WRAPPERS = frozenset(["sudo", "env", "command", "nohup", "time", "nice", "exec", "xargs", "parallel", "timeout"])
_WRAPPERS |= {"npx", "bunx"}
_ASSIGNED_SUBSTITUTION = re.compile(r"^[A-Za-z_]\w*=(?=\$\(|`)")  # x=$(cat *): the command is cat
_WORD = re.compile(r"(?:\"[^\"]*\"|'[^']*'|[^\s\"'])+")
HINT = re.compile(
    r"(?<![\w-])(?:grep|egrep|fgrep|zgrep|rg|ag|ack|find|tar|zip|rsync|cp|scp)(?![\w-])|\*"
    r"|listdir|scandir|walk|iterdir|readdir|opendir|glob|Dir\.|['\"]\s*\+|copytree|tarfile|make_archive|zipfile|cpsync"
    r"|http\.server|SimpleHTTPServer|php\s+-S|http-server|\bserve\b|live-server|httpd"
)

#: Code that lists a folder, or joins a name onto a folder's literal ('test/' + f).
LISTING = re.compile(
    r"""(?:listdir|scandir|walk|iterdir|readdirSync|readdir|opendir|Dir\.(?:glob|entries|children))\s*\(\s*"""
    r"""(?P<q>['"])(?P<folder>[^'"\n]+)(?P=q)"""
    r"""|\bPath\s*\(\s*(?P<pq>['"])(?P<prefix>[^'"\n]+)(?P=pq)\s*\)\s*\.\s*(?:iterdir|r?glob|walk)\s*\("""
    r"""\s*(?:['"](?P<pattern>[^'"\n]+)['"])?"""
    r"""|(?P<jq>['"])(?P<joined>[^'"\n]*/)(?P=jq)\s*\+"""
    # the working directory: os.listdir(), Path().iterdir(), Path.cwd().glob(...), os.walk(os.getcwd()),
    # fs.readdirSync(process.cwd()), Perl's opendir(my $d, '.')
    r"""|(?P<here>(?:listdir|scandir)\s*\(\s*\)|\bPath\s*\(\s*\)\s*\.\s*(?:iterdir|r?glob|walk)\s*\("""
    r"""|\bPath\.cwd\s*\(\s*\)\s*\.\s*(?:iterdir|r?glob|walk)\s*\("""
    r"""|(?:walk|listdir|scandir|readdirSync|readdir)\s*\(\s*(?:os\.getcwd\(\)|os\.curdir|process\.cwd\(\)|__dirname|Dir\.pwd)"""
    r"""|\bopendir\s*\(\s*(?:my\s+)?\$?\w+\s*,\s*['"]\.?/?['"])"""
)
#: Code that reads or copies a file it was handed (with a listing: every file listed).
_CODE_READ = re.compile(
    r"\bopen\s*\(|\bopen\s+(?:my\s+)?\$?\w+\s*,|\bread_(?:text|bytes)\s*\(|\breadFile(?:Sync)?\s*\(|\b(?:File|IO)\.(?:read|binread|readlines)\b"
    r"|\bcreateReadStream\s*\(|\bcopy(?:file|2|fileobj)?\s*\(|\bGet-Content\b|\bfopen\s*\(|\bfile_get_contents\s*\("
    r"|\bZipFile\b[^\n]{0,512}?\.write\s*\(|\.add\s*\((?=[^\n]{0,512}?\btarfile\b)|\btarfile\b[^\n]{0,512}?\.add\s*\("
)
#: Code that copies or packs a folder whole: shutil.copytree('.', ...), fs.cpSync('.', ..., {recursive}),
#: FileUtils.cp_r, shutil.make_archive(..., root_dir='.'), a tarfile's add('.').
_CODE_TREE = re.compile(
    r"""\b(?:copytree|cpSync|cp_r)\s*\(\s*(?P<q>['"])(?P<src>[^'"\n]+)(?P=q)"""
    r"""|\bmake_archive\s*\([^()]*?root_dir\s*=\s*(?P<rq>['"])(?P<root>[^'"\n]+)(?P=rq)"""
    r"""|\.add\s*\(\s*(?P<aq>['"])(?P<added>[^'"\n]+)(?P=aq)"""  # a tarfile's (the caller checks)
)
#: glob.glob('test/*.json'), glob.iglob(...): the folder and the pattern of a code glob.
_CODE_GLOB = re.compile(
    r"""(?:\bglob\.i?glob|(?<![\w.])glob|\bDir\.glob)\s*\(\s*(?P<q>['"])(?P<glob>[^'"\n]+)(?P=q)(?P<rest>[^)]*)\)"""
    r"""|\bDir\s*\[\s*(?P<rq>['"])(?P<ruby>[^'"\n]+)(?P=rq)(?P<rrest>)"""  # Ruby's Dir["*"]; Perl's and PHP's glob("*")
)

#: Options of the greps whose value is the next word.
_VALUED = frozenset(["-e", "-f", "-m", "-A", "-B", "-C", "-d", "-D", "-g", "-t", "-T", "--regexp", "--file"])
_VALUED |= {"--max-count", "--glob", "--type", "--type-not", "-M", "--max-columns"}
Read = tuple[str, str, bool]  # (folder, base-name pattern, recursive)


def folder_reads(text: str, entering: Callable[[str], None] | None = None) -> Iterator[Read]:
    """The folders ``text``'s commands read whole (one tuple per folder). ``entering(segment)``
    is called before the reads of each segment are yielded (a caller follows its cds)."""
    if HINT.search(text) is None:
        return
    found: list[
        tuple[str, str]
    ] = []  # (root, pattern) a find printed, for a reader on the next segment (find . | xargs cat)
    code_reads = _CODE_READ.search(text) is not None
    for segment in quoted_segments(text):  # a | inside a quoted grep pattern separates nothing
        if entering is not None:
            entering(segment)
        if code_reads:
            yield from _listed(segment)
        for match in _CODE_TREE.finditer(segment):
            if match.group("added") and "tarfile" not in text:
                continue  # a set's add('.'): no archive
            yield whole(match.group("src") or match.group("root") or match.group("added"))
        # (cat *), { cat *; }, $(cat *): the brackets of a subshell, a group or a substitution set aside
        words = [
            _ASSIGNED_SUBSTITUTION.sub("", w.strip("\"'")).lstrip("$({`").rstrip(")}`")
            for w in _WORD.findall(segment)
            if "<" not in w and ">" not in w
        ]
        start = 0  # wrappers, assignments and their options set aside (an index: no quadratic slicing)
        while start < len(words) and (
            words[start] in _WRAPPERS or "=" in words[start] or words[start][:1] == "-" or not words[start]
        ):
            start += 1
        words = words[start:]
        if not words:
            continue
        head = last_component(words[0]).lower()
        yield from _reads(words, head)
        yield from _served(words, head)
        if head == "find":
            patterns = [words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-name", "-iname")] or ["*"]
            found = [(root, last_component(p)) for root in _find_roots(words) for p in patterns]
            runner = next((i for i, w in enumerate(words) if w in ("-exec", "-execdir", "-ok", "-okdir")), None)
            if runner is not None and runner + 1 < len(words) and last_component(words[runner + 1]) in READERS:
                yield from ((root, pattern, True) for root, pattern in found)
        elif head in READERS and found and segment.lstrip().split(" ", 1)[0] in _WRAPPERS:
            yield from ((root, pattern, True) for root, pattern in found)  # find . | xargs cat
        else:
            found = []


def listed_folder(match: re.Match[str]) -> str:
    """The folder a ``LISTING`` match lists ("." for the working directory)."""
    if match.group("here"):
        return "."
    return (match.group("folder") or match.group("prefix") or match.group("joined")).rstrip("/") or "."


def _listed(segment: str) -> Iterator[Read]:
    """What code that lists a folder reads, where it also opens, reads or copies files:
    ``[open(f).read() for f in os.listdir('.')]``, ``glob.glob('test/*')``, ``'test/' + f``."""
    for match in LISTING.finditer(segment):
        if match.group("joined") == "/":
            continue  # r + '/' + f: the folder is the variable's, listed where it is assigned
        pattern = last_component(match.group("pattern") or "*")
        yield (listed_folder(match), pattern, "walk" in match.group(0) or "rglob" in match.group(0) or "**" in pattern)
    for match in _CODE_GLOB.finditer(segment):
        pattern = match.group("glob") or match.group("ruby")
        folder = posixpath.dirname(pattern)
        recursive = "**" in pattern or "recursive" in (match.group("rest") or "") or is_glob(folder)
        yield (folder if folder and not is_glob(folder) else ".", last_component(pattern), recursive)


def _served(words: list[str], head: str) -> Iterator[Read]:
    """A file server started on a folder (``python3 -m http.server [-d DIR]``, ``php -S … [-t
    DIR]``, ``http-server DIR``, ``ruby -run -e httpd DIR``): any fetch from it reads any file
    below it, so it reads the folder whole (a fetch names a URL, never the run's file)."""
    if head.startswith("python") and "-m" in words and any(w in ("http.server", "SimpleHTTPServer") for w in words):
        yield (_value(words, ("-d", "--directory")) or ".", "*", True)
    elif head == "php" and "-S" in words:
        yield (_value(words, ("-t",)) or ".", "*", True)
    elif head in ("http-server", "serve", "live-server") or (head == "ruby" and "httpd" in words):
        folders = [w for w in words[1:] if not w.startswith("-") and not w.isdigit() and w not in ("-run", "httpd")]
        yield (folders[-1] if folders and head != "ruby" else ".", "*", True)


def _value(words: list[str], names: tuple[str, ...]) -> str | None:
    return next((words[i + 1] for i, w in enumerate(words[:-1]) if w in names), None)


def _reads(words: list[str], head: str) -> Iterator[Read]:
    operands, skip = [], False
    for word in words[1:]:
        if skip:
            skip = False
        elif word.startswith("-") and word != "-":  # a lone - is standard input or output: an operand
            skip = word in _VALUED and head in (*_GREPS, *_RECURSING)  # grep -e PATTERN, -A 2, rg -g GLOB ...
        else:
            operands.append(word)
    flags = [w for w in words[1:] if w.startswith("-")]
    command = head in READERS or (head not in NOT_READING and words[1:2] != ["="] and _PROGRAM.fullmatch(head))
    if command:  # x = a * b is code, not a program handed every name
        for operand in operands:
            base = last_component(operand.rstrip("/"))
            if operand.endswith("/"):
                continue  # cat */ : the shell hands it folders only, and a reader reads no folder
            if is_glob(operand) and len(re.sub(r"[*?\[\].]", "", base)) < 2:
                folder = posixpath.dirname(operand.rstrip("/"))
                yield (folder if folder and not is_glob(folder) else ".", base, is_glob(folder))
    recursive = head in _RECURSING or (head in _GREPS and any(_has(f, "rR", "--recursive") for f in flags))
    if recursive:
        paths = operands[1:] if not any(f in ("-e", "-f", "--regexp", "--file") for f in flags) else operands
        yield from (whole(path) for path in paths or ["."])
    elif head == "tar" and _tar_creates(words):
        archive = _tar_archive(words)
        old_style = len(words) > 1 and not words[1].startswith("-")  # tar czf out.tgz .
        yield from (whole(p) for p in operands[1 if old_style else 0 :] if p != archive)
    elif head == "zip" and any(_has(f, "r", "--recurse-paths") for f in flags):
        yield from (whole(path) for path in operands[1:])
    elif head in ("cp", "rsync", "scp") and any(_has(f, "rRa", "--recursive") or f == "--archive" for f in flags):
        yield from (whole(path) for path in operands[:-1])


def whole(path: str) -> Read:
    """A folder read whole: ``dir`` is everything below it, ``dir/*.md`` the files of that name."""
    if is_glob(last_component(path.rstrip("/"))):
        folder = posixpath.dirname(path.rstrip("/"))
        return (folder or ".", last_component(path.rstrip("/")), True)
    return (path, "*", True)


def _find_roots(words: list[str]) -> list[str]:
    roots = []
    for word in words[1:]:
        if word.startswith(("-", "(", "!", "\\(")):
            break
        roots.append(word)
    return roots or ["."]


def _has(flag: str, letters: str, long: str) -> bool:
    return flag == long or (not flag.startswith("--") and any(c in flag[1:] for c in letters))


def _tar_creates(words: list[str]) -> bool:
    first = words[1] if len(words) > 1 else ""
    cluster = first.lstrip("-") if not first.startswith("--") else ""
    return "c" in cluster or any(w in ("-c", "--create") or _has(w, "c", "--create") for w in words[2:] if w[:1] == "-")


def _tar_archive(words: list[str]) -> str | None:
    """The archive a tar writes (``-f X``, ``-czf X``, ``--file=X``, old-style ``czf X``)."""
    for index, word in enumerate(words[1:-1], start=1):
        short = word.startswith("-") and not word.startswith("--") and word.endswith("f")
        if word == "--file" or short or (index == 1 and not word.startswith("-") and "f" in word):
            return words[index + 1]
        if word.startswith("--file="):
            return word.partition("=")[2]
    return None
