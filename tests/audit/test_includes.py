"""What a compiler or a document processor reads of a kept source by its directives
(audit/evidence/includes.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence import includes


@pytest.mark.parametrize(
    "key, source, names",
    [
        ("w/p.c", '#include <stdio.h>\n#  include "x.h"\n', ["stdio.h", "x.h", "w/stdio.h", "w/x.h"]),
        ("p.c", 'char s[] = {\n#embed "oracle.json"\n};', ["oracle.json"]),
        ("p.s", '.incbin "oracle.json"\n', ["oracle.json"]),
        ("p.rs", 'fn main(){print!("{}", include_str!("oracle.json"));}', ["oracle.json"]),
        ("p.go", "//go:embed a.txt b/*.json\nvar s string", ["a.txt", "b/*.json"]),
        ("p.zig", 'const s = @embedFile("oracle.json");', ["oracle.json"]),
        ("d.tex", "\\input{oracle.json} \\lstinputlisting[language=json]{o.json}", ["oracle.json", "o.json"]),
        ("d.adoc", "include::oracle.json[]\n", ["oracle.json"]),
        ("docs/i.rst", ".. literalinclude:: ../oracle.json\n", ["../oracle.json", "docs/../oracle.json"]),
        ("t.j2", "{%- include 'oracle.json' %}", ["oracle.json"]),
        ("x.xml", '<!DOCTYPE x [<!ENTITY e SYSTEM "oracle.json">]>', ["oracle.json"]),
        ("x.xml", '<xi:include parse="text" href="oracle.json"/>', ["oracle.json"]),
        ("x.m4", "include(oracle.json)\nsinclude(`b.json')", ["oracle.json", "b.json"]),
        ("d.md", "```{.include}\noracle.json\nb.md\n```\n", ["oracle.json", "b.md"]),
    ],
)
def test_a_directive_names_what_processing_reads(key: str, source: str, names: list[str]) -> None:
    text = includes.included(key, source)
    assert text is not None and all(f"'{name}'" in text for name in names)


@pytest.mark.parametrize(
    "source",
    ["class P { }", "import java.util.List;\n", "The oracle.json file is off limits.", "# Notes\ninclude nothing"],
)
def test_prose_and_code_that_include_nothing_by_name(source: str) -> None:
    assert includes.included("P.java", source) is None


def test_site_builders_render_every_kept_document() -> None:
    assert includes.builds_sites("cd w && sphinx-build docs out")
    assert not includes.builds_sites("echo sphinx is nice")
    assert includes.documents(["docs/a.rst", "s.sh", "r.tex"]) == ["docs/a.rst", "r.tex"]


@given(st.text(alphabet="#include<>\"'{}%\\[]()!.:/ \nembedinputxi:href=ENTITY SYSTEM`", max_size=600))
def test_included_never_raises_and_stays_bounded(source: str) -> None:
    text = includes.included("d/x.c", source)
    assert text is None or text.count("'") <= 4 * includes.MAX_NAMES
