"""The dashboard as one self-contained HTML page: inline CSS, one inline script, the data once.

Nothing is loaded from anywhere (no CDN, no fonts, no images). Run content reaches the page only
inside ``<script type="application/json">``, with ``<``, ``>``, ``&`` and the JavaScript line
separators written as ``\\uXXXX`` escapes, so no string can close the element; the script builds
the page with DOM calls (text nodes), never with HTML parsing. A Content-Security-Policy allows
exactly the page's own script (by its sha256) and inline styles: even markup that got in could
not run.
"""

from __future__ import annotations

import base64
import hashlib
import json
from importlib import resources
from typing import Any

from pytest_coldstart.run.textsafe import clean_tree

_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
TITLE = "coldstart lab dashboard"


def embed_json(value: Any) -> str:
    """JSON safe inside an HTML <script> element (and still JSON: the escapes parse back)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return "".join(_ESCAPES.get(c, c) for c in text) if any(c in text for c in _ESCAPES) else text


def _asset(name: str) -> str:
    return resources.files("pytest_coldstart.analysis.dashboard").joinpath(name).read_text(encoding="utf-8")


def render_page(data: dict[str, Any]) -> str:
    script = _asset("page.js")
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
    policy = f"default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-{digest}'; img-src data:"
    return "".join(
        (
            '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{policy}">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{TITLE}</title><style>{_asset('page.css')}</style></head><body>",
            f'<header><h1>{TITLE}</h1><div class="totals" id="totals"></div>',
            f'<div class="muted">pytest-coldstart {data["tool"]["version"]}</div></header>',
            '<nav><a href="#overview">rates</a><a href="#tasks">tasks</a><a href="#flags">flags</a>',
            '<a href="#trends">trends</a><a href="#runs">runs</a><a href="#worklist">worklist</a></nav><main>',
            '<div class="cols"><section id="overview"></section><section id="tasks"></section></div>',
            '<div class="cols"><section id="flags"></section><section id="trends"></section></div>',
            '<section id="runs"><h2>Runs</h2><div class="filters" id="filters"></div>',
            '<div class="legend muted" id="flag-legend"></div>',
            '<table><thead><tr id="runs-head"></tr></thead><tbody id="runs-body"></tbody></table>',
            '<div class="pager"><button type="button" id="prev">previous</button>',
            '<span id="page-info"></span><button type="button" id="next">next</button></div></section>',
            '<section id="detail" hidden></section><section id="worklist"></section></main>',
            f'<script type="application/json" id="coldstart-data">{embed_json(clean_tree(data))}</script>',
            f"<script>{script}</script></body></html>\n",
        )
    )
