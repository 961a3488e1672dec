"""What the code a call carries writes: a script's own file writes.

A call may write a file from code rather than from the shell: ``python3 -c "open('oracle.json',
'w')..."``, a heredoc fed to an interpreter, ``node -e "fs.writeFileSync(...)"``, ``perl -e
'open(F, ">x")'``, or a script a write tool creates to run later. The write constructs of the
common interpreters are known lexically:

- a write with a literal path: ``open(PATH, 'w'|'a'|'x'|'+...')`` (Python, Ruby ``File.open``,
  PHP ``fopen``), Perl ``open(FH, '>PATH')`` / ``open(FH, '>', 'PATH')``, pathlib
  ``Path(PATH).write_text|write_bytes|touch``, Node ``writeFile(Sync)``/``appendFile(Sync)``/
  ``createWriteStream``, Ruby ``File.write``, PHP ``file_put_contents``, and the destination of
  ``shutil.copy*|move``, ``os.rename|replace``, Node ``copyFile(Sync)|rename(Sync)``;
- a write whose path is not a literal (a variable, an expression): the caller takes every
  declared file the same text names as written (fail closed);
- a patch: the files Codex's ``apply_patch`` input adds, updates, deletes or moves to, and the
  target of a unified diff the text applies (``git apply``, ``patch``).

Nothing is executed or interpreted; a construct that only looks like a write errs towards
naming one.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from pytest_coldstart.audit.evidence.identity import UNKNOWN_CWD, Workspace, is_absolute, normalize
from pytest_coldstart.audit.evidence.tree_writes import TREE

#: A literal path: quoted, and not the head of a concatenation ('test/' + f, 'a' . $b).
_LIT = r"""(?P<q>['"`])(?P<path>[^'"`\n]{1,4096})(?P=q)(?!\s*(?:\+|\.\s*[$'"]))"""
_MODE = r"""['"][rbtU]*[wax+][rwabxtU+]*['"]"""  # a mode string that writes
#: A call's arguments up to its mode: anything but parentheses, or a call nested two deep
#: (``open(str(p), 'w')``, ``open(bytes.fromhex(h).decode(), 'w')``).
_ARGS = r"(?:[^()]|\((?:[^()]|\([^()]*\))*\))*"
#: Removals: a file a call deletes is one it changes (os.remove, fs.unlinkSync, File.delete ...).
_REMOVERS = r"(?:os\.(?:remove|unlink)|(?:fs\.)?(?:unlinkSync|rmSync)|fs\.(?:unlink|rm)|File\.(?:delete|unlink)"
_REMOVERS += r"|FileUtils\.(?:rm|rm_f|rm_rf|remove)|unlink)"
#: Opens by mode string: Python, PHP, Node (openSync), Ruby (File.new).
_OPENS = r"(?:f?open|io\.open|codecs\.open|openSync|File\.new)"
#: os.open's flags that write.
_FLAGS = r"O_(?:WRONLY|RDWR|APPEND|CREAT|TRUNC)"
#: Data libraries' writers of their first argument (pandas, polars, numpy, matplotlib, sqlite).
_DATA = r"(?:\.(?:to_csv|to_json|to_parquet|to_pickle|to_excel|to_feather|to_hdf|to_stata|to_html|to_latex"
_DATA += r"|to_markdown|to_xml|savefig|write_csv|write_parquet|write_json|write_ndjson|write_ipc|write_excel|tofile)"
_DATA += r"|\bnp\.(?:save|savez|savez_compressed|savetxt)|\bnumpy\.(?:save|savetxt)|\bsqlite3\.connect"
_DATA += r"|\bfileinput\.(?:input|FileInput)(?=\s*\([^()]*inplace\s*=\s*True))"
#: R's writers: of their second argument, and of a ``file =`` argument (cat, save, sink ...).
_R_SECOND = (
    r"(?:(?<![.\w])write|writeLines|write\.csv2?|write\.table|write_csv|write_tsv|write_lines|saveRDS|write_rds|fwrite)"
)
_R_FILE = (
    r"\b(?:cat|save|dput|dump|capture\.output|sink|write[\w.]*|save[\w.]*)\s*\((?:[^()]|\([^()]*\))*?\bfile\s*=\s*"
)
#: .NET's file API, as PowerShell calls it ([IO.File]::WriteAllText(...)).
_DOTNET = r"\[(?:System\.)?IO\.File\]::"
#: Constructs whose first argument is the path they write.
_FIRST = [
    rf"{_DOTNET}(?:WriteAll\w+|AppendAll\w+|Create\w*|AppendText|OpenWrite|Delete)\s*\(\s*{_LIT}",
    rf"{_R_FILE}{_LIT}",
    rf"\bsink\s*\(\s*{_LIT}",
    rf"\b{_OPENS}\s*\(\s*{_LIT}(?={_ARGS}{_MODE})",
    rf"\bos\.open\s*\(\s*{_LIT}(?={_ARGS}{_FLAGS})",
    rf"{_DATA}\s*\(\s*(?:(?:path_or_buf|path|file|fname|database|files)\s*=\s*)?{_LIT}",
    rf"\bPath\s*\(\s*{_LIT}\s*\)\s*\.\s*(?:write_text|write_bytes|touch|open\s*\([^()]*{_MODE})",
    rf"\b(?:writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|outputFileSync|outputFile"
    rf"|writeJsonSync|writeJson|file_put_contents|File\.write|File\.binwrite|IO\.write)\s*\(\s*{_LIT}",
    rf"\b{_REMOVERS}\s*\(\s*{_LIT}",
    rf"\bPath\s*\(\s*{_LIT}\s*\)\s*\.\s*unlink\b",
    rf"\b(?:os\.truncate|truncateSync|File\.truncate)\s*\(\s*{_LIT}",  # cut to a length: changed
    rf"\bunlink\s+{_LIT}",  # Perl's unlink "file" (no parentheses)
    rf"\b\w*FileHandler\s*\(\s*(?:filename\s*=\s*)?{_LIT}",  # logging writes its file
    rf"\bbasicConfig\s*\([^()]*?\bfilename\s*=\s*{_LIT}",
]
#: Perl: open(FH, '>PATH'), open(my $fh, '>>', 'PATH'), open(FH, '+<', 'PATH') (read-write).
_PERL = [
    r"""\bopen\s*\(?\s*(?:my\s+)?\$?\w+\s*,\s*(?P<pq>['"])(?:\+?>{1,2}|\+<)\s*(?P<path>[^'"\n>&][^'"\n]*)(?P=pq)""",
    rf"""\bopen\s*\(?\s*(?:my\s+)?\$?\w+\s*,\s*(?P<pq>['"])(?:\+?>{{1,2}}|\+<)(?P=pq)\s*,\s*{_LIT}""",
]
#: Constructs whose second argument is the path they write (a copy's or a move's destination).
_SECOND = [
    rf"(?:\b(?:shutil\.(?:copy2|copyfile|copytree|copy|move)|os\.(?:rename|replace|link|symlink)"
    rf"|copyFileSync|copyFile|renameSync|rename|FileUtils\.(?:cp|mv|copy|move)|torch\.save|joblib\.dump|urlretrieve)"
    rf"|{_DOTNET}(?:Copy|Move|Replace)|\b{_R_SECOND})\s*\(\s*"
    rf"""(?:(?P<sq>['"])(?P<src>[^'"\n]{{1,4096}})(?P=sq)\s*|[^,()]+),\s*{_LIT}""",
]
#: Constructs that write a whole folder (``tree_writes``): an archive's extraction (into the
#: cwd when no folder is given) and a tree copy's destination.
_TREES = [
    re.compile(rf"\.extractall\s*\(\s*(?:path\s*=\s*)?(?:{_LIT}|(?P<cwd>\)))"),
    re.compile(rf"\bshutil\.unpack_archive\s*\(\s*[^,()]+(?:,\s*(?:extract_dir\s*=\s*)?{_LIT}|(?P<cwd>\)))"),
    re.compile(rf"\b(?:shutil\.copytree|cpSync|FileUtils\.cp_r)\s*\(\s*[^,()]+,\s*{_LIT}"),
    re.compile(
        rf"\b(?:shutil\.rmtree|fs\.rmdirSync|rmSync|fs\.rm|FileUtils\.rm_r|FileUtils\.rm_rf)\s*\(\s*{_LIT}"
    ),  # removes a tree
]
#: Any write construct, whatever its path argument (a literal or not).
_ANY = re.compile(
    rf"\b{_OPENS}\s*\({_ARGS}{_MODE}|\bos\.open\s*\({_ARGS}{_FLAGS}|{_DATA}\s*\(|\b(?:torch\.save|joblib\.dump)\s*\("
    rf"|{_DOTNET}(?:Write|Append|Create|OpenWrite|Delete|Copy|Move|Replace)\w*\s*\("
    rf"|\b{_R_SECOND}\s*\(|{_R_FILE}|\bsink\s*\("
    r"|\.\s*(?:write_text|write_bytes)\s*\("
    r"|\b(?:writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|outputFileSync|outputFile"
    r"|writeJsonSync|writeJson|file_put_contents|File\.write|File\.binwrite|IO\.write)\s*\("
    r"|\b(?:shutil\.(?:copy2|copyfile|copytree|copy|move)|os\.(?:rename|replace|link|symlink)"
    r"|copyFileSync|copyFile|renameSync|FileUtils\.(?:cp|mv|copy|move))\s*\("
    r"""|\bopen\s*\(?\s*(?:my\s+)?\$?\w+\s*,\s*['"](?:\+?>|\+<)"""
    r"|\.extractall\s*\(|\bshutil\.unpack_archive\s*\(|\bcpSync\s*\(|\bFileUtils\.cp_r\s*\("
    rf"|\b{_REMOVERS}\s*\(|\.\s*unlink\s*\(|\bshutil\.rmtree\s*\("
)
#: Cheap necessary condition for ``code_writes`` to find anything (also on a lowercased raw
#: line): a write construct is a call of one of these names.
CALL_HINT = r"(?:open|write[\w.]*|append\w*|copy\w*|move|rename\w*|replace|put_contents|link|cp|mv|outputfile\w*"
CALL_HINT += r"|extractall|unpack_archive|cpsync|cp_r|remove|unlink\w*|rm\w*|delete|opensync|new|to_\w+|save[\w.]*"
CALL_HINT += r"|tofile|connect|input|fileinput|dump|create\w*|openwrite|cat|sink|fwrite|dput|truncate\w*"
CALL_HINT += r"|urlretrieve|filehandler|basicconfig)\s*\("
CALL_HINT += r"|\bunlink\s+['\"]"
HINT = re.compile(CALL_HINT, re.IGNORECASE)


#: A patch's own file headers: Codex's apply_patch format (``*** Update File: x``, ``*** Add
#: File:``, ``*** Delete File:``, ``*** Move to:``), and a unified diff's target (``+++ b/x``)
#: where the text applies it (``git apply``, ``patch``).
_PATCH_FILE = re.compile(r"^\*\*\* (?:(?:Add|Update|Delete) File|Move to): *(?P<path>\S(?:.*\S)?) *$", re.M)
_DIFF_TARGET = re.compile(r"^\+\+\+ (?:[ab]/)?(?P<path>[^\t\n]*[^\s])", re.M)
_APPLIES = re.compile(r"\bgit\s+apply\b|(?<![\w-])patch(?![\w-])")


@dataclass(frozen=True)
class CodeWrites:
    paths: list[str]  # literal paths the code writes
    unplaced: bool  # a write construct whose path is not a literal
    patched: list[str] = field(default_factory=list)  # files a patch in the text adds, updates or deletes
    trees: list[str] = field(default_factory=list)  # folders the code extracts or copies a tree into
    #: paths[i] is a copy's or a move's destination: (its literal source, whether it moved)
    sources: dict[int, tuple[str, bool]] = field(default_factory=dict)
    links: dict[int, bool] = field(default_factory=dict)  # paths[i] is a link to its source: symbolic?


def code_writes(text: str) -> CodeWrites:
    """The literal paths ``text``'s write constructs write, and whether any writes elsewhere."""
    patched = [m.group("path") for m in _PATCH_FILE.finditer(text)] if "*** " in text else []
    if "+++ " in text and _APPLIES.search(text):
        patched += [m.group("path") for m in _DIFF_TARGET.finditer(text) if m.group("path") != "/dev/null"]
    if HINT.search(text) is None:
        return CodeWrites([], False, patched)
    paths: list[str] = []
    starts: list[int] = []  # the literal writes' spans, in text order (finditer: no overlap)
    ends: list[int] = []
    sources: dict[int, tuple[str, bool]] = {}
    links: dict[int, bool] = {}
    for match in _LITERAL.finditer(text):
        groups = match.groupdict()
        source = next((value for name, value in groups.items() if value and name.startswith("src")), None)
        if source is not None:
            sources[len(paths)] = (source, _MOVES.match(match.group(0)) is not None)
            link = _LINKS.match(match.group(0))
            if link is not None:
                links[len(paths)] = link.group(1) == "symlink"
        paths.append(next(value for name, value in groups.items() if value and name.startswith("path")))
        starts.append(match.start())
        ends.append(match.end())
    trees: list[str] = []
    spans = list(zip(starts, ends, strict=True))
    for pattern in _TREES:
        for match in pattern.finditer(text):
            trees.append(match.group("path") or ".")
            spans.append((match.start(), match.end()))
    spans.sort()
    starts, ends = [a for a, _ in spans], [b for _, b in spans]

    def covered(position: int) -> bool:  # inside a literal write's span (log time: no reads x writes)
        index = bisect.bisect_right(starts, position) - 1
        return index >= 0 and position < ends[index]

    unplaced = any(not covered(m.start()) for m in _ANY.finditer(text))
    return CodeWrites(paths, unplaced, patched, trees, sources, links)


def script_writes(
    text: str, ws: Workspace, unplaced: Callable[[str], list[str]], named: Callable[[str], list[str]]
) -> list[tuple[str, str, str | None]]:
    """(key, how, None) of each file ``text``'s code writes: a literal path in every cwd the
    text's cds reach (``unplaced(path)`` where none places it); a write to a path that is no
    literal writes every declared file the text names (``named(text)``: fail closed)."""
    found = code_writes(text)
    out: list[tuple[str, str, str | None]] = []
    if found.paths or found.patched or found.trees:
        cwds = ws.cwds(text)
        anywhere = UNKNOWN_CWD in cwds  # after cd $X (or past MAX_CWDS): a relative path may be any

        def keys_of(path: str) -> tuple[set[str], bool]:
            """(the keys ``path`` has in the cwds, whether it may also be any file of its name)"""
            keys = {key for cwd in cwds for key in (ws.key(path, cwd),) if key is not None}
            return keys, not keys or (anywhere and not is_absolute(normalize(path.replace("\\", "/"))))

        for path, how in [*_copied(found, ws, cwds), *((p, "script") for p in found.paths)] + [
            (p, "patch") for p in found.patched
        ]:
            keys, unplaceable = keys_of(path)
            out += [(key, how, None) for key in sorted(keys | set(unplaced(path) if unplaceable else ()))]
        for index, symbolic in found.links.items():  # later writes through the link reach its source
            source, link = found.sources[index][0], found.paths[index]
            for cwd in cwds:
                origin = (
                    posixpath.join(posixpath.dirname(link), source) if symbolic and not is_absolute(source) else source
                )
                link_key, origin_key = ws.key(link, cwd), ws.key(origin, cwd)
                if link_key is not None and origin_key is not None:
                    ws.alias(link_key, origin_key)
        for path in found.trees:
            keys, unplaceable = keys_of(path)
            out += [(key, "script" + TREE, None) for key in sorted(keys)]
            out += [(key, "script", None) for key in unplaced(f"{path.rstrip('/')}/*")] if unplaceable else []
    if found.unplaced:
        out += [(key, "script (a path that is no literal)", None) for key in named(text)]
    return out


def _copied(found: CodeWrites, ws: Workspace, cwds: list[str | None]) -> list[tuple[str, str]]:
    """What copies and moves write besides their destination: the source's name inside a
    destination folder (``shutil.copy('x/o.json', 'test')``), and a moved source (it is gone)."""
    out: list[tuple[str, str]] = []
    for index, (source, moved) in found.sources.items():
        destination = found.paths[index]
        folder = destination.endswith("/") or any(
            key is not None and ws.is_folder(key) for key in (ws.key(destination, cwd) for cwd in cwds)
        )
        if folder:
            out.append((f"{destination.rstrip('/')}/{source.replace(chr(92), '/').rpartition('/')[2]}", "script"))
        if moved:
            out.append((source, "script (moved away)"))
    return out


def _numbered(pattern: str, index: int) -> str:
    """``pattern`` with its group names made its own (one alternation holds them all)."""
    for name in ("path", "pq", "q", "src", "sq"):
        pattern = pattern.replace(f"?P<{name}>", f"?P<{name}{index}>").replace(f"(?P={name})", f"(?P={name}{index})")
    return pattern


_LINKS = re.compile(r"os\.(link|symlink)\b")  # os.link(src, dst), os.symlink(src, dst): dst reaches src
_MOVES = re.compile(
    r"shutil\.move|os\.(?:rename|replace)|renameSync|rename|FileUtils\.(?:mv|move)|\[(?:System\.)?IO\.File\]::Move"
)
_LITERAL = re.compile("|".join(f"(?:{_numbered(p, i)})" for i, p in enumerate(_FIRST + _SECOND + _PERL)))
