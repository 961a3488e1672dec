"""What a shell command writes (``shell_writes``) and how a write target is placed
(``Workspace.key``): the cwd forms ($PWD, $(pwd), `pwd`), and targets no one can place."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence.identity import Workspace
from pytest_coldstart.audit.evidence.shell_writes import shell_writes
from pytest_coldstart.audit.evidence.tree_writes import TREE

HOME = {"agent": {"cwd": "/home/lab/run/workspace", "run_dir": "/home/lab/run"}}


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    (tmp_path / "workspace").mkdir()
    return Workspace(tmp_path, HOME)


@pytest.mark.parametrize("form", ["$PWD", "${PWD}", "$(pwd)", "`pwd`"])
def test_the_cwd_forms_name_the_working_directory(ws, form):
    assert ws.key(f"{form}/../oracle.json") == ws.run_key("oracle.json")
    assert ws.key(f"{form}/draft.json") == ws.run_key("workspace/draft.json")
    assert ws.key(form) == ws.run_key("workspace")


@pytest.mark.parametrize("token", ["$HOME/oracle.json", "$X/../oracle.json", "~/oracle.json", "*.json", "`a`/b"])
def test_a_variable_a_tilde_or_a_glob_is_never_placed(ws, token):
    assert ws.key(token) is None


def test_unplaceable_targets_go_to_the_guess(ws):
    guessed: list[str] = []

    def unplaced(target: str) -> list[str]:
        guessed.append(target)
        return ["<guess>"]

    writes = shell_writes("cat a > $RUN/oracle.json; cp x ~/t.jsonl && tee $PWD/log.txt < y", ws, None, unplaced)
    assert guessed == ["$RUN/oracle.json", "~/t.jsonl"]
    assert [(k, how) for k, how, _ in writes] == [
        ("<guess>", "shell redirect"),
        ("<guess>", "cp"),
        (ws.run_key("workspace/log.txt"), "tee"),
    ]


@given(st.text(max_size=60))
def test_any_command_line_is_parsed_without_a_crash(text):
    ws = Workspace(Path("/nonexistent-run"), HOME)
    for key, how, _ in shell_writes(text, ws, None, lambda target: ["<guess>"]):
        assert isinstance(key, str) and how


@pytest.mark.parametrize(
    "command, written",
    [
        ("cp forged.json ../oracle.json 2> err.txt", ["oracle.json", "workspace/err.txt"]),
        ("cp forged.json ../oracle.json 2>/dev/null", ["oracle.json"]),
        ("tee -a ../oracle.json < forged.json", ["oracle.json"]),
        # a move writes its destination and removes its sources
        (
            "mv -f a.json b.json ../fixture/ >> log.txt",
            ["fixture/a.json", "fixture/b.json", "workspace/a.json", "workspace/b.json", "workspace/log.txt"],
        ),
        ("sed -i s/x/y/ ../restore/verify.json <<< input", ["restore/verify.json"]),
    ],
)
def test_redirections_are_not_operands(ws, command, written):
    writes = shell_writes(command, ws)
    keys = sorted(k for k, how, _ in writes if ws.inside(k) is not None and not how.endswith(TREE))  # /dev/null aside
    assert keys == sorted(ws.run_key(path) for path in written), keys


@pytest.mark.parametrize(
    "command",
    [
        "/bin/cp forged.json ../oracle.json",
        "\\cp forged.json ../oracle.json",
        "sudo -u lab cp forged.json ../oracle.json",
        "FOO=1 env -i tee ../oracle.json",
        "nice -n 5 sed -i s/a/b/ ../oracle.json",
        "command mv forged.json ../oracle.json",
        "truncate -s 0 ../oracle.json",
        "perl -pi -e s/a/b/ ../oracle.json",
        "CP forged.json ../oracle.json",
        "Set-Content -Path ../oracle.json -Value x",
        "cp\tforged.json\t../oracle.json",
        'bash -c "cat forged.json > ../oracle.json"',  # a shell's command string
        "sh -c 'cp forged.json ../oracle.json'",
        'bash -lc "cd .. && cp forged.json oracle.json"',  # its own cd
        'sudo bash -c "echo x >> ../oracle.json"',
        'bash -c "sh -c \\"cp forged.json ../oracle.json\\""',  # nested, escaped quotes
        'eval "cp forged.json ../oracle.json"',
        'pwsh -Command "Set-Content -Path ../oracle.json -Value x"',
        "cmd /c copy forged.json ..\\oracle.json",
        "xargs -I{} cp {} ../oracle.json",  # an exec-er's command
        "find . -name forged.json -exec cp {} ../oracle.json \\;",
        "find . -name forged.json -exec cp {} ../oracle.json +",
        "timeout -s KILL 5 tee ../oracle.json",
        'echo \\" ; cp forged.json ../oracle.json ; echo \\"',  # escaped quotes hide no segment
        "cp forged.json ../o'racle'.json",  # the shell joins quoted pieces of a word
        'cp forged.json "../ora""cle.json"',
        "c''p forged.json ../oracle.json",
        "cp forged.json ../ora\\cle.json",  # an escape the shell drops
        "sort -o ../oracle.json forged.json",  # an output option of any program
        "echo forged>../oracle.json",  # a redirection with no space
        "exec 3>../oracle.json; echo forged >&3",  # any file descriptor
        "exec 4<>../oracle.json",  # opened for reading and writing
        "openssl enc -d -in forged.bin -out ../oracle.json",
        "pandoc --output=../oracle.json notes.md",
        "jq . forged.json | sponge ../oracle.json",
        "patch ../oracle.json < fix.diff",
        "git checkout -- ../oracle.json",
        "git restore ../oracle.json",
        "gunzip ../oracle.json.gz",
        "gzip -d -f ../oracle.json.gz",
        "New-Item -Path ../oracle.json -Value x -Force",
    ],
)
def test_a_writer_is_known_however_it_is_invoked(ws, command):
    from pytest_coldstart.audit.evidence.shell_writes import may_write

    assert may_write(command), command
    assert ws.run_key("oracle.json") in [k for k, _, _ in shell_writes(command, ws)], command


#: Segments that write nothing and move no cwd: a long script's lines.
NOISE = ["ls -la", "python3 - <<'EOF'", "print(open('x').read())", "EOF", "grep -c x log", "echo done", "  "]
WRITES = ["cat a > ../oracle.json", "cp forged.json ../fixture/ready.json", "tee log.txt", "sed -i s/a/b/ t.json"]
MOVES = ["cd /home/lab/run", "cd ../fixture", "pushd /tmp", "cd workspace"]


@given(st.lists(st.sampled_from(NOISE + WRITES + MOVES), max_size=12), st.data())
def test_segments_that_write_nothing_change_nothing(ws_hyp, segments, data):
    """A script's writes are those of its writing segments, each in the cwd the cds before it
    leave: lines that neither write nor cd (skipped unparsed) change no key."""
    noisy = []
    for segment in segments:
        noisy += data.draw(st.lists(st.sampled_from(NOISE), max_size=3)) + [segment]
    separator = data.draw(st.sampled_from(["\n", " && ", "; "]))
    assert shell_writes(separator.join(noisy), ws_hyp) == shell_writes(separator.join(segments), ws_hyp)


def test_a_cd_on_a_line_of_its_own_moves_the_writes_after_it(ws):
    script = "cd /home/lab/run\nls -la\npython3 build.py\ncat a > oracle.json"
    assert [k for k, _, _ in shell_writes(script, ws)] == [ws.run_key("oracle.json")]


@pytest.fixture(scope="module")
def ws_hyp(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    root = tmp_path_factory.mktemp("run")
    (root / "workspace").mkdir()
    return Workspace(root, HOME)


@pytest.mark.parametrize(
    "command",
    [
        "echo bash -c 'cp a ../oracle.json'",  # printed, not run
        "find . -name oracle.json",
        "bash build.sh ../oracle.json",
        "grep -c cp ../oracle.json",
        "timeout 5 cat ../oracle.json",
        'bash -c "cat ../oracle.json"',
        "set -o pipefail; grep -o cart ../oracle.json",  # -o that is no output file
        "git status ../oracle.json",
        "gzip -l ../oracle.json.gz",
    ],
)
def test_commands_that_run_no_writer_write_nothing(ws, command):
    assert [k for k, _, _ in shell_writes(command, ws)] == [], command


def test_a_symbolic_links_target_is_resolved_from_the_links_folder(ws):
    link = ws.key("agent/log.jsonl")
    (key, how, source), *_ = shell_writes("ln -sf ../../test/t.jsonl agent/log.jsonl", ws)
    assert (key, how) == (link, "ln")
    assert ws.key("agent/log.jsonl") == ws.run_key("test/t.jsonl")  # a write through the link lands there
    assert source == ws.run_key("test/t.jsonl")  # from workspace/agent/, not from the cwd
    (_, _, hard), *_ = shell_writes("ln ../test/t.jsonl agent/log.jsonl", ws)
    assert hard == ws.run_key("test/t.jsonl")  # a hard link's source is a path like cp's


def test_a_link_a_call_made_is_followed_by_later_paths_even_after_it_is_removed(ws):
    writes = shell_writes("ln -s ../.. workspace/up && cp f workspace/up/test/t.jsonl && rm workspace/up", ws)
    assert ws.run_key("test/t.jsonl") in {key for key, _, _ in writes}
    assert ws.key("workspace/up/oracle.json") == ws.run_key("oracle.json")  # later calls too
    ws.alias("/x/a", "/x/b")
    ws.alias("/x/b", "/x/a")  # a cycle ends after a bounded number of rewrites
    assert ws.key("/x/a/f") in ("/x/a/f", "/x/b/f")


@given(st.lists(st.sampled_from(["a", "b", "..", "up", "test"]), max_size=6))
def test_a_path_through_a_link_is_the_path_through_its_target(parts):
    """workspace/up links to the run directory: up/... from workspace/ is exactly ../..."""
    ws = Workspace(Path("/nonexistent-run"), HOME)
    ws.alias(ws.key("up"), ws.run_key("."))
    plain = Workspace(Path("/nonexistent-run"), HOME)
    assert ws.key("/".join(["up", *parts])) == plain.key("/".join(["..", *parts]))


@pytest.mark.parametrize(
    "command",
    [
        "echo x | xargs echo >> ../test/testmod.jsonl",
        "timeout 5 echo x > ../test/testmod.jsonl",
        "flock /tmp/l printf x >> ../test/testmod.jsonl",
        "watch -n1 date >>../test/testmod.jsonl",
        "ls | xargs -I{} cat {} >> ../test/testmod.jsonl",
    ],
)
def test_the_redirect_of_an_exec_ers_unknown_program_is_still_a_write(ws, command):
    """The shell, not the program, opens a redirect's target: whatever xargs or timeout runs."""
    written = [(key, how) for key, how, _ in shell_writes(command, ws)]
    assert (ws.run_key("test/testmod.jsonl"), "shell redirect") in written


@pytest.mark.parametrize(
    "command",
    ["echo x | tee -a $(find .. -name 'testmod*')", "echo x >> $(ls ../test/* | head -1)"],
)
def test_a_target_a_substitution_prints_is_any_name_the_text_lists(ws, command):
    def unplaced(target: str) -> list[str]:  # what provenance hands a runtime name: the text's sources
        return [ws.run_key("test/testmod.jsonl") or ""] if target == "{}" else []

    assert ws.run_key("test/testmod.jsonl") in [key for key, _, _ in shell_writes(command, ws, None, unplaced)]
