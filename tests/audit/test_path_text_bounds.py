"""Path text no file system holds (a lone surrogate, a NUL) never crashes a look-up."""

from __future__ import annotations

from pathlib import Path

from pytest_coldstart.audit.evidence import joined
from pytest_coldstart.audit.evidence.win_paths import long_path


def test_a_short_name_below_a_folder_no_file_name_holds_stays_as_written(tmp_path: Path):
    (tmp_path / "oracle.json").write_text("{}")
    for folder in ("\ud800", "a\x00b", "\udfff"):
        relative = f"{folder}/ORACLE~1.JSO"
        assert long_path(str(tmp_path), relative, lambda _: False) == relative
    assert long_path(str(tmp_path), "ORACLE~1.JSO", lambda _: False) == "oracle.json"


def test_a_character_code_of_a_surrogate_reads_as_nothing():
    for text in ('io.open(chr(55296).."/x")', 'io.open(chr(57343).."/x")', "f(56000.chr + 'x')"):
        for reading in joined.readings(text):
            assert not any(0xD800 <= ord(c) <= 0xDFFF for c in reading)
            reading.encode()  # no lone surrogate left
    assert '"o/x"' in next(joined.readings('io.open(chr(111).."/x")'))
