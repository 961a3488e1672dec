"""The importer's fast path (spool.preparer): a record no rule changes and no payload takes
is serialized once; every record comes out byte for byte as the full preparation makes it."""

from __future__ import annotations

import functools
import os
import re
import tempfile
from pathlib import Path
from unittest import mock

import pytest
from core_helpers import new_run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_scrub import ENV, KEYS, STRINGS

from pytest_coldstart.importers import spool
from pytest_coldstart.importers.prefilter import Prefilter, _trie
from pytest_coldstart.importers.spool import serialize
from pytest_coldstart.record import logsettings
from pytest_coldstart.record.recorder import Recorder
from pytest_coldstart.record.redaction import Redactor
from pytest_coldstart.run.errors import ColdstartError

LARGE = st.sampled_from(["x" * 20_000, "token=" + "y" * 20_000, "é" * 9_000])
VALUES = st.recursive(
    STRINGS | LARGE | st.integers() | st.none() | st.booleans(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
    max_leaves=8,
)
RECORDS = st.one_of(
    st.builds(lambda v: {"record": "call", "call_id": "c1", "tool": "bash", "arguments": v}, VALUES),
    st.builds(lambda v: {"record": "result", "call_id": "c1", "status": "ok", "result": v}, VALUES),
    st.builds(lambda v: {"record": "note", "text": "n", "data": v}, st.dictionaries(KEYS, VALUES, max_size=3)),
    st.builds(lambda v: {"record": "state", "state": v}, st.dictionaries(KEYS, VALUES, max_size=3)),
)


def _recorder(root: Path) -> Recorder:
    return Recorder(new_run(root, run_id="fast", calls=0, logging={"redaction": {"env": ["SEEDED"]}}))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields=RECORDS)
def test_the_fast_path_writes_what_the_full_preparation_writes(fields):
    with mock.patch.dict(os.environ, ENV), tempfile.TemporaryDirectory() as tmp:
        recorder = _recorder(Path(tmp) / "run")
        prepare = spool.preparer(recorder, Path(tmp) / "session.jsonl")
        try:
            full = serialize(recorder.prepare(dict(fields)))
        except ColdstartError:  # refused in full: refused on the fast path too
            with pytest.raises(ColdstartError):
                prepare(dict(fields))
            return
        assert prepare(dict(fields)) == full


def test_a_clean_small_record_skips_the_redactor_and_a_secret_does_not(tmp_path):
    with mock.patch.dict(os.environ, ENV):
        recorder = _recorder(tmp_path / "run")
        prepare = spool.preparer(recorder, tmp_path / "s.jsonl")
        with mock.patch.object(recorder.redactor, "apply_record", wraps=recorder.redactor.apply_record) as walk:
            prepare({"record": "call", "call_id": "c1", "tool": "bash", "arguments": {"command": "ls -la"}})
            assert walk.call_count == 0
            item = prepare({"record": "call", "call_id": "c2", "tool": "bash", "arguments": {"password": "hunter2"}})
            assert walk.call_count == 1 and b"hunter2" not in item[4]


@given(st.lists(st.binary(min_size=1, max_size=6), min_size=1, max_size=12), st.binary(max_size=40))
def test_the_gate_trie_finds_a_gate_exactly_where_one_is(words, text):
    pattern = re.compile(_trie(sorted(set(words))))
    assert (pattern.search(text) is not None) == any(word in text for word in words)


@functools.cache
def _prefilter() -> Prefilter:
    settings = logsettings.complete({"redaction": {"env": ["SEEDED"]}})
    return Prefilter(Redactor.from_settings(settings, environ=ENV))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from([b"\\u00e9", b"\\/", b"\\U", b"\\n", b"TOKEN", b"pass", b"w", b"\xc3\xa9", b"x"]), max_size=6
    )
)
def test_clean_passes_over_nothing_that_hits_finds(parts):
    """``clean`` scans for the escapes together with the gates: never clean where ``hits`` finds one."""
    data = b'{"k":"' + b"".join(parts) + b'"}'
    assert not (_prefilter().clean(data) and _prefilter().hits(data))
