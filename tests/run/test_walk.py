"""run.walk: os.walk and rglob without recursion (Python 3.11's recurse once per folder level)."""

from __future__ import annotations

import os
from pathlib import Path

from hostile_runs import remove_tree
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_coldstart.run.walk import paths_below, walk

NAMES = st.sampled_from(["a", "b", "c", ".hidden", "run.json", "x.txt"])
TREES = st.recursive(st.just("file"), lambda inner: st.dictionaries(NAMES, inner, max_size=4), max_leaves=30)


def _build(root: Path, tree: object) -> None:
    if isinstance(tree, dict):
        root.mkdir(parents=True, exist_ok=True)
        for name, below in tree.items():
            _build(root / name, below)
    else:
        root.write_text("x")


def _pruned(walker, root: Path) -> list[tuple[str, list[str], list[str]]]:
    seen = []
    for folder, dirs, files in walker(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))  # callers prune and sort in place
        seen.append((folder, list(dirs), sorted(files)))
    return seen


@settings(max_examples=60, deadline=None)
@given(tree=st.dictionaries(NAMES, TREES, max_size=4))
def test_walk_is_os_walk_with_the_same_pruning_and_order(tmp_path_factory, tree) -> None:
    root = tmp_path_factory.mktemp("tree")
    _build(root, tree)
    assert _pruned(walk, root) == _pruned(os.walk, root)
    assert sorted(paths_below(root)) == sorted(root.rglob("*"))


def test_symlinked_folders_are_listed_not_entered(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "inside.txt").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert [(Path(f).name, sorted(d)) for f, d, _ in walk(tmp_path)] == [
        (tmp_path.name, ["link", "real"]),
        ("real", []),
    ]
    assert sorted(p.name for p in paths_below(tmp_path)) == ["inside.txt", "link", "real"]


def test_a_tree_deeper_than_the_recursion_limit_is_walked(tmp_path: Path) -> None:
    folder = tmp_path
    for _ in range(1_200):  # mkdir -p a/a/a/...: Python 3.11's os.walk raised RecursionError here
        folder = folder / "a"
        os.mkdir(folder)
    (folder / "deepest.txt").write_text("x")
    assert sum(len(files) for _, _, files in walk(tmp_path)) == 1
    assert [p.name for p in paths_below(tmp_path) if p.is_file()] == ["deepest.txt"]
    remove_tree(tmp_path / "a")  # pytest's own cleanup of tmp_path recurses
    assert not (tmp_path / "a").exists()
