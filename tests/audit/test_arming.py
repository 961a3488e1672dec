"""Which agent calls show the logger being written, built or started: the ones that run
something to it, never words that run nothing (comments, listings, searches, help, thoughts)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence.arming import arms

NAMES = ("romlog.jsonl",)


@pytest.mark.parametrize(
    "tool, arguments",
    [
        ("write", {"path": "workspace/logger/RomLogger.java", "content": "final class RomLogger {}"}),
        ("edit", {"path": "RomLogger.java", "old": "a", "new": "b"}),
        ("bash", {"command": "javac -d build workspace/logger/RomLogger.java && jar cf romlogger.jar -C build ."}),
        ("bash", {"command": "lab start --mod romlogger.jar --log agent/romlog.jsonl"}),
        ("bash", {"command": "cd workspace/logger && ./gradlew build"}),
        ("bash", {"command": "cp build/romlogger.jar server/mods/"}),
        ("bash", {"command": "cat > workspace/logger/RomLogger.java <<'EOF'\nclass X {}\nEOF"}),
        ("bash", {"command": "python3 -c \"open('RomLogger.java','w').write(src)\""}),
        ("bash", {"command": '"$PY" tools/lab_server.py provision --name x --mod-jar "a/rom20-agent-logger.jar"'}),
        ("bash", {"command": "sudo env A=1 java -jar server.jar --mods romlogger.jar"}),
        ("bash", {"command": "echo '# not a comment' && javac RomLogger.java"}),
        ("lab_start", {"mod": "romlogger.jar"}),
        ("bridge", {"command": "lab start --mod romlogger.jar"}),
        ("bash", {"argv": ["cp", "romlogger.jar", "mods/"]}),
    ],
)
def test_calls_that_write_build_or_start_the_logger_arm_it(tool, arguments):
    assert arms(tool, arguments, NAMES)


@pytest.mark.parametrize(
    "tool, arguments",
    [
        ("bash", {"command": "# javac RomLogger.java"}),
        ("bash", {"command": "true # javac RomLogger.java && lab start --mod romlogger.jar"}),
        ("bash", {"command": "ls -la romlogger.jar workspace/logger/RomLogger.java"}),
        ("bash", {"command": "cat workspace/logger/RomLogger.java | grep build"}),
        ("bash", {"command": "grep -n start workspace/logger/RomLogger.java"}),
        ("bash", {"command": "lab start --mod romlogger.jar --help"}),
        ("bash", {"command": "unzip -l romlogger.jar"}),
        ("bash", {"command": "sha256sum romlogger.jar"}),
        ("read", {"path": "romlogger.jar"}),
        ("think", {"thought": "build romlogger.jar, then start the logger"}),
        ("web_search", {"query": "how to build and start a minecraft logger mod"}),
        ("run_command", {"command": "ls romlogger.jar"}),
        ("bash", {"command": "lab start --mod other.jar"}),  # no logger named
    ],
)
def test_words_that_run_nothing_do_not_arm_the_logger(tool, arguments):
    assert not arms(tool, arguments, NAMES)


WORDS = st.sampled_from(["javac", "jar", "build", "start", "lab", "romlogger.jar", "RomLogger.java", "&&", ";", "|"])


@given(st.lists(WORDS, max_size=12), st.sampled_from(["ls", "cat", "grep -n", "head", "stat", "echo"]))
def test_a_commented_or_listing_command_never_arms(words, head):
    line = " ".join(words)
    assert not arms("bash", {"command": f"true # {line}"}, NAMES)
    if not {"&&", ";", "|"} & set(words):
        assert not arms("bash", {"command": f"{head} {line}"}, NAMES)


@given(
    st.recursive(
        st.text(max_size=40),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
        max_leaves=20,
    ),
    st.text(max_size=12),
)
def test_any_arguments_are_judged_without_error(arguments, tool):
    assert arms(tool, arguments, NAMES) in (True, False)
