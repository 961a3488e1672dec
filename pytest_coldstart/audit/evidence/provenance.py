"""Provenance: for each declared evidence file, what could have written it.

Fed every call record of the trajectory (``Provenance.feed``, from the scanner's one pass),
it records, per declared file, the calls that write it - a write/edit/create tool aimed at
its path, a shell command that writes it (``shell_writes``), one of our recording commands
that rewrites a lab file (``lab_record``) - and whether each writer is the agent (an agent
call in the agent phase) or an operator (any other call). It also keeps what the
agent wrote anywhere in the run (paths, and the sha256 of every content a write tool was
given), so evidence byte-identical to something the agent wrote is known.

The independence rules derived from it (``violations``; docs/protocol.md "Provenance"):
- test_mod must not be agent-written nor byte-identical to an agent-written file (the answer
  and the logger included) -> INFRA_ERROR (the independent record is missing);
- oracle likewise -> answer_correct FAIL, AGENT_FAIL ("an oracle copied from the agent's
  answer fails");
- fixture and restore likewise -> FIXTURE_INVALID (initialisation/restore not shown faithful);
- the agent logger must be agent-written (an agent call writes it, or builds/starts the
  logger) and must not be a copy of test-side evidence (byte-identical, or a copy/redirect of
  a test-side file onto it) -> the logger flags FAIL, AGENT_FAIL (test-side-only
  observation);
- the run's own record (run.json, trajectory, declarations, imports, ...), its reviews and
  its preflight must not be agent-written, nor (reviews, preflight) byte-identical to what
  the agent wrote -> INFRA_ERROR (the audit has nothing independent left to stand on).
"""

from __future__ import annotations

import fnmatch
import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pytest_coldstart.audit.evidence import lab_record, preloads, session_state
from pytest_coldstart.audit.evidence.code_writes import script_writes
from pytest_coldstart.audit.evidence.encoded import with_decoded
from pytest_coldstart.audit.evidence.executed import uncommented
from pytest_coldstart.audit.evidence.expansions import valued_text
from pytest_coldstart.audit.evidence.fresh_names import without_fresh
from pytest_coldstart.audit.evidence.identity import RUN, Workspace
from pytest_coldstart.audit.evidence.lab_record import RECORD, REVIEW
from pytest_coldstart.audit.evidence.naming import Naming
from pytest_coldstart.audit.evidence.opaque import OPAQUE, opaque_runs
from pytest_coldstart.audit.evidence.prescan import Prescan
from pytest_coldstart.audit.evidence.provenance_rules import (
    TEST_SIDE,
    Violation,
    answer_violations,
    lab_side_violations,
    logger_violations,
)
from pytest_coldstart.audit.evidence.scripts import CONTENT_KEYS, Scripts
from pytest_coldstart.audit.evidence.shell_words import last_component, strings
from pytest_coldstart.audit.evidence.shell_writes import RUNTIME_NAME, ShellWrite, may_write, shell_writes
from pytest_coldstart.audit.evidence.taint import CARRIED, Taint, keys_named
from pytest_coldstart.audit.evidence.tool_writes import READER_VERBS, is_writer, tool_paths, words_of
from pytest_coldstart.audit.evidence.tree_writes import expand
from pytest_coldstart.audit.evidence.written_data import beside_data

INDEPENDENT = TEST_SIDE
AGENT_FILES = ("answer", "agent_logger")
#: the lab's files no agent call may have written
LAB_FILES = frozenset((*INDEPENDENT, REVIEW, lab_record.PREFLIGHT))
CLASS = {"test_mod": "INFRA_ERROR", "oracle": "AGENT_FAIL", "fixture": "FIXTURE_INVALID", "restore": "FIXTURE_INVALID"}
_ABSOLUTE = re.compile(r"^(?:[/\\\\]|[a-zA-Z]:)")  # a host path, not a run-relative one
MAX_HASHED = 4096


@dataclass(frozen=True)
class Write:
    call_id: str
    agent: bool
    how: str
    source: str | None = None  # the key a copy/move came from
    order: int = 0  # the call's place among the calls fed (trajectory order)


@dataclass
class Provenance:
    workspace: Workspace
    keys: dict[str, set[str]] = field(default_factory=dict)  # declaration -> its keys
    writes: dict[str, list[Write]] = field(default_factory=dict)  # key -> writes, file order
    content: dict[str, str] = field(default_factory=dict)  # sha256 of written content -> call id
    agent_paths: dict[str, str] = field(default_factory=dict)  # key -> first agent call writing it
    armed_by: str | None = None  # first agent call that builds/starts the logger
    claimed: set[str] = field(default_factory=set)  # call ids whose records an agent call appended itself
    laundered: dict[str, str] = field(default_factory=dict)  # call writing the logger -> test-side file it names
    taint: Taint = field(default_factory=Taint)  # files carrying test-side content
    variables: dict[str, str] = field(default_factory=dict)  # shell state earlier calls left (session_state)
    names_made: int = 0  # names added to ``variables`` so far (a name assigned again: none)
    scripts: Scripts = field(default_factory=Scripts)  # files agent calls wrote, with what they wrote
    violations: list[Violation] = field(default_factory=list)
    _by_key: dict[str, str] = field(default_factory=dict)  # key -> declaration
    prescan: Prescan = field(default_factory=Prescan)  # the cheap look before a call is judged
    _naming: Naming | None = None
    _running: list[str] = field(default_factory=list)  # kept scripts the call being fed runs
    _named_kept: list[str] = field(default_factory=list)  # kept files it names (``cat s > t`` carries them)
    _fed: int = 0
    _agent_feed: bool = False  # the call being fed is the agent's

    def declare(self, name: str, paths: list[tuple[str, bool]]) -> None:
        """``paths``: (path, run_relative) - run-relative declarations, or an original host path."""
        keys = self.keys.setdefault(name, set())
        for path, run_relative in paths:
            key = self.workspace.run_key(path) if run_relative else self.workspace.key(path)
            if key is not None:
                keys.add(key)
        self._by_key = {key: name for name, keys in self.keys.items() for key in keys}
        self.workspace.declare(keys)
        self.prescan.forget()
        self._naming = None

    # -- feeding ---------------------------------------------------------------------------

    def may_matter(self, text: bytes, tool: str) -> bool:
        """Cheap necessary condition on the lowercased arguments (compact JSON): may this call
        name or write a file?"""
        return self.prescan.may_matter(text, tool, self)

    def watched_variables(self) -> list[str]:
        """The variables, functions and aliases earlier calls left: a value needs name no file
        whole to make one (``F=oracle``, then ``cat $F.json``)."""
        return sorted(self.variables)

    @property
    def naming(self) -> Naming:
        """The declared files as a call may name them (built once all are declared)."""
        if self._naming is None:
            self._naming = Naming(self.workspace, self.keys, TEST_SIDE, self.variables)
        return self._naming

    def names(self, arguments: Any, tool: str = "") -> set[str]:
        """The declarations whose file a call's arguments name (``naming``: by resolved path;
        an unplaceable path or a glob names test-side files by name, fail closed)."""
        # a script the agent wrote, run by this call (a call of a known tool that runs commands)
        runs = bool(tool) and self._may_run(tool, arguments)
        run = self.scripts.run_by(self._valued(arguments), self.workspace) if runs else []
        return self.naming.names([arguments, *run] if run else arguments, tool)

    def run_names(self, tool: str, arguments: Any) -> set[str]:
        """The declarations the kept scripts this call runs name: ``echo 'cat oracle.json' > s.sh
        && bash s.sh`` echoes the name, then runs it."""
        run = self.scripts.run_by(self._valued(arguments), self.workspace) if self._may_run(tool, arguments) else []
        return self.naming.names(run, tool) if run else set()

    @staticmethod
    def _may_run(tool: str, arguments: Any) -> bool:
        """A call of a known tool that neither writes nor only reads: a Read tool's path is no
        command line (``workspace/notes.md`` alone is not the program ``./notes.md``)."""
        return not (isinstance(arguments, dict) and is_writer(tool, arguments)) and not words_of(tool) & READER_VERBS

    def _valued(self, arguments: Any) -> list[str]:
        """The call's texts, also read with known variables (``bash $S``), and what kept state loads (``preloads``)."""
        texts = list(strings(arguments)) + preloads.kept_loads(self.variables, self.scripts.names)
        return texts + [v for t in texts if (v := valued_text(t, self.variables)) != t]

    def names_beside_content(self, tool: str, arguments: Any) -> set[str]:
        """``names`` without the text a write tool writes: a note that mentions oracle.json
        names no file the call touches."""
        if isinstance(arguments, dict) and is_writer(tool, arguments):
            arguments = {key: value for key, value in arguments.items() if key not in CONTENT_KEYS}
        return self.names(arguments, tool)

    def feed(self, call_id: str, tool: str, arguments: Any, agent: bool) -> set[str]:
        """Record the call's writes; returns the declarations whose file it writes."""
        self._fed += 1
        self._agent_feed = agent
        self.scripts.fresh.clear()
        self.workspace.cdpath |= any("CDPATH" in text for text in strings(arguments))  # from now on
        self.workspace.tmpdir |= any("TMPDIR" in text for text in strings(arguments))
        written: set[str] = set()
        writes = self._writes(tool, arguments)
        for key, how, source in writes:
            if key in self._by_key:
                written.add(self._by_key[key])
            self.writes.setdefault(key, []).append(Write(call_id, agent, how, source, self._fed))
            if agent:
                self.agent_paths.setdefault(key, call_id)
        if "agent_logger" in written:  # test-side content poured into the logger (cat test/x >> log)
            seen = sorted(self.names(arguments) & set(CARRIED))
            named = lambda: keys_named(self.workspace, arguments)  # noqa: E731 - resolved only if needed
            poured = seen[0] if seen else self.taint.poured(writes, named, self._show)
            self.laundered.update({call_id: poured} if poured else {})
        if writes:
            self.taint.carry(writes, self._by_key, lambda: self.names(arguments))
        self.carry_session(tool, arguments)
        if agent and isinstance(arguments, dict) and is_writer(tool, arguments):
            for key in CONTENT_KEYS:
                value = arguments.get(key)
                if isinstance(value, str) and value:
                    self.content.setdefault(hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest(), call_id)
        if agent:
            self._keep_scripts(tool, arguments, writes)
        return written

    def _keep_scripts(self, tool: str, arguments: Any, writes: list[ShellWrite]) -> None:
        """What an agent call writes into its files, for a later call that runs one (``scripts``)."""
        mine = [(key, source) for key, _, source in writes if key not in self._by_key and key not in self._running]
        self.scripts.keep_call(tool, arguments, mine, self._named_kept)

    def _show(self, key: str) -> str:
        return self.workspace.relative_of(key) or key

    def carry_session(self, tool: str, arguments: Any) -> None:
        """What a call leaves its shell session with for later calls: the folder it cd'd into,
        and the variables, functions and aliases it made (``session_state``; fail closed: later
        calls are read with them). Also for a call not worth the full look."""
        texts = list(strings(arguments))
        if isinstance(arguments, dict) and is_writer(tool, arguments):
            texts = list(strings({key: value for key, value in arguments.items() if key not in CONTENT_KEYS}))
        elif self.scripts.by_key:  # source env.sh: what a kept file it runs sets, the session keeps
            texts += [self.scripts.by_key[key] for key in self.scripts.run_keys(texts, self.workspace)]
        for text in texts:
            self.workspace.cdpath |= "CDPATH" in text  # a later relative cd may land in its folders
            self.workspace.carry_cwd(text)
            self.names_made += session_state.carry(text, self.variables)

    def _writes(self, tool: str, arguments: Any) -> list[ShellWrite]:
        out: list[ShellWrite] = []
        if is_writer(tool, arguments):
            for target in tool_paths(arguments, any_key=True):  # a writer's uri or p is a path too
                out += [(k, f"{tool} tool", None) for k in self.workspace.placed(target, self._unplaced)]
        guess = None
        # a file tool's text is data, judged when its file runs: read it only where it is not kept
        kept = [key for key, _, _ in out if key not in self._by_key] if self._agent_feed else []
        texts = list(strings(beside_data(tool, arguments, kept, self.scripts)))
        named = self.scripts.named(self._valued(arguments), self.workspace) if self._may_run(tool, arguments) else {}
        self._named_kept = list(named)
        self._running = [key for key, run in named.items() if run]
        texts += [uncommented(key, self.scripts.by_key[key]) for key in self._running]  # what a script it runs writes
        for text in with_decoded(texts, self.variables):
            if may_write(text) or lab_record.CLI_HINT_TEXT.search(text):
                # a name known only at run time may be any the call names, in any of its texts
                guess = guess or self._unplaced_in(valued_text("\n".join(strings(arguments)), self.variables))
                out += shell_writes(text, self.workspace, self._recording, guess, lab_record.CLI_HINT_TEXT)
            out += script_writes(text, self.workspace, self._unplaced, self._named_keys)
            coded = lab_record.code_write(text) if "coldstart" in text else None  # the whole text: code spans ;
            out += self._lab_writes(coded, None) if coded is not None else []
            # a compiled source counts as run by any program (``compiled``): that program is still opaque
            out += self._opaque_writes(text) if self.scripts.compiled.keys() >= set(self._running) else []
        return expand(out, self._by_key)

    def _opaque_writes(self, text: str) -> list[ShellWrite]:
        """The lab's files a program whose code the run does not hold is handed (``opaque``)."""
        out: list[ShellWrite] = []
        for head, line in opaque_runs(text):
            for name in self.naming.names(line, "") & LAB_FILES:
                out += [(key, f"{head} {OPAQUE}", None) for key in sorted(self.keys.get(name, ()))]
        return out

    def _named_keys(self, text: str) -> list[str]:
        """What code writing a path that is no literal may write: the declared files the text
        names, and the test-side ones in folders it lists or globs over (fail closed)."""
        named = {key for name in self.names(text) for key in self.keys[name]}
        named |= set(self.naming.reached("", text, (*INDEPENDENT, REVIEW, lab_record.PREFLIGHT), code=True))
        return sorted(named)

    def _unplaced_in(self, text: str) -> Callable[[str], list[str]]:
        """``_unplaced``, and for a name known only at run time ("$f", ``{}``) the declared files
        ``text`` may hand it (``Naming.reached``)."""
        reachable = (*INDEPENDENT, REVIEW, lab_record.PREFLIGHT)
        by_text: list[list[str]] = []  # the same for every folderless name: judged once per text

        def guess(target: str) -> list[str]:
            if not RUNTIME_NAME.fullmatch(last_component(target)):
                return self._unplaced(target)
            in_folder = self.naming.in_folder(target, reachable)
            if in_folder is not None:
                return in_folder
            if not by_text:
                by_text.append(self.naming.reached_by_text(text, reachable))
            return by_text[0]

        return without_fresh(guess, text, self.workspace.tmpdir)  # D=$(mktemp -d); cp a "$D": no file

    def _unplaced(self, target: str) -> list[str]:
        """A write to a path the audit cannot place ($RUN_DIR/oracle.json, ~/run/x, a glob) is
        taken to write every independent or lab-side declaration of that file name (fail
        closed); the run's own record files (run.json, task.md ...) are too common a name."""
        name = last_component(target)
        if not name or name in (".", ".."):
            return []
        return sorted(
            key
            for declaration in (*INDEPENDENT, REVIEW, lab_record.PREFLIGHT)
            for key in self.keys.get(declaration, ())
            if fnmatch.fnmatchcase(key.rpartition("/")[2].lower(), name)
        )

    def _recording(self, words: list[str], cwd: str | None) -> list[ShellWrite]:
        """The lab files one of our recording commands writes. It is taken to write this run
        unless the run's host path is known and the --run-dir it names is outside it: a run dir
        left to the default, a $VARIABLE or a relative path the audit cannot place fail closed."""
        if self._agent_feed:
            self.claimed.update(lab_record.claimed_ids(words))
        found = lab_record.cli_write(words)
        return self._lab_writes(found, cwd) if found is not None else []

    def _lab_writes(self, found: lab_record.CliWrite, cwd: str | None) -> list[ShellWrite]:
        ws = self.workspace
        if found.run_dir is not None and ws.run_base != RUN:
            target = ws.key(found.run_dir, cwd)
            if target is not None and ws.inside(target) is None:
                return []  # another run
        if found.file == lab_record.DEFAULT_REVIEWS:
            keys = sorted(self.keys.get(REVIEW, ()))
        else:
            keys = [k for k in (ws.run_key(found.file),) if k is not None]
        return [(keys[0], found.how, None)] if keys else []

    # -- the rules -------------------------------------------------------------------------

    def writers(self, name: str) -> list[Write]:
        return [w for key in sorted(self.keys.get(name, ())) for w in self.writes.get(key, [])]

    def judge(
        self,
        hashes: dict[str, str],
        hash_file: Callable[[str], str | None],
        logger_armed: bool,
        logger_hashes: Sequence[str] = (),
    ) -> list[Violation]:
        """``hashes``: declaration -> sha256 of its bytes; ``hash_file(relative)``: sha256 of a
        run file (None when absent). ``logger_armed``: an agent call builds/starts the logger.
        ``logger_hashes``: every sha256 standing for the logger's bytes (raw, view, named raw)."""
        agent_written: dict[str, tuple[str, str]] = {}  # sha256 -> (what, ref)
        for sha, call_id in self.content.items():
            agent_written.setdefault(sha, (f"the content agent call {call_id} wrote", f"trajectory:{call_id}"))
        for name in AGENT_FILES:
            if name in hashes:
                agent_written.setdefault(hashes[name], (f"the {name.replace('_', ' ')}", name))
        for sha in logger_hashes:  # a normalized view is the agent's too
            agent_written.setdefault(sha, ("the agent logger", "agent_logger"))
        for key, call_id in list(self.agent_paths.items())[:MAX_HASHED]:
            relative = self.workspace.inside(key)
            digest = hash_file(relative) if relative is not None and relative != "." else None
            if digest is not None:
                agent_written.setdefault(
                    digest, (f"{relative}, which agent call {call_id} wrote", f"trajectory:{call_id}")
                )
        out: list[Violation] = []
        for name in INDEPENDENT:
            if name not in self.keys:
                continue
            agent = [w for w in self.writers(name) if w.agent]
            if agent:
                first = agent[0]
                out.append(
                    Violation(
                        name,
                        CLASS[name],
                        f"{name} evidence is agent-written: agent call {first.call_id} writes it ({first.how}); "
                        "test-side evidence must be independent of the agent",
                        f"trajectory:{first.call_id}",
                    )
                )
                continue
            found = hashes.get(name)
            if found is not None and found in agent_written:
                what, ref = agent_written[found]
                out.append(
                    Violation(
                        name,
                        CLASS[name],
                        f"{name} evidence is byte-identical to {what}: a copy of agent-written bytes is not independent",
                        ref if ref.startswith("trajectory:") else None,
                    )
                )
        out += lab_side_violations(self, hashes, agent_written)
        out += logger_violations(self, hashes, logger_armed, logger_hashes)
        out += answer_violations(self)
        self.violations = out
        return out

    def refusal(self, name: str) -> Violation | None:
        return next((v for v in self.violations if v.name == name), None)


def for_evidence(declarations: dict[str, Any], workspace: Workspace) -> Provenance:
    """The model of a run's declarations: each known by its run-relative path(s) and, when
    declared, the ``original_path`` it had while the agent worked."""
    model = Provenance(workspace)
    # The record first: an evidence declaration naming one of its files takes the path over.
    model.declare(RECORD, [(path, True) for path in lab_record.RECORD_FILES])
    for name, decl in declarations.items():
        if not isinstance(decl, dict):
            continue
        paths: list[tuple[str, bool]] = []
        for key in ("path", "normalized", "raw"):
            value = decl.get(key)
            if isinstance(value, str) and value.strip() and not _ABSOLUTE.match(value):
                paths.append((value, True))
        original = decl.get("original_path")
        if isinstance(original, str) and original.strip():
            paths.append((original, False))
        model.declare(name, paths)
    if REVIEW not in model.keys:
        model.declare(REVIEW, [(lab_record.DEFAULT_REVIEWS, True)])
    return model
