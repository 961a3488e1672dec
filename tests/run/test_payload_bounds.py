"""Issue 16.3: a stored payload's read bound is the run's real limit, never the ref's own
``size``; decompression is streamed, so a gzip bomb costs bounded memory and work in
validate, the audit and pytest alike."""

from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc
import zlib
from functools import lru_cache
from pathlib import Path

import pytest
from bundle_helpers import new_run
from hostile_runs import no_traceback

from pytest_coldstart.run import payloads

MiB = 1024 * 1024
BOMB_MIB = 300  # decompressed size: above HARD_CAP (256 MiB); about 300 kB on disk


@lru_cache(maxsize=1)
def bomb() -> bytes:
    packer = zlib.compressobj(1, zlib.DEFLATED, 31)  # gzip framing
    block = bytes(MiB)
    return b"".join(packer.compress(block) for _ in range(BOMB_MIB)) + packer.flush()


def _bombed_run(path: Path, size: int, *, max_payload_bytes: int | None = MiB) -> tuple[Path, dict]:
    """A real run whose one stored (gzip) payload is replaced by a bomb behind ``size``."""
    recorder = new_run(
        path, logging={"compression": "gzip", "inline_max_bytes": 64, "max_payload_bytes": max_payload_bytes}
    )
    recorder.call("c1", "bash", {"cmd": "cat big"})
    recorder.result("c1", "ok", {"text": "y" * 4096})
    lines = (path / "trajectory.jsonl").read_text("utf-8").splitlines()
    last = json.loads(lines[-1])
    ref = last["result_payload"]
    assert ref["compression"] == "gzip" and ref["stored"] is True
    stored = path / "payloads" / (ref["sha256"] + ".gz")
    stored.write_bytes(bomb())
    ref["size"] = size
    lines[-1] = json.dumps(last, separators=(",", ":"))
    (path / "trajectory.jsonl").write_text("\n".join(lines) + "\n", "utf-8")
    return path, ref


def test_read_limit_comes_from_the_run_settings_never_above_the_hard_cap() -> None:
    assert payloads.read_limit({"max_payload_bytes": 1000}) == 1000
    assert payloads.read_limit({"max_payload_bytes": None}) == payloads.HARD_CAP
    assert payloads.read_limit({"max_payload_bytes": 10**15}) == payloads.HARD_CAP
    assert payloads.read_limit({}) == payloads.DEFAULT_SETTINGS["max_payload_bytes"]
    for unusable in (None, [], "x", {"max_payload_bytes": "9"}, {"max_payload_bytes": True}, {"max_payload_bytes": -1}):
        assert payloads.read_limit(unusable) <= payloads.DEFAULT_SETTINGS["max_payload_bytes"]


@pytest.mark.parametrize("size", [3_000_000_000, 10**12, payloads.HARD_CAP + 1])
def test_a_size_over_the_limit_is_refused_unread(size: int, tmp_path: Path) -> None:
    run, ref = _bombed_run(tmp_path / "run", size)
    tracemalloc.start()
    problem, data = payloads.read_ref(run, ref, limit=payloads.read_limit({"max_payload_bytes": MiB}))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert data is None and problem is not None and "exceeds" in problem and peak < MiB
    assert "exceeds" in str(payloads.read_ref(run, ref)[0])  # no limit given: the hard cap still holds


@pytest.mark.parametrize("keep", [True, False])
def test_a_bomb_behind_an_allowed_size_is_read_only_one_chunk_past_it(keep: bool, tmp_path: Path) -> None:
    run, ref = _bombed_run(tmp_path / "run", MiB)
    tracemalloc.start()
    problem, data = payloads.read_ref(run, ref, limit=MiB, keep=keep)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert data is None and problem == f"payload holds more bytes than its ref's size {MiB}"
    assert peak < 4 * MiB, peak  # bounded by the size, never by the 300 MiB behind it


#: runs ``args`` in a child and prints its peak RSS (KiB) last on stderr (no /usr/bin/time needed)
_MEASURE = (
    "import resource, subprocess, sys\n"
    "done = subprocess.run(sys.argv[1:])\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
    "sys.exit(done.returncode)"
)


def _max_rss_kib(args: list[str], cwd: Path) -> tuple[int, subprocess.CompletedProcess[str]]:
    done = subprocess.run([sys.executable, "-c", _MEASURE, *args], capture_output=True, text=True, timeout=300, cwd=cwd)
    return int(done.stderr.strip().splitlines()[-1]), done


@pytest.mark.parametrize("size", [3_000_000_000, MiB])
def test_validate_audit_and_pytest_stay_small_on_a_bomb(size: int, tmp_path: Path) -> None:
    run, _ = _bombed_run(tmp_path / "lab" / "run", size)
    commands = {
        "validate": [sys.executable, "-m", "pytest_coldstart", "trace", "validate", "--run-dir", str(run)],
        "audit": [sys.executable, "-m", "pytest_coldstart", "audit", "run", "--run-dir", str(run), "--json"],
        "pytest": [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", f"--coldstart-runs={run.parent}"],
    }
    for name, args in commands.items():
        rss, done = _max_rss_kib(args, tmp_path)
        no_traceback(done.stdout + done.stderr)
        assert done.returncode == 1, (name, done.stdout[-2000:], done.stderr[-2000:])
        assert "payload" in done.stdout, (name, done.stdout[-2000:])
        assert rss < 200 * 1024, (name, rss)  # the bomb is 300 MiB; the old reader took ~2.1 GB
