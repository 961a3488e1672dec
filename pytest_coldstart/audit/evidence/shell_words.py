"""The words of a shell command line as the audit reads them: segments, path-like tokens,
quotes and escapes joined as the shell joins them. Pure text: nothing here knows a run."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

_DRIVE = re.compile(r"^[a-zA-Z]:/")
PS_ALIASES = {"sc": "set-content", "ac": "add-content", "ni": "new-item", "cpi": "copy-item", "mi": "move-item"}
PS_ALIASES |= {"rni": "rename-item", "ren": "rename-item"}
_QUOTED = re.compile(r"\"([^\"\n]{1,4096})\"|'([^'\n]{1,4096})'")
_TOKEN = re.compile(r"[^\s\"'`;|&<>(){}\[\],=]+")
_BRACED = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}(?=/)")
_LOCAL_URL = re.compile(r"(?:[a-z]+://)?(?:localhost|127(?:\.\d+){3}|0\.0\.0\.0|\[::1\])(?::\d+)?/", re.IGNORECASE)
#: The separators of shell segments (``>|`` is a redirection that overrides noclobber).
SEGMENT = re.compile(r"&&|\|\||\|&|[;\n]|(?<!>)\||(?<![>&<|])&(?![&>])")  # ... and a background &
#: A quoted string, a separator (group 1), or a run of anything else.
_LEXEME = re.compile(r"\"[^\"]*\"|'[^']*'|(&&|\|\||\|&|[;\n]|(?<!>)\||(?<![>&<|])&(?![&>]))|[^\"';\n|&]+|.", re.DOTALL)
#: a glob's character class (t[e]st), tried from the first '[' of each run between ']'s and '/'s:
#: linear where `\[[^\]/]+\]` rescans to the end from every '['
_CLASS = re.compile(r"(?<![^\]/])(?>[^\[\]/]*+\[)[^\]/]++\]")
_QUOTING = str.maketrans("", "", "\"'\\")


def segment_tokens(segment: str, wanted: re.Pattern[str] | None) -> list[str] | None:
    """The path-like tokens of one shell segment, or None when ``wanted`` is in neither reading."""
    plain = dequoted(segment)  # "ora""cle.json", o\racle.json: what the shell reads
    if wanted is not None and not any_reading(wanted, segment, plain):
        return None
    found: list[str] = []
    for match in _QUOTED.finditer(segment):
        inner = match.group(1) or match.group(2)
        if " " in inner and ("/" in inner or "\\" in inner):
            found.append(inner)
    braced = _BRACED.sub(r"$\1", segment) if "${" in segment else segment  # ${PWD}/x: $PWD/x
    found += [match.group(0) for match in _TOKEN.finditer(braced)]
    if plain is not segment:  # both readings (backslashes may be Windows separators): fail closed
        found += [match.group(0) for match in _TOKEN.finditer(plain)]
    return found + [v for token in found if token[:1] == "@" or ":" in token for v in _variants(token) if v]


def _variants(token: str) -> Iterator[str]:
    """The path inside a token that carries one behind a prefix: curl's ``@file``, git's
    ``HEAD:path``, scp's ``host:path``, a ``file://`` URI; a URL of a server on this machine (``python3 -m
    http.server``) names the file it serves, from a folder no one can place."""
    if token.startswith("@"):
        yield token[1:]
    if token[:5].lower() == "file:":  # a file URI is its path (file:///abs, file://localhost/abs, file:rel)
        path = file_uri_path(token)
        yield from dict.fromkeys([token[7:] if token[5:7] == "//" else path, path])  # file://rel: rel too
        return
    served = _LOCAL_URL.match(token)
    if served is not None:
        yield "$SERVED/" + unquote(token[served.end() :])  # o%72acle.json is oracle.json to the server
    elif ":" in token and "://" not in token and _DRIVE.match(token.replace("\\", "/")) is None:
        yield token.split(":", 1)[1]


#: A URI that percent-encodes a character (lowercased raw JSON too): file:%6fracle.json
URI_HINT = r"(?:file:|://)[^\s\"']*%[0-9a-f]{2}"
_URI_ESCAPED = re.compile(URI_HINT, re.IGNORECASE)


def file_uri_path(uri: str) -> str:
    """The path a ``file:`` URI names: percent-decoded, its host ``localhost`` or none
    (``file:///x``, ``file://localhost/x``) the local root, another host's a UNC path; a
    Windows drive (``file:///C:/x``) as ``C:/x``; ``file:x`` relative."""
    rest = unquote(uri[5:])
    if rest.startswith("//"):
        host, _, path = rest[2:].partition("/")
        rest = f"/{path}" if host.lower() in ("", "localhost", "127.0.0.1") else rest
    return rest[1:] if _DRIVE.match(rest[1:]) and rest[:1] == "/" else rest


def uri_decoded(text: str) -> str | None:
    """``text`` with its URIs' percent escapes decoded (``file:%6fracle.json``), or None when
    it holds no such URI."""
    return unquote(text) if "%" in text and _URI_ESCAPED.search(text) is not None else None


def any_reading(pattern: re.Pattern[str], text: str, plain: str) -> bool:
    """``pattern`` is found in ``text`` or in ``plain`` (its ``dequoted`` reading), lowercased."""
    return pattern.search(text.lower()) is not None or (plain is not text and pattern.search(plain.lower()) is not None)


def hinted_in(hint: re.Pattern[str], segment: str) -> bool:
    """``hint`` in ``segment`` as written or as the shell joins it (cold''start)."""
    if hint.search(segment) is not None:
        return True
    return ("'" in segment or '"' in segment or "\\" in segment) and hint.search(dequoted(segment)) is not None


def is_glob(path: str) -> bool:
    """``path`` holds a pattern the shell expands (``*``, ``?``, ``[ab]``)."""
    return "*" in path or "?" in path or ("[" in path and _CLASS.search(path) is not None)


def dequoted(text: str) -> str:
    """``text`` as the shell joins its words: quotes and backslash escapes removed."""
    if '"' not in text and "'" not in text and "\\" not in text:
        return text
    return text.replace("$'", "'").translate(_QUOTING)  # $'\x6f'racle.json: ANSI-C quoting


def quoted_segments(text: str) -> list[str]:
    """The shell segments of ``text`` with separators inside quotes left alone (``bash -c
    "cd x && cp a b"`` is one segment). Escapes are not interpreted: a caller that must not
    miss a segment uses these and ``SEGMENT.split`` both."""
    segments: list[str] = []
    current: list[str] = []
    for match in _LEXEME.finditer(text):
        if match.group(1) is not None:
            segments.append("".join(current))
            current = []
        else:
            current.append(match.group(0))
    segments.append("".join(current))
    return segments


#: words before the program a segment runs: wrappers and shell keywords (``sudo``, ``then``)
LEADERS = frozenset(["sudo", "env", "nohup", "time", "nice", "exec", "command", "stdbuf", "timeout", "doas"])
LEADERS |= {"then", "do", "else", "!", "{", "("}
#: options that ask a program for help rather than its work
HELP = frozenset(["--help", "-help", "/?", "--version"])
_LEADING_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def command_words(words: list[str]) -> list[str]:
    """The words from the program a segment runs: leading wrappers, keywords and ``VAR=value``
    assignments set aside (``timeout 60 python3 x.py`` runs ``python3 x.py``)."""
    start = 0
    while start < len(words) and (words[start] in LEADERS or _LEADING_ASSIGNMENT.match(words[start])):
        start += 1
        if words[start - 1] == "timeout" and start < len(words) and words[start][:1].isdigit():
            start += 1
    return words[start:]


#: wrapper options that run the wrapped program in another folder
_CHDIRS = {"env": ("-C", "--chdir"), "sudo": ("-D", "--chdir")}


def wrapper_folders(words: list[str]) -> list[str]:
    """The folders a wrapper runs its program in: ``env -C DIR``, ``env --chdir=DIR``, ``sudo -D DIR``."""
    found: list[str] = []
    wrapper = None
    for index, word in enumerate(words[:-1]):
        head = program_name(word)
        if head in _CHDIRS:
            wrapper = head
        elif wrapper is not None:  # any later word: options may take values (sudo -u lab -D DIR)
            name, equals, value = word.partition("=")
            if name in _CHDIRS[wrapper]:
                found.append(value if equals else words[index + 1])
    return found[:8]


#: tools whose command line a POSIX shell or PowerShell runs, where ``#`` starts a comment (not
#: cmd.exe's, nor code tools': Lua's ``#t`` is a length)
COMMENTING_SHELLS = frozenset(["bash", "sh", "zsh", "shell", "terminal", "exec", "execute", "command", "commands"])
COMMENTING_SHELLS |= {"powershell", "pwsh"}
#: what the shell reads as one piece when it looks for comments: a quoted string (escapes in
#: double quotes and ANSI-C quotes kept inside it), an escaped character, a here-document's
#: operator (group 1: its delimiter, quoted or not; ``<<<`` is a here-string), a newline, a ``#``
_COMMENT_LEXEME = re.compile(
    r"\$'(?:[^'\\]|\\.)*'?|\"(?:[^\"\\]|\\.)*\"?|'[^']*'?|\\.|<<<"
    r"|<<-?[ \t]*(?:'([^'\n]*)'|\"([^\"\n]*)\"|\\?([^\s;&|<>()'\"]+))|\n|#|[^\"'\\#<\n$]+|.",
    re.DOTALL,
)


def without_comments(text: str) -> str:
    """``text`` without its comments as bash drops them: an unquoted, unescaped ``#`` that
    starts a word, to the line's end; a here-document's body is data, kept whole (its ``#``
    lines are the input of the command it feeds, a script's comments or not)."""
    if "#" not in text:
        return text
    kept: list[str] = []
    pending: list[tuple[str, bool]] = []  # here-documents whose bodies start at the next newline
    position = 0
    while position < len(text):
        match = _COMMENT_LEXEME.match(text, position)
        assert match is not None  # every character starts a lexeme
        lexeme = match.group(0)
        if lexeme == "#" and (position == 0 or text[position - 1].isspace() or text[position - 1] in ";&|("):
            newline = text.find("\n", position)
            position = len(text) if newline < 0 else newline
            continue
        if lexeme.startswith("<<") and lexeme != "<<<":
            pending.append((next(g for g in match.groups() if g is not None), lexeme.startswith("<<-")))
        kept.append(lexeme)
        position = match.end()
        if lexeme == "\n" and pending:
            position = heredoc_end(text, position, pending)
            kept.append(text[match.end() : position])
            pending = []
    return "".join(kept)


def heredoc_end(text: str, position: int, delimiters: list[tuple[str, bool]]) -> int:
    """Where the bodies of the here-documents ``delimiters`` starting at ``position`` end: past
    each one's delimiter line (after leading tabs for ``<<-``), the text's end when one is missing."""
    for delimiter, tabs in delimiters:
        closing = re.compile(("^\t*" if tabs else "^") + re.escape(delimiter) + "$", re.MULTILINE)
        found = closing.search(text, position)
        if found is None:
            return len(text)
        position = found.end() + (1 if text[found.end() : found.end() + 1] == "\n" else 0)
    return position


def strings(value: Any) -> Iterator[str]:
    """Every string in ``value``; a list of two or more strings also as the command line its
    words make (``{"argv": ["cp", "a", "b"]}`` runs ``cp a b``) and as the path its parts make
    (``["test", "x.jsonl"]``, ``["ora", "cle.json"]``); a folder and a name given apart
    (``{"dir": "test", "name": "x", "ext": "jsonl"}``) also as the path they make."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(item.values())
            yield from joined_path(item)
        elif isinstance(item, list):
            stack.extend(item)
            if len(item) > 1 and all(isinstance(word, str) for word in item):
                yield " ".join(item)
                if len(item) <= _MAX_PARTS and not any(" " in word for word in item):
                    yield "/".join(item)
                    yield "".join(item)


_MAX_PARTS = 32
_FOLDER_KEYS = frozenset(["dir", "directory", "folder", "path", "root", "base", "parent", "cwd", "location", "dirname"])
_NAME_KEYS = frozenset(["name", "filename", "file_name", "basename", "file", "fileName", "base_name"])
_EXTENSION_KEYS = frozenset(["ext", "extension", "suffix", "type"])


def joined_path(arguments: dict[Any, Any]) -> Iterator[str]:
    """The path a folder and a name given under keys of their own make (fail closed)."""
    folder = next((v for k, v in arguments.items() if k in _FOLDER_KEYS and isinstance(v, str)), None)
    name = next((v for k, v in arguments.items() if k in _NAME_KEYS and isinstance(v, str)), None)
    extension = next((v for k, v in arguments.items() if k in _EXTENSION_KEYS and isinstance(v, str)), None)
    if name is None or (folder is None and extension is None):
        return  # a name alone is read as it is
    if extension and not name.endswith("." + extension.lstrip(".")):
        name = f"{name}.{extension.lstrip('.')}"
    yield f"{folder.rstrip('/')}/{name}" if folder else name


def last_component(token: str) -> str:
    return token.replace("\\", "/").rstrip("/").rpartition("/")[2].lower()


def program_name(word: str) -> str:
    """The program a word names: ``/bin/cp``, ``\\cp`` and IPython's ``!cp`` are ``cp``; a
    PowerShell alias is its cmdlet (``sc`` is ``set-content``)."""
    head = last_component(word).lstrip("\\!").lower()
    return PS_ALIASES.get(head, head)


def unvalued(words: list[str], valued: frozenset[str], first: int = 1) -> list[str]:
    """The operands of ``words[first:]``: options and the values of ``valued`` ones set aside."""
    operands, skip = [], False
    for word in words[first:]:
        if skip:
            skip = False
        elif word.startswith("-") and word != "-":
            skip = word in valued
        else:
            operands.append(word)
    return operands


def option_folder(args: list[str], option: str) -> str:
    """The folder ``option DIR`` names (``git -C DIR``, ``npm --prefix DIR``), as a prefix."""
    value = next((value for arg, value in itertools.pairwise(args) if arg == option), "")
    return f"{value.rstrip('/')}/" if value else ""
