"""Scripts the agent writes and later runs: the later call does what the script says.

``Write {"file_path": "workspace/peek.py", "content": "print(open('../oracle.json').read())"}``
then ``cd workspace && python3 peek.py`` reads the oracle, but neither call spells the read
where the audit looked: the write's content is a mention (a note may name oracle.json), the run
names only the script. So the content an agent call writes into a file - a write tool's content,
or a shell command's whole text where it writes a file (``cat > x.sh <<EOF … EOF``, ``echo … >
x.sh``: fail closed, any of it may be in the file) - is kept by the file's key, and a call
whose text runs that file is read with the script's text as one of its own texts, in that
call's working directory, where it runs the file: an interpreter or a shell handed it,
``source``, ``eval``, the file as the program (``./peek.sh``), or a way ``kept_runs`` spells
(piped into a shell, a substitution as the command, a makefile, an rc file). A file written
and run in the same call counts only where the run comes after the write. A copy (``cp``,
``mv``, ``install``, ``ln``) carries the kept text to its new name; ``cat s > t`` and ``tee``
carry what the call names. A script a kept script runs is read too, however deep (each once a call).
Bounded: at most ``MAX_SCRIPTS`` files and ``MAX_CHARS`` of each; a script written again
replaces what was kept, one appended to (``>>``) keeps both.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Collection, Iterable
from typing import Any

from pytest_coldstart.audit.evidence import (
    build_files,
    compiled,
    includes,
    kept_indirect,
    kept_lists,
    kept_runs,
    program_files,
    scrambles,
    task_runners,
    tool_configs,
)
from pytest_coldstart.audit.evidence.executed import executed, uncommented
from pytest_coldstart.audit.evidence.identity import Workspace
from pytest_coldstart.audit.evidence.shell_words import is_glob, last_component, program_name, strings
from pytest_coldstart.audit.evidence.tool_writes import is_writer, tool_paths

#: Programs that run the file they are handed (an interpreter, a shell, ``source``).
RUNNERS = frozenset(["python", "python3", "python2", "node", "bash", "sh", "zsh", "dash", "ksh", "fish", "perl"])
RUNNERS |= {"ruby", "php", "rscript", "deno", "bun", "ts-node", "tsx", "source", ".", "exec", "pwsh", "lua", "tclsh"}
RUNNERS |= {"luajit", "pypy", "pypy3", "jruby", "nodejs", "wish"}
RUNNERS |= {"eval", "make"}  # eval runs its words; make as ``loads`` spells it: make <its makefiles>
RUNNERS |= {"include", "-include", "sinclude"}  # a makefile's include: make reads the makefile it names
CONTENT_KEYS = ("content", "file_text", "text", "new_content", "contents")  # what a write tool writes
EDIT_KEYS = ("new_string", "new_str", "insert_text", "newText")  # what an edit adds to a file (pi: newText)
_APPENDS = re.compile(r"\btee\s+(?:-\w*a|--append)")
MAX_SCRIPTS = 256
MAX_CHARS = 64 * 1024
#: distinct tokens of a segment ``kept_lists.lists`` looks at (each reads the segment up to the
#: token); past them a kept file the segment names counts as a list (fail closed)
MAX_LOOKS = 32
#: a substitution run as the command word longer than this holds every token (fail closed:
#: each token would search it)
MAX_INNER = 4096
GIT_HOOKS = kept_runs.GIT_HOOK_NAMES


class Scripts:
    """The files agent calls wrote, with what they wrote into them."""

    def __init__(self) -> None:
        self.by_key: dict[str, str] = {}
        self.names: set[str] = set()  # their base names, for the cheap scan of later calls
        self.fresh: set[str] = set()  # the keys the call being fed wrote (set by its feeder)
        self.stems: set[str] = set()  # words of a call that may load one by itself (kept_indirect)
        self.path: list[str] = []  # the folders agent calls put on PATH, newest first
        self.pythonpath: list[str] = []  # the folders agent calls put on PYTHONPATH
        self.hooks: set[str] = set()  # kept python startup hooks (``kept_indirect.startup_hook``)
        self.inis: set[str] = set()  # kept pytest ini files (their addopts' -p plugins)
        self.compiled: dict[str, None] = {}  # kept sources a compiler was handed (``compiled``)
        self.compiling: list[str] = []  # those the call being judged hands a compiler
        self._wanted: re.Pattern[str] | None = None
        self._runs: dict[str, list[str]] = {}  # what each kept file runs in turn (``_runs_of``)
        self._stamp: tuple[Any, ...] = ()  # what ``_runs`` was found under

    def keep(self, keys: Iterable[str], text: str, *, append: bool = False) -> None:
        for key in keys:
            if key in self.by_key or len(self.by_key) < MAX_SCRIPTS:
                old = self.by_key.get(key) if append else None
                joined = text if old is None or old == text else f"{old}\n{text}"
                half = MAX_CHARS // 2  # appended past the bound: its head and its newest tail
                self.by_key[key] = joined if len(joined) <= MAX_CHARS else joined[:half] + joined[-half:]
                name = last_component(key)
                self.names.add(name)
                self.stems.update(kept_indirect.loaded_as(key))
                self.hooks.update([key] if kept_indirect.startup_hook(key) else [])
                self.inis.update([key] if name in tool_configs.PYTEST_INIS else [])
                self._wanted = None
                self._runs.clear()

    def keep_call(self, tool: str, arguments: Any, mine: list[tuple[str, str | None]], named: list[str]) -> None:
        """Keep what an agent call writes into ``mine`` (key, the key a copy came from): a copy's
        source text where it has one, else the call's - ``named``, the kept files it names, too
        (``cat s > t``) - and the rc files it writes in a home. They are ``fresh`` till the next."""
        kept = self.by_key
        added = kept_indirect.path_dirs(strings(arguments))
        self.path = list(dict.fromkeys([*added, *self.path]))[: kept_indirect.MAX_PATH_DIRS] if added else self.path
        added = kept_indirect.python_dirs(strings(arguments))
        if added:
            self.pythonpath = list(dict.fromkeys([*added, *self.pythonpath]))[: kept_indirect.MAX_PATH_DIRS]
        if isinstance(arguments, dict) and is_writer(tool, arguments):
            text = "\n".join(v for k, v in arguments.items() if k in CONTENT_KEYS and isinstance(v, str))
            edit = "\n".join(v for k, v in arguments.items() if k in EDIT_KEYS and isinstance(v, str))
            text, append = (text, False) if text else (edit, True)  # an edit adds to what was kept
            homes = [h for path in tool_paths(arguments, any_key=True) if (h := kept_runs.home_key(path))]
        else:  # the shell's: any of its text may be in the file (cat > x.sh <<EOF, echo … > x.sh)
            text = kept_runs.printed(kept_runs.landed("\n".join(strings(arguments))))
            text = "\n".join([text, *(uncommented(key, kept[key]) for key in named if key in kept)])
            append = ">>" in text or _APPENDS.search(text) is not None
            homes = kept_runs.rc_written(strings(arguments))
        for key, source in mine:
            if source is not None and source in kept:
                self.keep([key], kept[source])
            elif text:
                self.keep([key], text, append=append)
        if text and homes:  # ~/.bashrc: no key places it
            self.keep(homes, text, append=True)
        self.fresh = {key for key, _ in mine if key in kept} | {key for key in homes if key in kept}

    def run_by(self, texts: Iterable[str], workspace: Workspace) -> list[str]:
        """The kept texts of the files ``texts`` run (in the cwds their segments run in), and the
        reversed or rotated readings of the files they only read where they reverse or rotate:
        ``echo nosj.elcaro > n`` then ``open(open('n').read()[::-1])`` names the oracle. A kept
        file read as written adds nothing: a note that mentions oracle.json stays a note."""
        texts = list(texts)
        listed: dict[str, str] = {}
        self.compiling = []
        used = self._used(texts, workspace, self.fresh, listed)
        compiling, self.compiling = self.compiling, []
        run = [key for key, runs in used.items() if runs]
        seen = set(run)
        stamp: tuple[Any, ...] = (workspace.generation, tuple(workspace.starts), workspace.cdpath, workspace.tmpdir)
        if (stamp := (*stamp, len(self.compiled), tuple(self.path))) != self._stamp:
            self._runs.clear()
            self._stamp = stamp
        while run:  # what the scripts run runs in turn, to the end: a chain cut short would hide its last
            found = [other for key in run for other in self._runs_of(key, workspace)]
            deeper = [key for key in dict.fromkeys(found) if key not in seen]
            seen.update(deeper)
            run = deeper
        out = [self.as_run(key) for key in seen]
        out += [
            line
            for key, text in listed.items()
            if key not in seen
            for line in kept_lists.joined(text, self.by_key[key], last_component(key))
        ]
        if any(includes.builds_sites(text) for text in texts):
            compiling += includes.documents(list(self.by_key))
        out += [text for key in dict.fromkeys(compiling) if (text := includes.included(key, self.by_key[key]))]
        if used and any(scrambles.hinted(text) for text in texts):
            out += scrambles.readings("\n".join([*texts, *(self.by_key[key] for key in used)]))
        return out

    def _runs_of(self, key: str, workspace: Workspace) -> list[str]:
        """The kept files the kept file ``key`` runs or loads; remembered while no kept text, cwd,
        link or PATH changes (each call that runs a long chain asks again)."""
        if key not in self._runs:
            self._runs[key] = self.run_keys([self.as_run(key)], workspace) + self._loaded([key], workspace)
        return self._runs[key]

    def _loaded(self, run: Iterable[str], workspace: Workspace) -> list[str]:
        """The kept files the kept scripts ``run`` import (``kept_indirect.imported``), and every
        kept file a Python one that may run code names (``exec(open(f).read())``)."""
        out: list[str] = []
        for key in run:
            text = self.as_run(key)
            out += self._modules(key, text)
            if key.endswith(".py") and kept_indirect.runs_code(text):
                out += list(self._used([text], workspace))
        return out

    def _modules(self, key: str, text: str) -> list[str]:
        paths = kept_indirect.imported(key, text) if key.endswith(kept_indirect.IMPORTING_SUFFIXES) else set()
        return [other for other in self.by_key if kept_indirect.ends_in(other, paths)] if paths else []

    def _reads_data(self, key: str | None) -> bool:
        """The kept Python script ``key`` takes its arguments as data: neither it nor a kept
        module it imports may run code (``exec``, ``runpy``, ``os.system`` ...: fail closed)."""
        if key is None or key not in self.by_key:
            return False  # a script no agent call wrote: what it does with them is unknown
        texts = [self.as_run(key)]
        texts += [self.as_run(module) for module in self._modules(key, texts[0])]
        return not any(kept_indirect.runs_code(text) for text in texts)

    def as_run(self, key: str) -> str:
        """What runs of the kept file ``key``: a package.json's scripts, else what its runner
        executes (no comments, a makefile's recipes: ``executed``)."""
        text = self.by_key[key]
        return (
            task_runners.package_scripts(text) if last_component(key) == task_runners.PACKAGE else executed(key, text)
        )

    def run_keys(self, texts: Iterable[str], workspace: Workspace) -> list[str]:
        """The kept files ``texts`` run."""
        return [key for key, run in self._used(texts, workspace).items() if run]

    def named(self, texts: Iterable[str], workspace: Workspace) -> dict[str, bool]:
        """The kept files ``texts`` name: True where they run them (``cat s > t`` carries s)."""
        return self._used(texts, workspace)

    def _used(
        self,
        texts: Iterable[str],
        workspace: Workspace,
        fresh: Collection[str] = (),
        listed: dict[str, str] | None = None,
    ) -> dict[str, bool]:
        """The kept files ``texts`` name: True where they run them; a file in ``fresh`` (written
        by this very call) only by a segment after the first that names it. ``listed``: filled
        with the kept files (not fresh) a text takes names from (``kept_lists``), and that text."""
        if not self.by_key:
            return {}
        if self._wanted is None:
            names = sorted(self.names | self.stems, key=len, reverse=True)
            self._wanted = re.compile("|".join([*map(re.escape, names), r"[*?]"]))  # a glob may match one
        found: dict[str, bool] = {}
        data: dict[str | None, bool] = {}  # the kept scripts that take their arguments as data
        texts = list(texts)
        if self.hooks and any(kept_indirect.starts_python(text) for text in texts):
            found.update(dict.fromkeys(self._startup_hooks(texts, workspace), True))
        for text in texts:
            if kept_runs.may_load(text):  # every make segment spelled: make runs only its makefiles
                hooks = kept_runs.hooks_run(text) if GIT_HOOKS & self.names else set()
                found.update(dict.fromkeys((key for key in self.by_key if last_component(key) in hooks), True))
                text = kept_runs.loads(text)
                found.update(dict.fromkeys(build_files.gradle_keys(text, self.by_key), True))
            if self.inis and tool_configs.runs_pytest(text):  # pytest.ini's addopts = -p peek
                plugins = [p for key in sorted(self.inis) for p in tool_configs.ini_plugins(self.by_key[key])]
                text = f"{text} && sh {' '.join(plugins)}" if plugins else text
            if "@" in text:  # javac @args.txt: the sources a kept response file lists
                text = kept_lists.spliced(text, self.by_key, self.names)
            lowered = text.lower()
            if self._wanted.search(lowered) is None:
                continue
            fed = kept_runs.fed(text)
            piped = kept_lists.piped(text) if listed is not None and kept_lists.may_list(text) else None
            offsets: dict[str, int] | None = None  # where segments start, for a fresh file's order
            first: dict[str, int] = {}  # where this text first names each fresh file
            for segment, tokens in workspace.segments(text, self._wanted):
                words = [w.strip("\"'") for w in segment.split()]
                start = kept_runs.head_index(words)
                if start == len(words):
                    continue
                head = words[start]
                operand: str | None = None  # the word a runner runs, and the modules python runs:
                named: Any = None  # found once a command, when a word needs them
                handed = kept_indirect.handed_in_code(segment) if kept_indirect.may_hand_in_code(segment) else []
                runs = (
                    program_name(head) in RUNNERS
                    or program_files.canonical(program_name(head)) in RUNNERS  # python3.11, tclsh8.6
                    or segment in fed
                    or any(program_name(w) in RUNNERS for w in handed)
                    or compiled.runs_source(words, start)
                )
                compiler = compiled.compiles(words, start)
                processor = not compiler and includes.processes(words, start)  # it reads what a document includes
                written, inner = kept_runs.written_at(segment), kept_runs.substituted(segment)
                script = kept_indirect.takes_data(words, start)
                asked: dict[str, bool] = {}  # kept_lists.lists per token: each looks at the segment
                for cwd in dict.fromkeys(cwd for _, cwd in tokens):  # found and run: pytest's tests, find -exec
                    for read in kept_indirect.collected(words, start, segment, segment in fed, RUNNERS, self.stems):
                        found.update(dict.fromkeys(self._matching(read, cwd, workspace), True))
                for token, cwd in tokens:  # run by an interpreter, or as the program itself
                    key = workspace.key(token, cwd) or kept_runs.home_key(token)
                    if (
                        key is None
                        and runs
                        and is_glob(token)
                        and token == (operand := operand or _first_operand(words, start))
                    ):
                        # bash /tmp/s.*: the kept files it matches (python3 x.py *.md runs no note)
                        found.update(dict.fromkeys(self._globbed(token, cwd, workspace), True))
                    if key is None and compiler and is_glob(token) and len(self.compiled) < MAX_SCRIPTS:
                        self.compiled.update(dict.fromkeys(self._globbed(token, cwd, workspace)))  # javac src/*.java
                    if key not in self.by_key and named is None:  # once a command, not once a word
                        named = kept_indirect.modules_named(words, start)
                    indirect = (
                        None if key in self.by_key else self._indirect(words, start, token, cwd, named, workspace)
                    )
                    key = indirect or key
                    if key is None or key not in self.by_key:
                        continue
                    if compiler and token not in written and len(self.compiled) < MAX_SCRIPTS:
                        self.compiled[key] = None  # its program may run later: ``compiled``
                    if (compiler or processor) and token not in written:
                        self.compiling.append(key)  # it reads what the source includes
                    run = token not in written and (runs or head.endswith(token) or token in handed or bool(indirect))
                    if run and script is not None and token.strip("\"'") != script:
                        script_key = workspace.key(script, cwd)
                        if script_key not in data:  # each script looked at once a call, however many operands
                            data[script_key] = self._reads_data(script_key)
                        run = not data[script_key]
                    run = run or (inner is not None and _inside(token, inner))
                    after = True  # a fresh file (written by this call) is used only after its write
                    if key in fresh and (run or piped is not None):
                        offsets = kept_runs.last_offsets(text) if offsets is None else offsets
                        if key not in first:
                            first[key] = lowered.find(last_component(key))
                        after = first[key] < 0 or offsets.get(segment, len(text)) > first[key]
                    run = run and after
                    found[key] = found.get(key, False) or run
                    if not run and after and piped is not None and listed is not None and key not in listed:
                        if token not in asked:  # past MAX_LOOKS tokens: a list (fail closed)
                            asked[token] = len(asked) >= MAX_LOOKS or kept_lists.lists(segment, token, segment in piped)
                        if asked[token]:
                            listed[key] = text  # cp l m && xargs cat < m
        if self.compiled and any(compiled.runs_output(text) for text in texts):
            found.update(dict.fromkeys(self.compiled, True))  # which program came of which source: unknown
        return found

    def _startup_hooks(self, texts: list[str], workspace: Workspace) -> list[str]:
        """The kept startup hooks a python of ``texts`` runs: those in a site-packages folder or
        a folder on the ``PYTHONPATH`` (one a variable makes unplaceable: all of them)."""
        folders = [*kept_indirect.python_dirs(texts), *self.pythonpath]
        placed = {workspace.key(folder, None) if "$" not in folder else None for folder in folders}
        return [
            key
            for key in self.hooks
            if None in placed or kept_indirect.in_site(key) or key.rpartition("/")[0] in placed
        ]

    def _globbed(self, token: str, cwd: str | None, workspace: Workspace) -> list[str]:
        """The kept files a glob run by a runner matches (at most ``MAX_SCRIPTS`` to try)."""
        folder, _, pattern = token.replace("\\", "/").rpartition("/")
        return self._matching((folder or ".", pattern, False), cwd, workspace)

    def _matching(self, read: tuple[str, str, bool], cwd: str | None, workspace: Workspace) -> list[str]:
        """The kept files in ``folder`` (below it if ``recursive``) whose name ``pattern`` matches."""
        folder, pattern, recursive = read
        where = workspace.key(folder, cwd) if not is_glob(folder) else None
        if where is None:
            return []
        prefix = where.rstrip("/") + "/"
        return [
            key
            for key in self.by_key
            if key.startswith(prefix)
            and (recursive or "/" not in key[len(prefix) :])
            and fnmatch.fnmatchcase(last_component(key), pattern)
        ]

    def _indirect(
        self, words: list[str], start: int, token: str, cwd: str | None, named: Any, workspace: Workspace
    ) -> str | None:
        """The kept file ``token`` runs without being its path: a module python imports, a
        command word found on the PATH."""
        if "/" not in token and token == words[start]:
            paths = (workspace.key(f"{folder}/{token}", None) for folder in (*self.path, *kept_indirect.DEFAULT_PATH))
            return next((key for key in paths if key in self.by_key), None)
        files = (workspace.key(path, cwd) for path in kept_indirect.module_files(named, token))
        return next((key for key in files if key in self.by_key), None)


def _first_operand(words: list[str], start: int) -> str | None:
    """The word a runner runs: its first past the program and its options."""
    return next((w for w in words[start + 1 :] if w[:1] != "-"), None)


def _inside(token: str, inner: str) -> bool:
    """``token`` is in the substitution ``inner`` run as a command (a long one: assumed, as
    looking for each of many tokens would cost their product)."""
    return len(inner) > MAX_INNER or token in inner
