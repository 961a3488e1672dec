"""One SVG picture per run: agent calls, test-mod events and logger records on one axis.

Drawn by us as a string (no JavaScript, no dependency), so it works inside pytest-html's
self-contained report. The x axis is the audit's order, not a time scale: the audit orders by
time, then tick, and never guesses across streams. Pairs it could not order are drawn with a
dashed band and a "?" so the reader sees the gap instead of a made-up sequence.
Every run-provided string is escaped.
"""

from __future__ import annotations

from html import escape

from pytest_coldstart.audit.audit_report import AuditReport, TimelineEntry
from pytest_coldstart.pytest_plugin.outcomes import one_line

LANES = (("agent", "agent calls", "#3465a4"), ("testmod", "test mod", "#4e9a06"), ("logger", "agent logger", "#c17d11"))
MAX_EVENTS = 300
STEP = 26
LEFT = 110
LANE_GAP = 46
TOP = 36


def _text(value: object, limit: int = 120) -> str:
    """Escaped for HTML/XML; control and bidi characters are shown as escapes, never emitted."""
    return escape(one_line("" if value is None else str(value), limit), quote=True)


def _lane_of(stream: object) -> int | None:
    for index, (name, _, _) in enumerate(LANES):
        if stream == name or (name == "agent" and stream == "trajectory"):
            return index
    return None


def _title(event: TimelineEntry) -> str:
    parts = [event.ref, event.label]
    for key, value in (("at", event.at), ("tick", event.tick), ("seq", event.seq)):
        if value is not None:
            parts.append(f"{key}={value}")
    return _text(" | ".join(parts), 400)


def events_of(report: AuditReport) -> list[TimelineEntry]:
    return [e for e in report.timeline if _lane_of(e.stream) is not None]


def unknown_pairs(report: AuditReport) -> list[tuple[str, str]]:
    return list(report.unknown_orderings)


def render_svg(report: AuditReport) -> str:
    """The run's timeline as an inline <svg> element (empty string when there is nothing to draw)."""
    events = events_of(report)
    if not events:
        return ""
    shown = events[:MAX_EVENTS]
    position: dict[str, int] = {}
    for index, event in enumerate(shown):
        position.setdefault(event.ref, index)
    width = LEFT + STEP * (len(shown) + 1)
    height = TOP + LANE_GAP * len(LANES) + 30
    lane_y = [TOP + LANE_GAP * i + 12 for i in range(len(LANES))]
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="coldstart-timeline" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="run timeline">',
        f"<title>{_text(report.run_id)} timeline</title>",
    ]
    for (_name, label, colour), y in zip(LANES, lane_y, strict=False):
        out.append(f'<text x="4" y="{y + 4}" font-size="11" fill="{colour}">{label}</text>')
        out.append(f'<line x1="{LEFT - 8}" y1="{y}" x2="{width - 4}" y2="{y}" stroke="#ddd"/>')
    unknown = unknown_pairs(report)
    for first, second in unknown:
        if first not in position or second not in position:
            continue
        x1, x2 = sorted((LEFT + STEP * position[first], LEFT + STEP * position[second]))
        y1 = lane_y[_lane_of(shown[position[first]].stream) or 0]
        y2 = lane_y[_lane_of(shown[position[second]].stream) or 0]
        title = _text(f"order unknown: {first} vs {second}", 400)
        out.append(
            f'<g class="unknown-ordering"><title>{title}</title>'
            f'<rect x="{x1 - 9}" y="{TOP - 6}" width="{x2 - x1 + 18}" height="{LANE_GAP * len(LANES) - 10}" '
            f'fill="#f5c211" fill-opacity="0.18" stroke="#e5a50a" stroke-dasharray="4 3"/>'
            f'<line x1="{LEFT + STEP * position[first]}" y1="{y1}" x2="{LEFT + STEP * position[second]}" y2="{y2}" '
            f'stroke="#e5a50a" stroke-width="2" stroke-dasharray="4 3"/>'
            f'<text x="{(x1 + x2) // 2}" y="{TOP - 10}" font-size="13" text-anchor="middle" fill="#c64600">?</text></g>'
        )
    in_unknown = {ref for pair in unknown for ref in pair}
    for index, event in enumerate(shown):
        lane = _lane_of(event.stream) or 0
        x, y = LEFT + STEP * index, lane_y[lane]
        colour = LANES[lane][2]
        fill = "#fff" if event.ref in in_unknown else colour
        out.append(
            f'<g class="event"><title>{_title(event)}</title>'
            f'<circle cx="{x}" cy="{y}" r="6" fill="{fill}" stroke="{colour}" stroke-width="2"/>'
            f'<text x="{x}" y="{height - 12}" font-size="9" text-anchor="middle" fill="#555">{index + 1}</text></g>'
        )
    axis_y = height - 26
    out.append(f'<line x1="{LEFT - 8}" y1="{axis_y}" x2="{width - 4}" y2="{axis_y}" stroke="#888"/>')
    out.append(f'<text x="4" y="{axis_y + 4}" font-size="10" fill="#555">order &#8594;</text>')
    if unknown:
        legend = "hollow markers in a dashed band: the audit could not order them (a review decides)"
        out.append(f'<text x="{LEFT}" y="11" font-size="10" fill="#c64600">{legend}</text>')
    out.append("</svg>")
    return "".join(out)


def render_table(report: AuditReport) -> str:
    """The same events as an HTML table (what the picture's numbers refer to)."""
    events = events_of(report)
    if not events:
        return "<p>No timeline events in this run.</p>"
    partners: dict[str, list[str]] = {}
    for first, second in unknown_pairs(report):
        partners.setdefault(first, []).append(second)
        partners.setdefault(second, []).append(first)
    rows = [
        "<tr><th>#</th><th>stream</th><th>ref</th><th>label</th><th>at</th><th>tick</th><th>seq</th><th>order unknown vs</th></tr>"
    ]
    for index, event in enumerate(events[:MAX_EVENTS]):
        values = (event.stream, event.ref, event.label, event.at, event.tick, event.seq)
        cells = [str(index + 1), *(_text(value) for value in values)]
        cells.append(_text(", ".join(partners.get(event.ref, [])), 400))
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    more = len(events) - MAX_EVENTS
    note = f"<p>{more} further events not drawn.</p>" if more > 0 else ""
    return f'<table class="coldstart-timeline-events">{"".join(rows)}</table>{note}'
