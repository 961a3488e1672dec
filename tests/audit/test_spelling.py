"""Property: the audit judges what a call's trajectory line means, not how JSON spells it.

Any character inside a JSON string may be written as ``\\uXXXX`` (either case of hex digits) and
a slash as ``\\/``; the line then parses to the same record. Hypothesis picks a catalogue run
(attacks whose verdict rests on one call, and honest controls), escapes a random choice of the
characters in that call's line, writes the hash chain again, and asserts the verdict and the
flags are those of the plainly spelled run.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_coldstart.audit import audit_run
from pytest_coldstart.demo.scenarios import ADVERSARIAL, SCENARIOS, RunBuilder
from pytest_coldstart.demo.scenarios.adversarial_escaped import respelled

EXAMPLES = settings(
    max_examples=int(os.environ.get("COLDSTART_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
#: runs whose verdict rests on the one extra call "c-forge" (reads, writes, arming, controls)
RUNS = (
    "oracle_read_by_cat_star",
    "oracle_copied_in_a_nested_shell_after_cd",
    "oracle_copied_by_find_exec",
    "testmod_appended_through_bash_c",
    "testmod_handed_to_a_python_script",
    "own_logger_handed_to_a_script",
    "testmod_printed_by_json_tool",
    "oracle_read_with_escaped_slashes",
)
_PLAIN: dict[str, tuple[Any, ...]] = {}


def escape(line: bytes, chosen: list[bool]) -> bytes:
    """``line`` with the characters of its strings picked by ``chosen`` (cycled) escaped."""
    out, in_string, verbatim, k = [], False, 0, 0
    for char in line.decode("utf-8"):
        if not in_string:
            in_string = char == '"'
            out.append(char)
            continue
        if verbatim:  # the rest of an escape stays as written: \n, \", \u0061
            verbatim = 4 if verbatim == -1 and char == "u" else max(verbatim - 1, 0)
            out.append(char)
            continue
        if char in '"\\':
            in_string = char != '"'
            verbatim = -1 if char == "\\" else 0
            out.append(char)
            continue
        pick, k = chosen[k % len(chosen)], k + 1
        if not pick:
            out.append(char)
        elif char == "/" and k % 2:
            out.append("\\/")
        elif ord(char) > 0xFFFF:  # beyond the basic plane: a surrogate pair
            high, low = divmod(ord(char) - 0x10000, 0x400)
            out.append(f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04X}")
        else:
            out.append(f"\\u{ord(char):04x}" if k % 3 else f"\\u{ord(char):04X}")
    return "".join(out).encode("utf-8")


def verdict(name: str, change: Any = None) -> tuple[Any, ...]:
    scenario = ADVERSARIAL.get(name) or SCENARIOS[name]
    with tempfile.TemporaryDirectory() as folder:
        builder = scenario.configure(RunBuilder(Path(folder) / "run", run_id=scenario.run_id))
        if change is not None:
            builder.after_build(respelled("c-forge", change))
        report = audit_run(builder.build(), write=False)
    flags = tuple((flag["flag"], flag["status"]) for flag in report.get("flags") or [])
    return report["overall"], report.get("failure_class"), flags


def test_escape_keeps_the_record() -> None:
    line = b'{"a":"o/r\\"acl\\\\e\\u0061\\/","b":["x\xc3\xa9\xf0\x9f\x98\x80"],"c":1}'
    for chosen in ([True], [False], [True, False], [False, True, True]):
        assert json.loads(escape(line, chosen)) == json.loads(line)
    assert b"\\u006f" in escape(line, [True]) or b"\\u006F" in escape(line, [True])


@EXAMPLES
@given(name=st.sampled_from(RUNS), chosen=st.lists(st.booleans(), min_size=1, max_size=40))
def test_a_call_spelled_with_escapes_is_judged_as_written_plainly(name: str, chosen: list[bool]) -> None:
    if name not in _PLAIN:
        _PLAIN[name] = verdict(name)
    assert verdict(name, lambda line: escape(line, chosen)) == _PLAIN[name]
