"""Symbolic links met while collecting run directories: each real run is collected once.

pytest follows directory symlinks while it walks: a link to an ancestor makes it collect the
same run ~40 times (until the kernel's ELOOP), two such links make the walk exponential, and a
link out of the tree drags in whatever it points at. This policy decides, for the folders
pytest is about to enter, which ones it must not, and says why:

- a symlink that leads back to one of its own ancestors (a loop) is never entered;
- below a ``--coldstart-runs`` root, a symlink that leads out of every collected tree is never
  entered (ordinary test folders linked from a plain path argument are pytest's business);
- a run directory reached through a symlink is the same run as its real path: it is
  collected under the real path when the walk reaches that path itself, otherwise once,
  under the first link (in pytest's sorted walk order, so every xdist worker agrees);
  a run whose real path lies outside every collected tree is not collected.

Pure path logic (no pytest import); the collectors turn a reason into an empty node and a
warning naming the path.
"""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass
from pathlib import Path

#: Folders below a --coldstart-runs root that collection enters: labs nest runs a few levels deep,
#: and pytest's own walk would overflow Python's stack a few hundred levels down.
MAX_FOLDER_DEPTH = 64


@dataclass(frozen=True)
class Tree:
    """A folder collection walks: as pytest spells it (``logical``) and where it really is."""

    logical: Path
    real: Path
    explicit: bool  # a --coldstart-runs root: no link out of it is followed at all

    @classmethod
    def of(cls, path: Path, *, explicit: bool) -> Tree:
        return cls(Path(os.path.abspath(path)), path.resolve(), explicit)


def _resolved(path: Path) -> Path | None:
    try:
        return path.resolve(strict=True)
    except (OSError, RuntimeError):  # dangling, or a loop the kernel refuses (ELOOP)
        return None


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


class LinkPolicy:
    """Per session: which folders collection must not enter, and the runs reached by links."""

    def __init__(self, trees: list[Tree], norecurse: list[str], where: Path):
        self.trees = trees
        self.norecurse = norecurse
        self.where = where  # the invocation directory: reasons name paths relative to it
        self._first_link: dict[Path, Path] = {}  # real run directory -> the link it is collected under

    def shown(self, path: Path) -> str:
        return os.path.relpath(path, self.where) if path.is_relative_to(self.where) else str(path)

    def _tree_of(self, path: Path) -> Tree | None:
        """The innermost tree that holds ``path`` (as pytest spells it)."""
        holding = [tree for tree in self.trees if _within(path, tree.logical)]
        return max(holding, key=lambda tree: len(tree.logical.parts), default=None)

    def _inside(self, real: Path) -> bool:
        return any(_within(real, tree.real) for tree in self.trees)

    def _walked_directly(self, real: Path) -> Tree | None:
        """The tree whose own walk reaches ``real`` without a link (None: only links lead there)."""
        for tree in self.trees:
            if _within(real, tree.real):
                parts = real.relative_to(tree.real).parts
                if not any(fnmatch.fnmatch(part, pattern) for part in parts for pattern in self.norecurse):
                    return tree
        return None

    def folder(self, path: Path) -> str | None:
        """Why pytest must not enter this folder, or None. Only symlinks inside a tree are judged,
        and folders nested deeper than any lab (pytest's walk recurses once per level)."""
        tree = self._tree_of(path)
        if tree is None or path == tree.logical:
            return None
        if len(path.parts) - len(tree.logical.parts) > MAX_FOLDER_DEPTH:
            return f"nested more than {MAX_FOLDER_DEPTH} folders below {self.shown(tree.logical)} (no run is that deep)"
        if not path.is_symlink():
            return None
        real = _resolved(path)
        if real is None:
            return "a symlink that does not resolve (dangling, or a loop)"
        ancestor = path.parent
        while True:
            at = ancestor.resolve()
            if _within(at, real):
                return f"a symlink to its own ancestor {self.shown(real)} (a loop)"
            if ancestor == tree.logical or ancestor == ancestor.parent:
                break
            ancestor = ancestor.parent
        if tree.explicit and not self._inside(real):
            return f"a symlink to {self.shown(real)}, outside the collected tree {self.shown(tree.logical)}"
        return None

    def run(self, path: Path) -> str | None:
        """Why this run directory is not collected here, or None (collect it)."""
        tree = self._tree_of(path)
        if tree is None or not self._through_link(path, tree):
            return None
        real = _resolved(path)
        if real is None:
            return "a symlink that does not resolve"
        if not self._inside(real):
            return f"reached through a symlink to {self.shown(real)}, outside the collected trees"
        direct = self._walked_directly(real)
        if direct is not None:
            shown = direct.logical / real.relative_to(direct.real)
            return f"reached through a symlink: the same run as {self.shown(shown)}, collected there"
        first = self._first_link.setdefault(real, path)
        if first != path:
            return f"reached through a symlink: the same run as {self.shown(first)}, collected there"
        return None

    @staticmethod
    def _through_link(path: Path, tree: Tree) -> bool:
        """Does pytest reach ``path`` through a symlink below the tree's own folder?"""
        current = path
        while current != tree.logical and current != current.parent:
            if current.is_symlink():
                return True
            current = current.parent
        return False
