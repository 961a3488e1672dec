"""Property-based: mutate valid (sealed) scenario runs - byte flips, truncation, line deletion
and duplication, JSON type swaps - and assert the audit never raises and that no change to a
hashed byte ever leaves the verdict PASS (DESIGN R12). Example counts stay small by default
(COLDSTART_EXAMPLES=N for a longer hunt)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pytest_coldstart.audit import audit_run
from pytest_coldstart.demo.scenarios import build_run
from pytest_coldstart.record.seal import seal

EXAMPLES = settings(
    max_examples=int(os.environ.get("COLDSTART_EXAMPLES", "30")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
#: Files whose bytes are anchored by a hash (the seal manifest, declarations, the chain).
UNHASHED = {"run.json", "reviews.jsonl"}


@pytest.fixture(scope="module")
def sealed(tmp_path_factory) -> Path:
    run = build_run(tmp_path_factory.mktemp("base") / "run", "passing")
    seal(run)
    assert audit_run(run, write=False)["overall"] == "PASS"
    return run


def files_of(run: Path) -> list[str]:
    return sorted(
        p.relative_to(run).as_posix()
        for p in run.rglob("*")
        if p.is_file() and p.relative_to(run).parts[0] not in (".coldstart", "audit")
    )


def _swap(value, choice: int):
    replacements = [None, "text", 7, 1.5, True, [], {}, [1, "x"], {"k": None}]
    options = [r for r in replacements if type(r) is not type(value)]
    return options[choice % len(options)]


def mutate(data: bytes, kind: str, a: int, b: int) -> bytes:
    lines = data.splitlines(keepends=True)
    if kind == "flip":
        if not data:
            return b"\x00"
        index = a % len(data)
        return data[:index] + bytes([data[index] ^ (1 + b % 255)]) + data[index + 1 :]
    if kind == "truncate":
        return data[: a % max(1, len(data))]
    if kind in ("delete", "duplicate") and lines:
        index = a % len(lines)
        return b"".join(lines[:index] + ([] if kind == "delete" else [lines[index]] * 2) + lines[index + 1 :])
    if kind == "swap":
        target = lines or [data]
        index = a % len(target)
        try:
            value = json.loads(target[index])
        except ValueError:
            return data + b"x"
        if isinstance(value, dict) and value:
            key = sorted(value)[b % len(value)]
            value[key] = _swap(value[key], a + b)
        else:
            value = _swap(value, b)
        ending = b"\n" if target[index].endswith(b"\n") else b""
        target[index] = json.dumps(value).encode() + ending
        return b"".join(target)
    return data + b"\n"


@EXAMPLES
@given(
    data=st.data(),
    kind=st.sampled_from(["flip", "truncate", "delete", "duplicate", "swap"]),
    a=st.integers(0, 10**9),
    b=st.integers(0, 10**9),
)
def test_no_mutation_of_hashed_bytes_passes(sealed, data, kind, a, b):
    relative = data.draw(st.sampled_from(files_of(sealed)))
    work = Path(tempfile.mkdtemp()) / "run"
    try:
        shutil.copytree(sealed, work, symlinks=True)
        original = (work / relative).read_bytes()
        changed = mutate(original, kind, a, b)
        assume(changed != original)
        (work / relative).write_bytes(changed)
        report = audit_run(work, write=False)
        assert not any("internal audit error" in text for text in report["infra_errors"]), report["infra_errors"]
        if relative not in UNHASHED:
            assert report["overall"] != "PASS", (relative, kind)
    finally:
        shutil.rmtree(work.parent, ignore_errors=True)


@EXAMPLES
@given(
    name=st.sampled_from(["pending_reviews", "cross_stream_tie", "omitted_cart"]),
    kind=st.sampled_from(["flip", "truncate", "delete", "duplicate", "swap"]),
    target=st.sampled_from(
        [
            "run.json",
            "evidence.json",
            "reviews.jsonl",
            "trajectory.jsonl",
            "test/testmod.jsonl",
            "agent/romlog.jsonl",
            "answer.json",
        ]
    ),
    a=st.integers(0, 10**9),
    b=st.integers(0, 10**9),
)
def test_any_mutation_yields_a_report(tmp_path_factory, name, kind, target, a, b):
    work = Path(tempfile.mkdtemp()) / "run"
    try:
        build_run(work, name)
        path = work / target
        path.write_bytes(mutate(path.read_bytes(), kind, a, b))
        report = audit_run(work, write=False)
        assert report["overall"] in ("PASS", "FAIL", "PENDING")
        assert not any("internal audit error" in text for text in report["infra_errors"]), report["infra_errors"]
        if name != "pending_reviews" or target not in ("reviews.jsonl", "run.json"):
            assert report["overall"] != "PASS"
    finally:
        shutil.rmtree(work.parent, ignore_errors=True)
