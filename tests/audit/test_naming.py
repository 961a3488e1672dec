"""Which declared files a call names (``Naming``): resolved paths, and - fail closed, for the
test-side files only - unplaceable paths by base name and globs by what they match."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_coldstart.audit.evidence.identity import Workspace
from pytest_coldstart.audit.evidence.naming import Naming

HOME = {"agent": {"cwd": "/home/lab/run/workspace", "run_dir": "/home/lab/run"}}


@pytest.fixture
def naming(tmp_path: Path) -> Naming:
    (tmp_path / "workspace").mkdir()
    ws = Workspace(tmp_path, HOME)
    keys = {
        "oracle": {ws.run_key("oracle.json")},
        "agent_logger": {ws.run_key("workspace/agent-log.jsonl")},
    }
    return Naming(ws, {k: {v for v in keys[k] if v} for k in keys}, ("oracle",))


@pytest.mark.parametrize(
    "command, named",
    [
        ("cat ../oracle.json", {"oracle"}),
        ("cat ../o?acle*.json", {"oracle"}),  # a glob in the folder that holds it
        ("cd .. && cat *.json", {"oracle"}),
        ("cat $RUN/ora*", {"oracle"}),  # the folder cannot be placed: by name alone
        ("cat */ora*.json", {"oracle"}),  # the folder is itself a glob
        ("cat *.json", set()),  # workspace/ holds no oracle
        ("cat ../*.txt", set()),
        ("cat agent-log.jsonl", {"agent_logger"}),
        ("cat agent-*.jsonl", set()),  # a glob never stands for the agent's own files
        ("echo 2 * 3", set()),
        ("cd .. && echo 2 * 3 && sed -n 1p */", set()),  # a bare * or */: code or prose, no name in it
        # a folder read whole is taken in the folder the read runs in
        ("cd .. && cat *", {"oracle"}),
        ("cd .. && grep -rn cart .", {"oracle"}),
        ("cd $X && cat *", {"oracle"}),  # a folder no one can place: anywhere (fail closed)
        ("cd /tmp && cat *", set()),
        ("cd /tmp && cat *; cd /home/lab/run/workspace && cat *", set()),
        ("(cd /tmp; ls); cat ../*", {"oracle"}),  # a subshell returns to where it began
        ("cd .. && python3 -c \"[open(f).read() for f in os.listdir('.')]\"", {"oracle"}),
        ('cat "../ora""cle.json"', {"oracle"}),  # the name the shell joins
        ("cat ../o\\racle.json", {"oracle"}),
    ],
)
def test_what_a_command_names(naming, command, named):
    assert naming.names({"command": command}) == named


def test_a_text_with_no_declared_name_and_no_glob_is_not_tokenised(naming, monkeypatch):
    calls = []
    monkeypatch.setattr(naming.workspace, "tokens", lambda text, wanted=None: calls.append(text) or iter(()))
    naming.names({"command": "ls -la && python3 build.py"})
    assert calls == []


@pytest.mark.parametrize(
    "command, named",
    [
        ("cat /proc/self/cwd/../oracle.json", {"oracle"}),  # the cwd, through /proc
        ("cat /proc/1234/cwd/../oracle.json", {"oracle"}),
        ("cat /proc/self/root/home/lab/run/oracle.json", {"oracle"}),
        ("cat /srv/elsewhere/oracle.json", set()),  # the run's host path is known: not the run
    ],
)
def test_proc_aliases_of_the_cwd_and_root(naming, command, named):
    assert naming.names({"command": command}) == named


def test_a_host_path_names_test_side_files_by_name_while_the_runs_host_path_is_unknown(tmp_path: Path):
    ws = Workspace(tmp_path, {})  # no agent.run_dir: any host path may be the run's
    keys = {"oracle": {ws.run_key("oracle.json")}, "agent_logger": {ws.run_key("agent/log.jsonl")}}
    naming = Naming(ws, {k: {v for v in keys[k] if v} for k in keys}, ("oracle",))
    assert naming.names({"command": "cat /home/someone/run/oracle.json"}) == {"oracle"}
    assert naming.names({"command": "cat /home/someone/run/agent/log.jsonl"}) == set()  # never the agent's, by name
    assert naming.names({"command": "cat /home/someone/run/notes.json"}) == set()
    assert ws.placed("/srv/x/oracle.json", lambda token: ["<guess>"]) == ["/srv/x/oracle.json", "<guess>"]
    known = Workspace(tmp_path, HOME)
    assert known.placed("/srv/x/oracle.json", lambda token: ["<guess>"]) == ["/srv/x/oracle.json"]


def test_a_path_climbing_out_of_a_run_whose_host_path_is_unknown_may_come_back_into_it(tmp_path: Path):
    ws = Workspace(tmp_path, {})  # the run's folder name is unknown: ../run/ may be the run itself
    naming = Naming(ws, {"oracle": {ws.run_key("oracle.json") or ""}}, ("oracle",))
    assert naming.names({"command": "cat ../run/oracle.json"}) == {"oracle"}
    assert naming.names({"command": "cd ..; cat lab/oracle.json"}) == {"oracle"}
    assert naming.names({"command": "cat ../run/notes.json"}) == set()
    assert (
        Naming(Workspace(tmp_path, HOME), {"oracle": {"/home/lab/run/oracle.json"}}, ("oracle",)).names(
            {"command": "cat ../other/oracle.json"}
        )
        == set()
    )  # the run's host path is known: ../other is another folder


@pytest.mark.parametrize(
    "target, text, reached",
    [
        ("$f", 'for f in ../*.json; do cp x "$f"; done', True),
        ("$f", 'for f in ../*; do cp x "$f"; done', True),
        ("$f", 'for f in *.txt; do cp x "$f"; done', False),
        ("../$f", 'ls .. | while read f; do cp x "../$f"; done', True),
        ("{}", "find .. -name 'ora*' -exec cp x {} \\;", True),
        ("{}", "find .. -name '*.pyc' -exec rm {} \\;", False),
        ("$1", "sh -c 'cp x \"$1\"' _ ../oracle.json", True),
        ("$f", 'for f in a b; do touch "$f"; done', False),
    ],
)
def test_what_a_name_known_only_at_run_time_may_reach(naming, target, text, reached):
    keys = naming.reached(target, text, ("oracle",))
    assert keys == (sorted(naming.keys["oracle"]) if reached else [])


@pytest.mark.parametrize("target", ["{p}", "{0}", "%s", "%(name)s"])
def test_a_format_placeholder_is_a_name_known_only_at_run_time(target):
    from pytest_coldstart.audit.evidence.shell_writes import RUNTIME_NAME

    assert RUNTIME_NAME.fullmatch(target)


@pytest.mark.parametrize(
    "text, reached",
    [
        ("open(glob.glob('../*.json')[0], 'w')", True),
        ("[open(os.path.join('..', f), 'w') for f in os.listdir('..')]", True),
        ("[p.write_text(x) for p in Path('..').iterdir()]", True),
        ("[p.write_text(x) for p in Path('..').glob('ora*')]", True),
        ("fs.writeFileSync('../' + f, x)", True),
        ("[p.write_text(x) for p in Path('..').glob('*.txt')]", False),
        ("x = a * b; open(out, 'w')", False),  # a bare * in code multiplies
    ],
)
def test_what_code_writing_a_path_that_is_no_literal_may_reach(naming, text, reached):
    keys = naming.reached("", text, ("oracle",), code=True)
    assert keys == (sorted(naming.keys["oracle"]) if reached else [])


def test_a_folder_that_may_hold_a_run_whose_host_path_is_unknown(tmp_path):
    from pytest_coldstart.audit.evidence.identity import Workspace

    workspace = Workspace(tmp_path / "run", {})
    held = {key: workspace.may_hold_run(workspace.key(key), True) for key in ["..", "/", "/tmp", "/home/lab", "../run"]}
    assert all(held.values()), held
    assert not workspace.may_hold_run(workspace.key("/usr/lib/python3"), True)
    assert not workspace.may_hold_run(workspace.key("../a/b"), True)
    assert not workspace.may_hold_run(workspace.key(".."), False)  # the parent's own files are not the run's
    assert workspace.may_hold_run(workspace.key("../x"), False)  # it may be the run itself
    recorded = Workspace(tmp_path / "run", {"agent": {"cwd": "/home/lab/run", "run_dir": "/home/lab/run"}})
    assert not recorded.may_hold_run(recorded.key("/tmp"), True)
