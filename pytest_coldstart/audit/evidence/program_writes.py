"""Writers known by what the program does with its operands, beyond redirections and copies:
downloads named by their URL, programs whose last operand is their output, and programs that
rewrite their operands in place.

- ``curl -o FILE``/``wget -O FILE`` write FILE; ``curl -O``/``--remote-name`` and ``wget``
  without ``-O`` write the URL's last name, in ``--output-dir DIR``/``-P DIR`` or the cwd;
- ``uniq IN OUT`` and ``xxd -r IN OUT`` write their second operand;
- the files an ``awk`` program prints to (``print > "f"``, ``>> "f"``) and a ``sed`` script's
  ``w FILE`` command or ``s///w FILE`` flag;
- in place: ``dos2unix``/``unix2dos``/``mac2unix``, ``black``, ``isort``, ``rustfmt``,
  ``fallocate``, ``mkfifo``/``mknod`` always; ``ruby``/``yq``/``autopep8``/``clang-format``
  with ``-i``, ``gofmt``/``shfmt`` with ``-w``, ``prettier`` with ``--write``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

#: how a write is told apart that only may happen (an option or a variable naming where a program
#: writes its log): it counts against the agent, never as proof that the agent wrote a file
MAY_WRITE = "(may write)"
#: (target) -> the keys it may be
Resolve = Callable[[str], list[str]]
Write = tuple[str, str, "str | None"]

_ALWAYS = ("dos2unix", "unix2dos", "mac2unix", "black", "isort", "rustfmt", "fallocate", "mkfifo", "mknod")
_FLAGGED = {"ruby": "-i", "yq": "-i", "autopep8": "-i", "clang-format": "-i", "gofmt": "-w", "shfmt": "-w"}
_FLAGGED["prettier"] = "--write"
_SECOND_OUTPUT = ("uniq", "xxd")
_AWKS = ("awk", "gawk", "mawk", "nawk", "busybox-awk")
#: print or printf up to its redirect, a string a unit of its own (print "{}" > "f": its braces end nothing)
_AWK_OUTPUT = re.compile(r'(?:print|printf)(?:[^;}\n"]|"[^"\n]{0,256}"){0,256}?>>?\s*"([^"]+)"')  # bounded: linear
_SED_WRITE = re.compile(r"(?:^|[;\s{}])(?:w|s(.).*?\1.*?\1[gpIiMme0-9]*w)\s+([^\s;}]+)")
#: Output options of any program (sort -o, gcc -o, openssl -out, pandoc --output=...), and options
#: naming where a program may write its log, dump or record (java -jar mod.jar --log f).
OUTPUT_OPTIONS: tuple[str, ...] = ("-o", "--output", "--output-file", "-out", "--out", "--outfile", "--out-file")
_LOG_OPTIONS = ("--log", "--log-file", "--logfile", "--log-path", "--dump", "--save", "--record")
OUTPUT_OPTIONS += ("--output-document", *_LOG_OPTIONS)
#: Programs whose -o is no output file (grep -o, ssh -o opt, set -o pipefail), or known above.
_NOT_OUTPUT = frozenset(["curl", "wget", "grep", "egrep", "fgrep", "rg", "ag", "ssh", "scp", "sftp", "set", "ps"])
_NOT_OUTPUT |= {"mount", "ls", "find", "lsof", "netstat", "ss", "top", "shopt"}
PROGRAMS = ("curl", "wget", *_ALWAYS, *_FLAGGED, *_SECOND_OUTPUT, *_AWKS, "sed", "split", "csplit", "sqlite3")
PROGRAMS += ("python", "python3", "socat")  # python -m json.tool IN OUT; socat CREATE:F
#: sqlite3's dot-commands that write a file: .output F, .once F, .save F, .backup [DB] F
_SQLITE_WRITES = re.compile(r"(?:^|[\s;])\.(?:output|once|save|backup(?:\s+\w+)?|excel)\s+['\"]?([^\s'\";]+)")
#: An assignment whose name says the program writes there: LOG=f, OUT_FILE=f, export DUMP=f
#: (lowercased, also on a raw JSON line).
OUTPUT_VARIABLE = r"(?<![\w$])[a-z_]*(?:log|out|output|dest|dump|save|record)[a-z_0-9]*=[^\s=]"
_OUTPUT_NAME = re.compile(
    r"(?:^|_)(?:LOG|OUT|OUTPUT|DEST|DUMP|SAVE|RECORD)\w*$|\w*(?:LOG|OUT)(?:_?FILE|_?PATH)?$", re.I
)


def program_writes(words: list[str], head: str, args: list[str], targets: Resolve) -> list[Write]:
    """What ``words`` (run by ``head``; ``args`` its operands) writes by the program's own rule."""
    if head in ("curl", "wget"):
        return _download(words, head, args, targets)
    if head == "socat":  # CREATE:F, or an address opened to create, append or truncate, writes F
        return [(k, head, None) for a in args if (path := _socat_written(a)) for k in targets(path)]
    if head in _AWKS or head == "sed":
        pattern = _AWK_OUTPUT if head in _AWKS else _SED_WRITE
        scripts = [words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-e", "--expression")] or _program(words)
        found = [m.group(m.lastindex or 1) for text in scripts for m in pattern.finditer(text)]
        out: list[Write] = [(k, f"{head} (its program writes)", None) for f in found for k in targets(f)]
        if head in _AWKS and any(re.search(r">>?\s*FILENAME\b", text) for text in scripts):  # print > FILENAME
            out += [(k, f"{head} > FILENAME", None) for a in args if a not in scripts for k in targets(a)]
        if head in _AWKS and any(w in ("inplace", "-iinplace", "--include=inplace") for w in words):
            files = [a for a in args if a != "inplace" and a not in scripts]  # gawk -i inplace: its files
            out += [(k, f"{head} -i inplace", None) for a in files for k in targets(a)]
        return out
    operands = args
    if head in _ALWAYS or (head in _FLAGGED and _flagged(words, _FLAGGED[head])):
        if head in ("ruby", "yq"):
            operands = args[1:]  # the program text comes first
        elif head in ("fallocate",):
            operands = [a for a in args if not a[:1].isdigit()]  # -l 10 took its value already
        return [(k, f"{head} (in place)", None) for a in operands for k in targets(a)]
    if head in _SECOND_OUTPUT and len(args) >= 2 and (head == "uniq" or _flagged(words, "-r")):
        return [(k, head, None) for k in targets(args[1])]
    if head == "sqlite3" and args:  # opens its database file for writing (a journal, a schema, a vacuum)
        dotted = [m.group(1) for a in args[1:] for m in _SQLITE_WRITES.finditer(a)]
        return [(k, head, None) for f in (args[0], *dotted) for k in targets(f)]
    if head in ("python", "python3") and words[1:3] == ["-m", "json.tool"] and len(args) >= 3:
        return [(k, "python -m json.tool", None) for k in targets(args[2])]  # its second file is its output
    if head in ("split", "csplit"):  # PREFIXaa, PREFIXab ...: any file whose name a prefix starts
        named = [words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-f", "--prefix")] if head == "csplit" else []
        prefixes = named or [*args, "x"]  # split's PREFIX is its last operand: each may be it (fail closed)
        return [(k, head, None) for prefix in prefixes for k in targets(f"{prefix}*")]
    return []


def _program(words: list[str]) -> list[str]:
    """An awk's or a sed's program text: its first word that is no option nor an option's value."""
    skip = False
    for word in words[1:]:
        if skip:
            skip = False
        elif word in ("-F", "-v", "-f", "-i", "-l", "--file", "--assign"):
            skip = True
        elif not word.startswith("-"):
            return [word]
    return []


def _flagged(words: list[str], flag: str) -> bool:
    short = len(flag) == 2 and flag.startswith("-")
    return any(w == flag or (short and w[:1] == "-" and w[1:2] != "-" and flag[1] in w[1:]) for w in words[1:])


def _takes(word: str, short: str, long: str) -> bool:
    """``word`` is the option whose value is the next word: ``-o``, ``--output``, ``-so``."""
    return word in (short, long) or (word[:1] == "-" and word[1:2] != "-" and word.endswith(short[1]))


def _download(words: list[str], head: str, args: list[str], targets: Resolve) -> list[Write]:
    short, long = ("-o", "--output") if head == "curl" else ("-O", "--output-document")
    out: list[Write] = [
        (k, head, None) for i, w in enumerate(words[:-1]) if _takes(w, short, long) for k in targets(words[i + 1])
    ]
    out += [(k, head, None) for w in words if w.startswith(long + "=") for k in targets(w.partition("=")[2])]
    if head == "wget":  # without -O (-qO- included) it saves under the URL's name
        remote = not any(w.startswith(long) or (w[:1] == "-" and w[1:2] != "-" and "O" in w) for w in words[1:])
    else:
        remote = _flagged(words, "-O") or any(w.startswith("--remote-name") for w in words)
    if out or not remote:
        return out
    folder = next(
        (words[i + 1] for i, w in enumerate(words[:-1]) if w in ("--output-dir", "-P", "--directory-prefix")), None
    )
    urls = [a for a in args if "://" in a and a != folder]
    for url in urls:
        name = url.split("?", 1)[0].split("#", 1)[0].rstrip("/").rpartition("/")[2]
        if name and "://" not in name:
            out += [(k, head, None) for k in targets(f"{folder.rstrip('/')}/{name}" if folder else name)]
    return out


def option_outputs(words: list[str], head: str, targets: Resolve) -> list[Write]:
    """The file an output option of any program names (``sort -o f``, ``--output=f``); curl and
    wget have theirs in ``_download``."""
    if head in _NOT_OUTPUT:
        return []
    out: list[Write] = []
    for index, word in enumerate(words[1:], start=1):
        name, equals, value = word.partition("=")
        if name in OUTPUT_OPTIONS:
            target = value if equals else (words[index + 1] if index + 1 < len(words) else "")
            if target and not target.startswith("-"):
                how = f"{head} {name} {MAY_WRITE}" if name in _LOG_OPTIONS else f"{head} {name}"
                out += [(k, how, None) for k in targets(target)]
    return out


def variable_outputs(words: list[str], targets: Resolve) -> list[Write]:
    """The files a command's (or ``export``'s) assignments name where the variable's name says a
    program writes there: ``LOG=test/x.jsonl java -jar mod.jar`` (fail closed)."""
    out: list[Write] = []
    for word in words[1:] if words[:1] == ["export"] else words:
        name, equals, value = word.partition("=")
        if not equals or not name.replace("_", "").isalnum():
            if words[:1] != ["export"]:
                break  # the assignments of a command come first
            continue
        if value and _OUTPUT_NAME.search(name):
            out += [(k, f"{name}= {MAY_WRITE}", None) for k in targets(value)]
    return out


def _socat_written(address: str) -> str | None:
    kind, _, rest = address.partition(":")
    path, _, options = rest.partition(",")
    writes = kind.upper() == "CREATE" or any(o.startswith(("creat", "append", "trunc")) for o in options.split(","))
    return path if writes and kind.upper() in ("CREATE", "OPEN", "GOPEN") and path else None
