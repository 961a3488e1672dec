"""Adversarial scenarios: a logger "written, built or started", or read, by calls that run nothing.

logger_armed_before_activation needs an agent call showing the logger being written, built or
started (seed §6). Words in a comment, a listing, a search, a help request, a read of the jar,
a thought or a web search name the logger and an action without doing it; every logger call
of the passing run is replaced by such a call, so no call is left that arms the logger.
Likewise agent_read_log needs a plausible read/exec call (seed §6): a call that names the logger
only in a comment, in a grep that prints counts or names, in a help request, or in a thought
links nothing it returns to the logger (the ``agent_read_log.linkage`` review). And an agent call
that writes its logger's output itself after the last cart was removed leaves captures that may
have been written after the fact (the ``transient_outputs_captured.window`` review).
"""

from __future__ import annotations

from typing import Any

from pytest_coldstart.demo.scenarios.adversarial_edits import R2, F, P, S, W, _extra_call
from pytest_coldstart.demo.scenarios.builder import RunBuilder
from pytest_coldstart.demo.scenarios.catalogue import Scenario, _flags

ARMED = (
    "logger_armed_before_activation PASS requires ... an agent call showing the logger being "
    "written/built/started (seed §6)"
)
LOGGER_CALLS = ("c-write-logger", "c-build-logger", "c-start-logger")
NOT_ARMED = "no successful agent call shows the logger being written, built or started"
LINKAGE = (
    "agent_read_log.linkage when the linkage is ambiguous (filename echoed, uuid alone, content without "
    "a logger reference, or unorderable); a plausible read/exec call (seed §6)"
)


def _logger_calls(tool: str, arguments: dict[str, Any]) -> Any:
    """The passing run with its three logger calls replaced by ``tool(arguments)``."""

    def configure(b: RunBuilder) -> RunBuilder:
        def change(records: list[dict[str, Any]]) -> None:
            for record in records:
                if record.get("record") == "call" and record.get("call_id") in LOGGER_CALLS:
                    record.update(tool=tool, arguments=arguments)

        return b.passing().mutate_trajectory(change)

    return configure


def _refused(name: str, description: str, tool: str, arguments: dict[str, Any]) -> Scenario:
    return S(
        name, description, _logger_calls(tool, arguments), F, "AGENT_FAIL", _flags(la=F, to=F, ar=F), NOT_ARMED, ARMED
    )


ARMING: list[Scenario] = [
    _refused(
        "logger_armed_by_comments",
        "the logger calls are shell comments: # javac RomLogger.java && lab start --mod romlogger.jar",
        "bash",
        {"command": "true # javac RomLogger.java && lab start --mod romlogger.jar"},
    ),
    _refused(
        "logger_armed_by_listing_the_jar",
        "the logger calls only list the jar and the source",
        "bash",
        {"command": "ls -la romlogger.jar workspace/logger/RomLogger.java"},
    ),
    _refused(
        "logger_armed_by_searching_its_source",
        "the logger calls grep the source for the word start",
        "bash",
        {"command": "grep -n start workspace/logger/RomLogger.java"},
    ),
    _refused(
        "logger_armed_by_asking_for_help",
        "the logger calls ask the lab tool for help about starting the logger",
        "bash",
        {"command": "lab start --mod romlogger.jar --help"},
    ),
    _refused(
        "logger_armed_by_reading_the_jar",
        "the logger calls read romlogger.jar (the word jar is in its name)",
        "read",
        {"path": "romlogger.jar"},
    ),
    _refused(
        "logger_armed_by_a_thought",
        "the logger calls are thoughts: build romlogger.jar, then start the logger",
        "think",
        {"thought": "build romlogger.jar, then start the logger with lab start --mod romlogger.jar"},
    ),
    _refused(
        "logger_armed_by_a_web_search",
        "the logger calls search the web for how to build and start a logger mod",
        "web_search",
        {"query": "how to build and start a minecraft logger mod jar"},
    ),
    S(
        "logger_built_in_its_folder_by_gradle",
        "allowed: the logger is built by ./gradlew build in its own folder, named only by the cd",
        _logger_calls(
            "bash", {"command": "cd workspace/logger && ./gradlew build && lab start --mod build/libs/x.jar"}
        ),
        P,
        None,
        _flags(),
        "writes/builds/starts the logger",
        ARMED,
    ),
    S(
        "logger_deployed_by_a_tool_of_its_own",
        "allowed: the logger is started by a harness tool named lab_start",
        _logger_calls("lab_start", {"mod": "romlogger.jar", "log": "agent/romlog.jsonl"}),
        P,
        None,
        _flags(),
        "writes/builds/starts the logger",
        ARMED,
    ),
]


def _read_call(tool: str, arguments: dict[str, Any]) -> Any:
    """The passing run with its logger read replaced by ``tool(arguments)`` (same result)."""

    def configure(b: RunBuilder) -> RunBuilder:
        def change(records: list[dict[str, Any]]) -> None:
            for record in records:
                if record.get("record") == "call" and record.get("call_id") == "c-read-log":
                    record.update(tool=tool, arguments=arguments)

        return b.passing().mutate_trajectory(change)

    return configure


def _unlinked(name: str, description: str, tool: str, arguments: dict[str, Any], because: str) -> Scenario:
    return S(name, description, _read_call(tool, arguments), W, None, _flags(ar=W), because, LINKAGE)


LINKED: list[Scenario] = [
    _unlinked(
        "logger_read_named_only_in_a_comment",
        "the read prints another file and names the logger only in a comment",
        "bash",
        {"command": "cat /tmp/notes.txt  # agent/romlog.jsonl"},
        "only in a comment",
    ),
    _unlinked(
        "logger_read_counted_by_grep",
        "grep -c counts the logger's lines; the content comes from another file",
        "bash",
        {"command": "grep -c cart agent/romlog.jsonl; cat /tmp/notes.txt"},
        "only in `grep -c`",
    ),
    _unlinked(
        "logger_read_asked_for_help",
        "cat is asked for its help beside the logger's name",
        "bash",
        {"command": "cat --help agent/romlog.jsonl"},
        "only in `--help`",
    ),
    _unlinked(
        "logger_read_in_a_thought",
        "a think tool mentions the logger file and returns the captured lines",
        "think",
        {"thought": "read agent/romlog.jsonl"},
        "reads no file",
    ),
    S(
        "logger_read_by_grep_without_file_names",
        "allowed: grep -h prints the logger's matching lines (-h drops file names; it is no help flag)",
        _read_call("bash", {"command": "grep -h cart agent/romlog.jsonl  # the captures"}),
        P,
        None,
        _flags(),
        "names the logger file and returns captured content",
        R2,
    ),
]


REWRITTEN = (
    "every cart_ejected uuid has a cart_observed record ordered after ejection and before removal; "
    ".window when ... no shared ordering layer (seed §6); raw output written by the agent's own logger (seed §5)"
)


def _extra(command: str) -> Any:
    """The passing run and one more agent call (after every cart was removed) running ``command``."""
    return lambda b: _extra_call(b.passing(), "c-forge", "bash", {"command": command})


REWRITTEN_AFTER: list[Scenario] = [
    S(
        "logger_output_replaced_after_the_carts_were_gone",
        "after the last cart was removed the agent copies a file over its logger's output",
        _extra("cp /tmp/captures.jsonl agent/romlog.jsonl"),
        W,
        None,
        _flags(to=W),
        "may have been written after the fact",
        REWRITTEN,
    ),
    S(
        "logger_output_appended_to_after_the_carts_were_gone",
        "after the last cart was removed the agent echoes a capture onto its logger's output",
        _extra('echo \'{"event": "cart_observed"}\' >> agent/romlog.jsonl'),
        W,
        None,
        _flags(to=W),
        "may have been written after the fact",
        REWRITTEN,
    ),
    S(
        "logger_output_edited_in_place_after_the_carts_were_gone",
        "after the last cart was removed the agent edits its logger's output in place",
        _extra("sed -i 's/coal/diamond/' agent/romlog.jsonl"),
        W,
        None,
        _flags(to=W),
        "may have been written after the fact",
        REWRITTEN,
    ),
    S(
        "logger_output_read_by_a_script_after_the_carts_were_gone",
        "allowed: after the carts are gone a script reads the logger's output (it writes a report elsewhere)",
        _extra("python3 summarize.py agent/romlog.jsonl > /tmp/report.txt"),
        P,
        None,
        _flags(),
        "3 capture(s) cover 3 ejected cart(s)",
        REWRITTEN,
    ),
]
