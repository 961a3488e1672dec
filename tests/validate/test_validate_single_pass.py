"""validate's one read of trajectory.jsonl, shared: TrajectoryChecker.feed/finish, the observer
of validate_run, files the caller already hashed, and the sealed trajectory's whole-file hash
taken in the same read."""

from __future__ import annotations

import pytest
from core_helpers import new_run
from read_counter import count_reads

from pytest_coldstart.record.seal import seal
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.clock import parse_at
from pytest_coldstart.run.hashing import sha256_file
from pytest_coldstart.validate.findings import Findings
from pytest_coldstart.validate.run import validate_run
from pytest_coldstart.validate.trajectory import TrajectoryChecker


class Observer:
    def __init__(self):
        self.lines: list[tuple[jsonio.RawLine, object]] = []
        self.finished = 0

    def feed(self, line, at):
        assert not self.finished
        self.lines.append((line, at))

    def finish(self):
        self.finished += 1


def damaged(run):
    data = (run / "trajectory.jsonl").read_bytes().splitlines(keepends=True)
    data.insert(2, b"\n")  # a blank line
    data[3] = data[3].replace(b'"seq":', b'"seq": ', 1)  # an edited line: the chain breaks after it
    data.append(b'{"torn": ')
    (run / "trajectory.jsonl").write_bytes(b"".join(data))
    return run


@pytest.mark.parametrize("damage", [False, True])
def test_the_observer_sees_every_line_once_in_order_and_findings_do_not_change(tmp_path, damage):
    run = new_run(tmp_path / "run")
    if damage:
        damaged(run)
    observer = Observer()
    shared = validate_run(run, observer=observer)
    assert shared.to_json() == validate_run(run).to_json()
    assert observer.finished == 1
    data = (run / "trajectory.jsonl").read_bytes()
    for line, at in observer.lines:
        assert data[line.offset : line.offset + len(line.raw)] == line.raw
        assert line.number == data[: line.offset].count(b"\n") + 1
        if line.value is not None and isinstance(line.value.get("at"), str):
            assert at == parse_at(line.value["at"])
    numbers = [line.number for line, _ in observer.lines]
    assert numbers == sorted(set(numbers)) and len(numbers) == len([x for x in data.split(b"\n") if x.strip()])
    if damage:
        assert observer.lines[-1][0].problem == jsonio.TORN


def test_an_error_of_the_observer_is_the_callers_not_a_finding(tmp_path):
    run = new_run(tmp_path / "run")

    class Broken(Observer):
        def feed(self, line, at):
            raise KeyError("observer bug")

    with pytest.raises(KeyError, match="observer bug"):
        validate_run(run, observer=Broken())


def test_feeding_records_one_at_a_time_is_running_the_checker(tmp_path):
    run = damaged(new_run(tmp_path / "run"))
    findings_run, findings_fed = Findings(), Findings()
    ran = TrajectoryChecker(findings_run, run_id="r", version=2, created_at=None)
    ran.run(run / "trajectory.jsonl")
    fed = TrajectoryChecker(findings_fed, run_id="r", version=2, created_at=None)
    with open(run / "trajectory.jsonl", "rb") as handle:
        for line in jsonio.read_lines(handle):
            fed.feed(line)
    fed.finish()
    assert findings_fed.listed() == findings_run.listed() and findings_run.listed()
    assert (fed.records, fed.calls, fed.results, fed.head) == (ran.records, ran.calls, ran.results, ran.head)


def test_a_sealed_trajectory_is_read_once_its_hash_taken_in_the_pass(tmp_path, monkeypatch):
    run = new_run(tmp_path / "run")
    seal(run)
    expected = validate_run(run).to_json()
    tally = count_reads(monkeypatch, run / "trajectory.jsonl")
    assert validate_run(run).to_json() == expected and expected["valid"]
    assert (tally.opens, tally.bytes) == (1, (run / "trajectory.jsonl").stat().st_size)
    with open(run / "trajectory.jsonl", "ab") as handle:  # the hash taken in the pass is the file's
        handle.write(b"\n")
    monkeypatch.undo()
    assert "seal.file.hash" in [f["code"] for f in validate_run(run).to_json()["findings"]]


def test_files_the_caller_hashed_are_not_read_again(tmp_path, monkeypatch):
    run = new_run(tmp_path / "run")
    seal(run)
    task = run / "task.md"
    expected, digest = validate_run(run).to_json(), sha256_file(task)
    tally = count_reads(monkeypatch, task)
    assert validate_run(run, digests={task: digest}).to_json() == expected  # files_hashed counts it all the same
    assert tally.opens == 0
    assert validate_run(run).to_json() == expected and tally.opens == 1
