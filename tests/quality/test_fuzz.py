"""Fuzzing the readers (issue 8): valid runs, mutated every way a file can go bad.

Properties, over the templates of ``fuzz_strategies`` (sealed, open, the real v1 rom20 run):
- ``audit_run`` and ``validate_run`` never raise and never hit their last-guard "internal"
  error; their reports stay schema-valid; a validate finding never leaves the audit at PASS (R12);
- no mutation that changes an anchored byte of the sealed passing run yields PASS;
- deleting, duplicating or moving a trajectory line is named by the hash chain, at that line;
- an unknown schemaVersion on any of our documents or lines fails closed (INFRA_ERROR);
- hostile declared paths, symlinks and special files are never followed, read or waited on.
Short profile in the suite; ``COLDSTART_FUZZ=long`` runs 100,000 examples per property.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from corpus import corpus_root
from fuzz_strategies import (
    HUGE_BOUND,
    UNANCHORED,
    Mutation,
    chain_edit,
    changed_files,
    fuzz_settings,
    hostile_paths,
    mutations,
    run_files,
    template,
    version_mutation,
    workspace,
)
from hypothesis import assume, given
from hypothesis import strategies as st

from pytest_coldstart.audit import audit_run
from pytest_coldstart.audit.evidence import reader as audit_reader
from pytest_coldstart.run import jsonio, schemas
from pytest_coldstart.validate.run import validate_run

#: the real v1 rom20 run joins the templates when the external corpus is given (--coldstart-corpus)
TEMPLATES = ("sealed", "open", "v1") if corpus_root() is not None else ("sealed", "open")
DECLARED = {"answer": "answer.json", "test_mod": "test/testmod.jsonl", "fixture": "fixture/ready.json"}


@pytest.fixture(scope="module", autouse=True)
def small_line_bound():
    """Lower the line/document bounds so "huge line" examples stay cheap (same code path)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(jsonio, "MAX_LINE_BYTES", HUGE_BOUND)
        patch.setattr(audit_reader, "MAX_DOCUMENT_BYTES", HUGE_BOUND)
        for name in TEMPLATES:
            for relative in run_files(template(name)):  # the templates stay well inside the bound
                data = (template(name) / relative).read_bytes()
                assert max(map(len, data.splitlines() or [b""])) < HUGE_BOUND // 4, relative
                assert relative.endswith(".jsonl") or len(data) < HUGE_BOUND // 4, relative
        yield


def judge(run: Path) -> tuple[dict, list]:
    """Audit and validate ``run``; assert neither crashed and both reports are well-formed."""
    report = audit_run(run, write=False)
    validation = validate_run(run)
    internal = [t for t in report["infra_errors"] if "internal audit error" in t or "unexpected problem" in t]
    assert not internal, internal
    assert "internal.error" not in [f.code for f in validation.findings], validation.to_text()
    assert schemas.is_valid("audit", report), schemas.errors("audit", report)[:3]
    assert schemas.is_valid("validation", validation.to_json()), schemas.errors("validation", validation.to_json())[:3]
    if validation.findings:  # R12: every validate finding is an infra error of the audit
        assert report["overall"] != "PASS" and report["failure_class"] == "INFRA_ERROR", validation.to_text()
    return report, validation.findings


def codes(findings: list) -> list[str]:
    return [f.code for f in findings]


# -- properties over random mutations ------------------------------------------------------------


@fuzz_settings(120)
@given(data=st.data(), name=st.sampled_from(TEMPLATES))
def test_no_mutation_crashes_the_audit_or_validate(data, name):
    edits = data.draw(mutations(run_files(template(name))), label="mutations")
    with workspace(name) as (run, _):
        for mutation in edits:
            mutation.apply(run)
        judge(run)


@fuzz_settings(150)
@given(data=st.data())
def test_no_change_to_an_anchored_byte_of_the_sealed_run_passes(data):
    edits = data.draw(mutations(run_files(template("sealed"))), label="mutations")
    with workspace("sealed") as (run, _):
        for mutation in edits:
            mutation.apply(run)
        anchored = changed_files(run, "sealed") - UNANCHORED
        assume(anchored)
        report, findings = judge(run)
        assert report["overall"] != "PASS", (anchored, edits)
        assert findings, f"validate found nothing wrong after {edits}"


@fuzz_settings(60)
@given(data=st.data(), name=st.sampled_from(("sealed", "open")))
def test_the_hash_chain_names_deleted_duplicated_and_moved_lines(data, name):
    lines = (template(name) / "trajectory.jsonl").read_bytes().splitlines()
    mutation = data.draw(chain_edit(len(lines)), label="edit")
    first = mutation.params[0]
    if mutation.kind == "move_line":
        remaining = lines[:first] + lines[first + 1 :]
        assume(remaining[: mutation.params[1]] + [lines[first]] + remaining[mutation.params[1] :] != lines)
        first = min(first, mutation.params[1])
    last_deleted = mutation.kind == "delete_line" and first == len(lines) - 1
    assume(not (last_deleted and name == "open"))  # an unanchored tail line leaves no trace: the seal's job
    with workspace(name) as (run, _):
        mutation.apply(run)
        report, findings = judge(run)
    assert report["failure_class"] == "INFRA_ERROR"
    if last_deleted:
        assert {"seal.count", "seal.head"} <= set(codes(findings)), codes(findings)
        return
    broken = [f.line for f in findings if f.code == "chain.prev"]
    expected = first + (2 if mutation.kind == "duplicate_line" else 1)  # 1-based line that lost its link
    assert broken and broken[0] == expected, (mutation, [f.to_text() for f in findings])


@fuzz_settings(60)
@given(mutation=version_mutation(), name=st.sampled_from(("sealed", "open")))
def test_unknown_schema_versions_fail_closed(mutation, name):
    with workspace(name) as (run, _):
        mutation.apply(run)
        assume(changed_files(run, name))
        report, findings = judge(run)
    assert report["failure_class"] == "INFRA_ERROR", (mutation, report["infra_errors"])
    assert any(code.startswith("version.") for code in codes(findings)), (mutation, codes(findings))


@fuzz_settings(60)
@given(
    path=st.one_of(st.text(alphabet="./\\:a\x00 ~", max_size=24), st.text(max_size=40)).map(lambda p: p + "answer.json")
)
def test_a_declared_path_that_passes_is_the_declared_file_itself(path):
    with workspace("open") as (run, _):
        declared = jsonio.read_json(run / "evidence.json")
        declared["answer"]["path"] = path
        (run / "evidence.json").write_bytes(jsonio.dumps_document(declared))
        report, _ = judge(run)
        if report["overall"] == "PASS":  # backslashes separate (reference runs came from Windows)
            posix = path.replace("\\", "/")
            assert not os.path.isabs(posix) and ".." not in posix.split("/"), path
            assert os.path.realpath(run / posix) == os.path.realpath(run / "answer.json"), path


# -- exhaustive: hostile paths, symlinks, special files, the real line bound --------------------

HOSTILE = (
    "absolute",
    "dot-dot",
    "dot-dot-inside",
    "backslash-dot-dot",
    "windows-drive",
    "windows-drive-slash",
    "drive-relative",
    "unc",
    "double-slash",
    "nul",
    "nul-prefix",
    "long-component",
    "long-path",
    "root",
    "empty",
    "blank",
    "proc",
)


@pytest.mark.parametrize("evidence", sorted(DECLARED))
@pytest.mark.parametrize("form", HOSTILE)
def test_hostile_declared_paths_are_refused_even_when_the_bytes_match(form, evidence):
    with workspace("open") as (run, outside):
        declared = jsonio.read_json(run / "evidence.json")
        declared[evidence]["path"] = hostile_paths(run, outside, DECLARED[evidence])[form]
        (run / "evidence.json").write_bytes(jsonio.dumps_document(declared))
        report, findings = judge(run)
    assert report["failure_class"] == "INFRA_ERROR", report["infra_errors"]
    assert any(f"evidence {evidence}" in text for text in report["infra_errors"]), report["infra_errors"]
    assert any(code.startswith(("evidence.", "schema.evidence")) for code in codes(findings)), codes(findings)


def _symlink_cases() -> list:
    cases = []
    for name in ("open", "sealed"):
        for relative in run_files(template(name)):
            for where in ("outside", "inside"):
                cases.append(pytest.param(name, relative, where, id=f"{name}-{relative}-{where}"))
        for folder in ("agent", "test", "fixture", "restore"):
            cases.append(pytest.param(name, folder, "directory", id=f"{name}-{folder}/-directory"))
    return cases


@pytest.mark.parametrize("name, relative, where", _symlink_cases())
def test_symlinks_are_never_followed(name, relative, where):
    """A file (or folder) of the run replaced by a symlink to identical bytes: never PASS."""
    with workspace(name) as (run, outside):
        original = run / relative
        target = (outside if where != "inside" else run / "copies") / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        os.rename(original, target)
        os.symlink(target, original, target_is_directory=original.is_dir())
        report, findings = judge(run)
    assert report["overall"] != "PASS", f"{relative} -> {where} symlink was followed"
    assert findings, f"validate did not notice that {relative} is a symlink"


def _special_cases() -> list:
    cases = []
    for relative in (
        "run.json",
        "evidence.json",
        "visibility.json",
        "trajectory.jsonl",
        "reviews.jsonl",
        "task.md",
        "answer.json",
        "test/testmod.jsonl",
    ):
        for kind in ("fifo", "directory"):
            cases.append(pytest.param(relative, kind, id=f"{relative}-{kind}"))
    return cases


def _judge_without_waiting(run: Path, fifo: Path | None, budget: float = 1.5) -> tuple[dict, list]:
    """judge() in a thread; a reader blocked on the FIFO is released (and the test fails)."""
    outcome: dict = {}

    def work() -> None:
        try:
            outcome["result"] = judge(run)
        except BaseException as exc:
            outcome["error"] = exc

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(budget)
    hung = worker.is_alive()
    while worker.is_alive() and fifo is not None:  # open the write end: the reader sees EOF
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass
        worker.join(0.05)
    assert not hung, (
        f"a reader waited on the FIFO {fifo.name if fifo else ''} for more than {budget}s (a run file can block the audit forever)"
    )
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"]


@pytest.mark.parametrize("relative, kind", _special_cases())
def test_special_files_are_refused_without_waiting(relative, kind):
    with workspace("sealed") as (run, _):
        path = run / relative
        path.unlink()
        if kind == "fifo":
            os.mkfifo(path)
        else:
            path.mkdir()
        report, findings = _judge_without_waiting(run, path if kind == "fifo" else None)
    assert report["overall"] != "PASS" and findings, (relative, kind, report["overall"], codes(findings))


@pytest.mark.parametrize("target", ["trajectory.jsonl", "test/testmod.jsonl"])
def test_a_line_over_the_real_bound_is_refused_without_a_crash(target):
    """One example at the real 64 MiB bound (the fuzz above uses a lowered one)."""
    real = 64 * 1024 * 1024
    with pytest.MonkeyPatch.context() as patch, workspace("sealed") as (run, _):
        patch.setattr(jsonio, "MAX_LINE_BYTES", real)
        patch.setattr(audit_reader, "MAX_DOCUMENT_BYTES", real)
        data = (run / target).read_bytes()
        cut = data.index(b"\n") + 1
        (run / target).write_bytes(data[:cut] + b'{"x":"' + b"y" * real + b'"}\n' + data[cut:])
        report, findings = judge(run)
    assert report["failure_class"] == "INFRA_ERROR"
    assert any(f"longer than {real} bytes" in text for text in report["infra_errors"]), report["infra_errors"][:5]
    assert findings


def test_the_mutation_kinds_really_change_bytes():
    """Guard against a vacuous fuzz: every kind edits the file it targets."""
    files = ("trajectory.jsonl", "evidence.json")
    for kind, params in {
        "flip": (7, 3),
        "truncate": (100,),
        "append_garbage": ((0, 255),),
        "delete_line": (2,),
        "duplicate_line": (2,),
        "move_line": (2, 5),
        "swap_type": (2, (1, 1), 4),
        "bad_utf8": (2, 1, 0),
        "huge_line": (2, 3, True),
        "set_version": (2, 1),
    }.items():
        for target in files:
            if kind == "move_line" and not target.endswith(".jsonl"):
                continue  # a document is one unit: nothing to move it past
            with workspace("open") as (run, _):
                before = (run / target).read_bytes()
                Mutation(kind, target, params).apply(run)
                assert (run / target).read_bytes() != before, (kind, target)


@pytest.mark.parametrize(
    "key, value",
    [
        ("compression", None),
        ("compression", "zip"),
        ("payload_mode", "x"),
        ("inline_max_bytes", -1),
        ("max_payload_bytes", "big"),
    ],
)
def test_unusable_logging_settings_are_an_infra_error(key, value):
    with workspace("open") as (run, _):
        manifest = jsonio.read_json(run / "run.json")
        manifest["logging"][key] = value
        (run / "run.json").write_bytes(jsonio.dumps_document(manifest))
        report, findings = judge(run)
    assert report["failure_class"] == "INFRA_ERROR" and any("logging" in f.problem for f in findings), codes(findings)
