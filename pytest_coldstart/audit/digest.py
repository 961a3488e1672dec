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
import os
import re
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
    """sha256 over the path, size and mtime of every file of the package (stat only, ~1 ms):
    equal states have equal fingerprints, so the fingerprint can be remembered under it."""
    digest = hashlib.sha256(f"{__version__}\n".encode())
    for current, dirs, files in os.walk(PACKAGE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            stat = os.stat(os.path.join(current, name))
            digest.update(f"{current}/{name}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


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
    """(relative path, path, lstat) of every file and symlink the audit may read, in order."""
    for current, dirs, files in walk(root):
        relative = Path(current).relative_to(root)
        if relative == Path("."):
            dirs[:] = [d for d in dirs if d not in _SKIP_TOP]
            files = [f for f in files if f != SUMMARY_JSON]  # derived from the audit, never its input
        dirs.sort()
        for name in sorted(files) + [d for d in dirs if (Path(current) / d).is_symlink()]:
            path = Path(current) / name
            try:
                stat = path.lstat()
            except OSError:
                continue
            yield (relative / name).as_posix(), path, stat


def audit_inputs_digest(run_dir: str | Path) -> str:
    digest = hashlib.sha256(code_fingerprint().encode())
    for relative, path, stat in _inputs(Path(run_dir)):
        target = os.readlink(path) if path.is_symlink() else ""
        digest.update(
            f"{relative}\0{stat.st_size}\0{stat.st_ino}\0{stat.st_mtime_ns}\0{stat.st_ctime_ns}\0{target}\n".encode(
                "utf-8", "surrogateescape"
            )
        )
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
    digest = hashlib.sha256(b"coldstart run content 1\n")
    for relative, path, stat in _inputs(Path(run_dir)):
        if path.is_symlink():
            entry = f"link\0{os.readlink(path)}"
        elif path.is_file():
            try:
                entry = f"file\0{file_sha256(path)}"
            except OSError as exc:
                entry = f"unreadable\0{exc.errno}"
        else:
            entry = f"other\0{stat.st_mode:o}"  # a FIFO, a socket: never opened
        digest.update(f"{relative}\0{entry}\n".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()
