"""The files only the lab writes, and the commands of ours that write them.

A run's own record (run.json, the trajectory, the declarations, the visibility inventory, the
task, the imported sessions, the stored audit), its reviews and its preflight are written by
the recorder, the harness, the operator and the reviewers. An agent that writes one of them
has forged the evidence the audit stands on: a resolved review appended by the agent, a
trajectory line it made up, a preflight it rewrote. The provenance model (``provenance.py``)
knows these files by their resolved paths and asks ``cli_write`` whether a shell segment runs
one of our recording commands (``coldstart trace review``, ``run_trace.py call``, ...).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

#: The declaration name the run's own record is known by in the provenance model.
RECORD = "run_record"
REVIEW = "review"
PREFLIGHT = "preflight"
#: Agent-written, each is an INFRA_ERROR: the audit has nothing independent left to stand on.
LAB_SIDE = (REVIEW, PREFLIGHT, RECORD)
RECORD_FILES = ("run.json", "trajectory.jsonl", "evidence.json", "visibility.json", "task.md")
RECORD_DIRS = ("imports/", "visibility/", "audit/", "preflight/", ".coldstart/")
DEFAULT_REVIEWS = "reviews.jsonl"

#: ``coldstart trace`` / ``run_trace.py`` subcommands that rewrite the lab's files, and the file
#: each rewrites. Appending to the trajectory (``call``, ``result``, ``artifact``, ``import``,
#: ``hook``, ...) is left to the agent: the reference protocol had agents record their own key
#: calls that way (the real rom20 run does), and such records are the agent's claims, never
#: independent evidence.
TRACE_WRITERS = {"review": DEFAULT_REVIEWS, "evidence": "evidence.json", "init": "run.json"}
TRACE_WRITERS |= {"seal": "run.json", "migrate": "run.json"}
#: The lifecycle (prepare/restore/agent/audit) is the operator's: a phase record the agent
#: appends would move the windows the audit counts agent work in.
TRACE_WRITERS |= {"phase": "trajectory.jsonl"}
#: ``trace record`` appends what it is given: the lab's when that is a phase record, or records
#: the command line does not show (``--json FILE``, ``--stdin``).
_PHASE_RECORD = re.compile(r"[\"']record[\"']\s*:\s*[\"']phase[\"']")
REVIEW_WRITERS = frozenset(["resolve", "reject"])
_CLAIMS = frozenset(["call", "result", "record"])  # subcommands that append the agent's own records
_CALL_ID = re.compile(r"[\"']call_id[\"']\s*:\s*[\"']([^\"']+)[\"']")
_PROGRAMS = ("coldstart", "coldstart.exe", "run_trace.py", "run_trace")
_MODULES = ("pytest_coldstart", "pytest_coldstart.cli.main")
_INTERPRETERS = frozenset(["python", "python3", "node", "bash", "sh", "perl", "ruby", "env", "sudo", "uv", "npx"])
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_CODE_WORD = re.compile(r"[A-Za-z_]+")
#: Our Python API's writers of lab files (Recorder.review, .phase, seal, migrate_run, init_run).
_API_WRITERS = {"review": DEFAULT_REVIEWS, "phase": "trajectory.jsonl", "seal": "run.json"}
_API_WRITERS |= {"seal_with_anchor": "run.json", "migrate_run": "run.json", "init_run": "run.json"}
#: A cheap necessary condition for ``cli_write`` on a call's text (lowercased bytes or str).
CLI_HINT = r"coldstart(?:\.exe)?[\"']?\s+(?:-\S*\s+)*[\"']?(?:trace|review)\b|pytest_coldstart|run_trace"
CLI_HINT += r"|\breview\W+(?:resolve|reject)\b|\btrace\W+(?:review|evidence|init|seal|migrate|phase|record)\b"
CLI_HINT_TEXT = re.compile(CLI_HINT, re.IGNORECASE)


@dataclass(frozen=True)
class CliWrite:
    how: str  # the command as written, e.g. "coldstart trace review"
    file: str  # the run file it writes (DEFAULT_REVIEWS: the run's review file, wherever declared)
    run_dir: str | None  # the --run-dir it names; None: not named (the default or $ENV)


def cli_write(words: Sequence[str]) -> CliWrite | None:
    """What one shell segment's words write through our CLI, or None when they run no
    command of ours that rewrites a lab file."""
    for program, start in _invocations(words):
        subs = [w.lower() for w in words[start:] if not w.startswith("-")][:2]
        found = _subcommand(program, subs) or _record(program, subs, words[start:])
        if found is not None:
            return CliWrite(f"{program} {found[0]}", found[1], _run_dir(words))
    return None


def claimed_ids(words: Sequence[str]) -> set[str]:
    """The call ids whose records one segment appends as the agent's own account of its work:
    ``coldstart trace call|result|record`` (``run_trace.py call|result|record``) with
    ``--call-id X``, or the ``call_id`` of the JSON a record command is given."""
    rest = _claim(words)
    if rest is None:
        return set()
    ids = {rest[i + 1] for i, w in enumerate(rest[:-1]) if w == "--call-id"}
    ids |= {w.partition("=")[2] for w in rest if w.startswith("--call-id=")}
    ids |= {m for w in rest for m in _CALL_ID.findall(w)}
    return {i for i in ids if i}


def records_a_claim(words: Sequence[str]) -> bool:
    """The segment runs one of our commands that appends the agent's own records (its
    words - a build command among its ``--arguments`` - describe a call, they run nothing)."""
    return _claim(words) is not None


def _claim(words: Sequence[str]) -> Sequence[str] | None:
    """The words after our program when it appends a call, result or (non-phase) record."""
    for _, start in _invocations(words):
        subs = [w.lower() for w in words[start:] if not w.startswith("-")][:2]
        return words[start:] if set(subs) & _CLAIMS else None
    return None


def _invocations(words: Sequence[str]) -> Iterator[tuple[str, int]]:
    """(our program, where its arguments start) for each word that runs it: ``coldstart``,
    ``run_trace.py`` (any path), ``python -m pytest_coldstart``, or a program no name tells
    (``/tmp/cs`` copied from it, ``"$(command -v coldstart)"``, ``$C``): fail closed, it may
    be ours under another name."""
    program = next((i for i, w in enumerate(words) if not _ASSIGNMENT.match(w)), None)
    for index, word in enumerate(words):
        name = word.replace("\\", "/").rpartition("/")[2].lower()
        if name in _PROGRAMS:
            yield name, index + 1
        elif word == "-m" and index + 1 < len(words) and words[index + 1].lower() in _MODULES:
            yield "coldstart", index + 2
        elif index == program and any(c in word for c in "/$`") and name not in _INTERPRETERS:
            yield "coldstart", index + 1


def code_write(text: str) -> CliWrite | None:
    """What code that imports our package writes through it: ``main(['review', 'resolve',
    ...])``, ``Recorder(run).review(...)``, ``seal(run)`` (fail closed: the agent has no use
    for our recorder but to write the lab's record)."""
    if "pytest_coldstart" not in text and "coldstart.cli" not in text:
        return None
    words = [w.lower() for w in _CODE_WORD.findall(text)]
    for first, second in itertools.pairwise(words):
        found = _subcommand("coldstart", [first, second])
        if found is not None:
            return CliWrite(f"pytest_coldstart in code ({found[0]})", found[1], None)
    for word in set(words) & set(_API_WRITERS):
        return CliWrite(f"pytest_coldstart in code ({word})", _API_WRITERS[word], None)
    return None


def _record(program: str, subs: list[str], words: Sequence[str]) -> tuple[str, str] | None:
    """``trace record`` of a phase record, or of records the words do not show."""
    reference = program.startswith("run_trace")
    expected = ["record"] if reference else ["trace", "record"]
    if subs[: len(expected)] != expected:
        return None
    unseen = any(w in ("--json", "--stdin") or w.startswith("--json=") for w in words)
    if unseen or any(_PHASE_RECORD.search(w) for w in words):
        return " ".join(expected), "trajectory.jsonl"
    return None


def _subcommand(program: str, subs: list[str]) -> tuple[str, str] | None:
    first = subs[0] if subs else ""
    second = subs[1] if len(subs) > 1 else ""
    if program.startswith("run_trace"):  # the reference tool: run_trace.py <subcommand>
        return (first, TRACE_WRITERS[first]) if first in TRACE_WRITERS else None
    if first == "trace" and second in TRACE_WRITERS:
        return f"trace {second}", TRACE_WRITERS[second]
    if first == "review" and second in REVIEW_WRITERS:
        return f"review {second}", DEFAULT_REVIEWS
    return None


def _run_dir(words: Sequence[str]) -> str | None:
    for index, word in enumerate(words):
        if word == "--run-dir" and index + 1 < len(words):
            return words[index + 1]
        if word.startswith("--run-dir="):
            return word.partition("=")[2]
    return None


def in_record_dir(relative: str) -> bool:
    return relative.startswith(RECORD_DIRS)
