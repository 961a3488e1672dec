"""Reads of a name the shell makes at run time (audit/evidence/runtime_reads.py) and what they
reach through the naming of a run's declared files."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence import runtime_reads
from pytest_coldstart.audit.evidence.runtime_reads import hands_off, sources


def reads(text: str) -> list[tuple[str, str, bool]]:
    return list(runtime_reads.runtime_reads(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('for f in *; do cat "$f"; done', (".", "*", False)),
        ("for f in $(ls); do cat $f; done", (".", "*", False)),
        ('ls -R test | while read f; do cat "$f"; done', ("test", "*", True)),
        ("ls | xargs cat", (".", "*", False)),
        ("cat $(ls | grep ora)", (".", "*", False)),
        ("cat `find test -name '*.jsonl'`", ("test", "*.jsonl", True)),
        ("cat $(printf 'o%sacle.json' r)", (".", "o*acle.json", False)),
        ("echo oracle.json | xargs cat", (".", "oracle.json", False)),
        ("printf -v f '%s' oracle.json; cat $f", (".", "oracle.json", False)),
        ("cat test/$f", ("test", "*", False)),
        ('cat "$d/$f"', ("$d", "*", False)),
        ("while read f; do cat $f; done < <(ls -a)", (".", "*", False)),
    ],
)
def test_a_runtime_name_reads_the_sources_of_names_of_its_text(text, expected):
    assert hands_off(text)
    assert expected in reads(text)


@pytest.mark.parametrize(
    "text",
    [
        "ls; cat notes.txt",  # no runtime name
        "echo $HOME; printf '%s\\n' $PATH",  # printing is no read
        "export X=$HOME; cd $X",
        "for i in 1 2 3; do echo $i; done",
        "cat $HOME/.bashrc",  # the name is literal, only its folder is not
    ],
)
def test_texts_without_a_runtime_read_read_nothing_here(text):
    assert not hands_off(text) and reads(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("cat $(echo nbjhsf | tr a-z b-za).json", (".", "*.json", False)),
        ("cat ora`echo cle`.json", (".", "ora*.json", False)),
        ("cat test/x$(seq 1).jsonl", ("test", "x*.jsonl", False)),
    ],
)
def test_a_name_a_substitution_makes_part_of_is_a_glob_of_its_literal_parts(text, expected):
    assert expected in reads(text)


def test_a_runtime_name_with_a_folder_of_its_own_reads_only_that_folder():
    assert reads("ls -la; cat workspace/$f") == [("workspace", "*", False)]


def test_a_substitution_reads_only_what_its_own_commands_list():
    found = reads('ls -la; grep -n foo $(find workspace -name "*.py")')
    assert found == [("workspace", "*.py", True)]


def test_sources_list_every_listing_glob_find_and_printed_name():
    text = "ls test; echo *.json; find fixture -name x; printf 'o%sacle.json'; echo done"
    found = set(sources(text))
    assert {("test", "*", False), (".", "*.json", False), ("fixture", "x", True), (".", "o*acle.json", False)} <= found


@pytest.mark.parametrize(
    "command",
    [
        'for f in *; do cat "$f"; done',
        'ls | while read f; do cat "$f"; done',
        "cat $(ls | grep ora)",
        "cat $(printf 'o%sacle.json' r)",
        "echo oracle.json | xargs cat",
        "printf -v f '%s' oracle.json; cat $f",
        "a=ora; cat ${a}cle.json",
        "cd workspace && for f in ../*; do cat $f; done",
    ],
)
def test_the_naming_takes_each_runtime_read_to_the_oracle(model, command):
    arguments = {"command": command}
    assert model.may_matter(f'"arguments": {{"command": "{command}"}}'.lower().encode(), "bash")
    assert "oracle" in model.names(arguments)


@pytest.mark.parametrize(
    "command",
    [
        'for f in workspace/*.py; do python3 "$f"; done',
        'cd workspace && for f in *; do cat "$f"; done',
        "cd workspace && ls | xargs cat",
        'ls -la; grep -n foo $(find workspace -name "*.py")',
        "f=workspace/notes.txt; ls; cat $f",  # the variable has a value: no runtime name
    ],
)
def test_runtime_reads_of_the_agents_own_files_name_nothing(model, command):
    assert model.names({"command": command}) == set()


def test_a_write_to_a_runtime_name_takes_the_listings_of_its_text(model):
    command = "cd test; ls | while read f; do echo '{}' >> \"$f\"; done"
    assert "test_mod" in model.feed("c1", "bash", {"command": command}, True)


_SHELLISH = st.text(alphabet=st.sampled_from(list("ab$(){}`|;&<>'\" *?/.-%\\\nxargscdlsfor=")), max_size=200)


@settings(max_examples=300, deadline=None)
@given(_SHELLISH)
def test_any_text_is_read_without_error_and_within_the_bound(text):
    found = reads(text)
    assert len(found) <= runtime_reads._MAX_SOURCES
    assert all(isinstance(folder, str) and isinstance(pattern, str) for folder, pattern, _ in found)
    assert len(list(sources(text))) <= runtime_reads._MAX_SOURCES


@pytest.mark.parametrize(
    "text",
    [
        "cat $(rev <<< nosj.elcaro)",
        "cat $(echo nosj.elcaro | rev)",
        "echo nosj.elcaro | rev | xargs cat",
        "cat $(echo b3JhY2xlLmpzb24K | base64 -d)",
    ],
)
def test_a_name_a_maker_prints_from_given_words_may_be_any_file_of_the_folder(text):
    assert (".", "*", False) in reads(text)


@pytest.mark.parametrize(
    "text",
    [
        "find workspace -name '*.py' | sed 's|^./||' | xargs wc -l",  # a listing reshaped
        "git log --oneline | rev | cut -c1-10",  # no runtime read at all
    ],
)
def test_a_maker_fed_a_listing_only_reads_no_more_than_the_listing(text):
    assert (".", "*", False) not in reads(text)


@pytest.mark.parametrize(
    "text, read",
    [
        ('a=(*); cat "${a[@]}"', (".", "*", False)),
        ("cat $(compgen -f o)", (".", "o*", False)),
        ("cat $(dir)", (".", "*", False)),
        ("du -a | cut -f2 | xargs cat", (".", "*", True)),
        ("tree -fi | xargs cat", (".", "*", True)),
        ("git ls-files -o | xargs cat", (".", "*", True)),
        ("fd . test | xargs cat", ("test", "*", True)),
        ('ls -d "$PWD"/* | xargs cat', (".", "*", False)),
        ("find . -type f | cpio -o", (".", "*", True)),
        ("find test | zip -@ /tmp/t.zip", ("test", "*", True)),
    ],
)
def test_more_sources_of_runtime_names(text, read):
    assert read in list(runtime_reads.runtime_reads(text))
