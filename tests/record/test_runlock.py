"""The run lock: exclusive across processes and threads, re-entrant in one thread, bounded wait."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest

from pytest_coldstart.record.runlock import RunLock
from pytest_coldstart.run.errors import ColdstartError

HOLDER = """
import sys, time
from pytest_coldstart.record.runlock import RunLock
with RunLock(sys.argv[1], timeout=5):
    print("held", flush=True)
    time.sleep(float(sys.argv[2]))
"""


def test_reentrant_in_one_thread(tmp_path):
    lock = RunLock(tmp_path / "lock", timeout=1)
    with lock:
        with RunLock(tmp_path / "lock", timeout=1):
            pass
        with lock:
            pass
    with lock:  # fully released above
        pass


def test_another_process_holding_the_lock_makes_us_wait_then_time_out(tmp_path):
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(tmp_path / "lock"), "1.2"], stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout.readline().strip() == "held"
    start = time.monotonic()
    with pytest.raises(ColdstartError) as caught, RunLock(tmp_path / "lock", timeout=0.3):
        pass
    assert 0.25 < time.monotonic() - start < 1.2
    assert (
        "held the run lock for over 0.3 s" in caught.value.one_line()
        and str(tmp_path / "lock") in caught.value.one_line()
    )
    holder.wait(timeout=30)
    with RunLock(tmp_path / "lock", timeout=1):  # free again once the holder is gone
        pass


def test_threads_are_mutually_exclusive(tmp_path):
    counter = tmp_path / "counter"
    counter.write_text("0")

    def bump() -> None:
        for _ in range(50):
            with RunLock(tmp_path / "lock", timeout=10):
                value = int(counter.read_text())
                counter.write_text(str(value + 1))

    threads = [threading.Thread(target=bump) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counter.read_text() == "200"
