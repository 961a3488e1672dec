"""Every default credential shape is removed on every path a string takes to disk (issue
16.4): call arguments, results (inline and in the payload store), decisions, marks, phases,
review notes, run notes, the model and experiment id, artifact labels, the seal, summary.json
and the audit report; ordinary text is kept. The Python API per
shape, then the real CLI over all shapes at once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from core_helpers import HARNESS, MACHINE, REPO, TOOL, cli, clock
from secret_shapes import ORDINARY, SHAPES, leaks

from pytest_coldstart.analysis import summary
from pytest_coldstart.audit import audit_run
from pytest_coldstart.record.recorder import init_run
from pytest_coldstart.record.redaction import Redactor
from pytest_coldstart.record.seal import seal

BIG = "line of output\n" * 2000  # over the inline limit: the result goes to payloads/


def _record_everywhere(root: Path, text: str) -> Path:
    recorder = init_run(
        root,
        run_id="shapes",
        task_bytes=b"task\n",
        task_source="inline",
        harness=HARNESS,
        clock=clock(),
        machine=MACHINE,
        repo=REPO,
        tool=TOOL,
        notes=[f"operator note: {text}"],
        logging={"compression": "gzip"},
    )
    recorder.call("c1", "bash", {"command": text, "env": [text]})
    recorder.result("c1", "ok", {"text": f"out {text}"})
    recorder.call("c2", "bash", {"command": "cat log"})
    recorder.result("c2", "error", f"{BIG}{text}\n{BIG}", error=f"failed: {text}")
    recorder.append({"record": "decision", "actor": "agent", "summary": f"next {text}", "rationale": text})
    recorder.review("answer_correct.oracle", "pending", "reviewer", evidence=[], note=f"seen {text}")
    seal(root, recorder=recorder)
    recorder.review("answer_correct.oracle", "pending", "reviewer", evidence=[], note=f"after seal {text}")
    summary.write(root)
    audit_run(root)
    return root


@pytest.mark.parametrize(("label", "text", "secret"), SHAPES, ids=[s[0] for s in SHAPES])
def test_each_shape_reaches_no_file(tmp_path: Path, label: str, text: str, secret: str) -> None:
    assert secret in text
    assert secret not in Redactor().scrub(text), label
    run = _record_everywhere(tmp_path / "run", text)
    assert list((run / "payloads").iterdir()), "the big result should be in the payload store"
    assert leaks(run, [secret]) == []


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_is_kept(tmp_path: Path, text: str) -> None:
    assert Redactor().scrub(text) == text
    run = _record_everywhere(tmp_path / "run", text)
    trajectory = (run / "trajectory.jsonl").read_text()
    assert trajectory.count(json.dumps(text)[1:-1]) >= 4  # arguments (twice), decision rationale, result
    assert json.dumps(text)[1:-1] in (run / "reviews.jsonl").read_text()


def test_every_shape_through_the_cli(tmp_path: Path) -> None:
    text = "\n".join(t for _, t, _ in SHAPES)
    secrets = [s for _, _, s in SHAPES]
    run, reports = tmp_path / "run", tmp_path / "reports"

    def ok(*args: str) -> None:
        done = cli(*args)
        assert done.returncode in (0, 1, 2), (args, done.stderr)
        assert "Traceback" not in done.stderr
        assert not [s for s in secrets if s in done.stdout + done.stderr], args

    (tmp_path / "code.py").write_text("print(1)\n", "utf-8")
    ok("trace", "init", "--run-dir", str(run), "--run-id", "cli-shapes", "--task-text", "t", "--harness", "pi",
       "--model", f"m {text}", "--provider", "p", "--harness-version", "1", "--note", text,
       "--experiment-id", f"exp {text}")  # fmt: skip
    ok("trace", "artifact", "--run-dir", str(run), "--path", str(tmp_path / "code.py"), "--label", text)
    ok("trace", "mark", "--run-dir", str(run), "--name", "m", "--data", json.dumps({"seen": text}))
    ok("trace", "phase", "--run-dir", str(run), "--phase", "agent", "--actor", "harness", "--note", text)
    ok("trace", "call", "--run-dir", str(run), "--call-id", "c1", "--tool", "bash", "--arguments",
       json.dumps({"command": text}))  # fmt: skip
    ok("trace", "result", "--run-dir", str(run), "--call-id", "c1", "--status", "error", "--result",
       json.dumps({"stdout": text}), "--error", text)  # fmt: skip
    ok("trace", "decision", "--run-dir", str(run), "--summary", text, "--rationale", text, "--target", text)
    ok("trace", "review", "--run-dir", str(run), "--id", "r1", "--status", "pending", "--by", "me", "--note", text)
    ok("trace", "summary", "--run-dir", str(run), "--json")
    ok("trace", "seal", "--run-dir", str(run))
    ok("trace", "review", "--run-dir", str(run), "--id", "r1", "--status", "rejected", "--by", "me", "--note", text)
    ok("audit", "run", "--run-dir", str(run), "--json")
    ok("audit", "run", "--run-dir", str(run), "--out", str(reports), "--json")
    assert leaks(run, secrets) == [] and leaks(reports, secrets) == []
    notes = [json.loads(line)["note"] for line in (run / "reviews.jsonl").read_text().splitlines()]
    assert len(notes) == 2 and all("<redacted sha256:" in note for note in notes)
