"""fresh_names: what mktemp prints is a name no file of the run has."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence import fresh_names, shell_words


@pytest.mark.parametrize(
    "text, spelled",
    [
        ("D=$(mktemp -d); cd $D && ls", "D=$(mktemp -d); cd $(mktemp -d) && ls"),
        (
            'export W="$(mktemp -d -t b.XXXX)" && cd "${W}"',
            'export W="$(mktemp -d -t b.XXXX)" && cd $(mktemp -d -t b.XXXX)',
        ),
        ("x=1\nD=`mktemp -d`\npushd $D", "x=1\nD=`mktemp -d`\npushd `mktemp -d`"),
    ],
)
def test_a_cd_into_a_variable_just_set_to_a_fresh_folder_is_spelled_as_one(text, spelled):
    assert fresh_names.fresh_spelled(text) == spelled


@pytest.mark.parametrize(
    "text",
    [
        "D=$(mktemp -d); D=..; cd $D",  # changed in between
        "true || D=$(mktemp -d); cd $D",  # may be skipped
        "false && D=$(mktemp -d); cd $D",
        "(D=$(mktemp -d)); cd $D",  # a subshell's
        "D=$(mktemp -d) | true; cd $D",  # a pipeline's
        "TMPDIR=. ; D=$(mktemp -d); cd $D",  # made in the run
        "D=$(mktemp -d x.XXXX); cd $D",  # a template without -t: made in the cwd
        "D=$(mktemp -d); cd $D/..",
        "D=$(mktemp -d); cd $E",
        "D=$(mktemp -d) || cd $D",
    ],
)
def test_no_other_cd_is_spelled_fresh(text):
    assert fresh_names.fresh_spelled(text) == text


@given(st.text(alphabet="D=$(mktemp -d);&|\n cd\"'`{}", max_size=200))
def test_fresh_spelling_keeps_the_segments(text):
    assert len(shell_words.SEGMENT.split(fresh_names.fresh_spelled(text))) == len(shell_words.SEGMENT.split(text))


@pytest.mark.parametrize(
    "text, name",
    [
        ('d=$(mktemp -d) && cp a "$d" && ls', "d"),
        ('TMP=$(mktemp) && jq . x > "$TMP"', "TMP"),
        ("export D=`mktemp -d -t bXXXXXX`; cp a ${D}/", "D"),
    ],
)
def test_a_variable_first_set_to_mktemp_is_fresh(text, name):
    assert fresh_names.fresh_variable(text) == name


@pytest.mark.parametrize(
    "text",
    [
        "d=$(mktemp -d); for d in x; do cp a $d; done",  # set again
        "d=$(mktemp -d); printf -vd oracle.json; cp a $d",
        "d=$(mktemp -d); d=oracle.json; cp a $d",
        "d=$(mktemp oracle); : ${d:=oracle.json}; cp a $d",  # no X's: mktemp fails, d is empty
        "d=$(mktemp -p test); cp a $d",  # a folder that may not exist
        "d=$(mktemp -d $x); cp a $d",
        "(d=$(mktemp -d)); cp a $d",  # a subshell's
        "d=$(mktemp -d) | true; cp a $d",
        "d=$(mktemp -d) || cp a $d",
        "cd w; d=$(mktemp -d); cp a $d",  # not the first statement: a condition may skip it
        "TMPDIR=. d=$(mktemp -d); cp a $d",
    ],
)
def test_no_other_variable_is_fresh(text):
    assert fresh_names.fresh_variable(text) is None
    assert fresh_names.fresh_variable("d=$(mktemp -d); cp a $d", tmpdir_set=True) is None


@given(st.text(alphabet="d=$(mktemp -dX);&|\n cp{}:-v'\"`", max_size=120))
def test_a_fresh_variable_is_the_first_statement_s_and_set_nowhere_else(text):
    name = fresh_names.fresh_variable(text)
    if name is not None:
        assert text.lstrip(" \t").removeprefix("export").lstrip(" \t").startswith(f"{name}=")
        assert fresh_names.fresh_variable(f"{text}\n{name}=oracle.json") is None
        assert fresh_names.fresh_variable(f"{text}\nread {name}") is None


def test_only_the_fresh_value_itself_writes_no_declared_file():
    guarded = fresh_names.without_fresh(lambda target: ["test/testmod.jsonl"], 'd=$(mktemp -d) && cp a "$d"', False)
    assert guarded('"$d"') == guarded("${d}") == guarded("$d/") == []
    assert guarded("$e") == guarded("$d/../x") == ["test/testmod.jsonl"]
