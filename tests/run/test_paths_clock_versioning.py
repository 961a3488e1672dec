"""paths (containment), clock (format/parse), versioning (fail closed), hashing."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta, timezone
from pathlib import PurePosixPath, PureWindowsPath

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_coldstart.run import hashing
from pytest_coldstart.run.clock import FixedClock, format_at, is_timestamp, parse_at, zoneless
from pytest_coldstart.run.errors import ContainmentError, VersionError
from pytest_coldstart.run.paths import relative_posix, resolve_inside
from pytest_coldstart.run.versioning import incompatible, version_of


def test_resolve_inside_accepts_plain_relative_paths(tmp_path):
    (tmp_path / "a").mkdir()
    assert resolve_inside(tmp_path, "a/b.json") == tmp_path / "a" / "b.json"
    assert resolve_inside(tmp_path, "./a\\b.json") == tmp_path / "a" / "b.json"
    assert relative_posix(tmp_path, tmp_path / "a" / "b") == "a/b"


@pytest.mark.parametrize(
    "relative, words",
    [
        ("/etc/passwd", "absolute"),
        ("C:\\x", "absolute"),
        ("C:x", "absolute"),
        ("\\\\server\\share\\x", "absolute"),
        ("../x", "leaves the run"),
        ("a/../../x", "leaves the run"),
        ("", "non-empty"),
        ("  ", "non-empty"),
        (None, "non-empty"),
        (5, "non-empty"),
        ("a\x00b", "NUL"),
    ],
)
def test_resolve_inside_refuses(tmp_path, relative, words):
    with pytest.raises(ContainmentError) as caught:
        resolve_inside(tmp_path, relative, what="evidence answer")
    assert (words in caught.value.problem and "evidence answer" in caught.value.problem) or words == "NUL"


def test_resolve_inside_refuses_symlinks_anywhere_on_the_way(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "f").write_text("x")
    run = tmp_path / "run"
    run.mkdir()
    os.symlink(outside, run / "link")
    os.symlink(outside / "f", run / "file")
    for relative in ("link/f", "file"):
        with pytest.raises(ContainmentError, match="symlink"):
            resolve_inside(run, relative)


def _resolve_by_realpath(root, relative):
    """The obviously-correct definition (what resolve_inside did before it skipped realpath):
    the path if no component is a symlink and its real path is inside the root's, else None."""
    if relative.startswith(("/", "\\")) or PureWindowsPath(relative).drive or "\x00" in relative:
        return None
    parts = PurePosixPath(relative.replace("\\", "/")).parts
    if ".." in parts or not relative.strip():
        return None
    current = root
    for part in parts:
        current = current / part
        if current.is_symlink():
            return None
    real, real_root = os.path.realpath(current), os.path.realpath(root)
    return current if real == real_root or real.startswith(real_root + os.sep) else None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["a", "b", "link", "up", ".", "..", "", "C:", "x y"]), max_size=5), st.data())
def test_resolve_inside_agrees_with_the_realpath_definition(tmp_path, parts, data):
    run = tmp_path / "run"
    if not run.exists():
        (run / "a" / "b").mkdir(parents=True)
        os.symlink(tmp_path, run / "link")
        os.symlink("..", run / "a" / "up")
    relative = data.draw(st.sampled_from(["/", "\\"])).join(parts)
    try:
        got = resolve_inside(run, relative)
    except ContainmentError:
        got = None
    expected = _resolve_by_realpath(run, relative) if relative.strip() else None
    assert got == expected, relative


def test_format_at_is_utc_with_milliseconds():
    moment = datetime(2026, 9, 26, 8, 27, 17, 874999, tzinfo=timezone(timedelta(hours=2)))
    assert format_at(moment) == "2026-09-26T06:27:17.874Z"


@pytest.mark.parametrize(
    "value, expected",
    [
        ("2026-09-26T06:27:17.874Z", datetime(2026, 9, 26, 6, 27, 17, 874000, tzinfo=UTC)),
        ("2026-09-26T06:27:17", datetime(2026, 9, 26, 6, 27, 17, tzinfo=UTC)),
        ("2026-09-26T08:27:17+02:00", datetime(2026, 9, 26, 6, 27, 17, tzinfo=UTC)),
        (0, datetime(1970, 1, 1, tzinfo=UTC)),
        ("1.5", datetime(1970, 1, 1, 0, 0, 1, 500000, tzinfo=UTC)),
    ],
)
def test_parse_at_accepts(value, expected):
    assert parse_at(value) == expected


@pytest.mark.parametrize(
    "value",
    [None, True, False, "", "  ", "yesterday", "2026-13-01T00:00:00Z", float("nan"), float("inf"), [], {}, 1e30],
)
def test_parse_at_rejects(value):
    assert parse_at(value) is None and not is_timestamp(value)


@pytest.mark.parametrize(
    "value, expected",
    [
        ("2026-01-01T12:00:08.500", True),
        ("2026-01-01 12:00", True),
        ("2026-01-01", True),
        ("2026-01-01T12:00:08Z", False),
        ("2026-01-01T12:00:08+05:30", False),
        ("1767268810", False),  # epoch seconds name UTC
        (1767268810, False),
        ("yesterday", False),
        (None, False),
    ],
)
def test_zoneless_names_times_whose_zone_is_a_guess(value, expected):
    assert zoneless(value) is expected


@given(st.datetimes(timezones=st.just(UTC)))
def test_a_time_with_its_zone_is_never_zoneless(moment):
    assert not zoneless(format_at(moment))
    assert zoneless(moment.replace(tzinfo=None).isoformat())


def test_fixed_clock_is_deterministic():
    clock = FixedClock(datetime(2026, 1, 1, tzinfo=UTC), step=timedelta(seconds=1))
    assert [format_at(clock.now()) for _ in range(2)] == ["2026-01-01T00:00:00.000Z", "2026-01-01T00:00:01.000Z"]
    assert [clock.monotonic_ns() for _ in range(2)] == [0, 1_000_000_000]


def test_version_of_reads_1_and_2():
    assert version_of({"schemaVersion": 2}, "run") == 2
    assert version_of({"schema": "mc-agent-coldstart-run/1"}, "run") == 1
    assert version_of({"id": "x"}, "review") == 1  # reference review lines carried no marker


@pytest.mark.parametrize(
    "document, words",
    [
        ({"schemaVersion": 3}, "schemaVersion 3"),
        ({"schemaVersion": "2"}, "schemaVersion '2'"),
        ({"schemaVersion": True}, "schemaVersion True"),
        ({"schemaVersion": 2.0}, "schemaVersion 2.0"),
        ({"schema": "mc-agent-coldstart-run/2"}, "refusing to guess"),
        ({}, "no schemaVersion"),
        ([], "must be a JSON object"),
    ],
)
def test_version_of_fails_closed(document, words):
    with pytest.raises(VersionError) as caught:
        version_of(document, "run", "run.json")
    assert words in caught.value.problem and caught.value.path == "run.json"


def test_incompatible_message_says_what_to_do():
    message = incompatible("run", 9)
    assert "reads versions 1, 2 only" in message and "fail closed" in message and "upgrade" in message


def test_hashing_streams_files(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * (hashing.BLOCK + 5))
    digest, size = hashing.sha256_file(path)
    assert size == hashing.BLOCK + 5 and digest == hashing.sha256_bytes(b"x" * (hashing.BLOCK + 5))
    assert hashing.is_sha256(digest) and not hashing.is_sha256(digest.upper()) and hashing.short(digest) == digest[:12]
