"""The batch audit on a real Dask LocalCluster (worker processes over loopback): the same report
bytes as the local pool, and a worker killed mid-batch costs only a retry of its runs."""

from __future__ import annotations

import os
import signal
import threading
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from pytest_coldstart.audit.batch import Outcome, discover, report_dir, run_batch, warm
from pytest_coldstart.audit.cluster import connect
from pytest_coldstart.demo.scenarios import RunBuilder, build_run

SCENARIOS = ("passing", "pending_reviews", "answer_mismatch", "late_logger", "tampered_hashes")


@pytest.fixture(scope="module")
def cluster():
    connection, _where = connect("local", 2)
    yield connection
    connection.close()


def _reports(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_a_local_cluster_gives_the_bytes_of_the_local_pool(cluster, tmp_path: Path) -> None:
    labs = tmp_path / "labs"
    for name in SCENARIOS:
        build_run(labs / name, name)
    runs = discover([labs])
    results = {}
    for label in ("pool", "dask"):
        out = tmp_path / label
        if label == "pool":
            with ProcessPoolExecutor(2, initializer=warm) as pool:
                got = list(run_batch(runs, pool, cache_dir=None, targets=lambda r, o=out: report_dir(r, [labs], o)))
        else:
            got = list(
                run_batch(
                    runs, cluster.get_executor(), cache_dir=None, targets=lambda r, o=out: report_dir(r, [labs], o)
                )
            )
        assert sorted(o.run for o in got) == [str(r) for r in runs]
        results[label] = _reports(out)
    assert len(results["pool"]) == 2 * len(SCENARIOS)  # audit.json + audit.md per run
    assert results["dask"] == results["pool"]


@pytest.fixture
def own_cluster():
    """A cluster of this test's own: it kills a worker, which no other test should inherit."""
    connection, _where = connect("local", 2)
    yield connection
    connection.close()


def test_a_worker_killed_mid_batch_loses_nothing_and_reports_nothing_twice(own_cluster, tmp_path: Path) -> None:
    cluster = own_cluster
    labs = tmp_path / "labs"
    for number in range(8):
        RunBuilder(labs / f"run-{number}", run_id=f"run-{number}").passing().filler(1500, 2048).build()
    runs = discover([labs])
    cache = tmp_path / "cache"
    pids = list(cluster.client.run(os.getpid).values())
    outcomes: list[Outcome] = []
    first = threading.Event()

    def collect() -> None:
        for outcome in run_batch(runs, cluster.get_executor(), cache_dir=cache, targets=lambda r: None, window=8):
            outcomes.append(outcome)
            first.set()

    worker = threading.Thread(target=collect)
    worker.start()
    assert first.wait(120)
    os.kill(pids[0], signal.SIGKILL)  # its in-flight runs are rescheduled by the scheduler
    worker.join(300)
    assert not worker.is_alive()
    assert sorted(o.run for o in outcomes) == [str(r) for r in runs]  # every run once
    assert {o.overall for o in outcomes} == {"PASS"}
    assert len(list((cache / "audit").rglob("*.json"))) == len(runs)  # one entry per run, none torn
    assert not list(cache.rglob("*.tmp"))
    again = list(run_batch(runs, cluster.get_executor(), cache_dir=cache, targets=lambda r: None))
    assert [o for o in again if not o.cached] == []  # a retried run's audit reached the cache like the others
