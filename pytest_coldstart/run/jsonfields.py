"""Typed reads of raw JSON fields: each returns the value with its Python type or raises
``FieldError`` naming the field (``flags[2].status must be one of PASS, FAIL, PENDING, not
'MAYBE'``). For readers that turn a JSON document into frozen dataclasses."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, TypeVar

from pytest_coldstart.run.errors import ColdstartError

E = TypeVar("E", bound=StrEnum)


class FieldError(ColdstartError):
    """A field of a JSON document has the wrong type or value."""


def bad(where: str, what: str, value: object) -> FieldError:
    shown = repr(value)
    return FieldError(f"{where} must be {what}, not {shown[:60]}{'...' if len(shown) > 60 else ''}")


def obj(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise bad(where, "an object", value)
    return value


def array(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise bad(where, "a list", value)
    return value


def text(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise bad(where, "a string", value)
    return value


def opt_text(value: object, where: str) -> str | None:
    return None if value is None else text(value, where)


def integer(value: object, where: str) -> int:
    if type(value) is not int:  # no bool, no 2.0
        raise bad(where, "an integer", value)
    return value


def opt_integer(value: object, where: str) -> int | None:
    return None if value is None else integer(value, where)


def flag(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise bad(where, "true or false", value)
    return value


def texts(value: object, where: str) -> tuple[str, ...]:
    return tuple(text(item, f"{where}[{i}]") for i, item in enumerate(array(value, where)))


def member(kind: type[E], value: object, where: str) -> E:
    """``value`` as a member of the closed vocabulary ``kind``."""
    try:
        if isinstance(value, str):
            return kind(value)
    except ValueError:
        pass
    raise bad(where, "one of " + ", ".join(item.value for item in kind), value) from None


def object_or_empty(value: object) -> dict[str, Any]:
    """``value`` when it is a JSON object, else an empty one (for lenient reads of run files)."""
    return value if isinstance(value, dict) else {}


def list_or_empty(value: object) -> list[Any]:
    """``value`` when it is a JSON array, else an empty one."""
    return value if isinstance(value, list) else []
