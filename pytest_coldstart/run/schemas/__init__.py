"""The JSON Schemas (draft 2020-12) of every file pytest-coldstart writes, and a small loader.

``load(kind)`` returns a schema document, ``validator(kind)`` a cached validator whose
registry resolves the sibling files (``common.schema.json``, ``records/<type>.schema.json``,
``evidence/<file>.schema.json`` for the evidence files a user produces;
an absent record schema means "envelope only"), ``errors(kind, document)`` short messages
naming the JSON path. jsonschema is imported on first use only: the recorder's hot path
(`coldstart trace call`) never pays for it.
"""

from __future__ import annotations

import json
import re
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:  # pragma: no cover
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError
    from referencing import Registry

    from pytest_coldstart.run.schemas.compiled import Check

HERE = Path(__file__).resolve().parent
BASE_URI = "https://pytest-coldstart.dev/schemas/"
#: The schemas this module's validate relies on (others may ship more <kind>.schema.json files).
KINDS = ("run", "visibility", "evidence", "review", "trajectory-record", "validation", "common")
#: Record types whose schema another module ships under records/ (validated when present).
EXTENSION_RECORDS = ("note", "decision", "error", "session", "state", "action")
MAX_MESSAGE = 200
_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")


def path_of(kind: str) -> Path:
    """``run`` -> run.schema.json; ``records/decision`` -> records/decision.schema.json."""
    folder, _, name = kind.rpartition("/")
    if folder not in ("", "records", "evidence") or not _NAME.match(name):
        raise KeyError(f"unknown schema {kind!r}")
    path = HERE / folder / f"{name}.schema.json"
    if not path.is_file() and not (folder == "records" and name in EXTENSION_RECORDS):
        shipped = ", ".join(available())
        raise KeyError(f"unknown schema {kind!r} (shipped: {shipped})")
    return path


def available() -> list[str]:
    """Every shipped schema kind (top level and records/)."""
    top = sorted(p.name[: -len(".schema.json")] for p in HERE.glob("*.schema.json"))
    records = sorted("records/" + p.name[: -len(".schema.json")] for p in (HERE / "records").glob("*.schema.json"))
    evidence = sorted("evidence/" + p.name[: -len(".schema.json")] for p in (HERE / "evidence").glob("*.schema.json"))
    return top + records + evidence


@cache
def _load_cached(kind: str) -> str:
    return path_of(kind).read_text(encoding="utf-8")


def load(kind: str) -> dict[str, Any]:
    """The schema document of ``kind`` (a fresh copy each call)."""
    document: dict[str, Any] = json.loads(_load_cached(kind))
    return document


def _refuse(uri: str) -> NoReturn:
    raise LookupError(f"schema {uri!r} is not shipped with pytest-coldstart (no network lookups)")


@lru_cache(maxsize=1)
def registry() -> Registry[Any]:
    """Every shipped schema, crawled once (resolving a $ref never touches the disk again)."""
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    resources = []
    for kind in available():
        resources.append((BASE_URI + f"{kind}.schema.json", Resource.from_contents(load(kind), DRAFT202012)))
    for name in EXTENSION_RECORDS:
        if not path_of(f"records/{name}").is_file():
            # An absent record schema (not written yet) means: the envelope only.
            resources.append((BASE_URI + f"records/{name}.schema.json", Resource.from_contents({}, DRAFT202012)))
    return Registry(retrieve=_refuse).with_resources(resources).crawl()  # type: ignore[call-arg]  # an attrs alias mypy does not see


@cache
def validator(kind: str) -> Draft202012Validator:
    """A cached Draft 2020-12 validator for ``kind`` (format is annotation only, as the draft says).

    The shipped schemas are not checked against the metaschema here (``check_schema`` costs
    about 0.3 s per process): tests/run/test_schemas.py checks every shipped file once."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(load(kind), registry=registry())


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."


def leaf(error: ValidationError) -> ValidationError:
    """For anyOf/oneOf failures, the most relevant sub-error (its message names the real cause)."""
    from jsonschema.exceptions import best_match

    while error.validator in ("anyOf", "oneOf") and error.context:
        # A branch that rejected the value's type outright is the least relevant explanation.
        context = [e for e in error.context if e.validator != "type" or e.relative_path]
        deeper = best_match(context or error.context)
        if deeper is None:
            break
        error = deeper
    return error


def describe(error: ValidationError) -> str:
    """One short line: ``$.path.to.value: what is wrong``."""
    from pytest_coldstart.run.jsonio import type_name

    cause = leaf(error)
    where = cause.json_path
    if cause.validator == "type":
        expected = cause.validator_value
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        return _clip(f"{where}: expected {expected}, got {type_name(cause.instance)}")
    if cause.validator == "enum":
        options = ", ".join(map(str, cause.validator_value))  # type: ignore[arg-type]  # an enum's value is its list
        return _clip(f"{where}: {_repr(cause.instance)} is not one of {options}")
    if cause.validator == "const":
        return _clip(f"{where}: must be {json.dumps(cause.validator_value)}, got {_repr(cause.instance)}")
    if cause.validator == "pattern":
        return _clip(f"{where}: {_repr(cause.instance)} does not match {cause.validator_value}")
    return _clip(f"{where}: {cause.message}")


def _repr(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, (dict, list)) else type_label(value)
    return text if len(text) <= 60 else text[:57] + "..."


def type_label(value: Any) -> str:
    return "an object" if isinstance(value, dict) else "an array"


def iter_errors(kind: str, document: Any) -> list[ValidationError]:
    """The validation errors of ``document``, in a stable order (by JSON path, then message)."""
    found = list(validator(kind).iter_errors(document))
    return sorted(found, key=lambda e: (list(map(str, e.absolute_path)), e.message))


def errors(kind: str, document: Any) -> list[str]:
    """Short messages naming the JSON path; [] when ``document`` is valid."""
    return [describe(error) for error in iter_errors(kind, document)]


@cache
def check(kind: str) -> Check:
    """A fast predicate with jsonschema's verdict for ``kind`` (see ``compiled``)."""
    from pytest_coldstart.run.schemas.compiled import compile_schema

    path_of(kind)  # an unknown kind is a KeyError, as for validator()
    return compile_schema(load_shared(kind), registry(), BASE_URI + f"{kind}.schema.json")


def load_shared(kind: str) -> dict[str, Any]:
    """The registry's own copy of the schema (so compiled checks and $refs share objects)."""
    contents: dict[str, Any] = registry().contents(BASE_URI + f"{kind}.schema.json")
    return contents


def is_valid(kind: str, document: Any) -> bool:
    return check(kind)(document)


def valid_fields(kind: str, document: dict[str, Any]) -> dict[str, Any]:
    """``document`` without the top-level fields its schema rejects (a wrong type or shape
    anywhere inside one drops that field): a reader of a document that failed its schema
    (validate names each problem) sees every field left as the schema types it, and a field
    left out as missing. A valid document is returned as it is."""
    if check(kind)(document):
        return document
    rejected = {error.absolute_path[0] for error in iter_errors(kind, document) if error.absolute_path}
    return {key: value for key, value in document.items() if key not in rejected}
