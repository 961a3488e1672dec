"""The content-addressed payload store: round trips, compression, preview-only mode, tampering."""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import pytest
from bundle_helpers import new_run

from pytest_coldstart.record import records
from pytest_coldstart.run import jsonio, payloads, schemas
from pytest_coldstart.run.errors import ColdstartError, UsageError
from pytest_coldstart.run.layout import RunDir
from pytest_coldstart.run.payloads import PayloadStore

BIG = {"rows": [{"i": i, "text": f"line {i} " * 20} for i in range(400)]}  # ~70 kB of canonical JSON


def refs_of(run: Path) -> list[tuple[str, dict]]:
    return [
        (key, ref)
        for line in jsonio.iter_jsonl(run / "trajectory.jsonl")
        for key, ref in payloads.iter_refs(line.value)
    ]


@pytest.mark.parametrize("compression", ["none", "gzip"])
def test_large_result_round_trips_through_the_store(tmp_path: Path, compression: str) -> None:
    recorder = new_run(tmp_path / "run", logging={"compression": compression})
    recorder.call("c1", "read_file", {"path": "big.json"})
    record = recorder.result("c1", "ok", BIG)
    ref = record["result_payload"]
    original = jsonio.canonical_bytes(BIG)
    assert record["result"] is None
    assert ref["sha256"] == hashlib.sha256(original).hexdigest() and ref["size"] == len(original)
    assert ref["encoding"] == "json" and ref["compression"] == compression and ref["stored"] is True
    assert "missing_reason" not in ref and "characters elided" in ref["preview"] and len(ref["preview"]) < 2100
    stored = recorder.rundir.root / "payloads" / payloads.stored_name(ref["sha256"], compression)
    assert stored.is_file()
    if compression == "gzip":
        assert stored.name.endswith(".gz") and gzip.decompress(stored.read_bytes()) == original
        assert stored.stat().st_size < len(original) // 5
    else:
        assert stored.read_bytes() == original
    assert recorder.payloads.load(ref) == BIG
    assert schemas.errors("trajectory-record", record) == []


def test_text_payloads_keep_the_exact_text(tmp_path: Path) -> None:
    recorder = new_run(tmp_path / "run", logging={"inline_max_bytes": 10})
    markdown = "# State\n\n| hp | 10 |\n" * 20
    record = recorder.append(records.state("observed", markdown, format="markdown"))
    ref = record["state_payload"]
    assert ref["encoding"] == "text" and ref["sha256"] == hashlib.sha256(markdown.encode()).hexdigest()
    assert record["state_hash"] == ref["sha256"]  # the state hash is the hash of what the agent saw
    assert recorder.payloads.load(ref) == markdown


def test_identical_payloads_are_stored_once(tmp_path: Path) -> None:
    recorder = new_run(tmp_path / "run", logging={"compression": "gzip"})
    for call_id in ("c1", "c2"):
        recorder.call(call_id, "read_file", BIG)
        recorder.result(call_id, "ok", BIG)
    assert len(list((recorder.rundir.root / "payloads").iterdir())) == 1
    assert len(refs_of(recorder.rundir.root)) == 4


def test_incompressible_payload_is_stored_uncompressed(tmp_path: Path) -> None:
    store = PayloadStore(RunDir(tmp_path), {"compression": "gzip", "inline_max_bytes": 0})
    noise = "q7"  # gzip's header alone is longer than this
    _, ref = store.shrink(noise)
    assert ref["compression"] == "none" and (tmp_path / "payloads" / ref["sha256"]).is_file()
    assert store.load(ref) == noise


def test_preview_only_mode_keeps_no_payload(tmp_path: Path) -> None:
    recorder = new_run(tmp_path / "run", logging={"payload_mode": "preview"})
    recorder.call("c1", "read_file", {"path": "x"})
    ref = recorder.result("c1", "ok", BIG)["result_payload"]
    assert ref["stored"] is False and ref["compression"] == "none"
    assert ref["missing_reason"].startswith("preview-only mode")
    assert ref["size"] == len(jsonio.canonical_bytes(BIG)) and ref["preview"].startswith('{"rows":')
    assert not (recorder.rundir.root / "payloads").exists()
    with pytest.raises(ColdstartError, match="not stored"):
        recorder.payloads.load(ref)
    small = recorder.call("c2", "bash", {"command": "ls"})
    assert small["arguments"] == {"command": "ls"}  # small values stay inline in every mode
    assert recorder.manifest["logging"]["payload_mode"] == "preview"


def test_size_cap_bounds_the_store(tmp_path: Path) -> None:
    store = PayloadStore(RunDir(tmp_path), {"inline_max_bytes": 10, "max_payload_bytes": 100})
    _, ref = store.shrink("x" * 500)
    assert ref["stored"] is False and "exceeds max_payload_bytes (100)" in ref["missing_reason"]
    _, kept = store.shrink("y" * 50)
    assert kept["stored"] is True


@pytest.mark.parametrize("compression", ["none", "gzip"])
def test_tampered_or_missing_payloads_are_reported(tmp_path: Path, compression: str) -> None:
    store = PayloadStore(RunDir(tmp_path), {"compression": compression, "inline_max_bytes": 10})
    _, ref = store.shrink({"text": "hello " * 100})
    path = tmp_path / "payloads" / payloads.stored_name(ref["sha256"], compression)
    data = path.read_bytes()
    altered = (
        gzip.compress(jsonio.canonical_bytes({"text": "HELLO " * 100}), mtime=0)
        if compression == "gzip"
        else data.replace(b"hello", b"HELLO", 1)
    )
    path.write_bytes(altered)
    assert payloads.read_ref(tmp_path, ref)[0] == "payload bytes do not match their sha256"
    path.write_bytes(data[: len(data) // 2])
    problem, _ = payloads.read_ref(tmp_path, ref)
    assert problem is not None and ("fewer bytes" in problem or "unreadable" in problem)
    path.unlink()
    assert payloads.read_ref(tmp_path, ref)[0] == "payload is missing from the store"
    with pytest.raises(ColdstartError, match="missing from the store"):
        store.load(ref)


def test_decompression_is_bounded_by_the_ref_size(tmp_path: Path) -> None:
    """A hostile .gz claiming a small size cannot make the loader inflate gigabytes."""
    bomb = gzip.compress(b"\0" * (50 * 1024 * 1024), mtime=0)
    digest = hashlib.sha256(b"\0" * 10).hexdigest()
    (tmp_path / "payloads").mkdir()
    (tmp_path / "payloads" / f"{digest}.gz").write_bytes(bomb)
    ref = {"sha256": digest, "size": 10, "encoding": "text", "compression": "gzip", "stored": True, "preview": ""}
    assert payloads.read_ref(tmp_path, ref)[0] == "payload holds more bytes than its ref's size 10"


@pytest.mark.parametrize(
    "ref",
    [
        {"sha256": "../run.json", "size": 1, "encoding": "json", "compression": "none", "stored": True, "preview": ""},
        {"sha256": "A" * 64, "size": 1, "encoding": "json", "compression": "none", "stored": True, "preview": ""},
        {"sha256": "a" * 64, "size": -1, "encoding": "json", "compression": "none", "stored": True, "preview": ""},
        {"sha256": "a" * 64, "size": 1, "encoding": "yaml", "compression": "none", "stored": True, "preview": ""},
        {"sha256": "a" * 64, "size": 1, "encoding": "json", "compression": "zstd", "stored": True, "preview": ""},
        {"sha256": "a" * 64, "size": 1},
    ],
)
def test_malformed_refs_never_leave_the_store(tmp_path: Path, ref: dict) -> None:
    problem, data = payloads.read_ref(tmp_path, ref)
    assert problem and data is None


def test_stored_names() -> None:
    digest = "ab" * 32
    assert payloads.parse_stored_name(digest) == (digest, "none")
    assert payloads.parse_stored_name(digest + ".gz") == (digest, "gzip")
    for bad in (digest + ".zip", digest.upper(), "x" + digest, ".tmp"):
        assert payloads.parse_stored_name(bad) is None


@pytest.mark.parametrize(
    "settings",
    [{"payload_mode": "everything"}, {"compression": "brotli"}, {"inline_max_bytes": -1}, {"max_payload_bytes": "big"}],
)
def test_unknown_settings_are_refused_before_recording(tmp_path: Path, settings: dict) -> None:
    with pytest.raises(UsageError):
        new_run(tmp_path / "run", logging=settings)
    assert not (tmp_path / "run").exists()
