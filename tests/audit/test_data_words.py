"""data_words: what cat/tee copy from a here-document, and git's messages, read as echoes."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence.data_words import data_printed, heredocs_printed, messages_printed
from pytest_coldstart.audit.evidence.shell_words import SEGMENT


@pytest.mark.parametrize(
    "text, printed",
    [
        ("cat > n.md <<'EOF'\nsee oracle.json\nEOF", "cat > n.md <<'EOF'\necho 'see oracle.json'\nEOF"),
        ("tee n.md <<EOF >/dev/null\nit's x\nEOF\nls", "tee n.md <<EOF >/dev/null\necho 'it'\\''s x'\nEOF\nls"),
        ("cat <<\\EOF\n$(x)\nEOF", "cat <<\\EOF\necho '$(x)'\nEOF"),  # quoted: no expansion
    ],
)
def test_the_lines_cat_or_tee_copy_are_echoed(text, printed):
    assert heredocs_printed(text) == printed


@pytest.mark.parametrize(
    "text",
    [
        "cat <<'EOF' | sh\ncat oracle.json\nEOF",  # piped to a shell
        "tee >(sh) <<'EOF'\ncat oracle.json\nEOF",
        "cat <<'EOF' \\\n| sh\ncat oracle.json\nEOF",  # the line goes on
        "cat <<EOF > n\n$(cat oracle.json)\nEOF",  # unquoted: the shell runs it
        "cat <<EOF > n\n`cat oracle.json`\nEOF",
        "bash <<'EOF'\ncat oracle.json\nEOF",
        "x=$(cat <<'EOF'\ncat oracle.json\nEOF\n); eval \"$x\"",
        "cat <<'EOF' >&3\ncat oracle.json\nEOF",
        "cat <<'A' <<'B'\ncat oracle.json\nA\nx\nB",
    ],
)
def test_no_other_body_is_echoed(text):
    assert heredocs_printed(text) == text


@pytest.mark.parametrize(
    "text, printed",
    [
        ('git -C w commit -m "see oracle.json"', "echo \"see oracle.json\" ; git -C w commit -m ''"),
        ("cd w && git commit -qam 'x y' && git push", "cd w &&echo 'x y' ;  git commit -qam '' && git push"),
        ('git stash push -m "wip"', "echo \"wip\" ; git stash push -m ''"),
    ],
)
def test_git_messages_are_echoed(text, printed):
    assert messages_printed(text) == printed


@pytest.mark.parametrize(
    "text",
    [
        'git commit -m "$(cat oracle.json)"',
        'git -C commit show -m "oracle.json"',  # show's -m is a flag
        "git stash show -m oracle.json",
        'echo -m "oracle.json"',
        'sh -c x git commit -m "oracle.json"',
    ],
)
def test_no_other_words_are_messages(text):
    assert messages_printed(text) == text


@given(st.text(alphabet="cat<>'\"EOF\n|&;$()` sh-mgit", max_size=160))
def test_printing_never_adds_a_segment_outside_the_copied_words(text):
    printed = data_printed(text)
    # only echo words are added: every segment of the text is still there, in order
    assert printed == text or "echo" in printed
    kept = [s.strip() for s in SEGMENT.split(text) if s.strip() and "<<" not in s]
    assert all(segment.split()[0] in printed for segment in kept if segment.split())
