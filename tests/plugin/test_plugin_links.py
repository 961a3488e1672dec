"""Collection through symbolic links (#16.8): each real run once, and every skip said out loud."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from plugin_helpers import outcomes

from pytest_coldstart.pytest_plugin.links import LinkPolicy, Tree

Lab = Callable[..., Path]  # the lab fixture: copies scenario runs into pytester's runs/


def _runs_of(got: dict[str, str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for nodeid in got:
        run = nodeid.split("/run.json::")[0]
        counts[run] = counts.get(run, 0) + 1
    return counts


def _symlinked_lab(pytester: pytest.Pytester, lab: Lab) -> Path:
    """runs/sub/passing, runs/late_logger, loops back up, an alias, and a link out of the tree."""
    runs = lab("late_logger")
    (runs / "sub").mkdir()
    os.rename(runs / "late_logger", runs / "sub" / "late_logger")
    lab("passing")
    os.rename(runs / "passing", runs / "sub" / "passing")
    (runs / "sub" / "loop").symlink_to("..")  # to an ancestor: pytest alone collects ~40 copies
    (runs / "sub" / "up").symlink_to("../..")  # two loops: pytest alone walks exponentially
    (runs / "alias").symlink_to("sub/passing")  # a second path to a run that is collected anyway
    return runs


def test_a_loop_and_an_alias_collect_each_real_run_once(pytester: pytest.Pytester, lab: Lab) -> None:
    _symlinked_lab(pytester, lab)
    for args in (["--coldstart-runs=runs"], ["runs"]):
        result = pytester.runpytest(*args, "-rA")
        got = outcomes(result)
        assert _runs_of(got) == {"runs/sub/late_logger": 9, "runs/sub/passing": 10}, args
        result.stdout.fnmatch_lines_random(
            [
                "*coldstart: runs/sub/loop not collected: a symlink to its own ancestor runs (a loop)",
                "*coldstart: runs/sub/up not collected: a symlink to its own ancestor . (a loop)",
                "*coldstart: runs/alias not collected: reached through a symlink: the same run as runs/sub/passing, collected there",
            ]
        )
        assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_a_run_reached_only_through_links_is_collected_once_under_the_first(
    pytester: pytest.Pytester, lab: Lab
) -> None:
    runs = lab("pending_oracle")
    (runs / ".store").mkdir()  # pytest never walks a dot folder (norecursedirs)
    os.rename(runs / "pending_oracle", runs / ".store" / "pending_oracle")
    (runs / "b_link").symlink_to(".store/pending_oracle")
    (runs / "a_link").symlink_to(".store/pending_oracle")
    result = pytester.runpytest("--coldstart-runs=runs", "-rA")
    assert _runs_of(outcomes(result)) == {"runs/a_link": 9}
    result.stdout.fnmatch_lines(
        [
            "*coldstart: runs/b_link not collected: reached through a symlink: the same run as runs/a_link, collected there"
        ]
    )
    # xdist workers walk in the same sorted order, so they agree on which link carries the run.
    parallel = pytester.runpytest("--coldstart-runs=runs", "-rA", "-n", "2")
    assert outcomes(parallel) == outcomes(result)


def test_links_out_of_the_tree_are_never_followed(pytester: pytest.Pytester, lab: Lab) -> None:
    outside = lab("late_logger")
    elsewhere = pytester.path / "elsewhere"
    os.rename(outside / "late_logger", elsewhere)
    lab("passing")
    (pytester.path / "runs" / "ext").symlink_to(elsewhere)  # a run outside the collected folder
    for args, reason in (
        (["--coldstart-runs=runs"], "a symlink to elsewhere, outside the collected tree runs"),
        (["runs"], "reached through a symlink to elsewhere, outside the collected trees"),
    ):
        result = pytester.runpytest(*args, "-rA")
        assert _runs_of(outcomes(result)) == {"runs/passing": 10}, args
        result.stdout.fnmatch_lines([f"*coldstart: runs/ext not collected: {reason}"])
    # Named explicitly, the link is what the user asked for.
    explicit = pytester.runpytest("runs/ext", "-rA")
    assert _runs_of(outcomes(explicit)) == {"runs/ext": 9}


def test_the_same_outcomes_under_xdist_with_links(pytester: pytest.Pytester, lab: Lab) -> None:
    _symlinked_lab(pytester, lab)
    serial = outcomes(pytester.runpytest("--coldstart-runs=runs", "-rA"))
    parallel = pytester.runpytest("--coldstart-runs=runs", "-rA", "-n", "2")
    assert outcomes(parallel) == serial
    parallel.stdout.fnmatch_lines(["*runs/sub/loop not collected: a symlink to its own ancestor runs (a loop)"])


def test_link_policy_judges_paths(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    (runs / "a" / "r1").mkdir(parents=True)
    (runs / ".hidden" / "r2").mkdir(parents=True)
    (tmp_path / "out" / "r3").mkdir(parents=True)
    (runs / "a" / "back").symlink_to("..")
    (runs / "dangling").symlink_to("nowhere")
    (runs / "r1-alias").symlink_to("a/r1")
    (runs / "r2-first").symlink_to(".hidden/r2")
    (runs / "r2-second").symlink_to(".hidden/r2")
    (runs / "r3-out").symlink_to("../out/r3")
    (runs / "a-link").symlink_to("a")
    explicit = LinkPolicy([Tree.of(runs, explicit=True)], [".*"], tmp_path)
    assert explicit.folder(runs / "a") is None  # not a link
    assert explicit.folder(runs / "a-link") is None  # a link inside the tree is walked
    assert explicit.folder(runs / "a" / "back") == "a symlink to its own ancestor runs (a loop)"
    assert explicit.folder(runs / "dangling") == "a symlink that does not resolve (dangling, or a loop)"
    assert explicit.folder(runs / "r3-out") == "a symlink to out/r3, outside the collected tree runs"
    assert explicit.folder(tmp_path / "out") is None  # outside every tree: not this policy's business
    assert explicit.run(runs / "a" / "r1") is None
    assert (
        explicit.run(runs / "a-link" / "r1") == "reached through a symlink: the same run as runs/a/r1, collected there"
    )
    assert explicit.run(runs / "r1-alias") == "reached through a symlink: the same run as runs/a/r1, collected there"
    assert explicit.run(runs / "r2-first") is None
    assert explicit.run(runs / "r2-first") is None  # asked again (another worker's identical walk)
    assert (
        explicit.run(runs / "r2-second") == "reached through a symlink: the same run as runs/r2-first, collected there"
    )
    plain = LinkPolicy([Tree.of(runs, explicit=False)], [".*"], tmp_path)
    assert plain.folder(runs / "r3-out") is None  # a plain path argument: ordinary tests may live there
    assert plain.run(runs / "r3-out") == "reached through a symlink to out/r3, outside the collected trees"
    linked_root = tmp_path / "root-link"
    linked_root.symlink_to(runs)
    named = LinkPolicy([Tree.of(linked_root, explicit=False)], [".*"], tmp_path)
    assert named.run(linked_root / "a" / "r1") is None  # the tree's own folder may be a link
