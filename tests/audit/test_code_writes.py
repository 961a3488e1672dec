"""What code a call carries writes (``code_writes``, ``script_writes``): the write constructs
of Python, Node, Ruby, Perl and PHP with a literal path, and the fail-closed rule for a write
whose path is no literal."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence.code_writes import code_writes, script_writes
from pytest_coldstart.audit.evidence.identity import Workspace
from pytest_coldstart.audit.evidence.tree_writes import TREE

HOME = {"agent": {"cwd": "/home/lab/run/workspace", "run_dir": "/home/lab/run"}}


@pytest.mark.parametrize(
    "code, path",
    [
        ("open('../oracle.json', 'w').write('{}')", "../oracle.json"),
        ('json.dump(d, open("out/a.json", mode="w", encoding="utf-8"))', "out/a.json"),
        ("with open('log.jsonl', 'a+') as f: f.write(x)", "log.jsonl"),
        ("io.open('x.txt', 'wb')", "x.txt"),
        ("Path('result/agent-logger.jsonl').write_text(x)", "result/agent-logger.jsonl"),
        ("Path('a.bin').write_bytes(b)", "a.bin"),
        ("require('fs').writeFileSync('test/testmod.jsonl', s)", "test/testmod.jsonl"),
        ("fs.appendFile('t.jsonl', line, cb)", "t.jsonl"),
        ("fs.createWriteStream(`out.log`)", "out.log"),
        ('open(F, ">>test/testmod.jsonl"); print F 1', "test/testmod.jsonl"),
        ("open(my $fh, '>', 'oracle.json')", "oracle.json"),
        ("shutil.copy('answer.json', 'oracle.json')", "oracle.json"),
        ("os.replace(tmp, '../fixture/ready.json')", "../fixture/ready.json"),
        ("fs.copyFileSync('a', 'b.json')", "b.json"),
        ("File.open('oracle.json', 'a') { |f| f << x }", "oracle.json"),
        ("File.write('oracle.json', x)", "oracle.json"),
        ("file_put_contents('oracle.json', $x);", "oracle.json"),
        ("fopen('oracle.json', 'w')", "oracle.json"),
    ],
)
def test_a_write_with_a_literal_path(code, path):
    assert code_writes(code).paths == [path]
    assert not code_writes(code).unplaced


@pytest.mark.parametrize(
    "code",
    [
        "p = 'oracle.json'; open(p, 'w').write(x)",
        "Path(target).write_text(x)",
        "fs.writeFileSync(target, s)",
        "shutil.move(src, dst)",
        "open($fh, '>', $name)",
    ],
)
def test_a_write_whose_path_is_no_literal(code):
    assert code_writes(code).paths == [] and code_writes(code).unplaced


@pytest.mark.parametrize(
    "code",
    [
        "print(open('test/testmod.jsonl').read())",
        "open('in.txt', 'r').read(); open('b.bin', 'rb')",
        "f.write('oracle.json')",  # a string written, not a path
        "json.load(open('oracle.json'))",
        "fs.readFileSync('oracle.json')",
        "cat oracle.json | grep -c x",
        "echo 'the oracle is oracle.json' > notes.md",  # the shell's to judge, not the code's
    ],
)
def test_reads_and_text_write_nothing(code):
    assert code_writes(code).paths == [] and not code_writes(code).unplaced


def test_script_writes_place_literals_in_every_cwd_and_fail_closed_by_name(tmp_path: Path):
    (tmp_path / "workspace").mkdir()
    ws = Workspace(tmp_path, HOME)
    text = "cd workspace && python3 -c \"open('../oracle.json', 'w')\""
    keys = [key for key, _, _ in script_writes(text, ws, lambda p: ["<guess>"], lambda t: ["<named>"])]
    assert ws.run_key("oracle.json") in keys  # resolved from workspace/, where the cd leads
    unplaced = "python3 -c \"t = '$RUN/oracle.json'; open(t, 'w')\""
    assert [k for k, _, _ in script_writes(unplaced, ws, lambda p: ["<guess>"], lambda t: ["<named>"])] == ["<named>"]
    assert script_writes("open('$RUN/x.json', 'w')", ws, lambda p: ["<guess>"], lambda t: [])[0][0] == "<guess>"


@given(st.text(max_size=200))
def test_any_text_is_answered_without_a_crash(text):
    found = code_writes(text)
    assert all(isinstance(path, str) and path for path in found.paths)


@pytest.mark.parametrize(
    "text, patched",
    [
        ("*** Begin Patch\n*** Update File: oracle.json\n@@\n-a\n+b\n*** End Patch\n", ["oracle.json"]),
        ("*** Begin Patch\n*** Add File: a b.txt\n+x\n*** Delete File: c.json\n*** End Patch", ["a b.txt", "c.json"]),
        ("*** Update File: x.py\n*** Move to: oracle.json\n", ["x.py", "oracle.json"]),
        ("git apply <<'EOF'\n--- a/t.jsonl\n+++ b/t.jsonl\n@@ -1 +1 @@\n-x\n+y\nEOF", ["t.jsonl"]),
        ("patch -p0 <<'EOF'\n--- o.json\t2026-01-01\n+++ o.json\t2026-01-02\n@@\nEOF", ["o.json"]),
        ("a note on a diff:\n+++ b/oracle.json\n", []),  # a diff nobody applies writes nothing
        ("git apply x.diff\n+++ /dev/null\n", []),  # a deletion's target is no file
    ],
)
def test_the_files_a_patch_writes(text, patched):
    assert code_writes(text).patched == patched


@pytest.mark.parametrize(
    "code, trees",
    [
        ("tarfile.open('/tmp/t.tar').extractall('test')", ["test"]),
        ('zipfile.ZipFile(z).extractall(path="fixture")', ["fixture"]),
        ("tarfile.open(t).extractall()", ["."]),
        ("shutil.unpack_archive('/tmp/r.zip', 'restore')", ["restore"]),
        ("shutil.unpack_archive('/tmp/r.zip')", ["."]),
        ("shutil.copytree('/tmp/t', 'test', dirs_exist_ok=True)", ["test"]),
        ("fs.cpSync(src, 'test', {recursive: true})", ["test"]),
        ("FileUtils.cp_r('/tmp/t', 'test')", ["test"]),
        ("fs.rmSync('restore', {recursive: true})", ["restore"]),  # removes a tree
        ("tarfile.open(t).extractall(os.environ['D'])", []),
    ],
)
def test_the_folders_code_extracts_or_copies_a_tree_into(code, trees):
    found = code_writes(code)
    assert found.trees == trees
    assert found.unplaced == (not trees)  # a folder that is no literal is a write no one can place


def test_a_tree_the_code_writes_is_marked_for_expansion(tmp_path: Path):
    (tmp_path / "workspace").mkdir()
    ws = Workspace(tmp_path, HOME)
    text = "python3 -c \"import tarfile; tarfile.open('/tmp/t.tar').extractall('../test')\""
    writes = script_writes(text, ws, lambda p: ["<guess>"], lambda t: [])
    assert (ws.key("../test"), "script" + TREE, None) in writes
    unplaced = script_writes("shutil.unpack_archive(a, '$RUN/test')", ws, lambda p: [p], lambda t: [])
    assert unplaced == [("$RUN/test/*", "script", None)]


@pytest.mark.parametrize(
    "code, path",
    [
        ("os.remove('../oracle.json')", "../oracle.json"),
        ("os.unlink('t.jsonl')", "t.jsonl"),
        ("Path('../test/testmod.jsonl').unlink()", "../test/testmod.jsonl"),
        ("fs.unlinkSync('oracle.json')", "oracle.json"),
        ("fs.rmSync('oracle.json', {force: true})", "oracle.json"),
        ("File.delete('oracle.json')", "oracle.json"),
        ("unlink('oracle.json');", "oracle.json"),
        ('unlink "oracle.json";', "oracle.json"),  # Perl, without parentheses
        ('open(F, ">>", "oracle.json"); print F "x";', "oracle.json"),  # Perl's three-argument open
        ("open(my $fh, '+<', 'oracle.json');", "oracle.json"),  # read-write
        ("os.truncate('oracle.json', 0)", "oracle.json"),  # cut to a length: changed
        ("logging.basicConfig(level=1, filename='oracle.json')", "oracle.json"),  # logging writes its file
        ("logging.handlers.RotatingFileHandler('oracle.json')", "oracle.json"),
        ("fs.truncateSync('oracle.json')", "oracle.json"),
    ],
)
def test_a_removal_with_a_literal_path(code, path):
    assert code_writes(code).paths == [path]


@pytest.mark.parametrize(
    "code",
    [
        "open(bytes.fromhex(h).decode(), 'w')",
        "open(str('oracle.json'), 'w')",  # a call inside: the text still names the file (provenance)
        "open(os.path.join(d, name), 'a')",
        "os.remove(target)",
        "p.unlink()",
    ],
)
def test_a_removal_or_nested_open_whose_path_is_no_literal(code):
    assert code_writes(code).paths == [] and code_writes(code).unplaced


def test_a_copy_into_a_folder_writes_the_sources_name_and_a_move_its_source(tmp_path: Path):
    (tmp_path / "workspace").mkdir()
    (tmp_path / "fixture").mkdir()
    ws = Workspace(tmp_path, HOME)
    copied = script_writes("shutil.copy('/tmp/ready.json', '../fixture')", ws, lambda p: [], lambda t: [])
    assert ws.key("../fixture/ready.json") in {key for key, _, _ in copied}
    moved = script_writes("os.rename('../oracle.json', '/tmp/kept.json')", ws, lambda p: [], lambda t: [])
    assert (ws.key("../oracle.json"), "script (moved away)", None) in moved
    assert script_writes("shutil.rmtree('../test')", ws, lambda p: [], lambda t: []) == [
        (ws.key("../test"), "script" + TREE, None)
    ]


@pytest.mark.parametrize(
    "code, path",
    [
        ("fd = os.open('oracle.json', os.O_WRONLY | os.O_TRUNC)", "oracle.json"),
        ("fs.openSync('oracle.json', 'w')", "oracle.json"),
        ("File.new('oracle.json', 'w')", "oracle.json"),
        ("df.to_json('oracle.json', orient='records')", "oracle.json"),
        ("df.to_csv(path_or_buf='t.csv')", "t.csv"),
        ("pl.DataFrame(d).write_ndjson('t.jsonl')", "t.jsonl"),
        ("np.savetxt('t.txt', a)", "t.txt"),
        ("plt.savefig('fig.png')", "fig.png"),
        ("sqlite3.connect('db.sqlite')", "db.sqlite"),
        ("torch.save(model, 'm.pt')", "m.pt"),
        ("joblib.dump(x, 'x.pkl')", "x.pkl"),
        ("fileinput.input('t.jsonl', inplace=True)", "t.jsonl"),
    ],
)
def test_a_library_write_with_a_literal_path(code, path):
    assert code_writes(code).paths == [path]


@pytest.mark.parametrize(
    "code",
    ["os.open('oracle.json', os.O_RDONLY)", "fs.openSync('oracle.json', 'r')", "fileinput.input('t.jsonl')"],
)
def test_reading_opens_write_nothing(code):
    assert code_writes(code).paths == [] and not code_writes(code).unplaced


@pytest.mark.parametrize(
    "code, path",
    [
        ("[IO.File]::WriteAllText('oracle.json', 'x')", "oracle.json"),
        ("[System.IO.File]::AppendAllLines('t.jsonl', $l)", "t.jsonl"),
        ("[IO.File]::Delete('oracle.json')", "oracle.json"),
        ("[System.IO.File]::Copy('/tmp/a', 'oracle.json', $true)", "oracle.json"),
    ],
)
def test_dotnet_file_api_writes(code, path):
    assert path in code_writes(code).paths


@pytest.mark.parametrize(
    "code, path",
    [
        ('writeLines(x, "oracle.json")', "oracle.json"),
        ('write("{}", "oracle.json", append=TRUE)', "oracle.json"),  # base R: the file is the second argument
        ('write.csv(df, file = "t.csv", row.names = FALSE)', "t.csv"),
        ('cat("x", file="oracle.json", append=TRUE)', "oracle.json"),
        ('saveRDS(m, "m.rds")', "m.rds"),
        ('sink("log.txt")', "log.txt"),
    ],
)
def test_r_writers(code, path):
    assert path in code_writes(code).paths


def test_a_literal_concatenated_on_is_no_literal_path():
    found = code_writes("fs.writeFileSync('test/' + f, x); open('out/' . $name, 'w')")
    assert found.paths == [] and found.unplaced
