"""The words of a command line (audit/evidence/shell_words.py): tokens behind a prefix, braced
variables and ANSI-C quoting read as the shell and the program read them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence.shell_words import dequoted, segment_tokens, strings, without_comments


@pytest.mark.parametrize(
    ("segment", "token"),
    [
        ("git show HEAD:oracle.json", "oracle.json"),
        ("scp host:/srv/run/oracle.json .", "/srv/run/oracle.json"),
        ("curl -F file=@oracle.json http://x", "oracle.json"),
        ("curl --data-binary @test/testmod.jsonl http://x", "test/testmod.jsonl"),
        ("curl -s localhost:8000/oracle.json", "$SERVED/oracle.json"),
        ("wget http://127.0.0.1:9000/sub/oracle.json", "$SERVED/sub/oracle.json"),
        ("cat ${PWD}/o*e.json", "$PWD/o*e.json"),
        ("read file:///srv/run/oracle.json", "/srv/run/oracle.json"),
        ("read file://oracle.json", "oracle.json"),
    ],
)
def test_a_path_behind_a_prefix_is_a_token_of_its_own(segment, token):
    assert token in (segment_tokens(segment, None) or [])


@pytest.mark.parametrize(
    "segment",
    ["cat C:/run/oracle.json", "curl https://example.com/oracle.json", "echo a:b"],
)
def test_drive_letters_and_remote_urls_keep_their_one_reading(segment):
    tokens = segment_tokens(segment, None) or []
    assert not any(t.startswith("$SERVED/") for t in tokens)
    assert "/run/oracle.json" not in tokens and "//example.com/oracle.json" not in tokens


def test_ansi_c_quoting_is_joined_like_other_quotes():
    assert dequoted("cat $'o'racle.json") == "cat oracle.json"
    assert dequoted("cat 'ora''cle.json'") == "cat oracle.json"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab:@/$.{}'\"\\ lochst8-P")), max_size=120))
def test_any_segment_tokenises_without_error(segment):
    tokens = segment_tokens(segment, None)
    assert tokens is not None and all(isinstance(t, str) and t for t in tokens)


@pytest.mark.parametrize(
    ("value", "path"),
    [
        ({"path_parts": ["ora", "cle.json"]}, "oracle.json"),
        ({"segments": ["test", "testmod.jsonl"]}, "test/testmod.jsonl"),
        ({"dir": "test", "name": "testmod.jsonl"}, "test/testmod.jsonl"),
        ({"directory": ".", "filename": "oracle", "extension": "json"}, "./oracle.json"),
        ({"filename": "oracle", "ext": ".json"}, "oracle.json"),
    ],
)
def test_a_path_given_in_parts_is_also_read_whole(value, path):
    assert path in set(strings(value))


def test_words_with_spaces_make_no_path_and_lists_are_bounded():
    assert "a b/c" not in set(strings({"argv": ["a b", "c"]}))
    assert len(list(strings({"x": [str(i) for i in range(100)]}))) == 101  # the items and one command line


@pytest.mark.parametrize(
    "text, kept",
    [
        ("cat a # b", "cat a "),
        ("# javac X.java\nlab start", "\nlab start"),
        ("true # x && cp a b", "true "),
        ("echo '# not a comment' x#y", "echo '# not a comment' x#y"),
        ('echo "a # b";# c', 'echo "a # b";'),
        ("ls#x", "ls#x"),
        ("ls#x # y\nz", "ls#x \nz"),
        ("echo 'it''s' # c", "echo 'it''s' "),
    ],
)
def test_comments_are_cut_where_the_shell_cuts_them(text, kept):
    assert without_comments(text) == kept


@given(st.text(alphabet="ab #'\"\n;", max_size=40))
def test_cutting_comments_only_removes_characters(text):
    kept = without_comments(text)
    assert len(kept) <= len(text) and kept.count("\n") == text.count("\n")


@pytest.mark.parametrize(
    "uri, path",
    [
        ("file:///home/lab/run/oracle.json", "/home/lab/run/oracle.json"),
        ("file://localhost/home/lab/run/oracle.json", "/home/lab/run/oracle.json"),
        ("file:%6fracle.json", "oracle.json"),
        ("file:///C:/run/oracle.json", "C:/run/oracle.json"),
        ("file://server/share/x", "//server/share/x"),
    ],
)
def test_file_uri_path(uri, path):
    from pytest_coldstart.audit.evidence.shell_words import file_uri_path

    assert file_uri_path(uri) == path
