"""Every reader entry point refuses an unknown schemaVersion (issue 8; DESIGN §4, seed 003).

One test per (document, entry point), through the real CLI or pytest where that is how the
document is read. Each refusal must name the version it refused (so it is the gate that
refused, not an incidental hash mismatch) and never be a traceback. Writers that read the
tail of a file before appending count as readers. Entry points found failing open are kept as
strict xfails with the reason (reported to the lead): they turn into failures once fixed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from corpus import SESSIONS

from pytest_coldstart.analysis.summary import outcome
from pytest_coldstart.audit import audit_run
from pytest_coldstart.demo.scenarios import RunBuilder, build_run
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.hashing import sha256_bytes
from pytest_coldstart.run.layout import RunDir
from pytest_coldstart.validate.run import validate_run

FUTURE = 3
SAID = "schemaVersion 3"


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest_coldstart", *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def refused(result: subprocess.CompletedProcess[str], *words: str, code: int = 1) -> str:
    text = result.stdout + result.stderr
    assert result.returncode == code, (result.returncode, text[-1500:])
    assert "Traceback" not in text, text[-1500:]
    assert all(word in text for word in words), (words, text[-1500:])
    return text


def passing(tmp_path: Path, name: str = "run") -> Path:
    return build_run(tmp_path / name, "passing")


def bump(path: Path, value: object = FUTURE) -> None:
    document = jsonio.read_json(path)
    if value == "missing":
        document.pop("schemaVersion")
    else:
        document["schemaVersion"] = value
    path.write_bytes(jsonio.dumps_document(document))


def append_future_record(run: Path) -> None:
    """A well-chained trajectory record whose only fault is its version."""
    lines = (run / "trajectory.jsonl").read_bytes().splitlines()
    last = json.loads(lines[-1])
    record = {
        "schemaVersion": FUTURE,
        "run_id": last["run_id"],
        "seq": last["seq"] + 1,
        "at": last["at"],
        "monotonic_ms": last["monotonic_ms"],
        "record": "mark",
        "call_id": None,
        "parent_id": None,
        "prev": sha256_bytes(lines[-1]),
        "name": "from-the-future",
    }
    with open(run / "trajectory.jsonl", "ab") as handle:
        handle.write(jsonio.dumps_line(record) + b"\n")


def bump_last_review(run: Path) -> None:
    lines = (run / "reviews.jsonl").read_bytes().splitlines()
    entry = json.loads(lines[-1])
    entry["schemaVersion"] = FUTURE
    lines[-1] = jsonio.dumps_line(entry)
    (run / "reviews.jsonl").write_bytes(b"\n".join(lines) + b"\n")


def infra(report: dict, *words: str) -> None:
    assert report["failure_class"] == "INFRA_ERROR", report["infra_errors"]
    assert any(all(w in text for w in words) for text in report["infra_errors"]), report["infra_errors"]


def version_findings(run: Path) -> list[tuple[str, int | None]]:
    return [(f.file, f.line) for f in validate_run(run).findings if f.code == "version.unknown"]


# -- our run documents, through every reader of the whole run -------------------------------------


#: Our run documents, each made unreadable by its version only, and where validate names it.
EDITS = {
    "run.json": (lambda run: bump(run / "run.json"), ("run.json", None)),
    "trajectory record": (append_future_record, ("trajectory.jsonl", 27)),
    "evidence.json": (lambda run: bump(run / "evidence.json"), ("evidence.json", None)),
    "visibility.json": (lambda run: bump(run / "visibility.json"), ("visibility.json", None)),
    "review line": (bump_last_review, ("reviews.jsonl", 3)),
}


def future(tmp_path: Path, document: str) -> Path:
    run = passing(tmp_path)
    EDITS[document][0](run)
    return run


@pytest.mark.parametrize("document", EDITS)
def test_audit_run_cli(tmp_path, document):
    refused(cli("audit", "run", "--run-dir", str(future(tmp_path, document))), "INFRA_ERROR", SAID)


@pytest.mark.parametrize("document", EDITS)
def test_validate_api(tmp_path, document):
    assert EDITS[document][1] in version_findings(future(tmp_path, document))


def test_validate_cli(tmp_path):
    text = refused(cli("trace", "validate", "--run-dir", str(future(tmp_path, "run.json")), "--json"))
    assert [(f["code"], f["file"]) for f in json.loads(text[: text.rindex("}") + 1])["findings"]] == [
        ("version.unknown", "run.json")
    ]


@pytest.mark.parametrize("document", ["run.json", "evidence.json"])
def test_audit_explain_cli(tmp_path, document):
    refused(cli("audit", "explain", "--run-dir", str(future(tmp_path, document))), document, SAID)


@pytest.mark.parametrize("document, where", [("run.json", "run.json"), ("trajectory record", "trajectory.jsonl:27")])
def test_summary_through_the_compare_cli(tmp_path, document, where):
    refused(cli("compare", str(future(tmp_path, document))), "UNREADABLE", where, SAID)


@pytest.mark.parametrize("document, where", [("run.json", "run.json"), ("trajectory record", "trajectory.jsonl:27")])
def test_summary_through_the_trace_summary_cli(tmp_path, document, where):
    run = future(tmp_path, document)
    refused(cli("trace", "summary", "--run-dir", str(run)), where, SAID)
    assert not (run / "summary.json").exists()


# -- run.json: writers, migrate, import; every unknown value -------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("call", "--call-id", "c9", "--tool", "bash"),
        ("mark", "--name", "m"),
        ("seal",),
        ("evidence", "--name", "answer", "--path", "answer.json"),
        ("review", "--id", "machine_operated.causality", "--status", "pending", "--by", "b", "--evidence", "x"),
    ],
)
def test_run_json__trace_writers(tmp_path, args):
    run = passing(tmp_path)
    bump(run / "run.json")
    before = {p: p.read_bytes() for p in run.rglob("*") if p.is_file() and ".coldstart" not in p.parts}
    refused(cli("trace", args[0], "--run-dir", str(run), *args[1:]), "run.json", SAID)
    assert {p: p.read_bytes() for p in run.rglob("*") if p.is_file() and ".coldstart" not in p.parts} == before


def test_run_json__migrate_cli(tmp_path):
    run = passing(tmp_path)
    bump(run / "run.json")
    refused(cli("trace", "migrate", "--run-dir", str(run)), SAID)


def test_run_json__import_cli(tmp_path):
    run = passing(tmp_path)
    bump(run / "run.json")
    refused(
        cli(
            "trace",
            "import",
            "--run-dir",
            str(run),
            "--format",
            "pi",
            "--session",
            str(SESSIONS / "pi-v3-basic.jsonl"),
        ),
        SAID,
    )


@pytest.mark.parametrize("value", [0, FUTURE, 99, -1, "2", True, None, 2.5, [2], "missing"])
def test_run_json__audit_and_validate_api_any_unknown_value(tmp_path, value):
    run = passing(tmp_path)
    bump(run / "run.json", value)
    report = audit_run(run, write=False)
    assert report["failure_class"] == "INFRA_ERROR" and all(f["status"] == "FAIL" for f in report["flags"])
    assert version_findings(run) == [("run.json", None)]


def test_run_json__unknown_version_1_schema_string(tmp_path):
    run = passing(tmp_path)
    manifest = jsonio.read_json(run / "run.json")
    del manifest["schemaVersion"]
    manifest["schema"] = "mc-agent-coldstart-run/2"
    (run / "run.json").write_bytes(jsonio.dumps_document(manifest))
    infra(audit_run(run, write=False), "mc-agent-coldstart-run/2")
    assert version_findings(run) == [("run.json", None)]


# -- writers that read the tail of a file before appending -----------------------------------


def test_trajectory_record__appender_reading_the_tail(tmp_path):
    run = future(tmp_path, "trajectory record")
    before = (run / "trajectory.jsonl").read_bytes()
    refused(cli("trace", "call", "--run-dir", str(run), "--call-id", "c-after", "--tool", "bash"), SAID)
    assert (run / "trajectory.jsonl").read_bytes() == before


def test_evidence_json__trace_evidence_cli_leaves_it_untouched(tmp_path):
    run = passing(tmp_path)
    bump(run / "evidence.json")
    before = (run / "evidence.json").read_bytes()
    refused(
        cli("trace", "evidence", "--run-dir", str(run), "--name", "answer", "--path", "answer.json"),
        "evidence.json",
        SAID,
    )
    assert (run / "evidence.json").read_bytes() == before


def test_reviews_jsonl__trace_review_reading_the_tail(tmp_path):
    run = future(tmp_path, "review line")
    before = (run / "reviews.jsonl").read_bytes()
    refused(
        cli(
            "trace",
            "review",
            "--run-dir",
            str(run),
            "--id",
            "machine_operated.causality",
            "--status",
            "resolved",
            "--by",
            "b",
            "--evidence",
            "trajectory:c-actuate",
        ),
        SAID,
    )
    assert (run / "reviews.jsonl").read_bytes() == before


# -- documents and streams declared as evidence (hash re-declared: only the version is wrong) ----


@pytest.mark.parametrize("name", ["answer", "oracle", "fixture", "restore"])
def test_declared_document__audit_cli(tmp_path, name):
    run = (
        RunBuilder(tmp_path / "run", run_id="gate")
        .passing()
        .mutate(name, lambda d: d.update(schemaVersion=FUTURE))
        .build()
    )
    refused(cli("audit", "run", "--run-dir", str(run)), "INFRA_ERROR", f"evidence {name}", SAID)


@pytest.mark.parametrize("option, name", [("--answer", "answer"), ("--oracle", "oracle")])
def test_override_document__audit_cli(tmp_path, option, name):
    run = passing(tmp_path)
    document = jsonio.read_json(run / f"{name}.json")
    (run / f"{name}-2.json").write_bytes(jsonio.dumps_document({**document, "schemaVersion": FUTURE}))
    refused(cli("audit", "run", "--run-dir", str(run), option, f"{name}-2.json"), "INFRA_ERROR", f"{name}-2.json", SAID)


@pytest.mark.parametrize("stream", ["testmod", "logger"])
def test_declared_stream_record__audit_cli(tmp_path, stream):
    builder = RunBuilder(tmp_path / "run", run_id="gate").passing()
    edit = lambda events: events[0].update(schemaVersion=FUTURE)  # noqa: E731
    run = (builder.mutate_testmod(edit) if stream == "testmod" else builder.mutate_logger(edit)).build()
    label = "test_mod" if stream == "testmod" else "agent_logger"
    refused(cli("audit", "run", "--run-dir", str(run)), "INFRA_ERROR", f"evidence {label}: line 1", SAID)


def test_preflight_json__audit_cross_check_cli(tmp_path):
    run = passing(tmp_path)
    (run / "preflight.json").write_bytes(
        jsonio.dumps_document({"schemaVersion": FUTURE, "overall": "PASS", "checks": []})
    )
    assert (
        cli("trace", "evidence", "--run-dir", str(run), "--name", "preflight", "--path", "preflight.json").returncode
        == 0
    )
    refused(cli("audit", "run", "--run-dir", str(run)), "INFRA_ERROR", "evidence preflight", SAID)


# -- audit.json read back, the plugin's cache, the harness config, importers, the demo index ----


def test_audit_json__compare_and_trace_summary_cli(tmp_path):
    old, new = passing(tmp_path, "old"), passing(tmp_path, "new")
    for run in (old, new):
        assert cli("audit", "run", "--run-dir", str(run)).returncode == 0
    bump(new / "audit" / "audit.json")
    rows = {Path(r["path"]).name: r for r in json.loads(cli("compare", "--json", str(tmp_path)).stdout)["runs"]}
    # A report of an unknown version is never believed: the verdict is recomputed (audit.currency).
    assert rows["old"]["outcome"] == "PASS" and rows["new"]["outcome"] == "PASS"
    recomputed = outcome(RunDir(new), "scenario-passing")
    assert recomputed["source"] is None and SAID in recomputed["recomputed_because"]
    assert cli("trace", "summary", "--run-dir", str(new)).returncode == 0
    written = jsonio.read_json(new / "summary.json")["outcome"]
    assert written["source"] is None and SAID in written["recomputed_because"]


def _pytest_runs(pytester: pytest.Pytester, runs: Path, *extra: str) -> dict[str, dict[str, str]]:
    """Real pytest (in process) over ``runs``: {run folder: {item name: outcome}}."""
    recorder = pytester.inline_run(
        "-p", "no:cacheprovider", "-p", "no:hypothesispytest", f"--coldstart-runs={runs}", *extra
    )
    out: dict[str, dict[str, str]] = {}
    for report in recorder.getreports("pytest_runtest_logreport"):
        if report.when == "call" or report.outcome != "passed":
            path, item = report.nodeid.split("::", 1)
            outcome = "xfailed" if hasattr(report, "wasxfail") else report.outcome
            out.setdefault(Path(path).parent.name, {})[item] = outcome
    return out


def test_every_run_document__pytest_plugin(pytester):
    runs = pytester.path / "runs"
    folders = {document: document.replace(" ", "-") for document in EDITS}
    for document, folder in folders.items():
        EDITS[document][0](passing(runs, folder))
    passing(runs, "control")
    results = _pytest_runs(pytester, runs)
    assert set(results["control"].values()) == {"passed"}, results["control"]
    for folder in folders.values():
        assert results[folder]["validate"] == "failed", (folder, results[folder])


def _forge_cache(cache: Path, entry_version: int, report_version: int) -> None:
    """Turn the cached audit of a failing run into a PASS, under the given versions."""
    for path in cache.rglob("*.json"):
        entry = jsonio.read_json(path)
        entry["schemaVersion"] = entry_version
        value = entry["value"]
        value.update(schemaVersion=report_version, overall="PASS", failure_class=None)
        for flag in value["flags"]:
            flag["status"] = "PASS"
        path.write_bytes(jsonio.dumps_document(entry))


@pytest.mark.parametrize(
    "entry_version, report_version",
    [
        (FUTURE, 2),
        (2, FUTURE),
    ],
)
def test_audit_cache_entry__pytest_plugin(pytester, entry_version, report_version):
    runs, cache = pytester.path / "runs", pytester.path / "cache"
    build_run(runs / "late", "late_logger")
    option = f"--coldstart-cache-dir={cache}"
    assert "failed" in _pytest_runs(pytester, runs, option)["late"].values()
    _forge_cache(cache, 2, 2)
    assert set(_pytest_runs(pytester, runs, option)["late"].values()) == {"passed"}  # control: the cache is really read
    _forge_cache(cache, entry_version, report_version)
    assert "failed" in _pytest_runs(pytester, runs, option)["late"].values()


def test_harness_config__preflight_cli(tmp_path):
    config = jsonio.read_json(Path(__file__).resolve().parents[2] / "examples" / "harness-local.json")
    (tmp_path / "harness.json").write_bytes(jsonio.dumps_document({**config, "schemaVersion": FUTURE}))
    refused(
        cli("preflight", "run", "--config", str(tmp_path / "harness.json"), "--out", str(tmp_path / "out")),
        "harness-config",
        SAID,
        code=64,
    )
    assert not (tmp_path / "out" / "preflight.json").exists()


def test_harness_config__pytest_preflight_gate(tmp_path):
    config = jsonio.read_json(Path(__file__).resolve().parents[2] / "examples" / "harness-local.json")
    (tmp_path / "harness.json").write_bytes(jsonio.dumps_document({**config, "schemaVersion": FUTURE}))
    (tmp_path / "test_gated.py").write_text(
        'import pytest\n\n@pytest.mark.coldstart_preflight("ports", config="harness.json")\ndef test_gated():\n    pass\n'
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-q", "test_gated.py"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 1 and "harness-config has schemaVersion 3" in done.stdout, done.stdout[-1500:]


@pytest.mark.parametrize(
    "fmt, sample, change",
    [
        ("pi", "pi-v3-basic.jsonl", lambda first: first.update(version=4)),
        ("claude-code", "claude-code-basic.jsonl", None),
        ("codex", "codex-rollout-basic.jsonl", lambda first: first["payload"].update(cli_version="1.0.0")),
    ],
)
def test_harness_session_format_version__import_cli(tmp_path, fmt, sample, change):
    lines = (SESSIONS / sample).read_text(encoding="utf-8").splitlines()
    values = [json.loads(line) for line in lines]
    if change is None:  # Claude Code: every line carries the CLI version
        for value in values:
            if "version" in value:
                value["version"] = "3.0.0"
    else:
        change(values[0])
    session = tmp_path / sample
    session.write_text("".join(json.dumps(v) + "\n" for v in values), encoding="utf-8")
    run = passing(tmp_path)
    before = (run / "trajectory.jsonl").read_bytes()
    refused(
        cli("trace", "import", "--run-dir", str(run), "--format", fmt, "--session", str(session)),
        "4" if fmt == "pi" else "not a known",
    )
    assert (run / "trajectory.jsonl").read_bytes() == before and not any((run / "imports").iterdir())


def test_demo_index__demo_cli(tmp_path):
    out = tmp_path / "demo"
    out.mkdir()
    (out / "demo.json").write_bytes(jsonio.dumps_document({"schemaVersion": FUTURE, "runs": [{"name": "keep-me"}]}))
    (out / "keep-me").mkdir()
    refused(cli("demo", "--out", str(out)), "demo.json", "version")
    assert sorted(p.name for p in out.iterdir()) == ["demo.json", "keep-me"]
