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

from pytest_coldstart.audit.evidence import containers
from pytest_coldstart.audit.evidence.git_reads import INIT, elsewhere, marks_intent, substituted
from pytest_coldstart.audit.evidence.recursive_readers import GREPS, RECURSING, Read, program_reads, whole
from pytest_coldstart.audit.evidence.shell_words import is_glob, last_component, quoted_segments

__all__ = ["LISTING", "READERS", "Read", "folder_reads", "listed_folder", "whole"]

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
NOT_READING |= {"apply_patch"}  # Codex's ["apply_patch", PATCH]: its operand is the patch's text
_PROGRAM = re.compile(r"[a-z0-9][\w.+-]*")
_WRAPPERS = frozenset(["sudo", "env", "command", "nohup", "time", "nice", "exec", "xargs", "parallel", "timeout"])
_WRAPPERS |= {"npx", "bunx", "busybox", "toybox"}  # busybox httpd: the applet is the program
_MOVERS = frozenset(["mv", "cp", "ln", "rsync", "scp", "gcp"])
_ASSIGNED_SUBSTITUTION = re.compile(r"^[A-Za-z_]\w*=(?=\$\(|`)")  # x=$(cat *): the command is cat
_OPENERS = re.compile(r"^(?:\$\(|[({`])+")
_WORD = re.compile(r"(?:\"[^\"]*\"|'[^']*'|[^\s\"'])+")
#: lowercase: the prescan searches it on a call's lowered text (compiled here ignoring case)
HINT = re.compile(
    r"(?<![\w-])(?:grep|egrep|fgrep|zgrep|rg|ag|ack|find|tar|zip|rsync|cp|scp)(?![\w-])|\*"
    r"|(?<![\w-])(?:[a-z0-9]*grep|rga|ug|pt|sift|git|diff|colordiff|bsdtar|gtar|jar|pax|7z\w?|rar|gzip|pigz|bzip2|xz"
    r"|zstd|lz4|findstr|\.git|hg|bzr|brz|darcs|fossil|svn)(?![\w-])"
    r"|listdir|scandir|walk|iterdir|readdir|opendir|glob|fsdir|dir\.|['\"]\s*\+|copytree|tarfile|make_archive|zipfile|cpsync"
    r"|http\.server|simplehttpserver|php\s+-s|http-server|\bserve\b|live-server|httpd|socat|caddy|docker|podman|nerdctl|finch|buildah"
    r"|each_child|file::find|finddepth|directoryiterator|filesystemiterator|fileinput|linecache|find\.find",
    re.IGNORECASE,
)

#: Code that lists a folder, or joins a name onto a folder's literal ('test/' + f).
LISTING = re.compile(
    r"""(?:listdir|scandir|walk|iterdir|readdirSync|readdir|opendir|Dir\.(?:glob|entries|children|each_child|foreach)"""
    r"""|Walk(?:Dir)?|(?:Recursive)?DirectoryIterator|FilesystemIterator|Find\.find|Files\.list|fsdir)\s*\(\s*"""
    r"""(?:(?:Paths\.get|Path\.of)\s*\(\s*)?(?P<q>['"])(?P<folder>[^'"\n]+)(?P=q)"""
    # Perl's File::Find: find(sub { ... }, '.'), finddepth(\&wanted, 'test'), find({wanted => ...}, '.')
    r"""|(?<![\w.$>:])find(?:depth)?\s*\(?\s*(?:sub\b|\\&|\{)[\s\S]{0,512}?,\s*(?P<fq>['"])(?P<found>[^'"\n]+)(?P=fq)"""
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
#: A listing of a folder held in a variable (``os.listdir(d)``), and the literals variables are
#: assigned (``d = os.open('.', os.O_RDONLY)``, ``root = 'test'``).
_VAR_LISTING = re.compile(
    r"(?:listdir|scandir|walk|iterdir|readdirSync|readdir|Dir\.(?:entries|children|each_child|foreach)|Walk(?:Dir)?"
    r"|(?:Recursive)?DirectoryIterator|FilesystemIterator)\s*\(\s*\$?(?P<var>[A-Za-z_]\w*)\s*[,)]"
)
_ASSIGNED_FOLDER = re.compile(
    r"""(?<![\w.])\$?(?P<var>[A-Za-z_]\w*)\s*=\s*(?:(?:os\.open|Path|opendirSync|opendir)\s*\(\s*)?(?P<q>['"])(?P<folder>[^'"\n]+)(?P=q)"""
)
#: Code that reads or copies a file it was handed (with a listing: every file listed).
_CODE_READ = re.compile(
    r"\bopen\s*\(|\bopen\s+(?:my\s+)?\$?\w+\s*,|\bread_(?:text|bytes)\s*\(|\breadFile(?:Sync)?\s*\(|\b(?:File|IO)\.(?:read|binread|readlines)\b"
    r"|\bfileinput\b|\blinecache\.|\b(?:File|IO)\.(?:open|new|foreach|copy_stream)\b|\breadfile\s*\(|\bReadFile\s*\(|\bos\.Open\s*\("
    r"|\bread_(?:csv|json|table|excel|parquet|pickle|fwf)\s*\(|\b(?:loadtxt|genfromtxt|fromfile)\s*\(|\bFiles\.read\w*\s*\("
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


def folder_reads(text: str, entering: Callable[[str], None] | None = None) -> Iterator[Read]:
    """The folders ``text``'s commands read whole (one tuple per folder). ``entering(segment)``
    is called before the reads of each segment are yielded (a caller follows its cds)."""
    if HINT.search(text) is None:
        return
    found: list[
        tuple[str, str]
    ] = []  # (root, pattern) a find printed, for a reader on the next segment (find . | xargs cat)
    code_reads = _CODE_READ.search(text) is not None
    intent = False  # a git add -N before: git diff prints the new files (git add -N . && git diff)
    folders = {}  # the literals the text assigns variables a listing is handed (looked up once)
    if code_reads and _VAR_LISTING.search(text) is not None:
        folders = {match.group("var"): match.group("folder") for match in _ASSIGNED_FOLDER.finditer(text)}
    for segment in _substitutions_apart(quoted_segments(text)):  # a quoted | separates nothing
        if entering is not None:
            entering(segment)
        if code_reads:
            yield from _listed(segment, folders)
        for match in _CODE_TREE.finditer(segment):
            if match.group("added") and "tarfile" not in text:
                continue  # a set's add('.'): no archive
            yield whole(match.group("src") or match.group("root") or match.group("added"))
        # (cat *), { cat *; }, $(cat *): the brackets of a subshell, a group or a substitution set aside
        raw = [w for w in _WORD.findall(segment) if "<" not in w and ">" not in w]
        words = [_bracketless(_ASSIGNED_SUBSTITUTION.sub("", w.strip("\"'"))) for w in raw]
        start = 0  # wrappers, assignments and their options set aside (an index: no quadratic slicing)
        while start < len(words) and (
            words[start] in _WRAPPERS or "=" in words[start] or words[start][:1] == "-" or not words[start]
        ):
            start += 1
        assigned, words = words[:start], words[start:]
        if not words:
            continue
        head = last_component(words[0]).lower()
        if head == "git":  # GIT_DIR=../.git git show; git show $(git rev-parse HEAD)
            words = [
                words[0],
                *(["--git-dir=$GIT_DIR"] if elsewhere(assigned) else []),
                *substituted(raw[start + 1 :], words[1:]),
            ]
        intent = intent or (head == "git" and marks_intent(words))
        yield from _reads(words, head, intent)
        yield from _served(words, head)
        yield from containers.mounted(words, head)
        if head in _MOVERS and any(last_component(w.rstrip("/")) == ".git" for w in words[1:]):
            yield _repository_moved(words)
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


def _repository_moved(words: list[str]) -> Read:
    """A ``.git`` moved, copied or linked (``mv /tmp/r/.git .``): a repository made where it lands."""
    target = [w for w in words[1:] if not w.startswith("-")][-1:] or ["."]
    landed = target[0].rstrip("/")
    return (posixpath.dirname(landed) or "." if last_component(landed) == ".git" else landed, INIT, False)


#: a process substitution of one plain command (no cd, separator, quote or nesting in it)
_PROCESS = re.compile(r"[<>]\(([^()<>;&|`$'\"\n]*)\)")


def _substitutions_apart(segments: list[str]) -> Iterator[str]:
    """Each segment, its plain process substitutions first as segments of their own and then
    spelled as the ``/dev/fd/63`` the command is handed: in ``diff <(jq . a) b`` jq's ``.`` is
    its filter, no folder diff reads."""
    for segment in segments:
        if "(" in segment and ("<(" in segment or ">(" in segment):
            inner = [m[1] for m in _PROCESS.finditer(segment) if m[1].split()[:1] not in (["cd"], ["pushd"])]
            if inner:
                yield from inner
                segment = _PROCESS.sub(
                    lambda m: m[0] if m[1].split()[:1] in (["cd"], ["pushd"]) else "/dev/fd/63", segment
                )
        yield segment


def _bracketless(word: str) -> str:
    """``word`` without the brackets of a subshell, a group or a substitution around a command
    (``$(cat``, ``{``, ``cat)``); a variable keeps its ``$`` (``$HOME``, ``${HOME}``: a folder
    no one can place)."""
    if word.startswith("${") or (word[:1] == "$" and word[1:2] not in ("(", "")):
        return word if word.endswith("}") and word.startswith("${") else word.rstrip(")`")
    return _OPENERS.sub("", word).rstrip(")}`")


def listed_folder(match: re.Match[str]) -> str:
    """The folder a ``LISTING`` match lists ("." for the working directory)."""
    if match.group("here"):
        return "."
    found = match.group("folder") or match.group("found") or match.group("prefix") or match.group("joined")
    return found.rstrip("/") or "."


def _walks(match: re.Match[str], segment: str) -> bool:
    """A listing that goes below the folder: a walk, a recursive iterator, File::Find, an
    rglob, ``readdirSync(d, {recursive: true})``."""
    head = match.group(0)
    if any(word in head for word in ("walk", "Walk", "rglob", "Recursive", "find", "Find")):
        return True
    return "recursive" in segment[match.end() : match.end() + 64]


def _listed(segment: str, folders: dict[str, str]) -> Iterator[Read]:
    """What code that lists a folder reads, where it also opens, reads or copies files:
    ``[open(f).read() for f in os.listdir('.')]``, ``glob.glob('test/*')``, ``'test/' + f``."""
    for match in LISTING.finditer(segment):
        if match.group("joined") == "/":
            continue  # r + '/' + f: the folder is the variable's, listed where it is assigned
        pattern = last_component(match.group("pattern") or "*")
        yield (listed_folder(match), pattern, _walks(match, segment) or "**" in pattern)
    if folders:  # os.listdir(d): where d is assigned a literal
        for match in _VAR_LISTING.finditer(segment):
            if match.group("var") in folders:
                yield (folders[match.group("var")], "*", _walks(match, segment))
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
    elif head in ("httpd", "darkhttpd", "mini_httpd", "webfsd") or (head == "caddy" and "file-server" in words):
        yield (_value(words, ("-h", "--root", "-r")) or next((w for w in words[1:2] if w[:1] != "-"), "."), "*", True)
    elif head == "socat":  # OPEN:F, GOPEN:F, CREATE:F ... a glob in an address matches its folder's files
        for word in words[1:]:
            path = word.partition(":")[2].partition(",")[0] if word[:1].isalpha() and ":" in word else ""
            if is_glob(path):
                yield (posixpath.dirname(path) or ".", last_component(path), False)


def _value(words: list[str], names: tuple[str, ...]) -> str | None:
    return next((words[i + 1] for i, w in enumerate(words[:-1]) if w in names), None)


def _reads(words: list[str], head: str, intent: bool) -> Iterator[Read]:
    operands, skip = [], False
    for word in words[1:]:
        if skip:
            skip = False
        elif word.startswith("-") and word != "-":  # a lone - is standard input or output: an operand
            skip = word in _VALUED and head in (*GREPS, *RECURSING)  # grep -e PATTERN, -A 2, rg -g GLOB ...
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
    yield from program_reads(words, head, operands, flags, intent)


def _find_roots(words: list[str]) -> list[str]:
    roots = []
    for word in words[1:]:
        if word.startswith(("-", "(", "!", "\\(")):
            break
        roots.append(word)
    return roots or ["."]
