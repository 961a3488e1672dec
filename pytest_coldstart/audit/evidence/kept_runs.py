"""How a shell text runs a kept file other than by handing its name to an interpreter.

``scripts`` counts a kept file as run where a runner is handed its name (``bash s.sh``). A
shell also runs what reaches it on stdin or through a substitution, and some programs load a
file by themselves. This module makes those runs visible to it, each with only what it runs:

- ``fed``: the segments of a pipeline that feed a runner reading its program from stdin
  (``cat s.sh | bash``, ``cat x.py | python3``, ``… | sh -s``) or an xargs handing names to a
  runner (``echo s.sh | xargs bash``): a reader of data (``cat data.csv | python3 plot.py``)
  runs nothing it is fed;
- ``substituted``: what a command word that is a substitution runs (``$(cat s.sh)``);
- ``loads``: the text with the files a program loads by itself spelled as its operands:
  ``make`` its makefile (``-f F``, ``-C DIR``: recipe lines are shell), an interactive or login
  shell and zsh their rc files, ``BASH_ENV=F``/``ENV=F`` the file named, ``git
  commit``/``push``/``merge``... the hooks in ``.git/hooks`` (and, as ``hooks_run`` names them,
  a kept hook anywhere: ``core.hooksPath``); a package manager, task runner or installer its
  package.json scripts, task file or setup.py (``task_runners``), a build tool its build files
  (``build_files``), a tool its configuration (``tool_configs``), a program its program file
  (``program_files``); what a variable or an option makes a program load (``preloads``:
  ``PAGER=F``, ``git -c core.pager=F``, ``node -r ./peek``, ``PERL5OPT=-Mpeek``). A compiler is
  none of these: ``javac Hook.java`` runs no shell, so a Java source is never read as a script.
- ``written_at``: the redirect targets of a segment - a file written, not run.
- ``home_key``/``rc_written``: rc files live in a home the audit cannot place (``~/.bashrc``);
  they are kept under one home-relative key.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from pytest_coldstart.audit.evidence import build_files, preloads, program_files, task_runners, tool_configs, workflows
from pytest_coldstart.audit.evidence.shell_words import SEGMENT, last_component, option_folder, program_name
from pytest_coldstart.audit.evidence.shell_writes import may_write

SHELLS = frozenset(["bash", "sh", "zsh", "dash", "ksh", "fish", "ash", "mksh"])
_INTERPRETERS = frozenset(["python", "python3", "python2", "node", "perl", "ruby", "php", "lua", "tclsh", "pwsh"])
#: options after which the program comes from the command line, not stdin
_INLINE = frozenset(["-c", "-e", "-m", "-E", "--eval", "-r", "--command", "-Command"])
_WRAPPERS = frozenset(["sudo", "env", "nohup", "time", "timeout", "nice", "command", "exec", "builtin", "stdbuf"])
#: wrappers that run the command after their options, with the options that take a value
_VALUED = {
    "sudo": frozenset(["-u", "-g", "-h", "-p", "-r", "-t", "-C", "-D", "-U", "-T", "--user", "--group"]),
    "runuser": frozenset(["-u", "-g", "-G", "--user", "--group"]),
    "doas": frozenset(["-u", "-C"]),
    "su": frozenset(["-s", "-g", "-G", "--shell", "--group"]),
    "nice": frozenset(["-n", "--adjustment"]),
    "ionice": frozenset(["-c", "-n", "-p"]),
    "env": frozenset(["-u", "-C", "-S", "--unset", "--chdir"]),
    "timeout": frozenset(["-s", "-k", "--signal", "--kill-after"]),
    "flock": frozenset(["-w", "-E", "--timeout"]),
    "strace": frozenset(["-o", "-e", "-p", "-s", "-u"]),
    "watch": frozenset(["-n", "--interval"]),
    "setsid": frozenset(),
    "unshare": frozenset(),
    "powershell": frozenset(["-ExecutionPolicy", "-ep", "-ex", "-WindowStyle", "-Version", "-ConfigurationName"]),
}
_VALUED["powershell.exe"] = _VALUED["powershell"]  # powershell -File s.ps1: the script is the program
_CMD = frozenset(
    ["cmd", "cmd.exe", "call", "/c", "/C", "/k", "/K", "/s", "/S", "/q", "/Q", "/d", "/D", "/v:on", "/V:ON"]
)
#: wrappers whose first operands come before the command: a duration, a root, a lock file
_OPERANDS = {"timeout": 1, "chroot": 1, "flock": 1, "taskset": 1, "chrt": 1}
_HANDERS = frozenset(["xargs", "parallel"])
#: the git commands that run hooks, and the hooks each runs
_COMMIT_HOOKS = ("pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "post-rewrite")
_GIT_HOOKS = {
    "commit": _COMMIT_HOOKS,
    "merge": ("pre-merge-commit", "commit-msg", "post-merge"),
    "pull": ("pre-merge-commit", "commit-msg", "post-merge", "post-rewrite", "post-checkout"),
    "push": ("pre-push", "reference-transaction"),
    "checkout": ("post-checkout",),
    "switch": ("post-checkout",),
    "clone": ("post-checkout",),
    "rebase": ("pre-rebase", "post-rewrite", *_COMMIT_HOOKS),
    "cherry-pick": _COMMIT_HOOKS,
    "revert": _COMMIT_HOOKS,
    "am": ("applypatch-msg", "pre-applypatch", "post-applypatch", *_COMMIT_HOOKS),
    "gc": ("pre-auto-gc",),
}
GIT_HOOK_NAMES = frozenset(hook for hooks in _GIT_HOOKS.values() for hook in hooks)
_HANDER_VALUED = frozenset(["-I", "-i", "-n", "-P", "-d", "-L", "-l", "-s", "-E", "-e", "-a", "-j", "--arg-file"])
MAKES = frozenset(["make", "gmake", "bmake"])
MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
_MAKEFILE_NAMES = frozenset(name.lower() for name in MAKEFILES)
_SHELL_RC = ("~/.bashrc", "~/.bash_profile", "~/.bash_login", "~/.profile")
_ZSH_RC = ("~/.zshenv", "~/.zprofile", "~/.zshrc", "~/.zlogin")
RC_FILES = frozenset(last_component(name) for name in (*_SHELL_RC, *_ZSH_RC))
_HOME_PATH = re.compile(r"^(?:~|\$HOME|\$\{HOME\}|/root|/(?:home|Users)/[^/]+)/(\.[\w.]+|\.gradle/[\w./-]+)$")
_RC_PATH = re.compile(
    r"(?:~|\$HOME|\$\{HOME\}|/root|/(?:home|Users)/[^/\s\"']+)/\.(?:gradle/[\w./-]+|(?:ba|z)?[a-z_]+)"
)
#: task runners and installers that run a file of the folder by themselves (its tasks, hooks, setup)
_HINT = re.compile(
    build_files.HINT
    + "|"
    + tool_configs.HINT
    + "|"
    + program_files.HINT
    + "|"
    + preloads.HINT
    + "|"
    + task_runners.HINT
    + "|"
    + workflows.HINT
    + r"|\b(?:[gb]?make|zsh|git)\b|\b(?:BASH_)?ENV=|\b(?:ba|da|mk|k|a)?sh\b[^;&|\n]{0,200}\s(?:-[a-z]*[il]|--login)"
)
_REDIRECT = re.compile(r"(?:\d|&)?>>?\|?\s*([^\s;&|<>]+)")
_SUBSTITUTION = re.compile(r"^[\"']?(?:\$\(([^()]*)\)|`([^`]*)`)")
_ESCAPE = re.compile(r"\\[nt]")
_ESCAPES = {"\\n": "\n", "\\t": "\t"}
_PARTS = re.compile(f"({SEGMENT.pattern})")


def head_index(words: list[str]) -> int:
    """Where the program is among ``words``: past wrappers (``sudo -u x``, ``runuser -u x --``,
    ``su -c``, ``timeout 10``, ``chroot DIR``, ``flock F``), their options and operands,
    assignments and options."""
    skip = _WRAPPERS | _CMD | {"run", "uv", "poetry", "npx"}  # cmd /c s.bat, call s.cmd: the script runs
    index = 0
    while index < len(words):
        word = words[index]
        wrapper = program_name(word)
        index += 1
        if wrapper in _VALUED or wrapper in _OPERANDS:
            valued = _VALUED.get(wrapper, frozenset())
            ends = ("-c", "--command", "--") if wrapper in ("su", "runuser", "flock") else ("--",)
            while index < len(words) and words[index][:1] == "-" and words[index] not in ends:
                index += 2 if words[index] in valued else 1
            users = wrapper in ("su", "runuser")  # the user may come before -c: found once, not per word
            command = (
                next((i for i in range(index, len(words)) if words[i] in ("-c", "--command")), None) if users else None
            )
            if command is not None:
                index = command + 1  # su nobody -c "bash s.sh": the command string's program
            elif index < len(words) and words[index] in ends:
                index += 1
            elif wrapper in _OPERANDS:
                index += _OPERANDS[wrapper]
        elif word not in skip and "=" not in word and word[:1] != "-":
            return index - 1
    return len(words)


def _words(segment: str) -> list[str]:
    return [word.strip("\"'") for word in segment.split()]


def _command(segment: str) -> tuple[list[str], int, str, list[str]] | None:
    """A segment's words, where its program is among them, the program and its arguments."""
    words = _words(segment)
    start = head_index(words)
    if start == len(words):
        return None
    return words, start, program_name(words[start]), words[start + 1 :]


def reads_program_from_stdin(segment: str) -> bool:
    """A shell or an interpreter run with no program named: it runs what it is fed."""
    command = _command(segment)
    if command is None:
        return False
    _, _, head, args = command
    if head in _HANDERS:  # xargs bash, parallel python3: what it is fed becomes the runner's operands
        handed = _handed(args)
        return handed is not None and (program_name(handed) in SHELLS or program_name(handed) in _INTERPRETERS)
    if head in ("source", "."):
        return bool(args) and args[0] in ("/dev/stdin", "-")
    if program_files.reads_stdin(head):  # sqlite3 db, ed -s f: stdin is the program all the same
        return True
    if head not in SHELLS and head not in _INTERPRETERS:
        return False
    if any(arg in ("-", "/dev/stdin", "-s") for arg in args):
        return True
    if any(arg in _INLINE or (head in SHELLS and arg[:1] == "-" and arg[1:2] != "-" and "c" in arg) for arg in args):
        return False
    return not any(arg[:1] != "-" for arg in args)  # a script named: stdin is its data


def _handed(args: list[str]) -> str | None:
    """The command an xargs or a parallel runs: its first word past its options and their values."""
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in _HANDER_VALUED:
            skip = True
        elif arg[:1] != "-":
            return arg
    return None


def fed(text: str) -> set[str]:
    """The segments (as ``SEGMENT`` cuts them) piped, directly or through filters, into a
    runner that reads its program from stdin. Each segment is added once: linear."""
    if "|" not in text:
        return set()
    parts = _PARTS.split(text)
    out: set[str] = set()
    begin = 0  # the first segment of the pipeline not yet fed to a runner
    for i in range(0, len(parts), 2):
        if i > begin and reads_program_from_stdin(parts[i]):
            out.update(parts[begin:i:2])
            begin = i
        if not (i + 1 < len(parts) and parts[i + 1] in ("|", "|&")):
            begin = i + 2
    return out


def last_offsets(text: str) -> dict[str, int]:
    """Where each segment of ``text`` last starts (one pass)."""
    out: dict[str, int] = {}
    at = 0
    for part in _PARTS.split(text):
        out[part] = at
        at += len(part)
    return out


def substituted(segment: str) -> str | None:
    """The inside of a substitution that is the segment's command word (``$(cat s.sh)``)."""
    words = segment.split()
    start = head_index([w.strip("\"'") for w in words])
    if start == len(words):
        return None
    match = _SUBSTITUTION.match(" ".join(words[start:]))
    return None if match is None else (match.group(1) or match.group(2) or "")


def written_at(segment: str) -> set[str]:
    """The files a segment's redirections write (``python3 gen.py > out.sh`` writes out.sh)."""
    return {match.group(1).strip("\"'") for match in _REDIRECT.finditer(segment)} if ">" in segment else set()


def may_load(text: str) -> bool:
    """Cheap necessary condition of ``loads``."""
    return _HINT.search(text) is not None


def loads(text: str) -> str:
    """``text`` with each segment whose program loads files by itself ending in their names;
    a make segment becomes ``make <its makefiles>`` (its targets are not files it runs)."""
    parts = _PARTS.split(text)
    for i in range(0, len(parts), 2):
        parts[i] = _spelled(parts[i])
    return "".join(parts)


def _spelled(segment: str) -> str:
    command = _command(segment)
    if command is None:
        return segment
    loaded = preloads.loaded(command[0][: command[1]], command[2], command[3])
    spelled = _own_files(segment, command)
    return f"{spelled} && {loaded}" if loaded else spelled


def _own_files(segment: str, command: tuple[list[str], int, str, list[str]]) -> str:
    words, start, head, args = command
    extra = [w.partition("=")[2] for w in words[:start] if w.startswith(("BASH_ENV=", "ENV="))]
    if head in MAKES:
        return f"make {' '.join(_makefiles(args))}"
    configs = tool_configs.loaded(head, args) + tool_configs.env_plugins(words[:start])  # npx jest, vitest
    segment = f"{segment} && sh {' '.join(configs)}" if configs else segment
    if (run := task_runners.run_files(head, args)) is not None:  # npm test, tox, pip install .
        return f"{segment} && sh {' '.join(run)}" if run else segment
    if head == "git" and _GIT_HOOKS.keys() & set(args):
        folder = option_folder(args, "-C")
        hooks = {hook for arg in args for hook in _GIT_HOOKS.get(arg, ())}
        return f"{segment} && sh {' '.join(f'{folder}.git/hooks/{hook}' for hook in sorted(hooks))}"
    if (builder := build_files.tool(head)) is not None:
        return f"{segment} && sh {' '.join(build_files.loaded(builder, args))}"
    if programs := program_files.loaded(head, args):  # awk -f p.awk, m4 x.m4, sqlite3 db < x.sql
        return f"{segment} && sh {' '.join(programs)}"
    if (runner := workflows.tool(head, args)) is not None and (flows := workflows.loaded(*runner)):
        return f"{segment} && sh {' && sh '.join(flows)}"  # one each: only a first operand's glob is matched
    if head == "zsh":
        extra += _ZSH_RC
    elif head in SHELLS and _interactive(args):
        extra += _SHELL_RC
    return f"{segment} {' '.join(extra)}" if extra else segment


def hooks_run(text: str) -> set[str]:
    """The git hooks the git commands of ``text`` run. ``core.hooksPath`` (``git config``,
    ``git -c``, a config file, ``GIT_CONFIG_*``) may point git at any folder, so a kept file
    with a hook's name runs wherever it is (fail closed)."""
    hooks: set[str] = set()
    for part in _PARTS.split(text)[::2]:
        command = _command(part) if "git" in part else None
        if command is not None and command[2] == "git":
            hooks.update(hook for arg in command[3] for hook in _GIT_HOOKS.get(arg, ()))
    return hooks


def _interactive(args: list[str]) -> bool:
    """``-i``, ``-l``, ``--login`` or a cluster holding one, among the shell's own options
    (before its script or its ``-c`` string)."""
    for arg in args:
        if arg == "--login" or (arg[:1] == "-" and arg[1:2] != "-" and ("i" in arg or "l" in arg)):
            return True
        if arg[:1] != "-" or "c" in arg:
            return False
    return False


def _makefiles(args: list[str]) -> list[str]:
    """The files ``make args`` reads: each ``-f F``, else the default names in ``-C DIR``."""
    named, folder = [], ""
    for i, arg in enumerate(args):
        value = args[i + 1] if i + 1 < len(args) else ""
        if arg in ("-f", "--file", "--makefile"):
            named.append(value)
        elif arg.startswith(("--file=", "--makefile=")):
            named.append(arg.partition("=")[2])
        elif arg in ("-C", "--directory"):
            folder = f"{folder}{value.rstrip('/')}/" if not value.startswith("/") else f"{value.rstrip('/')}/"
        elif arg.startswith("-f") and len(arg) > 2:
            named.append(arg[2:])
    return [f"{folder}{name}" for name in named or MAKEFILES]


def home_key(token: str) -> str | None:
    """The one key of an rc file in a home (``~/.bashrc``, ``$HOME/.zshrc``, ``/root/.profile``),
    or of a Gradle init script there (``~/.gradle/init.d/x.gradle``: every gradle run runs it)."""
    match = _HOME_PATH.match(token)
    found = match.group(1) if match is not None else ""
    return f"~/{found}" if found.lower() in RC_FILES or found.endswith((".gradle", ".gradle.kts")) else None


def rc_written(texts: Iterable[str]) -> list[str]:
    """The home keys of the rc files a shell text that may write names (``>> ~/.bashrc``,
    ``cp x ~/.zshrc``): fail closed, any it names."""
    found = (home_key(match.group(0)) for text in texts if may_write(text) for match in _RC_PATH.finditer(text))
    return sorted({key for key in found if key is not None})


_LONE_PRINT = re.compile(
    r"""^[ \t]*(?:echo|printf)(?:[ \t]+-[neE]+)?[ \t]+(['"])([^'"$`\\]*)\1[ \t]*>>?[ \t]*[^\s;&|<>]+[ \t]*$"""
)


def landed(text: str) -> str:
    """``text`` with each line that only prints one quoted literal into a file read as that
    literal: ``echo '# note: oracle.json' >> ~/.bashrc`` adds a comment to the file, not a command."""
    if "echo" not in text and "printf" not in text:
        return text
    return "\n".join(m.group(2) if (m := _LONE_PRINT.match(line)) else line for line in text.split("\n"))


def printed(text: str) -> str:
    """``text`` and, where it has ``\\n`` or ``\\t``, the lines ``printf``/``echo -e`` make of it
    (``printf 'all:\\n\\tcat x' > Makefile`` writes a recipe line ``cat x``)."""
    if "\\n" not in text and "\\t" not in text:
        return text
    return f"{text}\n{_ESCAPE.sub(lambda m: _ESCAPES[m.group(0)], text)}"


def hints(names: Collection[str]) -> list[bytes]:
    """What a call's lowercased text must hold to load one of the kept files ``names``."""
    lowered = {name.lower() for name in names}
    out = [rb"\b[gb]?make\b"] if _MAKEFILE_NAMES & lowered else []
    out += [rb"\bgit\b"] if GIT_HOOK_NAMES & set(names) else []
    out += task_runners.hints(names, lowered)
    out += build_files.hints(lowered) + tool_configs.hints(lowered) + workflows.hints(lowered)
    out += preloads.hints(lowered)
    return out + [rb"\bzsh\b|env=|\s-[a-z]*[il]|--login"] if RC_FILES & set(names) else out
