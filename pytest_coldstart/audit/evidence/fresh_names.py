"""Names no file of the run can have: what ``mktemp`` prints. ``cd $(mktemp -d)`` moves the
shell into a fresh folder, and ``D=$(mktemp -d); cp a "$D"`` writes a name that did not exist
- whatever the cwd, no declared file. Pure text, as ``shell_words``."""

from __future__ import annotations

import re
from collections.abc import Callable

from pytest_coldstart.audit.evidence.shell_words import SEGMENT

#: cd $(mktemp -d): a fresh folder in $TMPDIR (a template without -t is made in the cwd)
_FRESH = re.compile(
    r"""^(?:cd|pushd)\s+["']?(?:\$\(|`)mktemp\s+(?P<o>-dt|-td|-d(?:\s+-t)?)(?:\s+(?P<t>\w[\w.%-]*))?\s*[)`]["']?$"""
)


def fresh_folder(segment: str) -> bool:
    """A ``cd``/``pushd`` into a folder ``mktemp -d`` makes in ``$TMPDIR`` (``-t`` or no template,
    ``TMPDIR`` not set on the line): never the run's folder."""
    fresh = _FRESH.match(segment.strip())
    return fresh is not None and "TMPDIR" not in segment and ("t" in fresh["o"] or not fresh["t"])


_SEPARATED = re.compile(f"({SEGMENT.pattern})")
#: D=$(mktemp -d): a segment that only sets a variable to a fresh folder
_FRESH_SET = re.compile(
    r"""^[ \t]*(?:export[ \t]+)?([A-Za-z_]\w*)=(["']?)((?:\$\(|`)mktemp[ \t][^)`\n;&|]*[)`])\2[ \t]*$"""
)
_CD_VARIABLE = re.compile(r"""^[ \t]*(?:cd|pushd)[ \t]+((["']?)\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\})\2)[ \t]*$""")


#: the text's first statement: D=$(mktemp -d) with flags and templates with their X's only (not
#: -p DIR, --tmpdir=DIR: a folder that may not exist, D empty), then ;, && or a newline - not
#: in a subshell, a condition or a pipeline that may leave D as it was
_MKTEMP_SET = re.compile(
    r"""[ \t]*(?:export[ \t]+)?([A-Za-z_]\w*)=(["']?)(?:\$\(|`)mktemp"""
    r"""(?:[ \t]+(?:-[dtuq]+|--directory|--dry-run|--quiet|[^\s)`;&|$-][^\s)`;&|$]*XXX[^\s)`;&|$]*))*"""
    r"""[ \t]*[)`]\2[ \t]*(?:;|&&|\n|$)"""
)
#: "$D", ${D}, $D/: a variable's value itself, the target a fresh variable names
FRESH_TARGET = re.compile(r"[\"']?\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\})[\"']?/?")


def fresh_variable(text: str, tmpdir_set: bool = False) -> str | None:
    """The variable ``text`` first sets to what ``mktemp`` prints, where nothing else in it may
    set it: a name that did not exist (``D=$(mktemp -d) && cp a "$D"`` writes no file of the
    run, whatever the cwd). A name that also stands bare anywhere else (``for D in``, ``read D``,
    ``printf -vD``, ``${D:=x}``) may be set again; with ``TMPDIR`` set (``tmpdir_set``, or in
    this text) mktemp may fail and leave it empty: None."""
    if tmpdir_set or "mktemp" not in text or "TMPDIR" in text:
        return None
    first = _MKTEMP_SET.match(text)
    if first is None:
        return None
    name, rest = first[1], text[first.end() :]
    if re.search(rf"(?<![\w$]){name}(?!\w)|-\w*{name}(?!\w)", re.sub(rf"\${name}(?!\w)|\${{{name}}}", " ", rest)):
        return None
    return name


def fresh_spelled(text: str, tmpdir_set: bool = False) -> str:
    """``text`` with each ``cd $D`` right after ``D=$(mktemp -d)`` spelled ``cd $(mktemp -d)``
    (``fresh_folder``): only the very next segment, after ``;``/``&&``/a newline, of an
    assignment no ``&&``/``||``/pipe/subshell may skip - nothing between can change ``D`` (a
    later ``cd $D`` stays unknown). The segments stay the ones ``SEGMENT`` cuts. None where a
    call set ``TMPDIR`` (``tmpdir_set``, or this text): mktemp may make it in the run."""
    if tmpdir_set or "mktemp" not in text or "TMPDIR" in text:
        return text
    parts = _SEPARATED.split(text)
    for i in range(0, len(parts) - 2, 2):
        if "mktemp" not in parts[i] or (i and parts[i - 1] not in (";", "\n")) or parts[i + 1] not in (";", "\n", "&&"):
            continue
        assigned, moved = _FRESH_SET.match(parts[i]), _CD_VARIABLE.match(parts[i + 2])
        if assigned and moved and (moved[3] or moved[4]) == assigned[1] and fresh_folder(f"cd {assigned[3]}"):
            parts[i + 2] = parts[i + 2][: moved.start(1)] + assigned[3] + parts[i + 2][moved.end(1) :]
    return "".join(parts)


def moving(text: str, tmpdir_set: bool) -> list[str]:
    """The segments of ``text`` as its ``cd``s move the shell (``fresh_spelled``)."""
    return SEGMENT.split(fresh_spelled(text, tmpdir_set))


def without_fresh(guess: Callable[[str], list[str]], text: str, tmpdir_set: bool) -> Callable[[str], list[str]]:
    """``guess`` of the declared files a write target may be, with none for the value of
    ``text``'s fresh variable itself ("$D", ${D}, $D/)."""
    name = fresh_variable(text, tmpdir_set)
    if name is None:
        return guess

    def guarded(target: str) -> list[str]:
        found = FRESH_TARGET.fullmatch(target)
        return [] if found is not None and (found[1] or found[2]) == name else guess(target)

    return guarded
