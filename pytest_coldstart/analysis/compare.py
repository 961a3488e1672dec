"""Side-by-side comparison of many runs, grouped by harness and model.

Each PATH is a run directory or a folder searched (recursively) for run directories. Every
run is summarized in memory (``summary.build``, streaming): a stale or absent summary.json
never matters. A run that cannot be read is a row with its one-line error, never a crash.
Output: a text table (untrusted strings with control and bidi characters escaped), CSV (cells that a
spreadsheet would run as a formula are quoted with a leading apostrophe), or JSON.
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path
from typing import Any

from pytest_coldstart.analysis import summary
from pytest_coldstart.run import layout
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.numbers import finite
from pytest_coldstart.run.textsafe import clean, one_line, path_text
from pytest_coldstart.run.versioning import CURRENT
from pytest_coldstart.run.walk import walk

#: (key, table heading, CSV/JSON name) of the per-run columns, in order.
COLUMNS = (
    ("harness", "harness", "harness"),
    ("model", "model", "model"),
    ("run_id", "run", "run_id"),
    ("outcome", "outcome", "outcome"),
    ("calls", "calls", "calls"),
    ("errors", "err", "errors"),
    ("error_rate", "err%", "error_rate"),
    ("invalid_rate", "inv%", "invalid_action_rate"),
    ("open", "open", "open_or_missing"),
    ("duration_s", "dur_s", "duration_s"),
    ("call_ms_mean", "call_ms", "call_ms_mean"),
    ("wait_ms_total", "wait_ms", "between_calls_ms_total"),
    ("response_kb", "resp_kB", "response_kb"),
    ("approx_tokens", "~tokens", "approx_tokens"),
    ("repeated_states", "rep_st", "repeated_states"),
    ("decisions", "dec", "decisions"),
    ("error_records", "errs", "error_records"),
)
UNREADABLE = "UNREADABLE"


def find_runs(paths: list[str | Path]) -> list[Path]:
    """Run directories named by ``paths`` (a run itself, or every run below a folder), sorted."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if (path / layout.RUN_JSON).is_file():
            found.append(path)
            continue
        if not path.is_dir():
            raise ColdstartError("is neither a run directory nor a folder of runs", path)
        below = []
        for current, dirs, files in walk(path):
            if layout.RUN_JSON in files:
                below.append(Path(current))
                dirs[:] = []  # a run is claimed whole
            else:
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        if not below:
            raise ColdstartError("holds no run directory (no run.json below it)", path)
        found.extend(sorted(below))
    unique: dict[str, Path] = {}
    for run in found:
        unique.setdefault(os.path.realpath(run), run)
    return list(unique.values())


def _round(value: Any, digits: int = 3) -> Any:
    return round(value, digits) if isinstance(value, (int, float)) and not isinstance(value, bool) else value


def _unreadable(run: Path, error: str) -> dict[str, Any]:
    return {"path": path_text(run), "harness": None, "model": None, "run_id": None, "error": error}


def row_of(run: Path) -> dict[str, Any]:
    """One comparison row; ``error`` is set (and the numbers null) when the run is unreadable."""
    try:
        doc = summary.build(run)
    except ColdstartError as exc:
        return _unreadable(run, exc.one_line())
    except Exception as exc:  # last guard: one run never aborts the comparison of all the others
        return _unreadable(run, f"internal error reading this run (please report it): {type(exc).__name__}: {exc}")
    calls = doc["calls"]
    timing = doc["timing"]
    duration = finite(doc.get("duration_ms"))  # 10**400 in run.json is as absent as a missing value
    kilobytes = finite(doc["responses"]["bytes_total"])
    return {
        "path": path_text(run),
        "harness": doc["harness"].get("name"),
        "model": doc["harness"].get("model"),
        "provider": doc["harness"].get("provider"),
        "harness_version": doc["harness"].get("version"),
        "run_id": doc["run_id"],
        "experiment_id": doc.get("experiment_id"),
        "outcome": doc["outcome"].get("overall"),
        "failure_class": doc["outcome"].get("failure_class"),
        "calls": calls["total"],
        "errors": calls["by_status"]["error"],
        "error_rate": doc["rates"]["error_rate"]["value"],
        "invalid_rate": doc["actions"]["invalid_rate"]["value"],
        "open": calls["by_status"]["open"] + calls["by_status"]["missing"],
        "duration_s": _round(duration / 1000.0) if duration is not None else None,
        "call_ms_mean": timing["call_duration_ms"]["mean"],
        "wait_ms_total": timing["between_calls_ms"]["total"],
        "response_kb": _round(kilobytes / 1024.0, 1) if kilobytes is not None else None,
        "approx_tokens": doc["responses"]["approx_tokens"],
        "repeated_states": doc["states"]["repeated_consecutive"],
        "decisions": doc["decisions"]["total"],
        "error_records": doc["errors"]["total"],
        "tools": {tool: entry["calls"] for tool, entry in calls["by_tool"].items()},
        "error": None,
    }


def _group_key(row: dict[str, Any]) -> tuple[str, str]:
    return (str(row.get("harness") or ""), str(row.get("model") or ""))


def _pooled(rows: list[dict[str, Any]], part: str, whole: str) -> float | None:
    denominator = sum(r[whole] for r in rows if isinstance(r.get(whole), int))
    numerator = sum(r[part] for r in rows if isinstance(r.get(part), int))
    return round(numerator / denominator, 6) if denominator else None


def groups_of(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for key in sorted({_group_key(r) for r in rows}):
        members = [r for r in rows if _group_key(r) == key and r["error"] is None]
        failed = [r for r in rows if _group_key(r) == key and r["error"] is not None]
        outcomes: dict[str, int] = {}
        for r in members:
            label = r["outcome"] or "unaudited"
            outcomes[label] = outcomes.get(label, 0) + 1
        durations = [r["duration_s"] for r in members if isinstance(r["duration_s"], (int, float))]
        out.append(
            {
                "harness": key[0] or None,
                "model": key[1] or None,
                "runs": len(members),
                "unreadable": len(failed),
                "outcomes": dict(sorted(outcomes.items())),
                "calls": sum(r["calls"] for r in members),
                "error_rate": _pooled(members, "errors", "calls"),
                "mean_duration_s": round(sum(d / len(durations) for d in durations), 3) if durations else None,
                "approx_tokens": sum(r["approx_tokens"] for r in members),
                "decisions": sum(r["decisions"] for r in members),
            }
        )
    return out


def compare(paths: list[str | Path]) -> dict[str, Any]:
    rows = sorted(
        (row_of(run) for run in find_runs(paths)), key=lambda r: (*_group_key(r), str(r.get("run_id") or ""), r["path"])
    )
    return {"schemaVersion": CURRENT, "runs": rows, "groups": groups_of(rows)}


# -- renderers --------------------------------------------------------------------------------


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))
    return one_line(str(value), None)


def _percent(value: Any) -> str:
    return "-" if value is None else f"{value * 100:.1f}"


def to_table(result: dict[str, Any]) -> str:
    headings = [heading for _, heading, _ in COLUMNS]
    lines: list[list[str]] = []
    unreadable: list[str] = []
    for group in result["groups"]:
        for row in result["runs"]:
            if _group_key(row) != (group["harness"] or "", group["model"] or ""):
                continue
            if row["error"] is not None:  # the row keeps the columns; its error goes below the table
                cells = ["-"] * len(COLUMNS)
                cells[2], cells[3] = _cell(row["path"]), UNREADABLE
                unreadable.append(f"{UNREADABLE} {_cell(row['path'])}: {_cell(row['error'])}")
                lines.append(cells)
                continue
            cells = []
            for key, _, _ in COLUMNS:
                cells.append(_percent(row[key]) if key in ("error_rate", "invalid_rate") else _cell(row[key]))
            if row["failure_class"]:
                cells[3] = f"{cells[3]} ({_cell(row['failure_class'])})"
            lines.append(cells)
        outcomes = ", ".join(f"{k} {v}" for k, v in group["outcomes"].items()) or "-"
        lines.append(
            [
                "",
                "",
                f"= {group['runs']} run(s)" + (f", {group['unreadable']} unreadable" if group["unreadable"] else ""),
                outcomes,
                _cell(group["calls"]),
                "",
                _percent(group["error_rate"]),
                "",
                "",
                _cell(group["mean_duration_s"]),
                "",
                "",
                "",
                _cell(group["approx_tokens"]),
                "",
                _cell(group["decisions"]),
                "",
            ]
        )
    widths = [len(h) for h in headings]
    for cells in lines:
        for i, cell in enumerate(cells[: len(widths)]):
            widths[i] = max(widths[i], len(cell))
    out = ["  ".join(h.ljust(w) for h, w in zip(headings, widths, strict=False)).rstrip()]
    out.append("  ".join("-" * w for w in widths))
    for cells in lines:
        out.append("  ".join(c.ljust(w) for c, w in zip(cells, widths + [0], strict=False)).rstrip())
    if unreadable:
        out += ["", *unreadable]
    return "\n".join(out) + "\n"


def _csv_safe(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + clean(value)
    return clean(value) if isinstance(value, str) else value


def to_csv(result: dict[str, Any]) -> str:
    names = ["path"] + [name for _, _, name in COLUMNS] + ["provider", "experiment_id", "failure_class", "error"]
    keys = ["path"] + [key for key, _, _ in COLUMNS] + ["provider", "experiment_id", "failure_class", "error"]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(names)
    for row in result["runs"]:
        writer.writerow([_csv_safe(row.get(key)) for key in keys])
    return buffer.getvalue()
