"""s35 #5/#6: the views (compare, report) read numbers and paths a run states. A number
``float()`` refuses (``10**400``, which JSON readers keep as an int) or finite numbers adding up
past float's range are absent, and a stated path holding a NUL names no file: never exit 70."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile_runs import coldstart, copy_run, edit_manifest, no_traceback

from pytest_coldstart.analysis.dashboard.collect import task_of
from pytest_coldstart.analysis.tally import Tally, stats
from pytest_coldstart.record.records import normalize
from pytest_coldstart.run.clock import parse_at
from pytest_coldstart.run.errors import UsageError
from pytest_coldstart.run.numbers import finite

HUGE = 10**400


def test_finite_refuses_what_float_refuses() -> None:
    assert finite(3) == 3.0 and finite(2.5) == 2.5 and finite(-1) == -1.0
    for value in (HUGE, -HUGE, True, None, "12", [], float("inf"), float("nan")):
        assert finite(value) is None, value


def test_parse_at_of_a_huge_epoch_is_none() -> None:
    assert parse_at(HUGE) is None and parse_at(-HUGE) is None


def test_stats_of_finite_values_past_float_range_keep_a_mean() -> None:
    result = stats([1.7e308, 1.7e308])
    assert result["total"] is None and result["mean"] == pytest.approx(1.7e308) and result["count"] == 2
    json.dumps(result, allow_nan=False)  # storable: no inf


def test_tally_ignores_huge_durations_and_sizes() -> None:
    tally = Tally()
    tally.add({"record": "call", "call_id": "c1", "tool": "bash", "at": "2026-01-01T00:00:00Z"})
    ref = {"size": HUGE, "sha256": "0" * 64, "stored": True}
    tally.add({"record": "result", "call_id": "c1", "status": "ok", "duration_ms": HUGE, "result_payload": ref})
    timing = tally.timing_json()
    json.dumps([timing, tally.responses_json()], allow_nan=False)
    assert timing["call_duration_ms"]["count"] == 0  # no usable duration, no usable timestamps


def test_a_huge_number_is_refused_as_a_record_number_not_a_crash() -> None:
    record = {"record": "action", "event": "resolved", "action_id": "a", "outcome": "success"}
    assert normalize({**record, "elapsed_ms": 5})["elapsed_ms"] == 5
    with pytest.raises(UsageError, match="must be number"):
        normalize({**record, "elapsed_ms": HUGE})


@pytest.mark.parametrize("relative", ["task\0.md", "\0", "../task.md", "/etc/passwd"])
def test_a_task_path_naming_no_file_inside_the_run_has_no_label_from_it(relative: str, tmp_path: Path) -> None:
    (tmp_path / "task.md").write_text("# real task\n")
    assert task_of(tmp_path, {"task": {"path": relative, "sha256": "ab" * 32}}) == ("ab" * 32, "task abababababab")
    assert task_of(tmp_path, {"task": {"path": "task.md"}}) == ("real task", "real task")


@pytest.mark.parametrize(
    "change",
    [lambda m: m.update(duration_ms=HUGE), lambda m: m["task"].update(path="task\0.md")],
    ids=["duration_ms 10**400", "task.path with a NUL"],
)
def test_compare_and_report_survive_hostile_run_json(change: object, tmp_path: Path) -> None:
    lab = tmp_path / "lab"
    run = copy_run("passing", lab / "a-run")
    edit_manifest(run, change)
    for args in (["compare", str(lab)], ["compare", "--json", str(lab)], ["compare", "--csv", str(lab)]):
        done = coldstart(*args)
        no_traceback(done.stderr)
        assert done.returncode in (0, 1), (args, done.stderr)
    rows = json.loads(coldstart("compare", "--json", str(lab)).stdout)["runs"]
    assert rows[0]["duration_s"] is None or rows[0]["duration_s"] < 1e300
    done = coldstart("report", "--html", str(tmp_path / "r.html"), str(lab))
    no_traceback(done.stderr)
    assert done.returncode in (0, 1) and (tmp_path / "r.html").is_file(), done.stderr
