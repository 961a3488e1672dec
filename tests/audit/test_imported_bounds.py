"""The modules a kept script imports, on hostile texts: linear, and read once per text."""

from __future__ import annotations

from pytest_coldstart.audit.evidence import kept_indirect
from pytest_coldstart.audit.evidence.kept_indirect import ends_in, imported


def test_a_deep_module_keeps_the_paths_its_key_can_end_in():
    deep = imported("/w/main.py", "import " + ".".join(["a"] * 20_000))
    assert len(deep) == 2 * 6 - 1  # the tails: not one path per prefix, each as long as the prefix
    assert all(len(path.split("/")) <= 6 for path in deep)
    paths = imported("/w/main.py", "import a.b.c.d.e.f.g.h")
    assert ends_in("/w/a/b/c/d/e/f/g/h.py", paths) and ends_in("/w/a/b/__init__.py", paths)
    assert sorted(imported("/w/m.py", "import a.b")) == ["a.py", "a/__init__.py", "a/b.py", "a/b/__init__.py"]


def test_an_import_from_reads_a_bounded_run_of_names():
    assert "./peek.js" not in imported("/w/x.js", "import " * 20_000)
    assert "peek.js" in imported("/w/x.js", "import { a, b } from './peek'")
    assert "peek" in imported("/w/x.js", "import " * 20_000 + " x from './peek'")


def test_a_text_is_read_once_however_many_calls_run_it():
    text = "import peek\n" + "#" * 100
    kept_indirect._imported.cache_clear()
    first = imported("/w/main.py", text)
    assert imported("/w/other.py", text) == first
    assert kept_indirect._imported.cache_info().hits == 1
