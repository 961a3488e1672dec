"""Run folders whose names are hostile text: bytes that are not UTF-8, an escape sequence, a bidi
override, a newline. A name is run-provided text like any other: it reaches JUnit, pytest-html,
the terminal, the lab page and every CLI output escaped (``textsafe.path_text``), and never as a
crash - with a strict stdout encoder too (``PYTHONIOENCODING=utf-8``), where Python refuses to
print the surrogates that undecodable bytes become.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hostile_runs import REPO, copy_run

from pytest_coldstart.run.textsafe import ESCAPED_CATEGORIES, clean, json_text, path_text

UNDECODABLE = os.fsdecode(b"run-\xff\xfe-bytes")
NAMES = {
    "passing": UNDECODABLE if sys.platform.startswith("linux") else "run-plain",
    "answer_mismatch": "run-\u202eexe.txt\x1b[31m",
    "pending_oracle": "run-new\nline",
}
SHOWN = {"run-\\xff\\xfe-bytes", "run-\\u202eexe.txt\\x1b[31m", "run-new\\nline"}


def raw_controls(text: str) -> list[str]:
    return [c for c in text if c not in "\n\r\t" and unicodedata.category(c) in ESCAPED_CATEGORIES]


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile-names") / "labs"
    for scenario, name in NAMES.items():
        copy_run(scenario, root / name, keep_audit=False)
    return root


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}  # strict: a stray surrogate would raise
    return subprocess.run([sys.executable, *args], capture_output=True, timeout=300, cwd=cwd, env=env)


def text_of(done: subprocess.CompletedProcess[bytes]) -> str:
    return (done.stdout + done.stderr).decode("utf-8")  # strict: every byte printed is UTF-8


def test_path_text_escapes_names_and_keeps_ordinary_paths() -> None:
    assert path_text("labs/run-01/é") == "labs/run-01/é"
    assert path_text(os.fsdecode(b"a/\xff\n\x1b") + "\u202e") == "a/\\xff\\n\\x1b\\u202e"
    assert clean(os.fsdecode(b"\xfe")) == "\\xfe" and clean("\ud800") == "\\ud800"


@pytest.mark.parametrize("value", ["\u202e", "\u200b", "\ud800", os.fsdecode(b"\xff"), "\x1b", "中文 ok", "\U0001f600"])
def test_json_text_is_the_same_json_without_raw_format_characters(value: str) -> None:
    document = {value: [value, {"k": value}]}
    text = json_text(document)
    assert json.loads(text) == document and not raw_controls(text)
    text.encode("utf-8")  # no lone surrogate survives
    assert ("中文" in text) == ("中文" in value)  # readable text stays readable


def test_pytest_junit_html_and_terminal_show_the_names_escaped(lab: Path, tmp_path: Path) -> None:
    for family in ("xunit2", "xunit1"):
        junit, html = tmp_path / f"{family}.xml", tmp_path / f"{family}.html"
        done = run(
            "-m", "pytest", "-p", "no:cacheprovider", "-rA", "-v", f"--coldstart-runs={lab}",
            f"--junitxml={junit}", "-o", f"junit_family={family}", f"--html={html}", cwd=tmp_path,
        )  # fmt: skip
        output = text_of(done)
        assert done.returncode == 1 and "INTERNALERROR" not in output and "Traceback" not in output, output[-3000:]
        assert not raw_controls(output), [hex(ord(c)) for c in raw_controls(output)][:5]
        cases = ET.parse(junit).getroot().iter("testcase")
        ids = {f"{c.get('classname')}.{c.get('name')}" for c in cases}
        for shown in SHOWN if NAMES["passing"] == UNDECODABLE else SHOWN - {"run-\\xff\\xfe-bytes"}:
            assert any(shown in nodeid for nodeid in ids), (shown, sorted(ids)[:5])
            assert shown in output
        page = html.read_text("utf-8")
        assert "\x1b" not in page and "\u202e" not in page


def test_every_cli_output_shows_the_names_escaped(lab: Path, tmp_path: Path) -> None:
    commands = [
        ("compare", str(lab)),
        ("compare", "--csv", str(lab)),
        ("compare", "--json", str(lab)),
        ("review", "todo", str(lab)),
        ("review", "todo", "--json", str(lab)),
        ("audit", "batch", str(lab), "--out", str(tmp_path / "audits"), "--jobs", "1"),
        ("audit", "batch", "--json", str(lab), "--out", str(tmp_path / "audits"), "--jobs", "1"),
        ("report", "--html", str(tmp_path / "lab.html"), str(lab)),
    ]
    for name in NAMES.values():
        commands += [
            ("audit", "run", "--run-dir", str(lab / name), "--out", str(tmp_path / "one")),
            ("trace", "validate", "--run-dir", str(lab / name)),
            ("trace", "summary", "--run-dir", str(lab / name)),
        ]
    for args in commands:
        done = run("-m", "pytest_coldstart", *args, cwd=tmp_path)
        output = text_of(done)
        assert done.returncode in (0, 1, 2), (args, output[-2000:])
        assert not raw_controls(output), (args, [hex(ord(c)) for c in raw_controls(output)][:5])
        if "--json" in args:
            json.loads(done.stdout)
    page = (tmp_path / "lab.html").read_text("utf-8")
    assert "\x1b" not in page and "\u202e" not in page
    assert "run-\\\\u202eexe.txt\\\\x1b[31m" in page  # the name, escaped, inside the page's JSON


linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="names that are not UTF-8 need Linux")


@linux_only
def test_writers_store_names_that_are_not_utf8_instead_of_refusing_them(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / os.fsdecode(b"b\xffd.md")).write_text("undecodable name", "utf-8")
    (docs / "\x1b[2Jclear.md").write_text("escape in the name", "utf-8")
    task = tmp_path / os.fsdecode(b"task-\xfe.md")
    task.write_text("the task", "utf-8")
    run_dir, session = tmp_path / "run", tmp_path / os.fsdecode(b"session-\xff.jsonl")
    session.write_bytes((REPO / "tests" / "data" / "sessions" / "pi-v3-basic.jsonl").read_bytes())
    artifact = tmp_path / os.fsdecode(b"logger-\xff.jar")
    artifact.write_bytes(b"jar")
    steps = [
        ("trace", "init", "--run-dir", str(run_dir), "--run-id", "r1", "--task-file", str(task), "--harness", "pi",
         "--model", "m", "--provider", "p", "--harness-version", "1", "--visible-root", str(docs)),
        ("trace", "import-pi", "--run-dir", str(run_dir), "--session", str(session), "--phase", "agent"),
        ("trace", "artifact", "--run-dir", str(run_dir), "--path", str(artifact)),
        ("trace", "validate", "--run-dir", str(run_dir)),
    ]  # fmt: skip
    for args in steps:
        done = run("-m", "pytest_coldstart", *args, cwd=tmp_path)
        output = text_of(done)
        assert done.returncode in (0, 1), (args, output)
        assert not raw_controls(output), (args, output)
    visible = json.loads((run_dir / "visibility.json").read_text("utf-8"))
    names = sorted(entry["path"].rpartition("/")[2] for entry in visible["files"])
    assert names == ["\x1b[2Jclear.md", "b%ffd.md"]
    assert all((run_dir / entry["copy"]).read_text("utf-8") for entry in visible["files"])  # copied, scanned
    manifest = json.loads((run_dir / "run.json").read_text("utf-8"))
    assert manifest["task"]["source"] == "task-%fe.md"
    assert manifest["imports"][0]["source"].endswith("session-%ff.jsonl")
    assert manifest["artifacts"][0]["path"] == "artifacts/001-logger-_.jar"
    assert manifest["artifacts"][0]["source"].endswith("logger-%ff.jar")


def test_a_failed_init_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_coldstart.record import visibility
    from pytest_coldstart.record.recorder import init_run

    def broken(*_: object) -> dict[str, object]:
        raise OSError("disk went away")

    monkeypatch.setattr(visibility, "snapshot", broken)
    for target in (tmp_path / "new", tmp_path / "empty"):
        if target.name == "empty":
            target.mkdir()
        with pytest.raises(OSError):
            init_run(target, run_id="r1", task_bytes=b"t", task_source="t.md", harness={"name": "pi"})
        assert (target.exists(), list(target.iterdir()) if target.exists() else []) == (target.name == "empty", [])


@linux_only
def test_a_file_added_to_a_sealed_run_under_a_name_that_is_not_utf8_is_named_in_the_stored_report(
    tmp_path: Path,
) -> None:
    from pytest_coldstart.audit import audit_run
    from pytest_coldstart.record.seal import seal
    from pytest_coldstart.validate.run import validate_run

    run = copy_run("passing", tmp_path / "run", keep_audit=False)
    seal(run)
    (run / "agent" / os.fsdecode(b"\xffnote.md")).write_text("added later")
    assert "agent/\\xffnote.md: file added after the seal" in validate_run(run).to_text()
    report = audit_run(run)  # written: audit.json holds valid text only
    assert report["overall"] == "FAIL" and any("agent/\\xffnote.md" in e for e in report["infra_errors"])
    assert json.loads((run / "audit" / "audit.json").read_text("utf-8"))["overall"] == "FAIL"
