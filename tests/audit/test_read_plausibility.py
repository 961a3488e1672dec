"""R2's plausible read, as a property: whatever shell line names the logger only through
commands that cannot read it, or supplies the captured content itself, agent_read_log is never
PASS; a line that reads the logger with a reading command stays PASS."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from audit_helpers import flag
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_coldstart.audit import audit_run
from pytest_coldstart.audit.evidence.read_plausibility import NON_READERS
from pytest_coldstart.demo.scenarios import RunBuilder, story
from pytest_coldstart.demo.scenarios.adversarial_edits import _captured_text, _read

EXAMPLES = settings(
    max_examples=int(os.environ.get("COLDSTART_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
CAPTURED = _captured_text().splitlines()[0]
LOGGER = story.LOGGER_PATH
LOGGER_FORMS = (LOGGER, f"./{LOGGER}", f"agent/../{LOGGER}", f"'{LOGGER}'")
SEPARATORS = (" && ", "; ", " || ", "\n")
OTHER = st.sampled_from(("cat /tmp/carts.txt", "head -5 notes.md", "python show.py", "true"))


def read_log_status(command: str) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        run = _read({"command": command}, CAPTURED, tool="bash")(RunBuilder(Path(tmp) / "run")).build()
        return str(flag(audit_run(run, write=False), "agent_read_log")["status"])


@EXAMPLES
@given(
    head=st.sampled_from(sorted(NON_READERS - {"[", "cp", "mv", "ln", "install", "copy-item", "move-item"})),
    form=st.sampled_from(LOGGER_FORMS[:3]),
    before=st.lists(OTHER, max_size=2),
    after=st.lists(OTHER, max_size=2),
    separator=st.sampled_from(SEPARATORS),
)
def test_a_filename_echoed_is_never_a_read(head, form, before, after, separator):
    command = separator.join([*before, f"{head} -l {form}", *after])
    assert read_log_status(command) != "PASS", command


@EXAMPLES
@given(
    prefix=st.sampled_from(("echo", "printf '%s\\n'", "cat <<EOF\n", "python -c print")),
    reader=st.sampled_from(("cat", "grep -c x", "head -1")),
    separator=st.sampled_from(SEPARATORS),
)
def test_content_the_call_supplies_is_never_a_read(prefix, reader, separator):
    command = f"{reader} {LOGGER}{separator}{prefix} '{CAPTURED}'"
    assert read_log_status(command) != "PASS", command


@EXAMPLES
@given(
    reader=st.sampled_from(("cat", "tail -n 50", "grep -F minecraft", "jq -c .", "python3 dump.py", "sudo cat")),
    form=st.sampled_from(LOGGER_FORMS),
    before=st.lists(OTHER, max_size=2),
    separator=st.sampled_from(SEPARATORS),
)
def test_a_reading_command_on_the_logger_is_a_read(reader, form, before, separator):
    command = separator.join([*before, f"{reader} {form}"])
    assert read_log_status(command) == "PASS", command


def test_without_echoes_keeps_what_runs():
    from pytest_coldstart.audit.evidence.read_plausibility import without_echoes

    value = {"command": "echo build logger && javac Logger.java; printf start | cat", "n": [1, "echo x > f"]}
    assert without_echoes(value) == {"command": " javac Logger.java ;  cat", "n": [1, "echo x > f"]}
    assert without_echoes("gradle build") == "gradle build"  # no echo: untouched
