"""Names Python code computes from literals: a constant folder (nothing is run).

``open(chr(111) + 'racle.json')``, ``open('nosj.elcaro'[::-1])``, ``open('%s.json' % 'oracle')``,
``open(f'{x}cle.json')`` after ``x = 'ora'``, ``open(''.join(n) + '.json')`` after ``n = ['o',
'r', ...]`` and ``open(codecs.decode('benpyr.wfba', 'rot13'))`` name a file no literal spells.
A text that may hold Python - the whole text, a quoted word of a shell command (``python3 -c
"..."``), a here-document - is parsed with ``ast`` and every expression built only from
literals, names assigned such expressions, and pure string operations (concatenation,
repetition, ``%`` and ``format`` with plain fields, f-strings, slices, ``chr``/``ord``,
``join``, ``reversed``, ``map(chr, ...)``, one-loop comprehensions, case and ``replace``,
``bytes``/hex/rot13 decoding, ``os.path.join``, ``String.fromCharCode``) is folded to its
value. The reading is the code with each folded expression written as the literal it makes,
so the readers and the write rules see ``open('oracle.json')``; only a reading that spells a
string the code did not is given. Fail closed in one direction only: a reading adds names.

Linear in the text: each candidate is parsed once, and folding spends a step budget
proportional to its length; every value is bounded (``MAX_CHARS``), so a hostile expression
(``'a' * 10**9``) folds to nothing.
"""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Iterator
from typing import Any

from pytest_coldstart.audit.evidence.memo import short_texts
from pytest_coldstart.audit.evidence.pure_ops import (
    BARE_METHODS,
    CONSTANTS,
    FUNCTIONS,
    MAX_CHARS,
    METHODS,
    apply,
    bounded,
    integer,
    percent,
    text_of,
)

#: Cheap necessary condition on a text (lowercased): an operation that builds a string.
_OPS = r"chr\(|atob\(|\[::-1\]|reversed\(|\.join\(|\.format\(|codecs|rot_?13|fromhex|unhexlify|fromcharcode"
_OPS += r"|bytes\(|bytearray\(|\.(?:lower|upper|casefold|swapcase|title|capitalize|replace|decode|[lr]?strip)\("
_OPS += r"|\.(?:split|reverse|tolowercase|touppercase|slice|substring|concat|downcase|upcase)\b|\bstr\.\w+\(|string\.\w"
_OPS += r"|[\w'\"\])]\[-?\d*:"  # a slice: s[1::2], 'oracle.json.bak'[:-4]
HINT_TEXT = re.compile(_OPS + r"""|['"]\s*[%+*]|[+*]\s*['"]|\(\s*['"][^'"\n]*['"]\s+['"]|(?<![\w-])f['"]""")
#: The same on a lowercased raw JSON line (a double quote inside a string is ``\\"``).
HINT = (
    _OPS + r"""|(?:'|\\")\s*[%+*]|[+*]\s*(?:'|\\")|\(\s*(?:'|\\")[^'"\\]*(?:'|\\")\s+(?:'|\\")|(?<![\w-])f(?:'|\\")"""
)

MAX_CODE = 1 << 16  # a longer candidate is not parsed
_STEPS_PER_CHAR = 16
_MIN_NEW = 3  # a folded string shorter than this names nothing
_MAX_LITERALS = 4096

_SINGLE = re.compile(r"'([^']{4,})'")
_DOUBLE = re.compile(r'"((?:[^"\\]|\\.){4,})"', re.DOTALL)
_HEREDOC = re.compile(r"<<-?\s*(['\"]?)(\w+)\1[^\n]*\n(.*?)(?:\n[ \t]*\2[ \t]*(?:\n|$)|$)", re.DOTALL)
_UNESCAPE = re.compile(r'\\([\\"$`\n])')


_Span = tuple[int, int, str]  # the byte offsets of an expression in the code, and its value
#: a literal the parser joins or unescapes: 'ora' 'cle.json', '\x6fracle.json'
_JOINED_OR_ESCAPED = re.compile(rb"""\\|['"]\s+[bBfFrRuU]{0,2}['"]""")


class _Spent(Exception):
    """The step budget of a candidate is used up."""


def readings(text: str) -> Iterator[str]:
    """Each Python candidate of ``text`` rewritten with its folded expressions as literals."""
    if _may_fold(text) is not None:
        yield from _readings(text)


@short_texts(maxsize=256, max_chars=MAX_CODE)  # a call's texts are read for names and for writes
def _readings(text: str) -> tuple[str, ...]:
    return tuple(reading for code in _candidates(text) if (reading := _reading(code)) is not None)


def _may_fold(text: str) -> re.Match[str] | None:
    return HINT_TEXT.search(text.lower()) if "(" in text or "=" in text else None


def _candidates(text: str) -> Iterator[str]:
    yield text
    for match in _SINGLE.finditer(text):
        yield match.group(1)
    for match in _DOUBLE.finditer(text):
        yield _UNESCAPE.sub(r"\1", match.group(1))
    for match in _HEREDOC.finditer(text):
        yield match.group(3)


def _reading(code: str) -> str | None:
    if len(code) > MAX_CODE or "(" not in code or _may_fold(code) is None:
        return None
    try:
        tree = ast.parse(code)
        data = code.encode("utf-8")
    except (SyntaxError, ValueError, RecursionError, MemoryError, UnicodeEncodeError):
        return None
    starts = [0]
    for line in data.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    folder = _Folder(len(code) * _STEPS_PER_CHAR, data, starts)
    spans: list[_Span] = []
    try:
        folder.collect(tree, spans)
    except (_Spent, RecursionError):
        pass
    if not any(len(value) >= _MIN_NEW and value not in folder.literals for _, _, value in spans):
        return None  # nothing the code does not spell as a literal already
    # Only the lines that hold a folded expression, rewritten: the rest of a long script was
    # judged as written already.
    out: list[bytes] = []
    region_end, last = -1, 0
    for begin, end, value in sorted(spans):
        if begin < last:
            continue  # inside a span already written
        if begin >= region_end:  # a new region: from its line's start
            if region_end >= 0:
                out.append(data[last:region_end])
            last = starts[bisect.bisect_right(starts, begin) - 1]
        out += [data[last:begin], _literal(value).encode("utf-8", "replace")]
        after = bisect.bisect_right(starts, max(end - 1, begin))  # the line after the span's last
        region_end = max(region_end, starts[after] if after < len(starts) else len(data))
        last = end
    out.append(data[last:region_end])
    return b"".join(out).decode("utf-8", "replace")


def _literal(value: str) -> str:
    return f"'{value}'" if not any(c in value for c in "'\\\n\r") else repr(value)


class _Folder:
    """Folds expressions under the assignments seen so far (in source order)."""

    def __init__(self, budget: int, data: bytes, starts: list[int]):
        self.budget = budget
        self.names: dict[str, Any] = {}
        self.data, self.starts = data, starts
        self.literals: set[str] = set()  # the code's own string literals (a fold of one is no news)

    def _span(self, node: ast.expr) -> tuple[int, int] | None:
        if node.end_lineno is None or node.end_col_offset is None or node.end_lineno > len(self.starts):
            return None
        return self.starts[node.lineno - 1] + node.col_offset, self.starts[node.end_lineno - 1] + node.end_col_offset

    def collect(self, node: ast.AST, spans: list[_Span]) -> None:
        """Record (start, end, value) of each outermost expression folding to a string."""
        stack: list[ast.AST] = [node]
        while stack:
            item = stack.pop()
            if isinstance(item, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                self._assign(item)
            if isinstance(item, ast.Constant) and type(item.value) is str:
                span = self._span(item)  # a literal the code spells otherwise: 'ora' 'cle.json'
                if span and _JOINED_OR_ESCAPED.search(self.data, span[0], span[1]):
                    spans.append((*span, item.value))
                elif len(self.literals) < _MAX_LITERALS:
                    self.literals.add(item.value)
            elif isinstance(item, ast.expr):
                value = self.fold(item) if not isinstance(getattr(item, "ctx", None), ast.Store) else None
                if isinstance(value, bytes):
                    value = text_of(value)
                span = self._span(item) if isinstance(value, str) else None
                if span is not None and isinstance(value, str):
                    spans.append((*span, value))
                    continue
            if not isinstance(item, ast.JoinedStr):  # 3.11 places an f-string's parts unreliably
                stack.extend(reversed(list(ast.iter_child_nodes(item))))

    def _assign(self, node: ast.Assign | ast.AugAssign | ast.AnnAssign) -> None:
        if node.value is None:
            return
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        value = self.fold(node.value)
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            value = self._binary(node.op, self.names.get(node.target.id), value)
        for target in targets:
            if isinstance(target, ast.Name):
                if value is None:
                    self.names.pop(target.id, None)
                else:
                    self.names[target.id] = value

    def fold(self, node: ast.AST, local: dict[str, Any] | None = None) -> Any:
        """The value of ``node``, or None when it is not made of literals and pure operations."""
        self.budget -= 1
        if self.budget < 0:
            raise _Spent
        if isinstance(node, ast.Constant):
            value = node.value
            return value if type(value) in (str, bytes) else bounded(value) if type(value) is int else None
        if isinstance(node, ast.Name):
            found = local.get(node.id) if local and node.id in local else self.names.get(node.id)
            return found
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [self.fold(element, local) for element in node.elts]
            return bounded(items) if all(i is not None for i in items) else None
        if isinstance(node, ast.JoinedStr):
            return self._fstring(node, local)
        if isinstance(node, ast.BinOp):
            return self._binary(node.op, self.fold(node.left, local), self.fold(node.right, local))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            value = self.fold(node.operand, local)
            return -value if type(value) is int else None
        if isinstance(node, ast.Subscript):
            return self._subscript(node, local)
        if isinstance(node, ast.Call):
            return self._call(node, local)
        if isinstance(node, ast.Attribute):  # string.digits; Ruby's "x".reverse (no parentheses)
            name = _dotted(node)
            if name in CONSTANTS:
                return CONSTANTS[name]
            receiver = self.fold(node.value, local) if node.attr in BARE_METHODS else None
            return apply(METHODS[node.attr], [receiver]) if receiver is not None else None
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
            return self._comprehension(node, local)
        return None

    def _fstring(self, node: ast.JoinedStr, local: dict[str, Any] | None) -> Any:
        parts = []
        for part in node.values:
            if isinstance(part, ast.FormattedValue):
                if part.format_spec is not None or part.conversion not in (-1, ord("s")):
                    return None
                part_value = self.fold(part.value, local)
            else:
                part_value = self.fold(part, local)
            if type(part_value) not in (str, int):
                return None
            parts.append(str(part_value))
        return bounded("".join(parts))

    def _binary(self, op: ast.operator, left: Any, right: Any) -> Any:
        if left is None or right is None:
            return None
        if type(left) is int and type(right) is int:
            return integer(op, left, right)
        if isinstance(op, ast.Add) and type(left) is type(right) and type(left) in (str, bytes, list):
            return bounded(left + right)
        if isinstance(op, ast.Mult) and type(right) is int and type(left) in (str, bytes, list):
            return bounded(left * right) if right >= 0 and len(left) * right <= MAX_CHARS else None
        if isinstance(op, ast.Mod) and type(left) is str:
            return percent(left, right if type(right) is list else [right])
        return None

    def _subscript(self, node: ast.Subscript, local: dict[str, Any] | None) -> Any:
        value = self.fold(node.value, local)
        if type(value) not in (str, bytes, list):
            return None
        if isinstance(node.slice, ast.Slice):
            bounds = [None if b is None else self.fold(b, local) for b in (node.slice.lower, node.slice.upper)]
            step = 1 if node.slice.step is None else self.fold(node.slice.step, local)
            if type(step) is not int or step == 0 or not all(b is None or type(b) is int for b in bounds):
                return None
            return value[bounds[0] : bounds[1] : step]
        index = self.fold(node.slice, local)
        if type(index) is not int or not -len(value) <= index < len(value):
            return None
        return value[index : index + 1] if type(value) is bytes else value[index]

    def _call(self, node: ast.Call, local: dict[str, Any] | None) -> Any:
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        func = node.func
        if isinstance(func, ast.Name) and func.id == "map" and len(node.args) == 2:
            mapped = FUNCTIONS.get(_dotted(node.args[0]) or "")
            items = self.fold(node.args[1], local)
            if mapped is None or type(items) not in (str, list):
                return None
            return bounded([mapped(item) for item in items]) if len(items) <= MAX_CHARS else None
        args = [self.fold(a, local) for a in node.args]
        if any(a is None for a in args):
            return None
        name = _dotted(func) or ""
        if name in FUNCTIONS:
            return apply(FUNCTIONS[name], args)
        if name.startswith("str.") and name[4:] in METHODS:  # str.lower('X'): the receiver first
            return apply(METHODS[name[4:]], args)
        if isinstance(func, ast.Attribute) and func.attr in METHODS:
            receiver = self.fold(func.value, local)
            if receiver is not None:
                return apply(METHODS[func.attr], [receiver, *args])
        return None

    def _comprehension(self, node: ast.ListComp | ast.GeneratorExp, local: dict[str, Any] | None) -> Any:
        if len(node.generators) != 1:
            return None
        loop = node.generators[0]
        items = self.fold(loop.iter, local)
        if loop.ifs or loop.is_async or not isinstance(loop.target, ast.Name) or type(items) not in (str, list):
            return None
        out = []
        for item in items[:MAX_CHARS]:
            value = self.fold(node.elt, {**(local or {}), loop.target.id: item})
            if value is None:
                return None
            out.append(value)
        return bounded(out)


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr}" if head is not None else None
    return None
