"""A call the record keeps out of sight: its arguments kept only in part, or the call outside
the agent's credited work (abandoned branch, another phase) though it ran."""

from __future__ import annotations

from pathlib import Path

from audit_helpers import audit, builder, flag

from pytest_coldstart.audit.evidence.scan import _cut
from pytest_coldstart.demo.scenarios.adversarial_edits import _extra_call
from pytest_coldstart.run.hashing import sha256_bytes


def test_a_ref_is_cut_only_when_its_value_was_not_kept_and_its_preview_is_not_all_of_it():
    whole = "cat notes.txt"
    assert not _cut({"stored": False, "preview": whole, "sha256": sha256_bytes(whole.encode())})
    assert _cut({"stored": False, "preview": "cat no… (9 chars) …txt", "sha256": sha256_bytes(whole.encode())})
    assert _cut({"stored": False, "preview": None, "sha256": "0" * 64})
    assert not _cut({"stored": True, "preview": "x", "sha256": "0" * 64})
    assert not _cut(None) and not _cut("not a ref")


def test_reads_outside_the_credited_work_fail_the_answer_and_writes_stay_writes(tmp_path):
    for n, fields in enumerate(({"branch": "abandoned"}, {"phase": "audit"})):
        b = _extra_call(builder(tmp_path, f"read{n}").passing(), "c-peek", "read", {"path": "oracle.json"})
        b.call("c-peek").update(fields)
        report = audit(b)
        assert flag(report, "answer_correct")["status"] == "FAIL", report
        assert "c-peek" in flag(report, "answer_correct")["summary"]
    b = _extra_call(builder(tmp_path, "own").passing(), "c-own", "read", {"path": "workspace/notes.txt"})
    b.call("c-own").update(branch="abandoned")
    assert audit(b)["overall"] == "PASS"  # an abandoned call that reads nothing declared changes nothing


def test_a_call_that_states_the_folder_it_ran_in_is_read_from_there(tmp_path):
    """The agent's cwd is workspace/; one call says it ran in the run directory itself."""
    agent = {"run_dir": "/home/lab/runs/r", "cwd": "/home/lab/runs/r/workspace"}
    plain = _extra_call(
        builder(tmp_path, "plain").manifest(agent=agent).passing(), "c-x", "bash", {"command": "cat oracle.json"}
    )
    assert flag(audit(plain), "answer_correct")["status"] == "PASS"  # workspace/oracle.json is the agent's own
    for n, cwd in enumerate(("/home/lab/runs/r", "/home/lab/runs/r/", ".")):
        b = builder(tmp_path, f"stated{n}").manifest(agent=agent).passing()
        _extra_call(b, "c-x", "bash", {"command": "cat oracle.json"}).call("c-x").update(cwd=cwd)
        assert flag(audit(b), "answer_correct")["status"] == "FAIL", cwd


def test_every_folder_a_session_ran_in_is_a_start():
    from pytest_coldstart.audit.evidence.identity import Workspace

    manifest = {
        "agent": {"run_dir": "/lab/r"},
        "imports": [
            {"path": "imports/a.jsonl", "cwd": "/lab/r/workspace"},
            {"path": "imports/b.jsonl", "cwd": "/lab/r/tools"},
        ],
    }
    workspace = Workspace(Path("/nonexistent-run"), manifest)
    assert workspace.cwd == "/lab/r/workspace"
    assert workspace.starts == [None, "/lab/r/tools", "/lab/r"]  # the other session, and native calls in the run dir
    for n in range(6):
        workspace.state_cwd(f"/lab/r/d{n}")
    assert len(workspace.starts) == 1 + 4 and workspace.starts[-1] == "/lab/r/d5"  # the latest four stated


def test_a_folder_no_file_system_holds_is_anywhere():
    from pytest_coldstart.audit.evidence.identity import UNKNOWN_CWD, Workspace

    workspace = Workspace(Path("/nonexistent-run"), {"agent": {"run_dir": "/lab/r"}})
    workspace.state_cwd("/lab/" + "x" * 5000)
    workspace.state_cwd("/" + "a/" * 100)
    assert workspace.starts == [None, UNKNOWN_CWD]  # no key ever holds a copy of such a folder
