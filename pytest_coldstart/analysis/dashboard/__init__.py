"""The lab dashboard (``coldstart report DIR... --html FILE``): one offline page over many runs.

``collect`` finds the runs and their audit reports, ``data.page_data`` turns them into the one
JSON document the page embeds, ``page.render_page`` writes the page around it.
"""

from __future__ import annotations

from pathlib import Path

from pytest_coldstart.analysis.dashboard.collect import RunView, collect
from pytest_coldstart.analysis.dashboard.data import DETAILS_LIMIT, page_data
from pytest_coldstart.analysis.dashboard.page import render_page
from pytest_coldstart.run import jsonio

__all__ = ["DETAILS_LIMIT", "RunView", "collect", "page_data", "render_page", "write_dashboard"]


def write_dashboard(
    paths: list[str | Path], out: str | Path, *, fresh: bool = False, details_limit: int = DETAILS_LIMIT
) -> int:
    """Write the page atomically to ``out``; the number of runs it shows."""
    views = collect(paths, fresh=fresh)
    html = render_page(page_data(views, details_limit=details_limit))
    jsonio.write_bytes_atomic(Path(out), html.encode("utf-8"))
    return len(views)
