"""The pure operations ``folding`` may apply to literals, each bounded: the functions and
methods it knows by name (``chr``, ``''.join``, ``str.format`` with plain fields, ``%`` with
plain conversions, rot13 and hex decoding, ``os.path.join``, ``String.fromCharCode``, case and
``replace``), integer arithmetic, and the bound every value keeps (``MAX_CHARS``: no width,
repetition or replacement can make a value of any size)."""

from __future__ import annotations

import ast
import base64
import binascii
import codecs
import re
import string
from collections.abc import Callable
from typing import Any

MAX_CHARS = 4096  # the longest string, bytes or list (in items + characters) a fold may make
MAX_INT = 1 << 32


def apply(function: Callable[..., Any], args: list[Any]) -> Any:
    try:
        return bounded(function(*args))
    except (TypeError, ValueError, LookupError, OverflowError, UnicodeError, AttributeError, binascii.Error):
        return None


def bounded(value: Any) -> Any:
    if type(value) in (str, bytes):
        return value if len(value) <= MAX_CHARS else None
    if type(value) is list:
        size = len(value) + sum(len(v) for v in value if type(v) in (str, bytes))
        return value if size <= MAX_CHARS and all(v is not None for v in value) else None
    if type(value) is int:
        return value if -MAX_INT <= value <= MAX_INT else None
    return None


def integer(op: ast.operator, left: int, right: int) -> Any:
    if isinstance(op, (ast.Add, ast.Sub, ast.Mult, ast.BitXor, ast.BitOr, ast.BitAnd)):
        ops = {ast.Add: int.__add__, ast.Sub: int.__sub__, ast.Mult: int.__mul__, ast.BitXor: int.__xor__}
        ops |= {ast.BitOr: int.__or__, ast.BitAnd: int.__and__}
        return bounded(ops[type(op)](left, right))
    if isinstance(op, (ast.FloorDiv, ast.Mod)) and right != 0:
        return left // right if isinstance(op, ast.FloorDiv) else left % right
    return None


_PERCENT = re.compile(r"%([sdirc%])")


def percent(template: str, args: list[Any]) -> Any:
    """``template % args`` for plain conversions only (a width could make any size)."""
    if re.search(r"%[^sdirc%]", template):
        return None
    values = iter(args)

    def one(match: re.Match[str]) -> str:
        kind = match.group(1)
        if kind == "%":
            return "%"
        value = next(values)
        if kind == "c":
            return chr(value) if type(value) is int else str(value)
        return repr(value) if kind == "r" else str(value)

    try:
        return bounded(_PERCENT.sub(one, template))
    except (StopIteration, ValueError, OverflowError):
        return None


def _format(template: str, *args: Any) -> str:
    """``template.format(*args)`` for ``{}``/``{N}`` fields without a spec."""
    if re.search(r"\{[^{}]*[^{}\d][^{}]*\}", template.replace("{{", "").replace("}}", "")):
        raise ValueError("a field with a name or a spec")
    count = iter(range(len(args)))
    return re.sub(r"\{(\d*)\}", lambda m: str(args[int(m.group(1)) if m.group(1) else next(count)]), template)


def text_of(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _rot13(value: Any, encoding: str = "utf-8") -> Any:
    if type(value) is str and encoding.replace("-", "_").lower() in ("rot13", "rot_13"):
        return codecs.decode(value, "rot13")
    if encoding.lower() == "hex":
        return bytes.fromhex(value.decode("ascii") if type(value) is bytes else value)
    raise ValueError(encoding)


def _chars(*codes: int) -> str:
    return "".join(chr(c) for c in codes)


_DECODINGS = ("utf-8", "utf8", "ascii", "latin-1", "latin1")
FUNCTIONS: dict[str, Callable[..., Any]] = {
    "chr": chr,
    "ord": ord,
    "str": lambda v: v if type(v) is str else str(v) if type(v) is int else text_of(v) if type(v) is bytes else None,
    "reversed": lambda v: list(reversed(v)),
    "list": list,
    "bytes": lambda v: bytes(v) if type(v) in (list, bytes) else None,
    "bytearray": lambda v: bytes(v) if type(v) in (list, bytes) else None,
    "bytes.fromhex": bytes.fromhex,
    "bytearray.fromhex": bytes.fromhex,
    "binascii.unhexlify": lambda v: bytes.fromhex(v.decode("ascii") if type(v) is bytes else v),
    "codecs.decode": _rot13,
    "codecs.encode": _rot13,
    "os.path.join": lambda *parts: "/".join(parts),
    "posixpath.join": lambda *parts: "/".join(parts),
    "String.fromCharCode": _chars,
    "atob": lambda v: base64.b64decode(v, validate=True).decode("utf-8"),
}


def _join(receiver: Any, items: Any = ",") -> Any:
    # Python: sep.join(items); JavaScript and Ruby: items.join(sep)
    return items.join(receiver) if type(receiver) is list else receiver.join(items)


def _split(value: str, separator: str | None = None, *_: Any) -> list[str]:
    return list(value) if separator == "" else value.split(separator)  # JavaScript: '' splits characters


def _reverse(value: Any) -> Any:
    return value[::-1] if type(value) in (str, list) else None


#: values of names a program may spell a string with (``string.ascii_lowercase[14]``)
CONSTANTS: dict[str, str] = {
    "string.ascii_lowercase": string.ascii_lowercase,
    "string.ascii_uppercase": string.ascii_uppercase,
    "string.ascii_letters": string.ascii_letters,
    "string.digits": string.digits,
    "string.hexdigits": string.hexdigits,
    "string.punctuation": string.punctuation,
    "os.sep": "/",
    "os.curdir": ".",
    "os.pardir": "..",
}
#: methods that take no argument, which Ruby and Perl call without parentheses (``"x".reverse``)
BARE_METHODS = frozenset(["reverse", "downcase", "upcase", "swapcase", "capitalize", "strip", "chars", "lower"])
BARE_METHODS |= {"upper"}
METHODS: dict[str, Callable[..., Any]] = {
    "join": _join,
    "split": _split,
    "reverse": _reverse,
    "chars": list,
    "toLowerCase": lambda v: v.lower(),
    "toUpperCase": lambda v: v.upper(),
    "downcase": lambda v: v.lower(),
    "upcase": lambda v: v.upper(),
    "slice": lambda v, start=0, end=None: v[start:end],
    "substring": lambda v, start=0, end=None: v[min(start, end) : max(start, end)] if end is not None else v[start:],
    "concat": lambda v, *more: v + "".join(more),
    "toString": lambda v, *_: v if type(v) is str else None,
    "format": lambda template, *args: _format(template, *args),
    "lower": lambda v: v.lower(),
    "upper": lambda v: v.upper(),
    "casefold": lambda v: v.casefold(),
    "swapcase": lambda v: v.swapcase(),
    "title": lambda v: v.title(),
    "capitalize": lambda v: v.capitalize(),
    "strip": lambda v, *chars: v.strip(*chars),
    "lstrip": lambda v, *chars: v.lstrip(*chars),
    "rstrip": lambda v, *chars: v.rstrip(*chars),
    "removeprefix": lambda v, p: v.removeprefix(p),
    "removesuffix": lambda v, s: v.removesuffix(s),
    "replace": lambda v, a, b, *n: v.replace(a, b, *n) if len(v) * max(len(b), 1) <= 4 * MAX_CHARS else None,
    "decode": lambda v, encoding="utf-8", *_: v.decode(encoding) if encoding.lower() in _DECODINGS else None,
    "encode": lambda v, *_: v.encode("utf-8"),
}
