"""Hypothesis strategies for the fuzz properties (test_fuzz.py): valid runs and their mutations.

Templates are built once per process (scenario builder, or the real rom20 rebuild) and copied
per example, so an example costs a copy plus the audit, not a build:
  sealed  the passing scenario, sealed: every byte but run.json and reviews.jsonl is anchored
  open    the same run unsealed (declarations, hashes and the chain protect it, not the seal)
  v1      the real rom20 cold start rebuilt as a reference (version 1) run, reviews included
A ``Mutation`` is plain data (kind, target file, parameters), so hypothesis prints a failing
example readably and shrinks it; ``apply`` edits the copy on disk.

Profiles (``fuzz_settings``): ``COLDSTART_FUZZ=long`` (or ``HYPOTHESIS_PROFILE=long``) runs
``LONG_EXAMPLES`` examples per property; the default short profile keeps the suite fast.
"""

from __future__ import annotations

import atexit
import importlib.util
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from corpus import corpus_root
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[2]
#: Files that no hash anchors even in a sealed run: the manifest holds the seal itself, and
#: reviews are appended after sealing (the audit re-reads them every time).
UNANCHORED = {"run.json", "reviews.jsonl"}
#: Our versioned files (a schemaVersion on every document / every line).
VERSIONED = ("run.json", "evidence.json", "visibility.json", "trajectory.jsonl", "reviews.jsonl")
#: Bound used while fuzzing "huge lines" (the real 64 MiB bound is tested once, unpatched).
HUGE_BOUND = 256 * 1024
LONG_EXAMPLES = 100_000

# -- profiles -------------------------------------------------------------------------------

_PROFILE = os.environ.get("COLDSTART_FUZZ") or os.environ.get("HYPOTHESIS_PROFILE") or "short"
LONG = _PROFILE in ("long", "coldstart-long")


def fuzz_settings(short_examples: int, long: int | None = None) -> settings:
    """Settings for one property: ``short_examples`` in the suite, LONG_EXAMPLES on demand
    (``long``: fewer for a property that starts a process per example)."""
    examples = (long or LONG_EXAMPLES) if LONG else short_examples
    if _PROFILE.isdigit():
        examples = min(int(_PROFILE), long) if long else int(_PROFILE)
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large],
        derandomize=not LONG and not _PROFILE.isdigit(),  # the suite is reproducible; long hunts roam
        print_blob=True,
    )


# -- templates ------------------------------------------------------------------------------

_BUILT: dict[str, Path] = {}
_BASE: list[Path] = []


def _base() -> Path:
    if not _BASE:
        _BASE.append(Path(tempfile.mkdtemp(prefix="coldstart-fuzz-templates-")))
        atexit.register(shutil.rmtree, _BASE[0], True)
    return _BASE[0]


def _rom20_rebuild():
    spec = importlib.util.spec_from_file_location(
        "coldstart_rom20_rebuild", REPO / "tests" / "audit" / "rom20_rebuild.py"
    )
    assert spec and spec.loader, "tests/audit/rom20_rebuild.py is missing"
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def template(name: str) -> Path:
    """The template run ``name`` (built on first use; never mutated)."""
    if name not in _BUILT:
        from pytest_coldstart.demo.scenarios import build_run
        from pytest_coldstart.record.seal import seal

        target = _base() / name
        if name == "v1":
            root = corpus_root()
            assert root is not None, "the v1 template is built from the external corpus (--coldstart-corpus)"
            _rom20_rebuild().rebuild(root.parent, target, reviews=True)
        else:
            build_run(target, "passing")
            if name == "sealed":
                seal(target)
        _BUILT[name] = target
    return _BUILT[name]


def run_files(run: Path) -> list[str]:
    """Every file of a run (run-relative, POSIX) except derived state and reports."""
    out = []
    for path in sorted(run.rglob("*")):
        relative = path.relative_to(run)
        if path.is_file() and relative.parts[0] not in (".coldstart", "audit"):
            out.append(relative.as_posix())
    return out


@contextmanager
def workspace(name: str) -> Iterator[tuple[Path, Path]]:
    """(a fresh copy of template ``name``, an empty folder outside it); removed afterwards."""
    source = template(name)
    base = Path(tempfile.mkdtemp(prefix="coldstart-fuzz-"))
    try:
        run = base / "run"
        shutil.copytree(source, run, symlinks=True)
        outside = base / "outside"
        outside.mkdir()
        yield run, outside
    finally:
        try:
            shutil.rmtree(base, ignore_errors=True)
        except RecursionError:  # a deep_tree mutation: Python 3.11's rmtree recurses per level
            subprocess.run(["rm", "-rf", "--", os.fspath(base)], check=False, timeout=300)


def changed_files(run: Path, name: str) -> set[str]:
    """Files whose bytes (or kind: symlink, missing, new) differ from the template."""
    source = template(name)
    names = set(run_files(source)) | set(run_files(run))
    changed = set()
    for relative in names:
        mine, theirs = run / relative, source / relative
        if not editable(mine) or not theirs.is_file() or mine.read_bytes() != theirs.read_bytes():
            changed.add(relative)  # a sparse file (fuzz_hostile) is changed, and never read here
    return changed


# -- byte-level edits (pure functions of the file's bytes) ------------------------------------


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def _units(data: bytes, target: str) -> list[bytes]:
    """JSON units of a file: its lines (JSONL) or the whole document."""
    return _lines(data) if target.endswith(".jsonl") else [data]


def _join(units: list[bytes]) -> bytes:
    return b"".join(units)


def _ending(unit: bytes) -> bytes:
    return unit[len(unit.rstrip(b"\r\n")) :]


def _dump(value: Any, ending: bytes, document: bool) -> bytes:
    text = json.dumps(
        value, ensure_ascii=False, indent=2 if document else None, separators=None if document else (",", ":")
    )
    return text.encode("utf-8", "surrogatepass") + ending


#: Values of every JSON type (a swap picks one whose type differs), plus hostile strings.
REPLACEMENTS: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    -1,
    2**63,
    10**30,
    1.5,
    -0.0,
    1e308,
    "",
    "x",
    "\u0000",
    "\ud800",
    "../../etc/passwd",
    "C:\\Windows",
    "9" * 400,
    [],
    [None],
    [[[]]],
    {},
    {"": None},
    {"schemaVersion": 3},
)
#: Byte sequences that are not UTF-8: lone continuation, overlong, surrogate, > U+10FFFF, truncated.
BAD_UTF8 = (
    b"\xff",
    b"\xfe",
    b"\x80",
    b"\xc0\xaf",
    b"\xc3\x28",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\xf8\x88\x80\x80\x80",
    b"\xe2\x82",
    b"\xa0\xa1",
)
#: schemaVersion values no reader may accept ("missing" removes the key).
UNKNOWN_VERSIONS: tuple[Any, ...] = (
    0,
    3,
    99,
    -1,
    -2,
    2**31,
    10**30,
    "2",
    "v2",
    "",
    True,
    False,
    None,
    [2],
    {"v": 2},
    1.5,
    "missing",
)


def _swap_type(value: Any, path: tuple[int, ...], pick: int) -> Any:
    """Replace the value reached by ``path`` (choices at each level) by one of another type."""
    if path and isinstance(value, (dict, list)) and value:
        keys = sorted(value) if isinstance(value, dict) else list(range(len(value)))
        choice = path[0] % (len(keys) + 1)
        if choice:
            key = keys[choice - 1]
            value[key] = _swap_type(value[key], path[1:], pick)
            return value
    options = [r for r in REPLACEMENTS if type(r) is not type(value)]
    return options[pick % len(options)]


def edit(kind: str, data: bytes, target: str, params: tuple[Any, ...]) -> bytes:
    """Apply one byte-level mutation to a file's bytes."""
    units = _units(data, target)
    if kind == "flip":
        if not data:
            return b"\x00"
        index = params[0] % len(data)
        return data[:index] + bytes([data[index] ^ (1 + params[1] % 255)]) + data[index + 1 :]
    if kind == "truncate":
        return data[: params[0] % max(1, len(data))]
    if kind == "append_garbage":
        return data + bytes(params[0])
    if not units:
        return data + b"\n"
    index = params[0] % len(units)
    if kind == "delete_line":
        return _join(units[:index] + units[index + 1 :])
    if kind == "duplicate_line":
        return _join(units[: index + 1] + [units[index]] + units[index + 1 :])
    if kind == "move_line":
        unit = units.pop(index)
        units.insert(params[1] % (len(units) + 1), unit)
        return _join(units)
    if kind == "bad_utf8":
        unit = units[index]
        quotes = [i for i, byte in enumerate(unit) if byte == 0x22] or [0]
        at = quotes[params[1] % len(quotes)] + 1  # inside a JSON string, where a decoder meets it
        units[index] = unit[:at] + BAD_UTF8[params[2] % len(BAD_UTF8)] + unit[at:]
        return _join(units)
    if kind == "huge_line":
        size = HUGE_BOUND + (-2, -1, 0, 1, 2, HUGE_BOUND)[params[1] % 6]  # bytes before the LF
        head, tail = b'{"schemaVersion":2,"huge":"', b'"}'
        body = head + b"x" * (size - len(head) - len(tail)) + tail if params[2] else b"y" * size
        units.insert(index, body + b"\n")
        return _join(units)
    try:
        value = json.loads(units[index])
    except (ValueError, RecursionError):  # an earlier edit may have nested it past the parser
        return data + b"x"
    ending, document = _ending(units[index]), not target.endswith(".jsonl")
    if kind == "swap_type":
        value = _swap_type(value, params[1], params[2])
    elif kind == "set_version":
        if not isinstance(value, dict):
            return data
        version = UNKNOWN_VERSIONS[params[1] % len(UNKNOWN_VERSIONS)]
        if version == "missing":
            value.pop("schemaVersion", None)
        else:
            value["schemaVersion"] = version
    units[index] = _dump(value, ending, document)
    return _join(units)


@dataclass(frozen=True)
class Mutation:
    kind: str
    target: str
    params: tuple[Any, ...]

    def apply(self, run: Path) -> None:
        path = run / self.target
        if editable(path):
            path.write_bytes(edit(self.kind, path.read_bytes(), self.target, self.params))


#: The fuzzers edit files of a template's size; a file an earlier mutation made terabytes
#: long (fuzz_hostile's sparse_file) is left as it is.
EDITABLE_BYTES = 64 * 1024 * 1024


def editable(path: Path) -> bool:
    """A regular file (not a symlink) the fuzz harness may read whole."""
    return path.is_file() and not path.is_symlink() and path.stat().st_size <= EDITABLE_BYTES


# -- strategies -----------------------------------------------------------------------------

_INDEX = st.integers(min_value=0, max_value=2**32)


def mutation(files: list[str]) -> st.SearchStrategy[Mutation]:
    """Any one byte-level mutation of one of ``files``."""
    target = st.sampled_from(files)
    path = st.lists(_INDEX, max_size=6).map(tuple)

    def of(kind: str, *params: st.SearchStrategy[Any]) -> st.SearchStrategy[Mutation]:
        return st.builds(Mutation, st.just(kind), target, st.tuples(*params))

    return st.one_of(
        of("flip", _INDEX, st.integers(0, 254)),
        of("truncate", _INDEX),
        of("append_garbage", st.binary(min_size=1, max_size=64).map(tuple)),
        of("delete_line", _INDEX),
        of("duplicate_line", _INDEX),
        of("move_line", _INDEX, _INDEX),
        of("swap_type", _INDEX, path, _INDEX),
        of("bad_utf8", _INDEX, _INDEX, _INDEX),
        of("huge_line", _INDEX, _INDEX, st.booleans()),
        of("set_version", _INDEX, _INDEX),
    )


def mutations(files: list[str]) -> st.SearchStrategy[list[Mutation]]:
    return st.lists(mutation(files), min_size=1, max_size=3)


def version_mutation() -> st.SearchStrategy[Mutation]:
    """An unknown schemaVersion on one of our documents or on one line of our JSONL files."""
    return st.builds(
        lambda target, line, value: Mutation("set_version", target, (line, value)),
        st.sampled_from(VERSIONED),
        _INDEX,
        st.integers(0, len(UNKNOWN_VERSIONS) - 1),
    )


def chain_edit(lines: int) -> st.SearchStrategy[Mutation]:
    """Delete, duplicate or move one trajectory line (a move to its own place is no edit)."""
    line = st.integers(0, lines - 1)
    return st.one_of(
        st.builds(lambda i: Mutation("delete_line", "trajectory.jsonl", (i,)), line),
        st.builds(lambda i: Mutation("duplicate_line", "trajectory.jsonl", (i,)), line),
        st.tuples(line, st.integers(0, lines - 2)).map(lambda ij: Mutation("move_line", "trajectory.jsonl", ij)),
    )


def hostile_paths(run: Path, outside: Path, original: str) -> dict[str, str]:
    """Declared paths that must never be followed, each to bytes equal to ``original``'s."""
    copy = outside / Path(original).name
    shutil.copyfile(run / original, copy)
    up = os.path.relpath(copy, run)
    return {
        "absolute": str(copy),
        "dot-dot": up,
        "dot-dot-inside": f"{Path(original).parent.as_posix()}/../{original}",
        "backslash-dot-dot": up.replace("/", "\\"),
        "windows-drive": "C:\\" + original.replace("/", "\\"),
        "windows-drive-slash": "C:/" + original,
        "drive-relative": "C:" + original,
        "unc": "\\\\server\\share\\" + original,
        "double-slash": "//" + original,
        "nul": original + "\x00.txt",
        "nul-prefix": "\x00" + original,
        "long-component": "a" * 300 + "/" + original,
        "long-path": "/".join(["d" * 200] * 30) + "/" + original,
        "root": "/",
        "empty": "",
        "blank": "   ",
        "proc": "/proc/self/environ",
    }
