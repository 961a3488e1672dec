"""What an audit result depends on, as digests: the code, and the run's inputs.

* ``code_fingerprint()``: sha256 over the source of every module in the audit engine's import
  closure (found by reading the imports of ``pytest_coldstart.audit.engine`` and following
  them through the package, lazy imports inside functions included) and the data files of
  those modules' folders (the JSON Schemas validate applies). A change to any rule the audit
  runs changes it; a change to the CLI, the importers or the pytest plugin does not. No folder
  list to keep in step: a new module the audit imports is covered by being imported.
* ``audit_inputs_digest(run)``: a cheap key that changes whenever any file the audit may read
  changes: for every file and symlink of the run (except the derived ``audit/`` output and the
  private ``.coldstart/`` state, and the derived ``summary.json``) its path, size, inode,
  mtime_ns and ctime_ns (ctime cannot be set back by a user), plus the code fingerprint. Stat
  only: no byte is read. ``currency`` uses it to tell whether a stored report is still the
  verdict of its run.
* ``audit_content_digest(run)``: the same listing with the sha256 of each file's bytes (or a
  symlink's target) instead of its stat: equal for equal content wherever the run lies - the
  key of the shared audit cache (``audit.cache``), which therefore survives copying runs to
  shared storage or another machine.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat as stat_module
from collections.abc import Iterator
from pathlib import Path

from pytest_coldstart._version import __version__
from pytest_coldstart.run.jsonio import open_regular
from pytest_coldstart.run.layout import AUDIT_DIR, STATE_DIR, SUMMARY_JSON
from pytest_coldstart.run.walk import walk

_SKIP_TOP = {AUDIT_DIR, STATE_DIR}
PACKAGE = Path(__file__).resolve().parents[1]
ROOT_MODULE = "pytest_coldstart.audit.engine"
BLOCK = 1 << 20


def _module_file(name: str) -> Path | None:
    parts = name.split(".")[1:]
    base = PACKAGE.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


_GUARD = re.compile(r"([ \t]*)(?:el)?if[ \t]+(?:typing\.)?TYPE_CHECKING[ \t]*:")
_FROM = re.compile(r"from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(.*)", re.DOTALL)
_IMPORT = re.compile(r"import[ \t]+(.*)", re.DOTALL)


def _statements(source: str) -> Iterator[str]:
    """Every line of ``source`` that starts an import statement, joined with its continuation
    lines, except under ``if TYPE_CHECKING:`` (never run). A line scan, not a parse: ~20x
    faster than ``ast`` over the package, and it may only see more imports than the parser
    (an import-like line inside a string), never fewer; tests hold it to the parser."""
    lines = source.splitlines()
    guard: int | None = None  # indent of the TYPE_CHECKING block being skipped
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        text = line.lstrip(" \t")
        if not text or text.startswith("#"):
            continue
        indent = len(line) - len(text)
        if guard is not None and indent > guard:
            continue
        guard = None
        if match := _GUARD.match(line):
            guard = len(match.group(1))
            continue
        if not text.startswith(("import", "from")):
            continue
        statement = text.split("#", 1)[0].rstrip()
        while (statement.endswith("\\") or statement.count("(") > statement.count(")")) and index < len(lines):
            statement = statement.rstrip("\\") + " " + lines[index].split("#", 1)[0].strip()
            index += 1
        yield statement


def _names(listing: str) -> Iterator[str]:
    for part in listing.replace("(", " ").replace(")", " ").replace("\\", " ").split(","):
        words = part.split()
        if words:
            yield words[0]


def _imports(path: Path, module: str) -> Iterator[str]:
    """The pytest_coldstart modules ``path`` imports (anywhere in it, relative ones resolved)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for statement in _statements(path.read_text("utf-8")):
        if match := _FROM.match(statement):
            dots, base = match.group(1), match.group(2)
            if dots:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - len(dots) + 1]
                base = ".".join([*anchor, base] if base else anchor)
            yield base
            yield from (f"{base}.{name}" for name in _names(match.group(3)))  # "from pkg import module"
        elif match := _IMPORT.match(statement):
            yield from _names(match.group(1))


def import_closure(root: str = ROOT_MODULE) -> list[Path]:
    """Source files of ``root`` and every package module it imports, directly or not (with
    the ``__init__`` of each package on the way, which Python runs too)."""
    seen: dict[str, Path] = {}
    todo = [root]
    while todo:
        name = todo.pop()
        if name in seen or not (name == "pytest_coldstart" or name.startswith("pytest_coldstart.")):
            continue
        path = _module_file(name)
        if path is None:
            continue
        seen[name] = path
        todo.extend(_imports(path, name))
        parent = name.rpartition(".")[0]
        if parent:
            todo.append(parent)
    return sorted(set(seen.values()))


_MEMO: dict[str, str] = {}


def package_state() -> str:
    """sha256 over the path, size, inode, mtime and ctime of every file of the package (stat
    only, ~1 ms): equal states have equal fingerprints, so the fingerprint can be remembered
    under it. ctime is in it because a same-size edit can set mtime back (``os.utime``), never
    ctime."""
    digest = hashlib.sha256(f"{__version__}\n".encode())
    for current, dirs, files in os.walk(PACKAGE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            stat = os.stat(os.path.join(current, name))
            digest.update(_entry(f"{current}/{name}", stat.st_size, stat.st_ino, stat.st_mtime_ns, stat.st_ctime_ns))
    return digest.hexdigest()


def _entry(*fields: object) -> bytes:
    """One digest entry, framed: JSON escapes a newline or a NUL inside a name or a link's text,
    so no two listings can run together into the same bytes."""
    return (json.dumps(list(fields)) + "\n").encode("utf-8", "surrogateescape")


def code_fingerprint(memo_dir: Path | None = None) -> str:
    """The one fingerprint of the audit's code (see the module docstring). Computed once per
    process; with ``memo_dir`` (the audit cache) remembered there under ``package_state()``,
    so later processes (pool workers, pytest sessions) pay a stat walk, not a parse."""
    if "code" in _MEMO:
        return _MEMO["code"]
    memo = memo_dir / "code" / package_state() if memo_dir is not None else None
    if memo is not None:
        try:
            known = memo.read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            known = ""
        if len(known) == 64 and all(c in "0123456789abcdef" for c in known):
            _MEMO["code"] = known
            return known
    _MEMO["code"] = fingerprint = _fingerprint()
    if memo is not None:
        try:
            memo.parent.mkdir(parents=True, exist_ok=True)
            temporary = memo.with_name(f".{memo.name}.{os.getpid()}.tmp")
            temporary.write_text(fingerprint + "\n", encoding="ascii")
            os.replace(temporary, memo)
        except OSError:
            pass  # an unwritable memo costs time, never correctness
    return fingerprint


def _fingerprint() -> str:
    digest = hashlib.sha256(f"pytest-coldstart {__version__}\n".encode())
    sources = import_closure()
    data = [path for folder in sorted({source.parent for source in sources}) for path in _data_files(folder)]
    for path in sorted([*sources, *data]):
        content = path.read_bytes()
        digest.update(f"{path.relative_to(PACKAGE).as_posix()}\0{len(content)}\0".encode())
        digest.update(content)
    return digest.hexdigest()


def _data_files(folder: Path) -> Iterator[Path]:
    """The files of a package folder that are not Python, with those of its data-only
    subfolders (``schemas/records``), not those of its subpackages."""
    for path in sorted(folder.iterdir()):
        if path.is_dir() and path.name != "__pycache__" and not (path / "__init__.py").exists():
            yield from (p for p in sorted(path.rglob("*")) if p.is_file() and "__pycache__" not in p.parts)
        elif path.is_file() and path.suffix not in (".py", ".pyc"):
            yield path


def _inputs(root: Path) -> Iterator[tuple[str, Path, os.stat_result]]:
    """(relative path, path, lstat) of every file, symlink and folder the audit may read, in
    order. The derived outputs (``audit/``, ``.coldstart/``, ``summary.json``) are no input,
    but a symlink among them is (the audit resolves names through any link of the run), and so
    is an empty folder (a copy into it, or a name under it, reads differently)."""
    for current, dirs, files in walk(root):
        here = Path(current)
        relative = here.relative_to(root)
        top = relative == Path(".")
        derived = not top and relative.parts[0] in _SKIP_TOP
        dirs.sort()
        for name in sorted(files) + dirs:
            path = here / name
            try:
                stat = path.lstat()
            except OSError:
                continue
            ours = derived or (top and (name in _SKIP_TOP or name == SUMMARY_JSON))
            if ours and not stat_module.S_ISLNK(stat.st_mode):
                continue  # our own output; only a link planted there counts
            yield (relative / name).as_posix(), path, stat


def _link(path: Path, root: Path) -> str:
    """A symlink's text and where it leads now: a name in the run (relative, so equal wherever
    the run lies), or a path outside it (which moves with the run: another verdict)."""
    real, base = os.path.realpath(path), os.path.realpath(root)
    inside = real == base or real.startswith(base + os.sep)
    return f"{os.readlink(path)}\0{'in:' + os.path.relpath(real, base) if inside else 'out:' + real}"


def audit_inputs_digest(run_dir: str | Path) -> str:
    root = Path(run_dir)
    digest = hashlib.sha256(code_fingerprint().encode())
    for relative, path, stat in _inputs(root):
        target = _link(path, root) if stat_module.S_ISLNK(stat.st_mode) else ""
        fields = (relative, stat.st_mode, stat.st_size, stat.st_ino, stat.st_mtime_ns, stat.st_ctime_ns, target)
        digest.update(_entry(*fields))
    return digest.hexdigest()


def file_sha256(path: Path) -> str:
    """sha256 of a regular file's bytes; a file swapped for a FIFO or a symlink after it was
    listed is refused (OSError), never waited on or followed."""
    digest = hashlib.sha256()
    with open_regular(path) as handle:
        while block := handle.read(BLOCK):
            digest.update(block)
    return digest.hexdigest()


def audit_content_digest(run_dir: str | Path) -> str:
    """sha256 over (path, kind, content hash) of every input (no stat field, no location)."""
    root = Path(run_dir)
    digest = hashlib.sha256(b"coldstart run content 2\n")
    for relative, path, stat in _inputs(root):
        if stat_module.S_ISLNK(stat.st_mode):
            kind, value = "link", _link(path, root)
        elif stat_module.S_ISDIR(stat.st_mode):
            kind, value = "folder", ""
        elif stat_module.S_ISREG(stat.st_mode):
            try:
                kind, value = "file", file_sha256(path)
            except OSError as exc:
                kind, value = "unreadable", str(exc.errno)
        else:
            kind, value = "other", f"{stat.st_mode:o}"  # a FIFO, a socket: never opened
        digest.update(_entry(relative, kind, value))
    return digest.hexdigest()
