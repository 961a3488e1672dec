"""Programs that write by their own rules (audit/evidence/program_writes.py), and relative names
after a cd no one can place (shell_writes, identity): read fail closed by name."""

from __future__ import annotations

import pytest
from audit_helpers import written_by_name as written

from pytest_coldstart.audit.evidence.identity import UNKNOWN_CWD, Workspace


@pytest.mark.parametrize(
    "command, files",
    [
        ("cd test && curl -sO https://x/testmod.jsonl", {"test/testmod.jsonl"}),
        ("curl --remote-name https://x/oracle.json?v=1", {"oracle.json"}),
        ("curl -O https://x/testmod.jsonl --output-dir test", {"test/testmod.jsonl"}),
        ("curl -so oracle.json https://x/y", {"oracle.json"}),
        ("socat -u /tmp/f CREATE:test/testmod.jsonl", {"test/testmod.jsonl"}),
        ("socat - OPEN:oracle.json,creat,trunc", {"oracle.json"}),
        ("curl --output=oracle.json https://x/y", {"oracle.json"}),
        ("wget -q -P fixture https://x/ready.json", {"fixture/ready.json"}),
        ("wget https://x/oracle.json", {"oracle.json"}),
        ("uniq /tmp/a oracle.json", {"oracle.json"}),
        ("xxd -r /tmp/h oracle.json", {"oracle.json"}),
        ("dos2unix -q test/testmod.jsonl", {"test/testmod.jsonl"}),
        ("yq -i '.a = 1' oracle.json", {"oracle.json"}),
        ("prettier --write fixture/ready.json", {"fixture/ready.json"}),
        ("git mv oracle.json /tmp/kept.json", {"oracle.json"}),
        ('cd "$(dirname test/x)" && cat /tmp/a > testmod.jsonl', {"test/testmod.jsonl"}),
        ("cd - && cp /tmp/a oracle.json", {"oracle.json"}),
        ("CDPATH=. cd test && cp /tmp/a testmod.jsonl", {"test/testmod.jsonl"}),
        ("python3 -m json.tool /tmp/a oracle.json", {"oracle.json"}),
        ("sqlite3 /tmp/x.db '.output oracle.json' 'select 1'", {"oracle.json"}),
        ("sqlite3 /tmp/x.db '.once test/testmod.jsonl' 'select 1'", {"test/testmod.jsonl"}),
        ("java -jar mod.jar --log test/testmod.jsonl", {"test/testmod.jsonl"}),
        ("prog --log-file=oracle.json", {"oracle.json"}),
        ("LOG=test/testmod.jsonl java -jar mod.jar", {"test/testmod.jsonl"}),
        ("export OUT_FILE=oracle.json; ./run.sh", {"oracle.json"}),
        ("ex -sc '%s/a/b/|x' oracle.json", {"oracle.json"}),
        ("vim -c 'g/x/d|wq' test/testmod.jsonl", {"test/testmod.jsonl"}),
    ],
)
def test_a_program_writes_by_its_own_rule(declared_ws, command, files):
    assert written(declared_ws, command) == files


@pytest.mark.parametrize(
    "command",
    [
        "curl https://x/oracle.json",  # to stdout
        "curl -s https://x/oracle.json | jq .",
        "wget -qO- https://x/oracle.json",
        "uniq /tmp/a",
        "xxd oracle.json",  # a dump, not a revert
        "yq '.a' oracle.json",
        "python3 -m json.tool oracle.json",  # to stdout
        "LOG_LEVEL=debug python3 x.py oracle.json",  # no output variable names the file
        "CONFIG=oracle.json python3 x.py",
        "prettier --check fixture/ready.json",
        "cd workspace && curl -sO https://x/tool.py",
        "socat -u OPEN:oracle.json STDOUT",  # a read, no write
    ],
)
def test_the_same_programs_that_write_nothing_declared(declared_ws, command):
    assert written(declared_ws, command) == set()


def test_a_name_after_an_unplaceable_cd_is_unplaceable(tmp_path):
    ws = Workspace(tmp_path, {"agent": {"cwd": "/home/lab/run", "run_dir": "/home/lab/run"}})
    assert ws.moved('cd "$(dirname x)"', None) == UNKNOWN_CWD
    assert ws.moved("cd sub", UNKNOWN_CWD) == UNKNOWN_CWD
    assert ws.key("oracle.json", UNKNOWN_CWD) is None
    assert ws.key("/home/lab/run/oracle.json", UNKNOWN_CWD) == ws.key("oracle.json")


@pytest.mark.parametrize(
    "command, files",
    [
        ("sc oracle.json x", {"oracle.json"}),
        ("Set-Content -Path oracle.json -Value x", {"oracle.json"}),
        ("ni fixture/ready.json -Force", {"fixture/ready.json"}),
        ("Get-Content a | Tee-Object -FilePath oracle.json", {"oracle.json"}),
        ("Rename-Item fixture/old.json -NewName ready.json", {"fixture/ready.json"}),
        ("Rename-Item oracle.json -NewName kept.json", {"oracle.json"}),
        ("cpi /tmp/a oracle.json", {"oracle.json"}),
    ],
)
def test_powershell_cmdlets_and_aliases_write(declared_ws, command, files):
    assert written(declared_ws, command) == files


@pytest.mark.parametrize(
    "command, files",
    [
        ("awk '{print > \"oracle.json\"}' /tmp/a", {"oracle.json"}),
        ('gawk -F, \'{printf "%s", $1 >> "test/testmod.jsonl"}\' a.csv', {"test/testmod.jsonl"}),
        ("gawk -i inplace '{print}' oracle.json", {"oracle.json"}),
        ('awk \'BEGIN{print "{}" >> "test/testmod.jsonl"}\'', {"test/testmod.jsonl"}),  # braces in a string
        ("split -b 1000000 /tmp/forged.jsonl test/testmod.json", {"test/testmod.jsonl"}),  # PREFIX + aa ... a name
        ("csplit -f test/testmod.json /tmp/forged.jsonl 1", {"test/testmod.jsonl"}),
        ("python3 -m zipfile -e /tmp/x.zip test/", {"test/testmod.jsonl"}),
        ('sqlite3 oracle.json "create table x(a)"', {"oracle.json"}),  # opens its database for writing
        ("awk '{print > FILENAME}' test/testmod.jsonl", {"test/testmod.jsonl"}),  # rewrites its inputs
        ("scp /tmp/f localhost:test/testmod.jsonl", {"test/testmod.jsonl"}),  # host:path may be this host
        ("sed -n 'w oracle.json' /tmp/a", {"oracle.json"}),
        ("sed -e 's/a/b/w fixture/ready.json' /tmp/a", {"fixture/ready.json"}),
        ("mount --bind /tmp/fake test", {"test/testmod.jsonl"}),
        ("mount -o bind,ro /tmp/fake fixture", {"fixture/ready.json"}),
        ("cp -l /tmp/a oracle.json", {"oracle.json"}),
    ],
)
def test_awk_sed_programs_bind_mounts_and_links_write(declared_ws, command, files):
    assert written(declared_ws, command) == files


@pytest.mark.parametrize(
    "command",
    ["awk '{print $1 > 2}' /tmp/a", "sed -n 'p' oracle.json", "awk '{print}' oracle.json", "mount /dev/sdb1 /mnt"],
)
def test_awk_sed_and_mount_that_write_nothing_declared(declared_ws, command):
    assert written(declared_ws, command) == set()


@pytest.mark.parametrize(
    "command",
    [
        "cp /tmp/a oracle.json &",
        "cp /tmp/a oracle.json& wait",
        "sleep 1 & cp /tmp/a oracle.json",
        "case x in x) cp /tmp/a oracle.json;; esac",
        "case x in y) true;; *) cp /tmp/a oracle.json;; esac",
        "coproc cp /tmp/a oracle.json",
        "ls |& cp /tmp/a oracle.json",
    ],
)
def test_background_case_arms_and_coprocesses_are_commands(declared_ws, command):
    assert written(declared_ws, command) == {"oracle.json"}


@pytest.mark.parametrize("command", ["cp /tmp/a b 2>&1 | tee log", "cp /tmp/a b &> log", "cp /tmp/a b >&2"])
def test_redirections_with_an_ampersand_separate_nothing(declared_ws, command):
    assert written(declared_ws, command) == set()
