"""Hypothesis: arbitrary mutations of sample lines give a clean import or a clean one-line error.

Never a crash, never a partial write; a successful import always validates (apart from the
before-the-run findings a mutated, older timestamp legitimately causes).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from corpus import SESSIONS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from importer_helpers import CREATED, SAMPLES, manifest, new_run, snapshot

from pytest_coldstart.importers import registry
from pytest_coldstart.importers.base import ImportedSession
from pytest_coldstart.importers.pipeline import import_session
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.validate.run import validate_run

LINES = {name: (SESSIONS / f"{name}.jsonl").read_bytes().splitlines() for name in SAMPLES}
INTERESTING = st.sampled_from(
    [
        None,
        True,
        0,
        -1,
        2**70,
        1.5,
        "",
        " ",
        "x",
        "toolCall",
        "tool_use",
        "tool_result",
        "toolResult",
        "assistant",
        "user",
        "message",
        "session",
        "function_call",
        "function_call_output",
        "custom_tool_call",
        "progress",
        "2026-13-01T00:00:00Z",
        "2026-02-30T00:00:00.000Z",
        "1999-01-01T00:00:00Z",
        "2026-06-01T00:00:00+05:00",
        "12345",
        "call_A7mQ2vXr9Lk4Ty1Wn8Bd3Hs6",
        "toolu_01HtVq8c2XkLm4Rz7WbN3pQa",
        "0b7d3c58",
        "aborted",
        "error",
        "Process exited with code 7",
        '{"metadata":{"exit_code":"x"}}',
        [],
        {},
        [{}],
        {"type": "text"},
    ]
)
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | INTERESTING,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.text(max_size=8) | st.sampled_from(["type", "id", "content", "timestamp"]), inner, max_size=3
        )
    ),
    max_leaves=6,
)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, prefix + (index,))


def _set(value, path, new, delete=False):
    if not path:
        return new
    target = value
    for step in path[:-1]:
        target = target[step]
    if delete:
        del target[path[-1]]
    else:
        target[path[-1]] = new
    return value


@st.composite
def mutated(draw):
    name = draw(st.sampled_from(sorted(SAMPLES)))
    lines = list(LINES[name])
    count = draw(st.integers(1, 3))
    for _ in range(count):
        n = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["value", "value", "value", "drop", "bytes", "truncate", "swap", "json", "delete"]))
        if kind in ("value", "drop"):
            try:
                value = json.loads(lines[n])
            except ValueError:
                continue
            path = draw(st.sampled_from(list(_paths(value))))
            if kind == "drop" and not path:
                continue
            value = _set(value, path, draw(JSON), delete=kind == "drop")
            lines[n] = json.dumps(value).encode()
        elif kind == "bytes":
            at = draw(st.integers(0, len(lines[n])))
            lines[n] = lines[n][:at] + draw(st.binary(min_size=1, max_size=4)) + lines[n][at:]
        elif kind == "truncate":
            lines[n] = lines[n][: draw(st.integers(0, len(lines[n])))]
        elif kind == "swap":
            m = draw(st.integers(0, len(lines) - 1))
            lines[n], lines[m] = lines[m], lines[n]
        elif kind == "json":
            lines[n] = json.dumps(draw(JSON)).encode()
        elif len(lines) > 1:
            del lines[n]
    ending = draw(st.sampled_from([b"\n", b"\n", b""]))  # sometimes a torn last line
    return name, b"\n".join(lines) + ending


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_parsers_never_crash(case) -> None:
    name, data = case
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s.jsonl"
        path.write_bytes(data)
        try:
            session = registry.get(SAMPLES[name]).parse(path)
        except ColdstartError as exc:
            assert exc.one_line() and "\n" not in exc.problem
            return
        assert isinstance(session, ImportedSession)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_imports_are_all_or_nothing_and_validate(case) -> None:
    name, data = case
    with tempfile.TemporaryDirectory() as folder:
        session = Path(folder) / "s.jsonl"
        session.write_bytes(data)
        run = new_run(Path(folder) / "run")
        before = snapshot(run)
        try:
            import_session(run, SAMPLES[name], session)
        except ColdstartError:
            assert snapshot(run) == before
            return
        (entry,) = manifest(run)["imports"]
        report = validate_run(run)
        if entry["session_started_at"] >= CREATED:
            assert report.valid, [f.to_text() for f in report.findings]
        else:
            assert {f.code for f in report.findings} <= {"imports.before_run", "trajectory.at"}
