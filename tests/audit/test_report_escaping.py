"""Issue 16.9: audit.md escapes control and bidi characters from run text (evidence paths,
notes, ids) with the same helper as the CLI and pytest outputs (run.textsafe)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile_runs import coldstart, copy_run, no_traceback

from pytest_coldstart.audit.audit_report import AuditReport
from pytest_coldstart.audit.report import render_markdown
from pytest_coldstart.run.textsafe import ESCAPED_CATEGORIES, clean, one_line

HOSTILE = ["\x1b[31mred", "a\u202egnp.exe", "zero\u200bwidth", "cr\rreturn", "line\u2028sep", "bell\x07", "\x9b2J"]


RUNS = Path(__file__).resolve().parents[2] / "runs"


def _raw_controls(text: str) -> list[str]:
    import unicodedata

    return [c for c in text if c != "\n" and unicodedata.category(c) in ESCAPED_CATEGORIES]


@pytest.mark.parametrize("value", HOSTILE)
def test_the_helper_escapes_every_control_and_format_character(value: str) -> None:
    assert not _raw_controls(clean(value)) and not _raw_controls(one_line(value))
    assert "\n" not in one_line(value + "\nnext")


def test_render_markdown_escapes_every_field_from_the_run() -> None:
    text = " ".join(HOSTILE)
    document = json.loads((RUNS / "answer_mismatch" / "audit" / "audit.json").read_text("utf-8"))
    document["run_id"] = text
    document["flags"][0].update(summary=text, evidence=[text])
    document["infra_errors"] = [f"evidence answer: declared path {text!s} is missing"]
    document["inputs"] = {**document["inputs"], "answer": text}
    document["unknown_orderings"] = [[text, text]]
    report = AuditReport.from_json(document)
    rendered = render_markdown(report)
    assert not _raw_controls(rendered), [hex(ord(c)) for c in _raw_controls(rendered)]
    assert "\\x1b[31mred" in rendered and "\\u202e" in rendered


@pytest.mark.parametrize("name", ["answer\u202e\x1b[2J.json", "a\x1b]8;;http://x\x07b.json"])
def test_an_evidence_path_with_controls_reaches_audit_md_escaped(name: str, tmp_path: Path) -> None:
    run = copy_run("passing", tmp_path / "run")
    evidence = json.loads((run / "evidence.json").read_text("utf-8"))
    evidence["answer"]["path"] = name
    (run / "evidence.json").write_text(json.dumps(evidence), "utf-8")
    done = coldstart("audit", "run", "--run-dir", str(run), "--out", str(tmp_path / "out"))
    no_traceback(done.stderr)
    assert done.returncode == 1 and not _raw_controls(done.stdout + done.stderr)
    rendered = (tmp_path / "out" / "audit.md").read_text("utf-8")
    assert "\\x1b" in rendered and not _raw_controls(rendered)
