"""Hypothesis strategies for the hostile-input classes of issue 16 (test_fuzz_hostile.py).

On top of ``fuzz_strategies``' byte-level mutations, each a ``HostileMutation`` (plain data,
printed and shrunk readably) that writes what a JSON library would never write:
  non_finite      a number that only parses to infinity (1e999), NaN, Infinity
  lone_surrogate  an unpaired surrogate escape ("\\ud800") as a value or a key
  duplicate_key   the same key twice in one object (the last would silently win)
  deep_nesting    a value nested past MAX_DEPTH (or the parser's recursion limit), or just under it
  payload_bomb    a stored-payload ref with a hostile ``size`` over a gzip bomb (or junk)
  manifest_shape  a run.json field every writer reads, given a shape it does not expect
  hostile_name    a file or folder in the run named with bytes that are not UTF-8, an escape
                  sequence, a bidi override, a newline, 255 bytes, or a leading dash
  deep_tree       folders nested past pytest's (and Python 3.11's os.walk) recursion, a file below
  sparse_file     a run file (or a new one) made terabytes long by a hole: its head kept or not,
                  a length that costs the writer nothing and a reader hours
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from fuzz_strategies import REPLACEMENTS, _dump, _ending, _join, _units, editable
from hypothesis import strategies as st

NON_FINITE = ("1e999", "-1e999", "1E+400", "-0.1e1000", "NaN", "Infinity", "-Infinity", "9" * 400 + ".5")
SURROGATES = ('"\\ud800"', '"x\\udfff"', '"\\udc00\\ud800"', '"\\uDBFF!"', '"\\udfffA\\ud83d"')
DEPTHS = (101, 600, 5_000, 120_000, 97)  # one past MAX_DEPTH, past the parser, and just under
_TOKEN = "\u0000coldstart-fuzz-token\u0000"
_TOKEN_JSON = json.dumps(_TOKEN, ensure_ascii=False)
#: Hostile ref sizes: over every bound, at the bounds, and small.
SIZES = (3_000_000_000, 10**12, 2**63, 2**64 + 1, 256 * 1024 * 1024 + 1, 64 * 1024 * 1024 + 1, 0, 1, 4 * 1024 * 1024)
#: (path into run.json, value) of fields every writer reads ("<del>" removes the key).
MANIFEST_SHAPES: tuple[tuple[tuple[str, ...], Any], ...] = (
    (("logging", "redaction", "patterns"), [None]),
    (("logging", "redaction", "patterns"), ["("]),
    (("logging", "redaction", "keys"), "token"),
    (("logging", "redaction", "salt"), {"env": 5}),
    (("logging", "redaction"), []),
    (("logging",), [1]),
    (("logging",), "full"),
    (("logging", "max_payload_bytes"), "9"),
    (("logging", "inline_max_bytes"), None),
    (("run_id",), "<del>"),
    (("run_id",), 7),
    (("run_id",), "a/b"),
    (("clock", "monotonic_origin_ns"), "12"),
    (("clock", "monotonic_origin_ns"), 1.5),
    (("clock",), 3),
    (("tool",), -1),
    (("harness",), []),
    (("harness", "name"), None),
    (("environment",), 3),
    (("environment", "os"), {"x": 1}),
    (("status",), []),
    (("status",), "sealed"),
    (("seal",), "yes"),
    (("imports",), {}),
    (("artifacts",), [None]),
    (("notes",), [1]),
)


#: Names a file or folder in a run may have (Linux takes any bytes but / and NUL).
HOSTILE_NAMES = (
    b"\xff\xfe-bytes.md",
    b"\x1b[2J\x1b[31mred.jsonl",
    "\u202egnp.exe".encode(),
    b"new\nline.json",
    b"n" * 255,
    b"-rf",
    b"..hidden",
    "zero\u200bwidth.json".encode(),
)
#: Folders a hostile name or a deep tree goes into ("": the run's top level).
FOLDERS = ("", "agent", "artifacts", "imports", "visibility/files", "test", "payloads")
DEEP = (70, 1_100)
#: Lengths a sparse file is given: a terabyte, and a size any reader would still spend minutes on.
SPARSE_SIZES = (1 << 40, 60 << 30)


@lru_cache(maxsize=1)
def bomb() -> bytes:
    """16 MiB of zeros as about 16 kB of gzip."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    return b"".join(packer.compress(bytes(1 << 20)) for _ in range(16)) + packer.flush()


def _slots(value: Any) -> list[tuple[Any, Any]]:
    """Every (container, key) in a parsed JSON value, in document order."""
    out: list[tuple[Any, Any]] = []
    stack = [value]
    while stack:
        item = stack.pop(0)
        if isinstance(item, dict):
            out += [(item, key) for key in item]
            stack += list(item.values())
        elif isinstance(item, list):
            out += [(item, index) for index in range(len(item))]
            stack += item
    return out


def raw_edit(kind: str, data: bytes, target: str, params: tuple[Any, ...]) -> bytes:
    """Put a raw JSON token (that no JSON writer would emit) into one value of one unit."""
    units = _units(data, target)
    if not units:
        return data + b"1e999\n"
    index = params[0] % len(units)
    try:
        value = json.loads(units[index])
    except (ValueError, RecursionError):  # an earlier edit may have nested it past the parser
        return data + b"x"
    slots = _slots(value)
    if kind == "duplicate_key":
        slots = [(c, k) for c, k in slots if isinstance(c, dict)]
    if not slots:
        return data
    container, key = slots[params[1] % len(slots)]
    pick = params[2]
    if kind == "non_finite":
        token = NON_FINITE[pick % len(NON_FINITE)]
    elif kind == "lone_surrogate":
        token = SURROGATES[pick % len(SURROGATES)]
        if isinstance(container, dict) and pick % 2:  # as a key: the token replaces the key's text
            container[_TOKEN] = container.pop(key)
            key = None
    elif kind == "duplicate_key":
        other = REPLACEMENTS[pick % len(REPLACEMENTS)]
        token = json.dumps(container[key]) + "," + json.dumps(key) + ":" + json.dumps(other)
    else:  # deep_nesting
        depth = DEPTHS[pick % len(DEPTHS)]
        token = "[" * depth + "]" * depth if pick % 2 else '{"a":' * depth + "0" + "}" * depth
    ending, document = _ending(units[index]), not target.endswith(".jsonl")
    if key is not None:
        container[key] = _TOKEN
    text = _dump(value, ending, document).decode("utf-8", "surrogatepass")  # earlier edits may hold any
    units[index] = text.replace(_TOKEN_JSON, token, 1).encode("utf-8", "surrogatepass")
    return _join(units)


def _set_path(document: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    here: Any = document
    for part in path[:-1]:
        if not isinstance(here, dict):
            return
        here = here.setdefault(part, {})
    if isinstance(here, dict):
        if value == "<del>":
            here.pop(path[-1], None)
        else:
            here[path[-1]] = value


@dataclass(frozen=True)
class HostileMutation:
    kind: str
    target: str
    params: tuple[Any, ...]

    def apply(self, run: Path) -> None:
        if self.kind in ("hostile_name", "deep_tree"):
            self._tree(run / self.target)
            return
        path = run / self.target
        if self.kind == "sparse_file":
            self._sparse(path)
            return
        if not editable(path):
            return
        data = path.read_bytes()
        if self.kind == "payload_bomb":
            path.write_bytes(self._bomb(run, data))
        elif self.kind == "manifest_shape":
            try:
                document = json.loads(data)
            except (ValueError, RecursionError):
                return
            if isinstance(document, dict):
                where, value = MANIFEST_SHAPES[self.params[0] % len(MANIFEST_SHAPES)]
                _set_path(document, where, value)
                path.write_bytes(_dump(document, b"\n", True))
        else:
            path.write_bytes(raw_edit(self.kind, data, self.target, self.params))

    def _tree(self, folder: Path) -> None:
        """A hostile name (a file, or a folder with a file in it) or a deep tree in ``folder``."""
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if self.kind == "hostile_name":
                name = os.fsdecode(HOSTILE_NAMES[self.params[0] % len(HOSTILE_NAMES)])
                target = folder / name
                if self.params[1] % 2:
                    target.mkdir(exist_ok=True)
                    target = target / "inside.json"
                target.write_bytes(b'{"hostile": "name"}\n')
                return
            here = os.getcwd()
            os.chdir(folder)
            try:
                for _ in range(DEEP[self.params[0] % len(DEEP)]):
                    os.makedirs("a", exist_ok=True)
                    os.chdir("a")
                with open("deep.json", "wb") as handle:
                    handle.write(b"{}\n")
            finally:
                os.chdir(here)
        except OSError:
            return  # a name this file system refuses (not Linux): nothing to mutate

    def _sparse(self, path: Path) -> None:
        """``path`` (a run file, or a new one) made SPARSE_SIZES long by a hole at its end."""
        size_pick, keep_head = self.params
        if path.is_symlink() or path.is_dir():
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "r+b" if keep_head and path.is_file() else "wb") as handle:
                handle.truncate(SPARSE_SIZES[size_pick % len(SPARSE_SIZES)])
        except OSError:
            return  # a file system without sparse files or with a smaller size limit

    def _bomb(self, run: Path, data: bytes) -> bytes:
        """A result/call line whose value moves behind a hostile ref over a bomb in payloads/."""
        line, size_pick, gzip_stored, as_text = self.params
        units = _units(data, self.target)
        candidates = [i for i, u in enumerate(units) if b'"record":"result"' in u or b'"record":"call"' in u]
        if not candidates:
            return data
        index = candidates[line % len(candidates)]
        try:
            record = json.loads(units[index])
        except (ValueError, RecursionError):
            return data
        key = "result" if record.get("record") == "result" else "arguments"
        blob = bomb() if gzip_stored else b"\x1f\x8b" + bytes(range(256)) * 64
        digest = hashlib.sha256(blob).hexdigest()
        record[key] = None
        record[f"{key}_payload"] = {
            "sha256": digest,
            "size": SIZES[size_pick % len(SIZES)],
            "encoding": "text" if as_text else "json",
            "compression": "gzip",
            "stored": True,
            "preview": "",
        }
        (run / "payloads").mkdir(exist_ok=True)
        (run / "payloads" / f"{digest}.gz").write_bytes(blob)
        units[index] = _dump(record, _ending(units[index]), False)
        return _join(units)


_INDEX = st.integers(min_value=0, max_value=2**32)


def hostile_mutation(files: list[str]) -> st.SearchStrategy[HostileMutation]:
    """One mutation of one of ``files`` from the issue-16 classes."""
    json_files = [f for f in files if f.endswith((".json", ".jsonl"))] or files
    target = st.sampled_from(json_files)

    def of(
        kind: str, where: st.SearchStrategy[str], *params: st.SearchStrategy[Any]
    ) -> st.SearchStrategy[HostileMutation]:
        return st.builds(HostileMutation, st.just(kind), where, st.tuples(*params))

    return st.one_of(
        of("non_finite", target, _INDEX, _INDEX, _INDEX),
        of("lone_surrogate", target, _INDEX, _INDEX, _INDEX),
        of("duplicate_key", target, _INDEX, _INDEX, _INDEX),
        of("deep_nesting", target, _INDEX, _INDEX, _INDEX),
        of("payload_bomb", st.just("trajectory.jsonl"), _INDEX, _INDEX, st.booleans(), st.booleans()),
        of("manifest_shape", st.just("run.json"), _INDEX),
        of("hostile_name", st.sampled_from(FOLDERS), _INDEX, _INDEX),
        of("deep_tree", st.sampled_from(FOLDERS), _INDEX),
        of(
            "sparse_file",
            st.sampled_from([*files, *(f"{f}/sparse.jsonl".lstrip("/") for f in FOLDERS)]),
            _INDEX,
            st.booleans(),
        ),
    )
