"""What a compiler or a document processor reads of a kept source by the source's own words.

Compiling runs nothing (``compiled``), and typesetting or rendering a document runs nothing,
but both read what the source includes by name, and print it: ``gcc -E`` prints an
``#include``d file, an error quotes it, the program or the PDF carries it. Only directives
count - a note or a document that merely mentions a file reads nothing:

- C family: ``#include "x"`` / ``<x>``, ``#import``, C23 ``#embed``; assembly ``.incbin``,
  ``.include``; Rust ``include_str!``/``include_bytes!``/``include!``, ``#[path = "x"]``; Go
  ``//go:embed``; Zig ``@embedFile``; Nim ``staticRead``/``slurp``;
- documents: LaTeX ``\\input``, ``\\include``, ``\\verbatiminput``, ``\\lstinputlisting``,
  ``\\inputminted``; AsciiDoc ``include::x[]``; reStructuredText ``.. include::``,
  ``.. literalinclude::``; Jinja/Django/Nunjucks ``{% include "x" %}`` (``import``,
  ``extends``); XML external entities (``<!ENTITY e SYSTEM "x">``) and ``<xi:include href>``;
  server-side includes; m4 ``include(x)``.

Each name counts as written and beside the source (fail closed: include folders are not
followed). Linear: one scan of the source, at most ``MAX_NAMES`` names.
"""

from __future__ import annotations

import re

from pytest_coldstart.audit.evidence.shell_words import program_name

#: programs that typeset or render the documents they are handed
PROCESSORS = frozenset(
    ["latex", "pdflatex", "xelatex", "lualatex", "latexmk", "tectonic", "context", "tex", "pdftex", "bibtex"]
    + ["asciidoctor", "asciidoc", "asciidoctor-pdf", "rst2html", "rst2html5", "rst2pdf", "rst2latex", "rst2man"]
    + ["sphinx-build", "jinja2", "j2", "xmllint", "xsltproc", "m4", "pandoc", "mkdocs", "hugo", "jekyll"]
)
_Q = r"""["']"""
_NAME = r"""([^"'\n]{1,256})"""
_DIRECTIVES = (
    r"""^[ \t]*#[ \t]*(?:include|include_next|import|embed)[ \t]*[<"]([^>"\n]{1,256})[>"]""",
    r"""^[ \t]*\.(?:incbin|include)[ \t]+"([^"\n]{1,256})["]""",
    rf"""\b(?:include_str|include_bytes|include)![ \t]*\([ \t]*"{_NAME}["]""",
    rf"""#\[path[ \t]*=[ \t]*"{_NAME}"\]|@embedFile\([ \t]*"{_NAME}["]|\b(?:staticRead|slurp)\([ \t]*"{_NAME}["]""",
    r"\\(?:input|include|verbatiminput|VerbatimInput|lstinputlisting|inputminted(?:\[[^\]\n]{0,64}\])?\{[^}\n]{0,32}\}|"
    r"subfile|import\{[^}\n]{0,256}\})(?:\[[^\]\n]{0,256}\])?\{([^}\n]{1,256})\}",
    r"^include::([^\[\n]{1,256})\[",
    r"^\.\.[ \t]+(?:include|literalinclude)::[ \t]*(\S{1,256})",
    rf"""\{{%-?[ \t]*(?:include|import|extends|from)[ \t]+{_Q}{_NAME}{_Q}""",
    rf"""<!ENTITY[ \t]+%?[ \t]*\S{{1,64}}[ \t]+(?:SYSTEM|PUBLIC[ \t]+"[^"\n]{{0,256}}")[ \t]+{_Q}{_NAME}{_Q}""",
    rf"""<xi:include\b[^>\n]{{0,256}}\bhref[ \t]*=[ \t]*{_Q}{_NAME}{_Q}|<!--#include[ \t]+(?:file|virtual)={_Q}{_NAME}{_Q}""",
    r"""\b(?:s?include|undivert)\(`?([^)'`\n]{1,256})'?\)""",
    r"^```[ \t]*\{[^}\n]{0,64}\.include\b[^}\n]{0,64}\}[ \t]*\n((?:[^`\n]{1,256}\n){1,16})```",  # pandoc's filter
)
_INCLUDED = re.compile("|".join(f"(?:{d})" for d in _DIRECTIVES), re.MULTILINE)
_GO_EMBED = re.compile(r"^//go:embed[ \t]+([^\n]{1,512})", re.MULTILINE)
#: a cheap necessary condition of a directive
_HINT = re.compile(r"include|import|embed|incbin|input|path|slurp|staticread|entity|extends|from", re.IGNORECASE)
MAX_NAMES = 64
_SITE_BUILDERS = re.compile(r"(?:^|[\s;&|(`/])(?:sphinx-build|sphinx-autobuild|mkdocs|hugo|jekyll|mdbook|docusaurus)\b")
_DOCUMENT_SUFFIXES: tuple[str, ...] = (
    ".rst",
    ".md",
    ".markdown",
    ".adoc",
    ".asciidoc",
    ".tex",
    ".html",
    ".htm",
    ".j2",
    ".jinja",
)
_DOCUMENT_SUFFIXES += (".jinja2", ".njk", ".xml", ".txt", ".inc")


def processes(words: list[str], start: int) -> bool:
    """The program at ``words[start]`` typesets or renders the documents it is handed."""
    return program_name(words[start]).removesuffix(".py") in PROCESSORS


def builds_sites(text: str) -> bool:
    """``text`` runs a site builder that renders every document of a folder it finds by itself
    (``sphinx-build docs out``, ``mkdocs build``, ``make html`` of Sphinx): which folder is not
    followed, so every kept document counts as processed (fail closed)."""
    return _SITE_BUILDERS.search(text) is not None


def documents(keys: list[str]) -> list[str]:
    """The kept files among ``keys`` a site builder may render."""
    return [key for key in keys if key.lower().endswith(_DOCUMENT_SUFFIXES)][:MAX_NAMES]


def included(key: str, text: str) -> str | None:
    """A text naming what processing kept source ``key`` reads by its own words: each name as
    written and beside the source. None when it includes nothing by name."""
    if _HINT.search(text) is None:
        return None
    names: list[str] = []
    for match in _INCLUDED.finditer(text):
        names += next(group for group in match.groups() if group is not None).split("\n")
        if len(names) >= MAX_NAMES:
            break
    for match in _GO_EMBED.finditer(text):  # go:embed takes patterns
        names += match.group(1).split()[:MAX_NAMES]
    names = [name.strip() for name in names if name.strip()][:MAX_NAMES]
    if not names:
        return None
    folder = key.rpartition("/")[0]
    spelled = [f"{folder}/{name}" if folder and not name.startswith("/") else name for name in names]
    return "cat " + " ".join(f"'{name}'" for name in dict.fromkeys([*names, *spelled]))
