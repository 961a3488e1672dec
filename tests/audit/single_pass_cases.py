"""Fixed runs and deterministic mutations for the single-pass audit tests.

Three template runs: the passing scenario sealed and open, stored byte for byte in
``data/single_pass_runs.json`` (so the expected results do not depend on the scenario builder),
and the real version-1 rom20 run rebuilt from the shared corpus. The expected results in
``data/single_pass_golden.json`` were written by the two-pass implementation (validate_run in
its own read of the trajectory, the audit's scanner in another) before the single pass
replaced it; rewriting them with today's code makes them a plain regression record:

    python tests/audit/single_pass_cases.py --templates   # (re)store the template runs
    python tests/audit/single_pass_cases.py --golden      # (re)write the expected results
"""

from __future__ import annotations

import base64
import json
import random
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
RUNS = DATA / "single_pass_runs.json"
GOLDEN = DATA / "single_pass_golden.json"
TEMPLATES = ("sealed", "open", "v1")
KINDS = ("flip", "flip", "flip", "delete", "swap", "swap_far", "duplicate", "truncate", "blank", "digit", "remove")
PER_TEMPLATE = 40


# -- template runs ----------------------------------------------------------------------------


def _encode(data: bytes) -> Any:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(data).decode("ascii")}


def _decode(value: Any) -> bytes:
    return base64.b64decode(value["base64"]) if isinstance(value, dict) else value.encode("utf-8")


def run_files(run: Path) -> list[str]:
    return sorted(
        p.relative_to(run).as_posix()
        for p in run.rglob("*")
        if p.is_file() and p.relative_to(run).parts[0] not in (".coldstart", "audit")
    )


def store_templates() -> None:
    """Build the sealed and open templates with today's scenario builder and store their bytes."""
    from pytest_coldstart.demo.scenarios import build_run
    from pytest_coldstart.record.seal import seal

    out: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as base:
        for name in ("sealed", "open"):
            target = build_run(Path(base) / name, "passing")
            if name == "sealed":
                seal(target)
            out[name] = {rel: _encode((target / rel).read_bytes()) for rel in run_files(target)}
    DATA.mkdir(exist_ok=True)
    RUNS.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n", encoding="utf-8")


def templates(shared: Path | None) -> dict[str, dict[str, bytes]]:
    """name -> {run-relative path: bytes}; v1 is rebuilt from the (read-only) external corpus
    in ``shared``/corpus, and left out when ``shared`` is None."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import rom20_rebuild

    stored = json.loads(RUNS.read_text(encoding="utf-8"))
    out = {name: {rel: _decode(value) for rel, value in files.items()} for name, files in stored.items()}
    if shared is None:
        return out
    with tempfile.TemporaryDirectory() as base:
        v1 = rom20_rebuild.rebuild(shared, Path(base) / "v1", reviews=True)
        out["v1"] = {rel: (v1 / rel).read_bytes() for rel in run_files(v1)}
    return out


def materialize(files: dict[str, bytes], target: Path) -> Path:
    for rel, data in files.items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return target


# -- mutations --------------------------------------------------------------------------------


def cases(stored: dict[str, dict[str, bytes]]) -> list[tuple[str, str, dict[str, Any]]]:
    """(case id, template, mutation) for every template: itself, then PER_TEMPLATE mutations."""
    out = []
    for name in TEMPLATES:
        if name not in stored:
            continue
        files = stored[name]
        out.append((f"{name}-unchanged", name, {"kind": "none"}))
        rng = random.Random(f"single-pass-{name}")
        names = sorted(files)
        jsonl = [rel for rel in names if rel.endswith(".jsonl")]
        for index in range(PER_TEMPLATE):
            kind = KINDS[index % len(KINDS)]
            # Half of the mutations hit the trajectory: it is what the single pass reads.
            target = (
                "trajectory.jsonl"
                if index % 2 == 0
                else rng.choice(jsonl if kind in ("delete", "swap", "swap_far", "duplicate", "blank") else names)
            )
            data = files[target]
            lines = data.count(b"\n")
            spec: dict[str, Any] = {"kind": kind, "file": target}
            if kind == "flip":
                spec.update(offset=rng.randrange(len(data)), xor=rng.choice([1, 2, 4, 8, 16, 32, 64, 128, 0x55]))
            elif kind in ("delete", "duplicate", "blank"):
                spec.update(line=rng.randrange(max(1, lines)))
            elif kind == "swap":
                spec.update(line=rng.randrange(max(1, lines - 1)))
            elif kind == "swap_far":
                spec.update(line=rng.randrange(max(1, lines)), other=rng.randrange(max(1, lines)))
            elif kind == "truncate":
                spec.update(cut=rng.randrange(1, 40))
            elif kind == "digit":
                digits = [i for i, byte in enumerate(data) if 0x30 <= byte <= 0x39]
                spec.update(offset=rng.choice(digits) if digits else 0)
            out.append((f"{name}-{index:02d}-{kind}-{target.replace('/', '_')}", name, spec))
    return out


def mutate(files: dict[str, bytes], spec: dict[str, Any]) -> dict[str, bytes]:
    files = dict(files)
    kind = spec["kind"]
    if kind == "none":
        return files
    target = spec["file"]
    if kind == "remove":
        del files[target]
        return files
    data = bytearray(files[target])
    if kind == "flip":
        data[spec["offset"]] ^= spec["xor"]
    elif kind == "digit":
        if data:
            data[spec["offset"]] = 0x30 + (data[spec["offset"]] - 0x30 + 1) % 10
    elif kind == "truncate":
        del data[max(0, len(data) - spec["cut"]) :]
    else:
        lines = bytes(data).splitlines(keepends=True)
        if lines:
            i = spec["line"] % len(lines)
            if kind == "delete":
                del lines[i]
            elif kind == "duplicate":
                lines.insert(i, lines[i])
            elif kind == "blank":
                lines.insert(i, b"\n")
            elif kind == "swap":
                j = min(i + 1, len(lines) - 1)
                lines[i], lines[j] = lines[j], lines[i]
            elif kind == "swap_far":
                j = spec["other"] % len(lines)
                lines[i], lines[j] = lines[j], lines[i]
        data = bytearray(b"".join(lines))
    files[target] = bytes(data)
    return files


# -- what is compared ------------------------------------------------------------------------------


def outcome(run: Path) -> dict[str, Any]:
    """validate's findings and the audit's verdict and findings for one run."""
    from pytest_coldstart.audit import audit_run
    from pytest_coldstart.validate.run import validate_run

    return outcome_of(audit_run(run, write=False), validate_run(run))


def outcome_of(report: dict[str, Any], validation: Any) -> dict[str, Any]:
    validation = validation.to_json()
    return {
        "validate": {"findings": validation["findings"], "counts": validation["counts"]},
        "audit": {
            key: report[key]
            for key in (
                "overall",
                "failure_class",
                "infra_errors",
                "fixture_errors",
                "pending_reasons",
                "review_problems",
                "information",
            )
        }
        | {"flags": {flag["flag"]: flag["status"] for flag in report["flags"]}},
    }


def write_golden() -> None:
    from corpus import corpus_root

    root = corpus_root()
    assert root is not None, f"set {'COLDSTART_TEST_CORPUS'} to the corpus folder: the golden cases include v1"
    stored = templates(root.parent)
    golden = {}
    with tempfile.TemporaryDirectory() as base:
        for case_id, name, spec in cases(stored):
            run = materialize(mutate(stored[name], spec), Path(base) / case_id)
            golden[case_id] = outcome(run)
            shutil.rmtree(run)
    lines = [f"{json.dumps(case_id)}: {json.dumps(value, sort_keys=True)}" for case_id, value in golden.items()]
    GOLDEN.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")


if __name__ == "__main__":
    if "--templates" in sys.argv:
        store_templates()
    if "--golden" in sys.argv:
        write_golden()
