"""Provenance: for each declared evidence file, what could have written it.

Fed every call record of the trajectory (``Provenance.feed``, from the scanner's one pass),
it records, per declared file, the calls that write it - a write/edit/create tool aimed at
its path, a shell redirect (``>``, ``>>``, ``&>``), ``tee``, ``cp``/``mv``/``install``/
``rsync``/``ln``/``Copy-Item``/``Move-Item`` destinations, ``dd of=``, ``sed -i``, ``touch``,
``curl -o``/``wget -O``, ``Set-Content``/``Out-File`` - and whether each writer is the agent
(an agent call in the agent phase) or an operator (any other call). It also keeps what the
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
  observation).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pytest_coldstart.audit.evidence.identity import Workspace, last_component, strings

TEST_SIDE = ("test_mod", "oracle", "fixture", "restore")
INDEPENDENT = TEST_SIDE
AGENT_FILES = ("answer", "agent_logger")
WRITER_TOOLS = frozenset(["write", "edit", "create", "patch", "multiedit", "str", "replace", "notebookedit"])
PATH_KEYS = ("path", "file_path", "filePath", "file", "filename", "target_file", "notebook_path", "destination")
CONTENT_KEYS = ("content", "file_text", "text", "new_content", "contents")
COPIERS = ("cp", "mv", "install", "rsync", "ln", "copy", "move", "copy-item", "move-item", "xcopy", "robocopy")
REDIRECTS = (">", ">>", "1>", "2>", "&>", ">|", "1>>", "2>>", "&>>")
_WORD = re.compile(r"\"[^\"]*\"|'[^']*'|\S+")
_SPLIT = re.compile(r"&&|\|\||[;\n|]")
_ATTACHED = re.compile(r"^(?:[12&]?>>?\|?)(.+)$")
_HINTS: tuple[bytes, ...] = (b">", b"tee", b"cp ", b"mv ", b"install", b"rsync", b"ln ", b"dd ", b"sed ", b"touch")
_HINTS += (b"curl", b"wget", b"copy", b"move", b"set-content", b"out-file", b"add-content")
CLASS = {"test_mod": "INFRA_ERROR", "oracle": "AGENT_FAIL", "fixture": "FIXTURE_INVALID", "restore": "FIXTURE_INVALID"}
MAX_HASHED = 4096  # agent-written run files hashed for the byte-identity rule


@dataclass(frozen=True)
class Write:
    call_id: str
    agent: bool
    how: str
    source: str | None = None  # the key a copy/move came from


@dataclass(frozen=True)
class Violation:
    name: str  # the declaration
    klass: str  # INFRA_ERROR | FIXTURE_INVALID | AGENT_FAIL
    text: str
    ref: str | None  # trajectory:<call_id> of the call it names, when there is one


@dataclass
class Provenance:
    workspace: Workspace
    keys: dict[str, set[str]] = field(default_factory=dict)  # declaration -> its keys
    writes: dict[str, list[Write]] = field(default_factory=dict)  # key -> writes, file order
    content: dict[str, str] = field(default_factory=dict)  # sha256 of written content -> call id
    agent_paths: dict[str, str] = field(default_factory=dict)  # key -> first agent call writing it
    armed_by: str | None = None  # first agent call that builds/starts the logger
    violations: list[Violation] = field(default_factory=list)
    _by_key: dict[str, str] = field(default_factory=dict)  # key -> declaration
    _bases: set[str] = field(default_factory=set)  # file names worth resolving (declared ones, in-run symlinks)
    _scan: re.Pattern[bytes] | None = None  # hints + names, compiled once
    _writer_tools: dict[str, bool] = field(default_factory=dict)

    def declare(self, name: str, paths: list[tuple[str, bool]]) -> None:
        """``paths``: (path, run_relative) - run-relative declarations, or an original host path."""
        keys = self.keys.setdefault(name, set())
        for path, run_relative in paths:
            key = self.workspace.run_key(path) if run_relative else self.workspace.key(path)
            if key is not None:
                keys.add(key)
        self._by_key = {key: name for name, keys in self.keys.items() for key in keys}
        self._bases = {key.rpartition("/")[2].lower() for key in self._by_key} | self.workspace.symlinks
        self._scan = None

    # -- feeding ---------------------------------------------------------------------------

    def may_matter(self, raw: bytes, tool: str) -> bool:
        """Cheap necessary condition on the (lowercased) raw line: may this call name or write a
        file? One compiled scan for the write hints and the names worth resolving."""
        writer = self._writer_tools.get(tool)
        if writer is None:
            writer = self._writer_tools[tool] = bool(set(re.findall(r"[a-z0-9]+", tool.lower())) & WRITER_TOOLS)
        if writer:
            return True
        if self._scan is None:
            words = sorted(set(_HINTS) | {base.encode("utf-8", "replace") for base in self._bases})
            self._scan = re.compile(b"|".join(re.escape(w) for w in words))
        return self._scan.search(raw) is not None

    def names(self, arguments: Any) -> set[str]:
        """The declarations whose file a call's arguments name (by resolved path)."""
        found: set[str] = set()
        bases = self._bases
        for token, cwd in self.workspace.named_paths(arguments):
            if last_component(token) not in bases:
                continue
            key = self.workspace.key(token, cwd)
            name = self._by_key.get(key) if key is not None else None
            if name is not None:
                found.add(name)
        return found

    def feed(self, call_id: str, tool: str, arguments: Any, agent: bool) -> None:
        for key, how, source in self._writes(tool, arguments):
            self.writes.setdefault(key, []).append(Write(call_id, agent, how, source))
            if agent:
                self.agent_paths.setdefault(key, call_id)
        if agent and isinstance(arguments, dict) and _is_writer(tool, arguments):
            for key in CONTENT_KEYS:
                value = arguments.get(key)
                if isinstance(value, str) and value:
                    self.content.setdefault(hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest(), call_id)

    def _writes(self, tool: str, arguments: Any) -> list[tuple[str, str, str | None]]:
        out: list[tuple[str, str, str | None]] = []
        if isinstance(arguments, dict) and _is_writer(tool, arguments):
            for name in PATH_KEYS:
                target = arguments.get(name)
                if isinstance(target, str) and target.strip():
                    key = self.workspace.key(target)
                    if key is not None:
                        out.append((key, f"{tool} tool", None))
                    break
        for text in strings(arguments):
            if any(hint.decode() in text for hint in _HINTS):
                out.extend(self._shell(text))
        return out

    def _shell(self, text: str) -> list[tuple[str, str, str | None]]:
        out: list[tuple[str, str, str | None]] = []
        cwd: str | None = None
        ws = self.workspace
        for segment in _SPLIT.split(text):
            words = [w.strip("\"'") for w in _WORD.findall(segment)]
            if not words:
                continue
            head = words[0].lower()
            if head in ("cd", "pushd", "set-location", "chdir") and len(words) > 1:
                cwd = ws.key(words[1], cwd) or cwd
                continue

            def key(token: str, cwd: str | None = cwd) -> str | None:
                return ws.key(token, cwd)

            for index, word in enumerate(words):
                target = None
                if word in REDIRECTS and index + 1 < len(words):
                    target = words[index + 1]
                elif word[:1] in (">", "1", "2", "&") and ">" in word[:3]:
                    match = _ATTACHED.match(word)
                    target = match.group(1) if match else None
                if target and not target.startswith("&"):
                    found = key(target)
                    if found:
                        out.append((found, "shell redirect", None))
            args = [w for w in words[1:] if not w.startswith("-") and w not in REDIRECTS]
            if head == "tee":
                out += [(k, "tee", None) for k in map(key, args) if k]
            elif head in COPIERS and len(args) >= 2:
                option = next(
                    (words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-t", "--target-directory")), None
                )
                if option is not None:
                    sources, destination, directory = [a for a in args if a != option], option, True
                else:
                    sources, destination = args[:-1], args[-1]
                    directory = destination.endswith("/") or len(sources) > 1
                for source in sources:
                    name = f"{destination.rstrip('/')}/{last_component(source)}" if directory else destination
                    found = key(name)
                    if found:
                        out.append((found, head, key(source)))
            elif head == "dd":
                out += [(k, "dd", None) for w in words if w.startswith("of=") and (k := key(w[3:]))]
            elif head in ("sed", "perl") and any(w.startswith("-i") for w in words):
                out += [(k, f"{head} -i", None) for k in map(key, args[1:]) if k]
            elif head in ("touch", "truncate"):
                out += [(k, head, None) for k in map(key, args) if k]
            elif head in ("curl", "wget"):
                flags = ("-o", "--output") if head == "curl" else ("-O", "--output-document")
                out += [(k, head, None) for i, w in enumerate(words[:-1]) if w in flags and (k := key(words[i + 1]))]
            elif head in ("set-content", "out-file", "add-content"):
                path = next(
                    (words[i + 1] for i, w in enumerate(words[:-1]) if w.lower() in ("-path", "-filepath")), None
                )
                target = path or (args[0] if args else None)
                if target and (k := key(target)):
                    out.append((k, head, None))
        return out

    # -- the rules -------------------------------------------------------------------------

    def writers(self, name: str) -> list[Write]:
        return [w for key in sorted(self.keys.get(name, ())) for w in self.writes.get(key, [])]

    def judge(
        self,
        hashes: dict[str, str],
        hash_file: Callable[[str], str | None],
        logger_armed: bool,
    ) -> list[Violation]:
        """``hashes``: declaration -> sha256 of its bytes; ``hash_file(relative)``: sha256 of a
        run file (None when absent). ``logger_armed``: an agent call builds/starts the logger."""
        agent_written: dict[str, tuple[str, str]] = {}  # sha256 -> (what, ref)
        for sha, call_id in self.content.items():
            agent_written.setdefault(sha, (f"the content agent call {call_id} wrote", f"trajectory:{call_id}"))
        for name in AGENT_FILES:
            if name in hashes:
                agent_written.setdefault(hashes[name], (f"the {name.replace('_', ' ')}", name))
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
        out += self._logger(hashes, logger_armed)
        self.violations = out
        return out

    def _logger(self, hashes: dict[str, str], logger_armed: bool) -> list[Violation]:
        if "agent_logger" not in self.keys:
            return []
        sha = hashes.get("agent_logger")
        for name in TEST_SIDE:
            if sha is not None and hashes.get(name) == sha:
                return [
                    Violation(
                        "agent_logger",
                        "AGENT_FAIL",
                        f"the agent logger is byte-identical to the {name} evidence: test-side observation, not the agent's capture",
                        None,
                    )
                ]
        test_keys = {key for name in TEST_SIDE for key in self.keys.get(name, ())}
        writers = self.writers("agent_logger")
        for write in writers:
            if write.source is not None and write.source in test_keys:
                return [
                    Violation(
                        "agent_logger",
                        "AGENT_FAIL",
                        f"call {write.call_id} copies test-side evidence onto the agent logger ({write.how}): "
                        "test-side observation, not the agent's capture",
                        f"trajectory:{write.call_id}",
                    )
                ]
        if not logger_armed and not any(w.agent for w in writers):
            return [
                Violation(
                    "agent_logger",
                    "AGENT_FAIL",
                    "the agent logger is not agent-written: no agent call writes it or builds/starts the logger",
                    None,
                )
            ]
        return []

    def refusal(self, name: str) -> Violation | None:
        return next((v for v in self.violations if v.name == name), None)


def _is_writer(tool: str, arguments: dict[str, Any]) -> bool:
    tokens = set(re.findall(r"[a-z0-9]+", tool.lower()))
    if not tokens & WRITER_TOOLS:
        return False
    command = arguments.get("command")
    return not (isinstance(command, str) and command.strip().lower() in ("view", "read", "cat"))


def for_evidence(declarations: dict[str, Any], workspace: Workspace) -> Provenance:
    """The model of a run's declarations: each known by its run-relative path(s) and, when
    declared, the ``original_path`` it had while the agent worked."""
    model = Provenance(workspace)
    for name, decl in declarations.items():
        if not isinstance(decl, dict):
            continue
        paths: list[tuple[str, bool]] = []
        for key in ("path", "normalized", "raw"):
            value = decl.get(key)
            if isinstance(value, str) and value.strip() and not _absolute(value):
                paths.append((value, True))
        original = decl.get("original_path")
        if isinstance(original, str) and original.strip():
            paths.append((original, False))
        model.declare(name, paths)
    return model


def _absolute(path: str) -> bool:
    text = path.replace("\\", "/")
    return text.startswith("/") or bool(re.match(r"^[a-zA-Z]:", text))


def refuse(flag: Any, evidence: Any, name: str, missing: str) -> Any:
    """Fail ``flag`` (a FlagResult) when the provenance rules refuse the ``name`` evidence
    with the AGENT_FAIL class; None otherwise."""
    model = getattr(evidence, "provenance", None)
    violation = model.refusal(name) if isinstance(model, Provenance) else None
    if violation is None or violation.klass != "AGENT_FAIL":
        return None
    return flag.fail(violation.text, [missing], [violation.ref] if violation.ref else None)
